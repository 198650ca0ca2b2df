"""The camera on its own thread: frames go to vision there, observations come back by queue.

The main loop never waits for the camera: :class:`CameraWorker` reads frames, runs the card
reader and the zone tracker on this thread, and posts :class:`VisionUpdate` (or a
:class:`CameraStatus` when the camera goes away or comes back) to the daemon's queue. A camera
that is missing or lost is retried with exponential backoff (1 s, 2 s, 4 s ... 30 s) while the
game goes on with manual entry.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol


class FrameSource(Protocol):
    """What :func:`vision.camera.open_source` returns.

    Optional attributes a source may have: ``paced`` True when ``read()`` itself waits for the
    camera's next frame (a real camera: every frame is then read, with no cap of ours), and
    ``captured_at`` the ``time.monotonic()`` at which the frame ``read()`` last returned was
    captured (a camera delivering from its own thread); without it a frame counts as captured
    when ``read()`` returns it.
    """

    def read(self) -> Any:
        """A BGR frame, or None when no frame is available (camera lost)."""

    def close(self) -> None:
        """Release the device."""


@dataclass(frozen=True)
class ZoneReading:
    """A zone as the flows see it: ``status`` is the tracker's (stable, changed, empty, unsure)
    or ``settling`` while a stable card has not yet held for ``confirm`` frames in a row."""

    zone: str
    status: str
    card_id: str | None
    #: every card read in a zone that holds several (Thanks a Lottery's block rows)
    card_ids: tuple[str, ...] = ()


class Confirmer:
    """Lets a tracker's stable card through only after ``frames`` consecutive updates agree.

    The tracker already votes over its window; this adds "several frames in a row" so one lucky
    majority never pays a jackpot.

    >>> c = Confirmer(2)
    >>> c.update({"r0c0": ZoneReading("r0c0", "changed", "bar")})["r0c0"].status
    'settling'
    >>> c.update({"r0c0": ZoneReading("r0c0", "stable", "bar")})["r0c0"].status
    'changed'

    A zone holding several cards is confirmed on the whole row it shows:

    >>> row = ZoneReading("row0", "stable", None, ("3", "4", "5"))
    >>> c.update({"row0": row})["row0"].status, c.update({"row0": row})["row0"].card_ids
    ('settling', ('3', '4', '5'))
    """

    def __init__(self, frames: int) -> None:
        self.frames = max(1, frames)
        self._runs: dict[str, tuple[str | None, int, bool]] = {}

    def update(self, observations: Mapping[str, Any]) -> dict[str, ZoneReading]:
        """Observations (anything with zone/status/card_id) in, confirmed readings out."""
        out: dict[str, ZoneReading] = {}
        for zone, seen in observations.items():
            status, card = str(seen.status), seen.card_id
            cards = tuple(getattr(seen, "card_ids", ()) or ())
            # a multi-card zone has no single card_id: its whole row must hold still instead
            key = card if card is not None else ("|".join(cards) if cards else None)
            if status not in ("stable", "changed") or key is None:
                self._runs.pop(zone, None)
                out[zone] = ZoneReading(zone, status, card, cards)
                continue
            previous, count, changed = self._runs.get(zone, (None, 0, False))
            if previous == key:
                count, changed = count + 1, changed or status == "changed"
            else:
                count, changed = 1, True
            self._runs[zone] = (key, count, changed)
            if count < self.frames:
                out[zone] = ZoneReading(zone, "settling", card, cards)
            else:
                fresh = changed and count == self.frames
                out[zone] = ZoneReading(zone, "changed" if fresh else "stable", card, cards)
        return out


def drop_unsure(reading: Any, min_confidence: float) -> Any:
    """The reading with every sighting below ``min_confidence`` turned unreadable (card_id None)."""
    cards = getattr(reading, "cards", None)
    if not cards or not dataclasses.is_dataclass(reading) or isinstance(reading, type):
        return reading
    kept = [card if card.confidence >= min_confidence else dataclasses.replace(card, card_id=None)
            for card in cards]
    return dataclasses.replace(reading, cards=kept)


@dataclass(frozen=True)
class VisionUpdate:
    """The tracker's per-zone observations for one frame, with its timing: ``frame_at`` when the
    frame was captured, ``read_at`` when vision had read it (both ``time.monotonic()``)."""

    observations: Mapping[str, Any]
    frame_at: float
    read_at: float
    mat_found: bool
    #: CPU seconds vision (reader and tracker) spent on this frame, on the camera thread
    vision_cpu: float = 0.0


@dataclass(frozen=True)
class CameraStatus:
    """The camera went away (``ok`` False, with what to do) or came back."""

    ok: bool
    message: str
    #: What the host must also be told while the camera reads (taught pictures it left out as
    #: damaged, :func:`ready_status`): shown on the screen's status line, not only logged.
    note: str = ""


def open_configured(spec: str) -> Callable[[], FrameSource]:
    """A factory opening the configured camera (``picamera``, ``usb:...``, ``file:...``, ``sim``)."""

    def factory() -> FrameSource:
        from vision.camera import open_source

        source: FrameSource = open_source(spec)
        return source

    return factory


class CameraWorker:
    """Reads frames and runs vision on its own daemon thread; posts results to ``sink``.

    ``max_fps`` caps the frame rate of sources that never block (files, the simulated table) so
    the camera thread leaves CPU for the screen; a ``paced`` source (a camera, whose ``read()``
    waits for its next frame) is read as fast as it delivers, so no frame of it waits on a cap
    of ours (at 30 fps a 15 fps cap added a frame's age to every card).

    A card counts once ``agree`` frames in a row read it the same, lying still (the tracker's
    rule, :mod:`vision.tracker`; None: a majority of ``window``), then ``confirm`` more updates
    agree (1: at once). ``reader``/``tracker`` factories are injectable for tests; by default
    they are vision's :class:`CardReader` and :class:`ZoneTracker`.

    ``job`` replaces the reading: given the game id once the camera opens, it returns what to do
    with each frame (the "Teach cards" screen cuts the one card out); whatever it returns that
    is not None is posted as it is.
    """

    def __init__(
        self,
        factory: Callable[[], FrameSource],
        game_id: str,
        sink: Callable[[object], None],
        *,
        window: int = 5,
        agree: int | None = 2,
        confirm: int = 1,
        min_confidence: float = 0.8,
        max_fps: float = 15.0,
        backoff: tuple[float, float] = (1.0, 30.0),
        reader: Callable[[str], Any] | None = None,
        tracker: Callable[[str, int], Any] | None = None,
        job: Callable[[str], Callable[[Any], object]] | None = None,
    ) -> None:
        self._factory = factory
        self.game_id = game_id
        self._sink = sink
        self._window = window
        self._agree = agree
        self._confirm = confirm
        self._min_confidence = min_confidence
        self._period = 1.0 / max_fps if max_fps > 0 else 0.0
        self._backoff = backoff
        self._reader_factory = reader or _card_reader
        self._tracker_factory = tracker or functools.partial(_zone_tracker, agree=agree)
        self._job_factory = job
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.ok: bool | None = None
        self.frames = 0

    def start(self) -> None:
        """Start the thread (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread and release the camera."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _status(self, status: CameraStatus) -> None:
        if status.ok != self.ok:
            self.ok = status.ok
            self._sink(status)

    def _run(self) -> None:
        from vision.work_copy import work_copy

        delay = self._backoff[0]
        source: FrameSource | None = None
        reader = tracker = job = None
        confirmer = Confirmer(self._confirm)
        while not self._stop.is_set():
            if source is None:
                try:
                    source = self._factory()
                    if self._job_factory is not None:
                        job = self._job_factory(self.game_id)
                    else:
                        reader = self._reader_factory(self.game_id)
                        tracker = self._tracker_factory(self.game_id, self._window)
                    confirmer = Confirmer(self._confirm)
                except Exception as error:  # any failure to open is "no camera yet"
                    source = None
                    why = f"{type(error).__name__}: {error}"
                    self._status(CameraStatus(False, f"camera not available ({why}); retrying"))
                    self._stop.wait(delay)
                    delay = min(delay * 2, self._backoff[1])
                    continue
                self._status(ready_status(reader))
            started = time.monotonic()
            try:
                frame = source.read()
            except Exception:
                frame = None
            captured = getattr(source, "captured_at", None)
            captured = float(captured) if isinstance(captured, (int, float)) else time.monotonic()
            if frame is None:
                _close(source)
                source = None
                self._status(CameraStatus(False, "camera lost: enter cards with the buttons; reconnecting"))
                self._stop.wait(delay)
                delay = min(delay * 2, self._backoff[1])
                continue
            delay = self._backoff[0]
            if job is not None:
                done = job(frame)
                self.frames += 1
                if done is not None:
                    self._sink(done)
            else:
                cpu = time.thread_time()
                # The camera's small copy of the frame (a Pi's lores stream) spares the reader
                # reducing the frame itself for the outline search.
                read = reader.read(frame, work_copy(source))  # type: ignore[union-attr]
                reading = drop_unsure(read, self._min_confidence)
                observations = confirmer.update(tracker.update(reading, self.game_id))  # type: ignore[union-attr]
                self.frames += 1
                self._sink(VisionUpdate(dict(observations), captured, time.monotonic(),
                                        bool(getattr(reading, "mat_found", False)), time.thread_time() - cpu))
            spare = pause_after(source, self._period, time.monotonic() - started)
            if spare > 0:
                self._stop.wait(spare)
        if source is not None:
            _close(source)


def pause_after(source: object, period: float, spent: float) -> float:
    """Seconds to wait before the next ``read()``: none for a ``paced`` source (its ``read()``
    waits for the camera's next frame), else what is left of ``period`` after ``spent``.

    >>> class Camera:
    ...     paced = True
    >>> pause_after(Camera(), 1 / 15, 0.01), round(pause_after(object(), 1 / 15, 0.01), 3)
    (0.0, 0.057)
    """
    if getattr(source, "paced", False):
        return 0.0
    return max(0.0, period - spent)


def _close(source: FrameSource) -> None:
    with contextlib.suppress(Exception):  # a camera that fails to close is already gone
        source.close()


def _card_reader(game_id: str) -> Any:
    """The game's printed cards, its mat and the faces the group taught for it (a damaged taught
    picture is left out, not a reason to read no card at all: :func:`ready_status` names it on
    the screen's status line)."""
    from vision.identify import reader_for_game

    return reader_for_game(game_id, use_mat=True, skip_damaged=True)


#: What the camera thread says once frames are read with every taught picture loaded.
READY = "camera ready"


def ready_status(reader: object) -> CameraStatus:
    """The camera is ready, with the taught pictures the reader left out as damaged and what to
    do about them as its ``note``."""
    from vision.taught_store import set_aside_note

    note = set_aside_note(list(getattr(reader, "damaged_pictures", []) or []))
    return CameraStatus(True, f"{READY}; {note}" if note else READY, note)


def _zone_tracker(game_id: str, window: int, agree: int | None = None) -> Any:
    from vision.tracker import ZoneTracker

    return ZoneTracker.for_game(game_id, window=window, agree=agree)
