"""What every documented picture is made with: a journaled game, its flow, the controls, the camera.

Each picture is a real game driven the way the tests drive it: a :class:`~companion.session.Session`
journaled in a temporary directory, the flow from :func:`~companion.flows.make_flow`, controls
as :class:`~hardware.events.InputEvent` and (table mode) camera readings as observations. Only
what the flow's ``view()`` returns is drawn, by the screen's own :class:`Display`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.engine import GameConfig
from companion.flows import make_flow
from companion.journal import Journal
from companion.screen.views import View
from companion.session import Session
from hardware.events import PRESS, PULL, InputEvent

#: Colours a picture is reduced to: a tenth of the bytes, no visible loss at panel sizes.
COLOURS = 96


@dataclass
class Seen:
    """One camera zone as the tracker reports it (the flows' ``Observation``)."""

    zone: str
    status: str
    card_id: str | None = None
    card_ids: tuple[str, ...] = ()


def press(control: str, kind: str = PRESS) -> InputEvent:
    """A control as the panel sends it (the lever is pulled, the rest are pressed)."""
    return InputEvent(control, PULL if control == "lever" else kind, 0.0)


@contextmanager
def new_flow(game: str, mode: str, seed: int, seats: list[str],
             variants: tuple[str, ...] = ()) -> Iterator[Any]:
    """A fresh journaled game and its flow (the journal lives in a temporary directory)."""
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal.open(Path(folder) / "journal.sqlite")
        try:
            config = GameConfig(game, players=len(seats), variants=variants, seed=seed)
            session = Session.start(journal, config, seats, mode)
            yield make_flow(session)
        finally:
            journal.close()


@dataclass(frozen=True)
class Shot:
    """A view and the moments it is drawn at; the picture is the last frame."""

    view: View
    times: tuple[float, ...]


def settled(view: View, times: tuple[float, ...] = (0.0, 30.0, 40.0)) -> Shot:
    """One view drawn at t=0, t=30 s (reels landed) and t=40 s (a win's coins have fallen)."""
    return Shot(view, times)


@dataclass(frozen=True)
class Picture:
    """One documented picture: where it goes, how big, and the scene that draws it."""

    path: str
    scene: Callable[[], Shot]
    size: tuple[int, int] = (800, 480)
    rotation: int = 0
    #: the README or doc page that shows it (for the reader of the registry)
    shown_in: tuple[str, ...] = field(default_factory=tuple)


def render(picture: Picture, root: Path) -> Path:
    """Play the picture's scene, draw it, save it under ``root`` as a small PNG."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from PIL import Image

    from companion.screen.display import Display

    path = root / picture.path
    path.parent.mkdir(parents=True, exist_ok=True)
    shot = picture.scene()
    with Display(*picture.size, rotation=picture.rotation) as display:
        for now in shot.times:
            display.draw(shot.view, now=now)
        display.save_png(path)
    Image.open(path).convert("RGB").quantize(colors=COLOURS).save(path, optimize=True)
    return path
