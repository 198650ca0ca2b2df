"""The display: opens the screen, draws a view model per frame, rotates, flips.

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # doctest: +SKIP
>>> display = Display(480, 320)                                      # doctest: +SKIP
>>> display.draw(AttractView(), now=0.0)                             # doctest: +SKIP
>>> display.close()                                                  # doctest: +SKIP

On a Pi without a desktop (no ``DISPLAY`` / ``WAYLAND_DISPLAY``) SDL's KMS/DRM driver is chosen
and the display opens fullscreen at the panel's size with the mouse cursor hidden; on a desktop
it opens a window; ``SDL_VIDEODRIVER=dummy`` draws off screen (tests, snapshots, benchmarks).
Rotation (0/90/180/270, clockwise) is done here: frames are drawn on a canvas of the rotated
size and the canvas is turned onto the screen, because the boot-time rotation setting rotates
only the text console.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any

import pygame

from companion.errors import UserError
from companion.screen import screens, teach_screen
from companion.screen.reels import Cue, ReelsGeometry, ReelsWidget
from companion.screen.resources import Resources
from companion.screen.table import draw_table
from companion.screen.views import (
    AttractView,
    CameraView,
    FinalScoresView,
    GameSelectView,
    LotteryDrawView,
    MenuView,
    MessageView,
    PlayersView,
    TableView,
    TeachView,
    TileFlipView,
    View,
)
from companion.screen.widgets import Frame

log = logging.getLogger(__name__)

ROTATIONS = (0, 90, 180, 270)


def choose_video_driver(env: Mapping[str, str]) -> str | None:
    """The SDL video driver to ask for: ``kmsdrm`` on a console without a desktop, else None
    (let SDL pick). An ``SDL_VIDEODRIVER`` already set always wins."""
    if env.get("SDL_VIDEODRIVER"):
        return None
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return "kmsdrm"


def prepare_environment(env: MutableMapping[str, str]) -> bool:
    """Set the video driver before pygame starts; True if the screen must be fullscreen."""
    driver = choose_video_driver(env)
    if driver is not None:
        env["SDL_VIDEODRIVER"] = driver
    return env.get("SDL_VIDEODRIVER") == "kmsdrm"


class Display:
    """The companion's screen.

    ``width`` x ``height`` is the window size on a desktop (and the frame size on the dummy
    driver); fullscreen takes the panel's own size. ``rotation`` turns the picture clockwise.
    SDL has one screen per process: open one Display at a time (closing it closes the screen).
    """

    def __init__(
        self, width: int = 800, height: int = 480, rotation: int = 0, fullscreen: bool = False
    ) -> None:
        if rotation not in ROTATIONS:
            raise UserError(
                f"screen rotation must be one of 0, 90, 180, 270 (got {rotation}); fix it in the config"
            )
        fullscreen = prepare_environment(os.environ) or fullscreen
        try:
            pygame.display.init()
            flags = pygame.FULLSCREEN if fullscreen else 0
            size = (0, 0) if fullscreen else (width, height)
            self._screen = pygame.display.set_mode(size, flags)
        except pygame.error as error:
            driver = os.environ.get("SDL_VIDEODRIVER", "default")
            raise UserError(
                f"cannot open the screen with SDL video driver {driver!r} ({error}); on a Pi check the panel "
                "is connected and the user is in the 'video' group, or set SDL_VIDEODRIVER (e.g. x11, dummy)"
            ) from None
        self._size: tuple[int, int] = self._screen.get_size()
        if fullscreen:
            pygame.mouse.set_visible(False)
        pygame.display.set_caption("Jackpot Companion")
        self._rotation = rotation
        self._canvas = self._make_canvas()
        self._res = Resources()
        self._reels = ReelsWidget(self._res)
        self._cues: list[Cue] = []
        self._memory: dict[str, Any] = {}
        self._closed = False
        #: whether the last frame drawn moves by itself (see :meth:`draw`)
        self.moving = True

    # --- public --------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """The physical screen's size in pixels."""
        return self._size

    @property
    def canvas(self) -> pygame.Surface:
        """The surface frames are drawn on (portrait for 90/270 rotation)."""
        return self._canvas

    @property
    def screen(self) -> pygame.Surface:
        """What is on the physical screen after rotation."""
        return self._screen

    @property
    def rotation(self) -> int:
        """The current rotation in degrees clockwise."""
        return self._rotation

    def set_rotation(self, rotation: int) -> None:
        """Turn the picture (the menu's rotation setting); takes effect on the next frame."""
        if rotation not in ROTATIONS:
            raise UserError(f"screen rotation must be one of 0, 90, 180, 270 (got {rotation})")
        if rotation != self._rotation:
            self._rotation = rotation
            self._canvas = self._make_canvas()

    def draw(self, view: View, now: float) -> None:
        """Draw ``view`` as it looks at time ``now`` (seconds, any steady clock) and show it.

        Afterwards :attr:`moving` says whether the picture changes by itself (reels, coins,
        scores rolling); when it does not, the same view needs no redraw but for the slow blinks
        of the hints and alerts (the daemon redraws it at a low idle rate).
        """
        frame = Frame(self._canvas, self._res, self._reels, now, self._cues, self._memory)
        if not isinstance(view, TableView):
            self._reels.geometry = None
        # Only the table view knows when it is still; every other screen counts as moving.
        self.moving = True
        if isinstance(view, TableView):
            self.moving = draw_table(frame, view)
        elif isinstance(view, AttractView):
            screens.attract(frame, view)
        elif isinstance(view, GameSelectView):
            screens.game_select(frame, view)
        elif isinstance(view, PlayersView):
            screens.players(frame, view)
        elif isinstance(view, TileFlipView):
            screens.tile_flip(frame, view, self._memory)
        elif isinstance(view, LotteryDrawView):
            screens.lottery_draw(frame, view, self._memory)
        elif isinstance(view, FinalScoresView):
            screens.final_scores(frame, view)
        elif isinstance(view, MenuView):
            screens.menu(frame, view)
        elif isinstance(view, MessageView):
            screens.message(frame, view)
        elif isinstance(view, CameraView):
            screens.camera(frame, view)
        elif isinstance(view, TeachView):
            teach_screen.teach(frame, view)
        else:
            raise TypeError(f"the display cannot draw {type(view).__name__}")
        self._present()

    @property
    def reel_geometry(self) -> ReelsGeometry | None:
        """Where the reels were last drawn on the canvas (reel windows, row centres), or None."""
        return self._reels.geometry

    @property
    def reel_symbols_shown(self) -> dict[tuple[int, int], str]:
        """The symbols on the reels in the last drawn frame, by (reel, row), partly shown included."""
        return self._reels.shown

    def pop_cues(self) -> list[Cue]:
        """Sound cues the frames raised since the last call, e.g. ``("reel_stop", {"reel": 0})``
        or ``("fanfare", {"amount": 50})``: pass each to ``SoundPlayer.play(name, **params)``."""
        cues = self._cues + self._reels.pop_cues()
        self._cues = []
        return cues

    def save_png(self, path: str | Path) -> None:
        """Save what the screen shows now (rotated as on the panel)."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self._screen, str(path))

    def close(self) -> None:
        """Close the screen (idempotent)."""
        if not self._closed:
            self._closed = True
            pygame.display.quit()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals -----------------------------------------------------------------------
    def _make_canvas(self) -> pygame.Surface:
        w, h = self._screen.get_size()
        if self._rotation in (90, 270):
            w, h = h, w
        if self._rotation == 0:
            return self._screen
        return pygame.Surface((w, h)).convert()

    def _present(self) -> None:
        if self._rotation == 180:
            self._screen.blit(pygame.transform.flip(self._canvas, True, True), (0, 0))
        elif self._rotation in (90, 270):
            # pygame rotates counter-clockwise; the setting turns the picture clockwise
            self._screen.blit(pygame.transform.rotate(self._canvas, -self._rotation), (0, 0))
        pygame.display.flip()
