"""The scoreboard's address on the companion's screen: a QR code a phone can scan, and the
addresses to type (``http://<hostname>.local:8080/`` and the IP), drawn on the attract screen
and in the menu."""

from __future__ import annotations

import pygame

from companion.screen import resources as res
from companion.screen import widgets as w
from companion.screen.views import ScoreboardLink

#: Light modules around the code (the QR standard asks for 4; 2 reads fine on a lit screen).
QUIET = 2


def qr_surface(matrix: tuple[tuple[bool, ...], ...], size: int) -> pygame.Surface:
    """The code as dark modules on white, whole pixels per module, at most ``size`` square."""
    modules = len(matrix) + 2 * QUIET
    scale = max(1, size // modules)
    surface = pygame.Surface((modules * scale, modules * scale))
    surface.fill((255, 255, 255))
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                surface.fill((0, 0, 0), ((x + QUIET) * scale, (y + QUIET) * scale, scale, scale))
    return surface


def draw_qr(frame: w.Frame, link: ScoreboardLink, center: tuple[int, int], size: int) -> pygame.Rect:
    """The QR code centred at ``center``, at most ``size`` pixels square; returns its rect."""
    surface = frame.res.cached(("scoreboard-qr", link.matrix, size), lambda: qr_surface(link.matrix, size))
    rect = surface.get_rect(center=center)
    frame.surface.blit(surface, rect)
    return rect


HEADLINE = "Scores on your phone"


def draw_link(frame: w.Frame, link: ScoreboardLink, rect: pygame.Rect, size: float = 4.0,
              stacked: bool = False) -> None:
    """The QR code and, beside it (or under it when ``stacked``), "Scores on your phone" and the
    addresses to type, all inside ``rect``."""
    lines = (HEADLINE, *link.urls[:2])
    line_px = int(max(w.MIN_TEXT_PX, frame.px(size)) * 1.25)
    if stacked:
        side = min(rect.width, rect.height - len(lines) * line_px - frame.px(1))
        code = draw_qr(frame, link, (rect.centerx, rect.y + side // 2), side)
        x, y, anchor = rect.centerx, code.bottom + frame.px(1), "midtop"
    else:
        side = min(rect.height, rect.width // 3)
        code = draw_qr(frame, link, (rect.x + side // 2, rect.centery), side)
        x, y, anchor = code.right + frame.px(2), rect.centery - len(lines) * line_px // 2, "topleft"
    width = rect.width if stacked else rect.right - x
    for i, line in enumerate(lines):
        ink = res.GOLD if i == 0 else res.TEXT
        w.text(frame, line, size, (x, y), ink, anchor, max_width=width, bold=i == 0)
        y += line_px
