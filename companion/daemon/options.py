"""How the daemon is asked to run: :class:`RunOptions` (``companion run``, the demo, the tests and
the benchmarks fill it) and the simulated table's :class:`Dealer` it may wire in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from companion.config import Config
from companion.daemon.camera import FrameSource
from companion.simtable.seat import Companion


class Dealer(Protocol):
    """The simulated table's dealer (demo, ``make run`` off the Pi): lays the cards asked for."""

    def update(self, daemon: Companion, now: float) -> None:
        """Look at the flow; place cards; press COLLECT or correct by buttons when needed."""


@dataclass
class RunOptions:
    """How ``companion run`` (and the demo, tests, benchmark) runs the daemon."""

    config: Config = field(default_factory=Config)
    keyboard: bool = False
    headless: bool = False
    game: str | None = None
    players: int | None = None
    mode: str | None = None
    seed: int | None = None
    #: variants asked for on the command line (None: the configured ones)
    variants: tuple[str, ...] | None = None
    journal_path: Path | None = None
    #: frames per second of the screen clock; ``fast`` draws without pacing (tests)
    fps: int = 60
    fast: bool = False
    #: a bot at the buttons (seeded): the demo, the crash test
    autoplay: int | None = None
    autoplay_every: int = 2
    seconds: float | None = None
    frames: int | None = None
    exit_when_over: bool = False
    #: called with each transcript line once the frame showing it was drawn
    transcript: Callable[[str], None] | None = None
    #: opens the camera for a game id (default: the configured source); the demo's simulated table
    camera_factory: Callable[[str], FrameSource] | None = None
    dealer: Dealer | None = None
    pin_factory: Any = None
    use_gpio: bool | None = None
    #: end the unfinished game (it stays in the history as ended) instead of resuming it
    new: bool = False
    #: where lines about resuming and starting go when there is no transcript (run: stdout)
    announce: Callable[[str], None] | None = None
