"""Teaching the camera a group's own deck at the companion, one face at a time, by the buttons.

The screen names one face (its name and symbol art) and the player lays that card anywhere
under the camera, on the mat or not. The camera thread cuts the one card in view out of the
frames it judges (:class:`TeachFrame`); once the same card has lain still for ``STEADY_FRAMES``
judged frames the screen shows its cut-out and waits:

- ``collect`` keeps the picture (filed in the taught-face store) and asks for the next face;
- ``back`` drops it and looks again (move the card, or lay it again);
- ``hold1`` / ``hold3`` go to the previous / next face (skip), ``hold2`` to the next face not
  taught yet; a face may be taught several times (several printings or photos of one card);
- ``back`` while looking, or any of ``collect``/``back``/lever once every face was asked for,
  leaves (:attr:`TeachFlow.finished`).

A card just kept (or refused) is not caught again while it lies where it was: the next face is
caught once that card was taken away or moved, so one card is never filed under two faces.

The flow never touches the camera, files or vision: the daemon hands it the faces to ask for
and a store (:class:`TaughtStore`) and feeds it the camera thread's :class:`TeachFrame`.

>>> from types import SimpleNamespace as Face
>>> flow = TeachFlow("bandit", "Bandit", [Face(face_id="cherry", name="Cherry", symbols=("cherry",),
...                  back=())], MemoryStore())
>>> flow.view().face_name, flow.view().phase
('Cherry', 'looking')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from companion.errors import UserError
from companion.screen.views import ControlHint, TeachView
from hardware.events import PRESS, PULL, InputEvent

#: Frames in a row the one card must lie still (about 0.2 s at the camera's 15 fps) before its
#: cut-out is shown: a card still moving under a hand is not caught half-way.
STEADY_FRAMES = 3
#: Corners moved less than this share of the card's long side: the same card lying still.
STILL_SHARE = 0.05
#: A card kept or refused must move more than this share of its long side to be caught again.
MOVED_SHARE = 0.25

LOOKING, CAUGHT, DONE = "looking", "caught", "done"


class TeachableFace(Protocol):
    """One face to ask for (:class:`vision.teachable.TeachableFace`)."""

    face_id: str
    name: str
    symbols: tuple[str, ...]
    back: tuple[str, ...]


class TaughtStore(Protocol):
    """Where kept pictures go (:class:`vision.enrolled.EnrolledDeck`)."""

    def keep(self, face_id: str, cutout: Any) -> Path:
        """File one cut-out under ``face_id``; its path."""

    def pictures(self) -> dict[str, list[Path]]:
        """Face id -> its stored pictures."""

    def look_alikes(self, face_id: str, cutout: Any) -> list[tuple[str, float]]:
        """Other taught faces the camera could confuse with ``cutout``."""


@dataclass(frozen=True, eq=False)
class TeachFrame:
    """What the camera thread saw in one frame while teaching.

    ``preview`` is a small BGR copy of the frame. When one card was cut out, ``quad`` is its
    outline in preview pixels (TL TR BR BL) and ``cutout`` the card cut out of the full frame,
    upright (BGR, portrait); else both are None, and ``refusal`` says in one line why the card
    in view cannot be taught ("2 card-shaped outlines in view: show one card alone"), or is
    empty when no card is in view at all. ``judged`` is False for a frame only shown: the scene
    was changing (a hand laying the card), and the camera thread did not look for a card.
    """

    preview: Any
    quad: Any = None
    cutout: Any = None
    refusal: str = ""
    judged: bool = True


@dataclass
class MemoryStore:
    """A store that keeps pictures in memory (doctests, and a stand-in while none is set)."""

    kept: dict[str, list[Any]] = field(default_factory=dict)

    def keep(self, face_id: str, cutout: Any) -> Path:
        """Remember ``cutout`` under ``face_id``."""
        self.kept.setdefault(face_id, []).append(cutout)
        return Path(face_id) / f"{len(self.kept[face_id])}.png"

    def pictures(self) -> dict[str, list[Path]]:
        """Face id -> one made-up path per picture."""
        return {face: [Path(face) / f"{n + 1}.png" for n in range(len(cuts))]
                for face, cuts in self.kept.items()}

    def look_alikes(self, face_id: str, cutout: Any) -> list[tuple[str, float]]:
        """Nothing is compared in memory."""
        return []


def _corners(quad: Any) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (tuple(point) for point in quad)]


def moved_share(a: Any, b: Any) -> float:
    """How far the corners of outline ``b`` lie from those of ``a``, in ``a``'s long sides.

    >>> moved_share([(0, 0), (63, 0), (63, 88), (0, 88)], [(3, 0), (66, 0), (66, 88), (3, 88)])
    0.034...
    """
    pa, pb = _corners(a), _corners(b)
    long_side = max(math.dist(pa[i], pa[(i + 1) % 4]) for i in range(4)) or 1.0
    return max(math.dist(p, q) for p, q in zip(pa, pb, strict=True)) / long_side


class TeachFlow:
    """The "Teach cards" screens of one game (see the module docstring for the buttons)."""

    def __init__(self, game_id: str, title: str, faces: Sequence[TeachableFace], store: TaughtStore) -> None:
        if not faces:
            raise UserError(f"{title} has no cards for the camera to learn")
        self.game_id = game_id
        self.title = title
        self.faces = list(faces)
        self.store = store
        self.index = 0
        self.phase = LOOKING
        self.finished = False
        self.camera_ok: bool | None = None
        self.camera_message = ""
        self.counts = {face: len(paths) for face, paths in store.pictures().items()}
        self.message = ""
        self.alert = ""
        self.kept_this_time = 0
        #: sounds for the daemon to play (a card caught, a picture kept): the table hears it
        self.cues: list[str] = []
        self._latest: TeachFrame | None = None
        self._judged: TeachFrame | None = None
        self._steady = 0
        self._candidate: Any = None
        self._caught: TeachFrame | None = None
        #: the outline of a card just kept or refused: not caught again until it moves or goes
        self._blocked: Any = None

    # --- state -----------------------------------------------------------------------------

    @property
    def face(self) -> TeachableFace:
        """The face asked for now."""
        return self.faces[min(self.index, len(self.faces) - 1)]

    @property
    def caught(self) -> TeachFrame | None:
        """The frame whose cut-out waits for COLLECT or BACK (None while looking)."""
        return self._caught if self.phase == CAUGHT else None

    def taught_faces(self) -> int:
        """How many of the faces asked for have at least one picture."""
        return sum(1 for face in self.faces if self.counts.get(face.face_id, 0) > 0)

    # --- camera ----------------------------------------------------------------------------

    def set_camera(self, ok: bool, message: str = "") -> None:
        """The camera went away or came back."""
        self.camera_ok = ok
        self.camera_message = message

    def on_frame(self, seen: TeachFrame) -> None:
        """One frame from the camera thread: catch a card that lies still, alone, in view."""
        self._latest = seen
        if not seen.judged:
            return  # only shown: what was said of the last frame looked at stands
        self._judged = seen
        if self.phase != LOOKING:
            return
        if seen.quad is None or seen.cutout is None:
            self._steady, self._candidate = 0, None
            if not seen.refusal:
                self._blocked = None  # the table is clear: the card kept before was taken away
            return
        if self._blocked is not None:
            if moved_share(self._blocked, seen.quad) <= MOVED_SHARE:
                return
            self._blocked = None
        if self._candidate is not None and moved_share(self._candidate, seen.quad) <= STILL_SHARE:
            self._steady += 1
        else:
            self._steady = 1
        self._candidate = seen.quad
        if self._steady >= STEADY_FRAMES:
            self._catch(seen)

    def _catch(self, seen: TeachFrame) -> None:
        self.cues.append("click")
        self.phase = CAUGHT
        self._caught = seen
        self.message = ""
        self.alert = ""
        others = [(face, score) for face, score in self.store.look_alikes(self.face.face_id, seen.cutout)
                  if face != self.face.face_id]
        if others:
            names = {f.face_id: f.name for f in self.faces}
            alike = ", ".join(names.get(face, face) for face, _ in others[:2])
            self.alert = (f"the camera reads this card as {alike} (taught already): "
                          f"is it really {self.face.name}?")

    def _look_again(self, block: bool) -> None:
        if block and self._caught is not None:
            self._blocked = self._caught.quad
        self.phase = LOOKING
        self._caught = None
        self._steady, self._candidate = 0, None
        self.alert = ""

    # --- buttons ---------------------------------------------------------------------------

    def on_input(self, event: InputEvent) -> None:
        """A control was used (see the module docstring)."""
        if event.kind not in (PRESS, PULL):
            return
        control = event.control
        if self.phase == DONE:
            if control in ("collect", "back", "lever", "start"):
                self.finished = True
            elif control == "hold1":
                self._go(len(self.faces) - 1)
            return
        if control == "hold1":
            self._go(self.index - 1)
        elif control == "hold3":
            self._go(self.index + 1)
        elif control == "hold2":
            self._go(self._next_untaught())
        elif self.phase == CAUGHT and control == "collect":
            self._keep()
        elif control == "back":
            if self.phase == CAUGHT:
                self._look_again(block=True)
                self.message = "Move the card or lay it again"
            else:
                self.finished = True

    def _go(self, index: int) -> None:
        """Ask for face ``index`` (past the last one: the summary); a card in view is caught."""
        self._look_again(block=False)
        self._blocked = None  # the player chose this face for the card lying there
        self.message = ""
        if index < 0:
            index = 0
        if index >= len(self.faces):
            self.index = len(self.faces)
            self.phase = DONE
            return
        self.index = index

    def _next_untaught(self) -> int:
        for step in range(1, len(self.faces) + 1):
            index = (self.index + step) % len(self.faces)
            if self.counts.get(self.faces[index].face_id, 0) == 0:
                return index
        return len(self.faces)  # all taught: the summary

    def _keep(self) -> None:
        assert self._caught is not None
        face = self.face
        try:
            self.store.keep(face.face_id, self._caught.cutout)
        except UserError as error:
            self.alert = str(error)
            self.cues.append("error")
            return
        self.cues.append("coin")
        self.counts[face.face_id] = self.counts.get(face.face_id, 0) + 1
        self.kept_this_time += 1
        self._look_again(block=True)
        self.message = f"Kept {face.name} ({self._times(face.face_id)}). Take it away."
        self.index += 1
        if self.index >= len(self.faces):
            self.phase = DONE

    def _times(self, face_id: str) -> str:
        count = self.counts.get(face_id, 0)
        return "not taught yet" if count == 0 else f"{count} picture{'s' if count != 1 else ''}"

    # --- screen ----------------------------------------------------------------------------

    def prompt(self) -> str:
        """The one line that says what to do now."""
        if self.camera_ok is False:
            return self.camera_message or "camera not available: check its cable"
        if self.phase == DONE:
            return f"{self.taught_faces()} of {len(self.faces)} faces taught. COLLECT or BACK leaves."
        if self.phase == CAUGHT:
            return f"Is this {self.face.name}? COLLECT keeps it, BACK takes it again"
        judged = self._judged
        if judged is not None and judged.refusal:
            return judged.refusal[0].upper() + judged.refusal[1:]
        if self._blocked is not None and self.message:
            return self.message
        return f"Lay {self.face.name} face up under the camera, alone"

    def lamps(self) -> dict[str, str]:
        """The live controls."""
        lamps = dict.fromkeys(("hold1", "hold2", "hold3", "back"), "on")
        if self.phase == CAUGHT:
            lamps["collect"] = "blink"
        if self.phase == DONE:
            lamps.update(collect="on", lever="on")
        return lamps

    def hints(self) -> tuple[ControlHint, ...]:
        """What each live button does now."""
        if self.phase == DONE:
            return (ControlHint("hold1", "Back to the last card"), ControlHint("collect", "Done"))
        hints = [ControlHint("hold1", "Previous"), ControlHint("hold2", "Next untaught"),
                 ControlHint("hold3", "Skip")]
        if self.phase == CAUGHT:
            hints += [ControlHint("collect", "Keep"), ControlHint("back", "Retake")]
        else:
            hints.append(ControlHint("back", "Leave"))
        return tuple(hints)

    def view(self) -> TeachView:
        """What the screen shows now."""
        face = self.face
        shown = self._caught if self.phase == CAUGHT else self._latest
        return TeachView(
            game_id=self.game_id,
            title=self.title,
            face_name="" if self.phase == DONE else face.name,
            symbols=() if self.phase == DONE else tuple(face.symbols),
            back=() if self.phase == DONE else tuple(face.back),
            number=min(self.index + 1, len(self.faces)),
            total=len(self.faces),
            taught=0 if self.phase == DONE else self.counts.get(face.face_id, 0),
            faces_taught=self.taught_faces(),
            phase=self.phase,
            prompt=self.prompt(),
            message=self.message,
            alert=self.alert,
            preview=None if shown is None else shown.preview,
            quad=None if shown is None else shown.quad,
            cutout=self._caught.cutout if self.phase == CAUGHT and self._caught is not None else None,
            controls=self.hints(),
        )
