"""Cached drawing resources: colours, text, symbol surfaces, pre-rendered reel cells.

Everything that is slow to make (rendering text, scaling the shipped symbol pictures,
blurring reel cells) is made once and kept, with pygame alone (no NumPy, no OpenCV: a cabinet
runs without them), and every surface is ``convert()``-ed for the
display's pixel format: an unconverted RGBA surface blits many times slower (docs/platform.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pygame

from companion import art

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
            surface = symbol_surface(game_id, symbol_id, size)
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
#: the shipped pictures, loaded once each (see :data:`companion.art.RENDERED_PX`)
_pictures: dict[tuple[str, str], pygame.Surface] = {}


def symbol_surface(game_id: str, symbol_id: str, size: int) -> pygame.Surface:
    """A symbol's art at ``size`` px with alpha, scaled from the shipped picture (no NumPy, no
    OpenCV); a split card ``a|b`` shows both halves; an id the art does not know (a view built
    wrongly) shows a question mark and logs one warning, so the screen never stops the game."""
    if "|" in symbol_id:
        first, second = symbol_id.split("|", 1)
        small = int(size * 0.62)
        out = pygame.Surface((size, size), pygame.SRCALPHA)
        out.blit(symbol_surface(game_id, first, small), (0, 0))
        out.blit(symbol_surface(game_id, second, small), (size - small, size - small))
        return out
    try:
        picture = _picture(game_id, symbol_id)
    except KeyError as error:
        if (game_id, symbol_id) not in _warned:
            _warned.add((game_id, symbol_id))
            log.warning("screen: %s; drawing a question mark", error.args[0] if error.args else error)
        return _unknown(size)
    return pygame.transform.smoothscale(picture, (size, size)).convert_alpha()


def _picture(game_id: str, symbol_id: str) -> pygame.Surface:
    """The symbol's shipped picture; drawn now (NumPy and OpenCV) only if it is missing."""
    key = (game_id, symbol_id)
    picture = _pictures.get(key)
    if picture is None:
        path = art.rendered_path(game_id, symbol_id)  # KeyError for a symbol the art lacks
        if path.is_file():
            picture = pygame.image.load(str(path)).convert_alpha()
        else:
            log.warning("screen: %s is missing; drawing it (python -m companion.art.prerender)", path.name)
            rgba = art.render_symbol(game_id, symbol_id, art.RENDERED_PX)
            size = art.RENDERED_PX
            picture = pygame.image.frombuffer(rgba.tobytes(), (size, size), "RGBA").convert_alpha()
        _pictures[key] = picture
    return picture


def _unknown(size: int) -> pygame.Surface:
    out = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.circle(out, (200, 200, 210), (size // 2, size // 2), int(size * 0.4))
    font = pygame.font.Font(None, max(8, int(size * 0.6)))
    mark = font.render("?", True, (60, 60, 70))
    out.blit(mark, mark.get_rect(center=(size // 2, size // 2)))
    return out


def _make_cell(game_id: str, symbol_id: str | None, width: int, height: int, blur: bool) -> pygame.Surface:
    cell = pygame.Surface((width, height))
    cell.fill(REEL_FACE)
    if symbol_id:
        size = max(8, int(min(width, height) * 0.84))
        cell.blit(symbol_surface(game_id, symbol_id, size), ((width - size) // 2, (height - size) // 2))
    if blur:
        cell = _vertical_blur(cell, max(3, height // 5) | 1)
    # a thin divider at the bottom of every cell, as on a printed reel strip
    pygame.draw.line(cell, REEL_SHADE, (0, height - 1), (width - 1, height - 1))
    return cell.convert()


def _vertical_blur(cell: pygame.Surface, k: int) -> pygame.Surface:
    """A vertical box blur over about ``k`` rows that wraps around, as the strip runs on past the
    cell's edges: each pass averages the picture with itself shifted by 1, 2, 4 ... rows."""
    height = cell.get_height()
    out = cell.copy()
    shift = 1
    while shift * 2 <= k and shift < height:
        layer = out.copy()
        layer.set_alpha(128)  # blitting at half opacity averages the two
        out.blit(layer, (0, shift))
        out.blit(layer, (0, shift - height))  # what runs off the bottom comes round at the top
        shift *= 2
    return out


def drum_shade(width: int, height: int) -> pygame.Surface:
    """A translucent overlay that darkens a reel window toward its top and bottom edges."""
    shade = pygame.Surface((width, height), pygame.SRCALPHA)
    for y in range(height):
        edge = abs(-1.0 + 2.0 * y / max(1, height - 1))
        alpha = int((min(1.0, max(0.0, edge - 0.55)) / 0.45) ** 1.6 * 150.0)
        if alpha:
            shade.fill((0, 0, 0, alpha), (0, y, width, 1))
    return shade.convert_alpha()


def vertical_gradient(width: int, height: int, top: RGB, bottom: RGB) -> pygame.Surface:
    """An opaque top-to-bottom gradient (the backdrop), made once per size."""
    surface = pygame.Surface((width, height))
    for y in range(height):
        t = y / max(1, height - 1)
        color = tuple(int(a * (1 - t) + b * t) for a, b in zip(top, bottom, strict=True))
        surface.fill(color, (0, y, width, 1))
    return surface.convert()
