"""Cached drawing resources: colours, text, symbol surfaces, pre-rendered reel cells.

Everything that is slow to make (rendering text, turning symbol arrays into surfaces,
blurring reel cells) is made once and kept, and every surface is ``convert()``-ed for the
display's pixel format: an unconverted RGBA surface blits many times slower (docs/platform.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import cv2
import numpy as np
import pygame

from companion import art
from companion.art.canvas import Canvas

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]

BACKGROUND: RGB = (18, 14, 40)
BACKGROUND_LOW: RGB = (44, 10, 52)
PANEL: RGB = (36, 30, 72)
PANEL_EDGE: RGB = (92, 78, 160)
TEXT: RGB = (246, 242, 232)
DIM: RGB = (170, 160, 200)
GOLD: RGB = (255, 204, 60)
ACTIVE: RGB = (255, 204, 60)
ACTIVE_TEXT: RGB = (30, 20, 10)
ALERT: RGB = (220, 50, 60)
GOOD: RGB = (70, 200, 110)
REEL_FACE: RGB = (250, 248, 240)
REEL_SHADE: RGB = (200, 196, 186)
HELD: RGB = (70, 160, 255)
WIN: RGB = (255, 70, 90)


class Resources:
    """Text and symbol surfaces for one display, made on first use and then reused.

    Create it after ``pygame.display.set_mode`` (surfaces are converted to the screen's format).
    """

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._text: dict[tuple[str, int, RGB, bool], pygame.Surface] = {}
        self._symbols: dict[tuple[str, str, int], pygame.Surface] = {}
        self._cells: dict[tuple[str, str, int, int, bool], pygame.Surface] = {}
        self._other: dict[tuple[object, ...], pygame.Surface] = {}

    def cached(self, key: tuple[object, ...], make: Callable[[], pygame.Surface]) -> pygame.Surface:
        """Any other surface that is made once per key (overlays, coin frames, backdrops)."""
        surface = self._other.get(key)
        if surface is None:
            surface = make()
            self._other[key] = surface
        return surface

    def font(self, size: int, bold: bool = True) -> pygame.font.Font:
        """The bundled sans font at ``size`` px (bold by default: it reads across a table)."""
        key = (max(8, size), bold)
        font = self._fonts.get(key)
        if font is None:
            font = pygame.font.Font(None, key[0])
            font.set_bold(bold)
            self._fonts[key] = font
        return font

    def text(self, text: str, size: int, color: RGB = TEXT, bold: bool = True) -> pygame.Surface:
        """A rendered line of text (cached: the same line is rendered once)."""
        key = (text, size, color, bold)
        surface = self._text.get(key)
        if surface is None:
            if len(self._text) > 4000:  # scores and prompts change; never grow without bound
                self._text.clear()
            surface = self.font(size, bold).render(text, True, color).convert_alpha()
            self._text[key] = surface
        return surface

    def fit_text(
        self, text: str, size: int, width: int, color: RGB = TEXT, bold: bool = True
    ) -> pygame.Surface:
        """Text at ``size`` px, smaller if needed so it fits ``width`` (never below 60 %)."""
        surface = self.text(text, size, color, bold)
        floor = max(10, int(size * 0.6))
        while surface.get_width() > width and size > floor:
            size -= max(1, size // 12)
            surface = self.text(text, size, color, bold)
        if surface.get_width() > width:
            while len(text) > 1 and self.font(size, bold).size(text + "...")[0] > width:
                text = text[:-1]
            surface = self.text(text.rstrip() + "...", size, color, bold)
        return surface

    def symbol(self, game_id: str, symbol_id: str, size: int) -> pygame.Surface:
        """A symbol's art as a converted surface with alpha (split cards ``a|b`` drawn halved)."""
        key = (game_id, symbol_id, size)
        surface = self._symbols.get(key)
        if surface is None:
            rgba = symbol_rgba(game_id, symbol_id, size)
            surface = pygame.image.frombuffer(rgba.tobytes(), (size, size), "RGBA").convert_alpha()
            self._symbols[key] = surface
        return surface

    def cell(
        self, game_id: str, symbol_id: str | None, width: int, height: int, blur: bool
    ) -> pygame.Surface:
        """A reel cell: the symbol on the reel's face, opaque (fast to blit); ``blur`` gives the
        motion-blurred version shown while the reel spins fast."""
        key = (game_id, symbol_id or "", width, height, blur)
        surface = self._cells.get(key)
        if surface is None:
            surface = _make_cell(game_id, symbol_id, width, height, blur)
            self._cells[key] = surface
        return surface


_warned: set[tuple[str, str]] = set()


def symbol_rgba(game_id: str, symbol_id: str, size: int) -> np.ndarray:
    """A symbol's RGBA art; a split card ``a|b`` shows both halves; an id the art does not know
    (a view built wrongly) shows a question mark and logs one warning, so the screen never
    stops the game."""
    if "|" in symbol_id:
        first, second = symbol_id.split("|", 1)
        return _split_art(
            symbol_rgba(game_id, first, int(size * 0.62)),
            symbol_rgba(game_id, second, int(size * 0.62)),
            size,
        )
    try:
        return art.render_symbol(game_id, symbol_id, size)
    except KeyError as error:
        if (game_id, symbol_id) not in _warned:
            _warned.add((game_id, symbol_id))
            log.warning("screen: %s; drawing a question mark", error.args[0] if error.args else error)
        return _unknown(size)


def _unknown(size: int) -> np.ndarray:
    canvas = Canvas(size)
    canvas.circle((50, 50), 40, fill=(200, 200, 210))
    canvas.text("?", (50, 50), 42, (60, 60, 70), outline=None, weight=0.18)
    return canvas.to_rgba()


def _split_art(a: np.ndarray, b: np.ndarray, size: int) -> np.ndarray:
    small = a.shape[0]
    out = np.zeros((size, size, 4), np.uint8)
    out[:small, :small] = a
    region = out[size - small :, size - small :]
    alpha = b[..., 3:4].astype(np.float32) / 255.0
    region[..., :3] = (b[..., :3] * alpha + region[..., :3] * (1 - alpha)).astype(np.uint8)
    region[..., 3] = np.maximum(region[..., 3], b[..., 3])
    return out


def _make_cell(game_id: str, symbol_id: str | None, width: int, height: int, blur: bool) -> pygame.Surface:
    rgb = np.empty((height, width, 3), np.float32)
    rgb[:] = REEL_FACE
    if symbol_id:
        size = max(8, int(min(width, height) * 0.84))
        sym = symbol_rgba(game_id, symbol_id, size).astype(np.float32) / 255.0
        x0 = (width - size) // 2
        y0 = (height - size) // 2
        alpha = sym[..., 3:4]
        region = rgb[y0 : y0 + size, x0 : x0 + size]
        region[:] = sym[..., :3] * 255.0 * alpha + region * (1.0 - alpha)
    if blur:
        # a vertical box blur that wraps around, as the strip runs on past the cell's edges
        k = max(3, height // 5) | 1
        padded = np.concatenate([rgb[-(k // 2) :], rgb, rgb[: k // 2]], axis=0)
        rgb = np.asarray(cv2.blur(padded, (1, k))[k // 2 : k // 2 + height], np.float32)
    # a thin divider at the bottom of every cell, as on a printed reel strip
    rgb[-1:, :, :] = np.array(REEL_SHADE, np.float32)
    data = np.clip(rgb, 0, 255).astype(np.uint8)
    return pygame.image.frombuffer(data.tobytes(), (width, height), "RGB").convert()


def drum_shade(width: int, height: int) -> pygame.Surface:
    """A translucent overlay that darkens a reel window toward its top and bottom edges."""
    y = np.linspace(-1.0, 1.0, height, dtype=np.float32)
    alpha = (np.clip(np.abs(y) - 0.55, 0, 1) / 0.45) ** 1.6 * 150.0
    data = np.zeros((height, width, 4), np.uint8)
    data[..., 3] = alpha[:, None].astype(np.uint8)
    return pygame.image.frombuffer(data.tobytes(), (width, height), "RGBA").convert_alpha()


def vertical_gradient(width: int, height: int, top: RGB, bottom: RGB) -> pygame.Surface:
    """An opaque top-to-bottom gradient (the backdrop), made once per size."""
    t = np.linspace(0.0, 1.0, height, dtype=np.float32)[:, None, None]
    grad = np.array(top, np.float32) * (1 - t) + np.array(bottom, np.float32) * t
    data = np.broadcast_to(grad, (height, width, 3)).astype(np.uint8)
    return pygame.image.frombuffer(np.ascontiguousarray(data).tobytes(), (width, height), "RGB").convert()
