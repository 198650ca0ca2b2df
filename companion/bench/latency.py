"""``companion bench latency``: from a card laid on the table to the first drawn frame showing it.

The camera is modelled as a real one behaves: its own thread captures a frame every 1/30 s and
keeps only the newest, stamped at capture; ``read()`` waits for a frame newer than the last one
read (a ``paced`` source, as the Pi camera). Its pictures are the simulated table, rendered
before the timing starts (two noisy frames of each scene, alternated), so the table's own
rendering is not counted as the companion's time.

Bandit in table mode, each game its nine-card first deal: at a random moment the next card
appears on the table (the camera's scene changes at a known instant ``t0``), and the daemon runs
its real path — the camera thread reads frames, vision, the tracker's agreement, the queue, the
flow's reveal and its journal commit, the reels landing — paced at 60 fps like ``companion run``.
The latency ends with the first frame drawn whose reels show that card's symbol in its place
(``Display.reel_symbols_shown``). Output: the median and p95 over every card, the CPU each stage
took (thread time: vision per frame on the camera thread, the flow and journal per camera
update with and without a reveal, drawing per frame), the daemon's share of one core while it
plays, and a Pi 4 estimate: each card's latency with the CPU on its own path (the vision and
flow of every frame from the card laid to the frame showing it, and one frame drawn) taken 4x.

``--taught``: the deal is of a group's own deck, not our printed cards. Each of Bandit's seven
faces is taught from one picture of made-up art on a coloured ground (no marker), into a store
of its own that the daemon reads as the service reads its state directory; the table lays those
pictures, and the camera thread reads them by the taught-card path (outlines, thumbnails, the
feature stage for a card the thumbnails cannot decide once it lies still).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from unittest import mock

from companion.bench import headless_here

NAME = "latency"
HELP = "card laid on the table to the first frame showing it (camera model at 30 fps)"
#: how much slower a Pi 4 core is than this machine's, for the estimate (the issue's factor)
PI_FACTOR = 4.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: how many cards, the seed."""
    parser.add_argument("--cards", type=int, default=108, help="cards to time (default 108: 12 deals)")
    parser.add_argument("--fps", type=float, default=30.0, help="the camera's frame rate (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--taught", action="store_true",
                        help="deal a taught deck (Bandit's faces taught from pictures), not our cards")


class CameraModel:
    """A camera on its own thread: a frame every ``1/fps`` s, the newest kept, stamped at capture.

    ``show(scene)`` changes what is in front of it; frames captured from then on show it.
    """

    paced = True

    def __init__(self, scenes: list[list[Any]], fps: float) -> None:
        self._scenes = scenes
        self._period = 1.0 / fps
        self._scene = 0
        self._frame: Any = None
        self._number = 0
        self._read = 0
        self._capture_at = 0.0
        self.captured_at = 0.0
        self._changed = threading.Condition()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera-model", daemon=True)
        self._thread.start()

    def show(self, scene: int) -> float:
        """Put scene ``scene`` in front of the camera; returns the instant it changed."""
        with self._changed:
            self._scene = scene
            return time.monotonic()

    def _run(self) -> None:
        next_at = time.monotonic()
        while not self._closed.is_set():
            with self._changed:
                variants = self._scenes[self._scene]
                self._number += 1
                self._frame = variants[self._number % len(variants)]
                self._capture_at = time.monotonic()
                self._changed.notify_all()
            next_at += self._period
            self._closed.wait(max(0.0, next_at - time.monotonic()))

    def read(self) -> Any:
        """The newest frame not read yet (waits for the next capture)."""
        with self._changed:
            while self._number == self._read and not self._closed.is_set():
                self._changed.wait(1.0)
            if self._closed.is_set():
                return None
            self._read = self._number
            self.captured_at = self._capture_at
            return self._frame

    def close(self) -> None:
        """Stop capturing."""
        self._closed.set()
        with self._changed:
            self._changed.notify_all()


def _deal(seed: int) -> list[str]:
    """The nine cards of a Bandit first deal, drawn with the engine's odds."""
    from companion.engine import Action, GameConfig, Match, SeededResolver

    match = Match.new(GameConfig("bandit", 2, seed=seed))
    resolver = SeededResolver(random.Random(seed))
    cards = []
    while match.chance_point is not None and len(cards) < 9:
        card = resolver.resolve(match.chance_point)
        match.apply(Action.reveal(card))
        cards.append(card)
    return cards


def _scenes(table_seed: int, cards: list[str], taught: dict[str, list[Any]] | None = None) -> list[list[Any]]:
    """Scene k: the first k cards of the deal on the mat; two frames each (fresh sensor noise).
    ``taught``: card id -> pictures, laid in place of our printed cards."""
    from companion.flows.bandit import zone_of
    from vision.simulated import SimulatedTable
    from vision.taught_scene import scene_style

    # A taught deck is laid under a moderate camera (no glare, hands or blur: made-up art has too
    # few features to be named through them, where our printed cards' markers still are read).
    style = scene_style(table_seed, "wood", card_px=120, tilt=10) if taught else None
    table = SimulatedTable("bandit", seed=table_seed, style=style, taught=taught)
    scenes = []
    for k in range(len(cards) + 1):
        if k:
            table.place(zone_of(k - 1), cards[k - 1])
        scenes.append([table.frame(), table.frame()])
    return scenes


class _Timed:
    """Wraps a callable, adding the thread CPU of each call to ``spent``."""

    def __init__(self, inner: Any, spent: list[float]) -> None:
        self.inner, self.spent = inner, spent

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        started = time.thread_time()
        try:
            return self.inner(*args, **kwargs)
        finally:
            self.spent.append(time.thread_time() - started)


def teach_deck(store: Path) -> dict[str, list[Any]]:
    """Bandit's faces taught into ``store`` (the taught-face store's root), one picture each:
    made-up art on a ground of its own colour (the simulated table casts no shadow, so a white
    card on the mat's light zones would show no edge); card id -> the pictures the table lays."""
    from vision.enrolled import EnrolledDeck
    from vision.taught_art import taught_art
    from vision.taught_scene import synthetic_face
    from vision.teachable import teachable_faces

    deck = EnrolledDeck("bandit", store)
    grounds = [(150, 205, 235), (215, 170, 120), (160, 215, 170), (200, 160, 210), (120, 190, 230),
               (225, 200, 150), (170, 170, 230)]
    for index, face in enumerate(teachable_faces("bandit")):
        deck.keep(face.face_id, synthetic_face(index + 1, paper=grounds[index % len(grounds)]))
    return taught_art("bandit", store)


def time_deal(game_seed: int, fps: float, rng: random.Random, stages: dict[str, list[float]],
              tmp: Path, taught: dict[str, list[Any]] | None = None) -> tuple[list[float], list[float], int]:
    """One game's first deal: (milliseconds per card shown, the CPU milliseconds of vision and
    flow on each shown card's path, cards never shown within 5 s). ``taught``: the table lays
    these pictures (the daemon reads the faces taught from them)."""
    import pygame

    from companion.daemon.app import Daemon, RunOptions
    from companion.daemon.camera import VisionUpdate

    cards = _deal(game_seed)
    camera = CameraModel(_scenes(game_seed % 5, cards, taught), fps)
    options = RunOptions(headless=True, game="bandit", mode="table", seed=game_seed, use_gpio=False,
                         journal_path=tmp / f"journal-{game_seed}.sqlite", camera_factory=lambda game: camera)
    cpu_at, wall_at = time.process_time(), time.monotonic()
    daemon = Daemon(options)
    daemon.start()
    assert daemon.display is not None
    dispatch = daemon.dispatch

    # Each camera update as it was handled: when, and the CPU of its frame's vision and its flow.
    handled: list[tuple[float, float]] = []

    def timed_dispatch(item: object) -> None:
        if isinstance(item, VisionUpdate) and item.mat_found:
            stages["vision_per_frame"].append(item.vision_cpu)
            version = daemon.flow.session.version if daemon.flow is not None else 0
            started = time.thread_time()
            dispatch(item)
            spent = time.thread_time() - started
            revealed = daemon.flow is not None and daemon.flow.session.version != version
            stages["update_with_reveal" if revealed else "update_without_reveal"].append(spent)
            handled.append((time.monotonic(), item.vision_cpu + spent))
        else:
            dispatch(item)

    daemon.dispatch = timed_dispatch  # type: ignore[method-assign]
    daemon.display.draw = _Timed(daemon.display.draw, stages["draw_per_frame"])  # type: ignore[method-assign]
    clock = pygame.time.Clock()
    latencies: list[float] = []
    paths: list[float] = []
    missed = 0
    try:
        deadline = time.monotonic() + 30
        # This daemon's first frames read (the stage list holds every deal's): a reader's first
        # frame is read in full, and a card laid during it would wait for it.
        while (daemon.camera_ok is not True or len(handled) < 3) and time.monotonic() < deadline:
            daemon.step()
            clock.tick(60)
        for k, card in enumerate(cards):
            row, column = divmod(k, 3)
            wait_until = time.monotonic() + rng.uniform(0.15, 0.45)
            while time.monotonic() < wait_until:
                daemon.step()
                clock.tick(60)
            laid = camera.show(k + 1)
            shown = None
            while shown is None and time.monotonic() - laid < 5.0:
                daemon.step()
                if daemon.display.reel_symbols_shown.get((column, row)) == card:
                    shown = daemon.last_drawn_at
                clock.tick(60)
            if shown is None:
                missed += 1
            else:
                latencies.append((shown - laid) * 1000)
                # The CPU on this card's path: every frame read and handled from the moment it
                # was laid to the frame drawn showing it (vision and flow; drawing is added later).
                paths.append(1000 * sum(cpu for at, cpu in handled if laid < at <= shown))
    finally:
        daemon.close()
        camera.close()
        # the whole process while the daemon ran (the camera model's thread only hands over
        # frames rendered before): the daemon's share of one core at the camera's rate
        stages["process_cpu_s"].append(time.process_time() - cpu_at)
        stages["wall_s"].append(time.monotonic() - wall_at)
    return latencies, paths, missed


def _stats(values: list[float], digits: int = 1) -> dict[str, Any]:
    if not values:
        return {"samples": 0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"samples": len(values), "median": round(statistics.median(values), digits),
            "p95": round(p95, digits), "max": round(ordered[-1], digits)}


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """The latency figure, then each stage's CPU."""
    headless_here()
    rng = random.Random(args.seed)
    stages: dict[str, list[float]] = {"vision_per_frame": [], "update_with_reveal": [],
                                      "update_without_reveal": [], "draw_per_frame": [],
                                      "process_cpu_s": [], "wall_s": []}
    latencies: list[float] = []
    paths: list[float] = []
    missed = 0
    games = max(1, -(-args.cards // 9))
    taught = bool(getattr(args, "taught", False))
    # The daemon reads the faces taught in its state directory's store, as the service does:
    # the bench's own, while it runs (patch.dict puts the environment back as it was).
    with tempfile.TemporaryDirectory() as tmp, (
        mock.patch.dict(os.environ, {"STATE_DIRECTORY": tmp}) if taught else contextlib.nullcontext()
    ):
        art = teach_deck(Path(tmp) / "enrolled") if taught else None
        for game in range(games):
            shown, on_path, lost = time_deal(args.seed * 1000 + game, args.fps, rng, stages, Path(tmp), art)
            latencies.extend(shown)
            paths.extend(on_path)
            missed += lost
    share = sum(stages.pop("process_cpu_s")) / max(1e-9, sum(stages.pop("wall_s")))
    cpu_ms = {name: _stats([v * 1000 for v in values], 2) for name, values in stages.items()}
    # Each card's own path: the CPU of every frame's vision and flow from the card laid to the
    # frame showing it, and one frame drawn. A taught card's path holds a frame far dearer than
    # the median frame (the one it arrived in, the one the table settled in), so the median of
    # all frames would understate a Pi's time.
    draw = cpu_ms["draw_per_frame"].get("median", 0.0)
    estimates = [ms + (PI_FACTOR - 1) * (path + draw) for ms, path in zip(latencies, paths, strict=True)]
    yield {"figure": "card_to_screen_ms", "camera_fps": args.fps, "games": games, "missed": missed,
           "cards": "taught (Bandit's 7 faces)" if taught else "printed", **_stats(latencies)}
    yield {"figure": "stage_cpu_ms", **cpu_ms}
    yield {"figure": "daemon_cpu_share", "percent_of_one_core": round(100 * share, 1),
           "how": "process CPU / wall time while the daemon played the deals (camera at its rate, "
                  "screen at 60 fps, reels spinning while the dealer lays)"}
    yield {"figure": "pi4_estimate_ms", "factor": PI_FACTOR, "path_cpu_ms": _stats(paths, 2),
           **_stats(estimates),
           "how": "each card's latency here + (factor - 1) x the CPU on its path (vision and flow of "
                  "every frame from the card laid to the frame showing it, one frame drawn)"}
