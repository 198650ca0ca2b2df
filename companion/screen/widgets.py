"""Small drawing helpers shared by every screen: the frame context, boxes, text, pills, lists.

Sizes come from :attr:`Frame.u`, one hundredth of the canvas's shorter side, so the same code
lays out 800x480, 480x320 and the rotated (portrait) canvases and stays readable on a 3.5"
panel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from companion.screen import resources as res
from companion.screen.reels import ReelsWidget

RGB = tuple[int, int, int]
#: The smallest text drawn, in pixels: below this the bundled font stops being readable on a
#: 3.5" panel at arm's length.
MIN_TEXT_PX = 13
#: One colour per seat for charts and dots (none of them the highlight gold).
PLAYER_COLORS: tuple[RGB, ...] = (
    (90, 200, 255),
    (255, 110, 140),
    (120, 230, 120),
    (255, 160, 80),
    (200, 150, 255),
    (250, 250, 130),
)


@dataclass
class Frame:
    """What a screen needs to draw one frame: the canvas, the caches, the reels, the time."""

    surface: pygame.Surface
    res: res.Resources
    reels: ReelsWidget
    now: float
    cues: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    #: what screens remember between frames (a flip's start, the scores being rolled up)
    memory: dict[str, Any] = field(default_factory=dict)

    @property
    def width(self) -> int:
        """Canvas width (after rotation: a portrait canvas is narrow)."""
        return self.surface.get_width()

    @property
    def height(self) -> int:
        """Canvas height."""
        return self.surface.get_height()

    @property
    def u(self) -> float:
        """One hundredth of the shorter side: the layout unit."""
        return min(self.width, self.height) / 100.0

    @property
    def portrait(self) -> bool:
        """Whether the canvas is taller than wide (a panel mounted on its side)."""
        return self.height > self.width

    def px(self, units: float) -> int:
        """``units`` layout units in whole pixels."""
        return max(1, int(round(units * self.u)))


def backdrop(frame: Frame) -> None:
    """The shared background gradient (pre-rendered once per canvas size)."""
    w, h = frame.width, frame.height
    surface = frame.res.cached(
        ("backdrop", w, h), lambda: res.vertical_gradient(w, h, res.BACKGROUND, res.BACKGROUND_LOW)
    )
    frame.surface.blit(surface, (0, 0))


def box(
    frame: Frame,
    rect: pygame.Rect,
    fill: RGB = res.PANEL,
    edge: RGB | None = res.PANEL_EDGE,
    radius: float = 2.0,
    width: float = 0.5,
) -> None:
    """A rounded panel with an optional edge."""
    r = frame.px(radius)
    pygame.draw.rect(frame.surface, fill, rect, border_radius=r)
    if edge is not None:
        pygame.draw.rect(frame.surface, edge, rect, width=frame.px(width), border_radius=r)


def text(
    frame: Frame,
    content: str,
    size: float,
    pos: tuple[int, int],
    color: RGB = res.TEXT,
    anchor: str = "topleft",
    max_width: int | None = None,
    bold: bool = True,
) -> pygame.Rect:
    """Draw one line of text ``size`` units tall at ``pos`` (``anchor`` names the rect point);
    never smaller than :data:`MIN_TEXT_PX`."""
    px = max(MIN_TEXT_PX, frame.px(size))
    surface = (
        frame.res.fit_text(content, px, max_width, color, bold)
        if max_width is not None
        else frame.res.text(content, px, color, bold)
    )
    rect = surface.get_rect(**{anchor: pos})
    frame.surface.blit(surface, rect)
    return rect


def triangle(frame: Frame, center: tuple[int, int], size: int, color: RGB, pointing: str = "right") -> None:
    """A solid arrow head (the active-player marker, list cursors)."""
    x, y = center
    s = size
    points = {
        "right": [(x - s // 2, y - s), (x + s // 2 + 2, y), (x - s // 2, y + s)],
        "left": [(x + s // 2, y - s), (x - s // 2 - 2, y), (x + s // 2, y + s)],
        "up": [(x - s, y + s // 2), (x, y - s // 2 - 2), (x + s, y + s // 2)],
        "down": [(x - s, y - s // 2), (x, y + s // 2 + 2), (x + s, y - s // 2)],
    }[pointing]
    pygame.draw.polygon(frame.surface, color, points)


def pill(
    frame: Frame, label: str, center: tuple[int, int], size: float, fill: RGB, color: RGB
) -> pygame.Rect:
    """A rounded label, e.g. a live control ("LEVER Spin") or a "CLAIM" marker."""
    surface = frame.res.text(label, max(MIN_TEXT_PX, frame.px(size)), color)
    rect = surface.get_rect(center=center).inflate(frame.px(size * 0.9), frame.px(size * 0.35))
    pygame.draw.rect(frame.surface, fill, rect, border_radius=rect.height // 2)
    frame.surface.blit(surface, surface.get_rect(center=rect.center))
    return rect


def blink(now: float, rate: float = 2.0) -> bool:
    """On/off at ``rate`` times a second, for things that must catch the eye."""
    return int(now * rate * 2) % 2 == 0


def split_h(rect: pygame.Rect, fraction: float, gap: int = 0) -> tuple[pygame.Rect, pygame.Rect]:
    """Split a rect into top and bottom parts (``fraction`` of the height on top)."""
    top_h = int(rect.height * fraction)
    top = pygame.Rect(rect.x, rect.y, rect.width, top_h)
    bottom = pygame.Rect(rect.x, rect.y + top_h + gap, rect.width, rect.height - top_h - gap)
    return top, bottom


def split_v(rect: pygame.Rect, fraction: float, gap: int = 0) -> tuple[pygame.Rect, pygame.Rect]:
    """Split a rect into left and right parts (``fraction`` of the width on the left)."""
    left_w = int(rect.width * fraction)
    left = pygame.Rect(rect.x, rect.y, left_w, rect.height)
    right = pygame.Rect(rect.x + left_w + gap, rect.y, rect.width - left_w - gap, rect.height)
    return left, right


def columns(rect: pygame.Rect, n: int, gap: int) -> list[pygame.Rect]:
    """``n`` equal columns across ``rect``."""
    if n <= 0:
        return []
    w = (rect.width - gap * (n - 1)) // n
    return [pygame.Rect(rect.x + i * (w + gap), rect.y, w, rect.height) for i in range(n)]


def rows(rect: pygame.Rect, n: int, gap: int, max_height: int | None = None) -> list[pygame.Rect]:
    """``n`` equal rows down ``rect`` (each at most ``max_height`` tall)."""
    if n <= 0:
        return []
    h = (rect.height - gap * (n - 1)) // n
    if max_height is not None:
        h = min(h, max_height)
    return [pygame.Rect(rect.x, rect.y + i * (h + gap), rect.width, h) for i in range(n)]


def symbol(frame: Frame, game_id: str, symbol_id: str, center: tuple[int, int], size: int) -> pygame.Rect:
    """Blit a symbol's art centred on ``center``."""
    surface = frame.res.symbol(game_id, symbol_id, max(8, size))
    rect = surface.get_rect(center=center)
    frame.surface.blit(surface, rect)
    return rect


def die(frame: Frame, rect: pygame.Rect, value: int, fill: RGB = (250, 248, 240)) -> None:
    """A six-sided die face with pips (Thanks a Lottery's dice)."""
    pygame.draw.rect(frame.surface, fill, rect, border_radius=max(2, rect.width // 6))
    pygame.draw.rect(
        frame.surface,
        (40, 30, 40),
        rect,
        width=max(1, rect.width // 20),
        border_radius=max(2, rect.width // 6),
    )
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
        5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
        6: [(0.3, 0.24), (0.7, 0.24), (0.3, 0.5), (0.7, 0.5), (0.3, 0.76), (0.7, 0.76)],
    }.get(value, [])
    r = max(1, rect.width // 10)
    for fx, fy in spots:
        pygame.draw.circle(
            frame.surface, (30, 24, 28), (rect.x + int(fx * rect.width), rect.y + int(fy * rect.height)), r
        )
