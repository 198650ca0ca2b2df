"""Draw printable card faces (and Mega Jackpot's reel-side backs) as images.

The symbol art comes from :mod:`companion.art` (shared with the screen); this module only lays
it out with the frame, the two markers, the name, the coins and the ability text. Images are
BGR uint8 at ``px_per_mm`` (12 px/mm, about 305 dpi, for print).

>>> image = render_side("bandit", MarkerMap.for_game("bandit").face_for(13))
>>> image.shape
(1056, 756, 3)
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.layout import (
    CARD_H_MM,
    CARD_W_MM,
    FRAME_MM,
    MARKER_INSET_MM,
    MARKER_MM,
    PRINT_PX_PER_MM,
)
from vision.markers import MarkerMap, PrintedSide, marker_image

INK = (40, 34, 30)
FRAME_COLOUR = (38, 32, 28)
PAPER = (250, 250, 248)
COIN = (40, 170, 235)


def _faces(game_id: str) -> dict[str, object]:
    from companion.engine import get_game

    return {face.id: face for face in get_game(game_id).card_faces()}


def _label(game_id: str, symbol: str) -> str:
    from companion.art import symbol_label

    try:
        return symbol_label(game_id, symbol)
    except KeyError:
        return symbol.capitalize()


def paste_rgba(canvas: np.ndarray, rgba: np.ndarray, x: int, y: int, lighten: float = 0.0) -> None:
    """Paste RGBA art onto the BGR ``canvas`` at (x, y); ``lighten`` mixes the art's colours
    towards white (a light print on a dark face)."""
    h, w = rgba.shape[:2]
    region = canvas[y : y + h, x : x + w]
    alpha = rgba[:, :, 3:4].astype(np.float32) / 255.0
    bgr = rgba[:, :, 2::-1].astype(np.float32)
    bgr = bgr + (255.0 - bgr) * lighten
    region[:] = (region * (1.0 - alpha) + bgr * alpha).astype(np.uint8)


def _text(
    canvas: np.ndarray,
    text: str,
    x: float,
    y: float,
    height_mm: float,
    ppm: float,
    colour: tuple[int, int, int] = INK,
    thickness_mm: float = 0.35,
) -> None:
    scale = height_mm * ppm / 22.0  # HERSHEY_SIMPLEX cap height is about 22 px at scale 1
    thickness = max(1, round(thickness_mm * ppm))
    cv2.putText(
        canvas,
        text,
        (round(x * ppm), round(y * ppm)),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        colour,
        thickness,
        cv2.LINE_AA,
    )


def _width_mm(text: str, height_mm: float, thickness_mm: float = 0.35) -> float:
    """How wide ``text`` prints at ``height_mm`` (measured at 10 px/mm; Hershey scales linearly)."""
    (width, _), _ = cv2.getTextSize(
        text, cv2.FONT_HERSHEY_SIMPLEX, height_mm * 10 / 22.0, max(1, round(thickness_mm * 10))
    )
    return width / 10.0


def _fit_line(text: str, width_mm: float, height_mm: float, thickness_mm: float = 0.35) -> tuple[str, float]:
    """``text`` and a height at which it fits ``width_mm``: shrink to 65 %, then shorten."""
    for factor in (1.0, 0.9, 0.8, 0.72, 0.65):
        if _width_mm(text, height_mm * factor, thickness_mm) <= width_mm:
            return text, height_mm * factor
    height = height_mm * 0.65
    while len(text) > 2 and _width_mm(text + ".", height, thickness_mm) > width_mm:
        text = text[:-1]
    return text.rstrip() + ".", height


def _wrap(text: str, width_mm: float, height_mm: float, max_lines: int) -> list[str]:
    """Greedy word wrap by printed width; the last line ends with '...' if text is left over."""
    lines: list[str] = []
    for word in text.split():
        if lines and _width_mm(f"{lines[-1]} {word}", height_mm) <= width_mm:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = _fit_line(lines[-1] + "...", width_mm, height_mm)[0]
    return lines


@lru_cache(maxsize=256)
def _render_cached(game_id: str, printed: PrintedSide, marker_id: int, ppm: int) -> np.ndarray:
    from companion.art import render_symbol

    w, h = round(CARD_W_MM * ppm), round(CARD_H_MM * ppm)
    canvas = np.full((h, w, 3), PAPER, dtype=np.uint8)
    frame = round(FRAME_MM * ppm)
    canvas[:frame, :] = FRAME_COLOUR
    canvas[-frame:, :] = FRAME_COLOUR
    canvas[:, :frame] = FRAME_COLOUR
    canvas[:, -frame:] = FRAME_COLOUR

    side = round(MARKER_MM * ppm)
    inset = round(MARKER_INSET_MM * ppm)
    marker = cv2.cvtColor(marker_image(marker_id, side), cv2.COLOR_GRAY2BGR)
    canvas[inset : inset + side, inset : inset + side] = marker
    canvas[h - inset - side : h - inset, w - inset - side : w - inset] = marker[::-1, ::-1]

    face = _faces(game_id).get(printed.card_id) if printed.side == "front" else None
    symbols = printed.symbols or ("",)
    # Name and coins: the band to the right of the top-left marker.
    text_x = MARKER_INSET_MM + MARKER_MM + 2.0
    if printed.side == "back":
        title, subtitle = "Reel side", " / ".join(_label(game_id, s) for s in symbols)
    else:
        title = getattr(face, "name", printed.card_id)
        subtitle = " / ".join(_label(game_id, s) for s in symbols if s)
    room = CARD_W_MM - text_x - FRAME_MM - 1.0
    line, height = _fit_line(str(title), room, 4.2, 0.5)
    _text(canvas, line, text_x, 11.0, height, ppm, thickness_mm=0.5)
    if subtitle.lower() != str(title).lower():
        line, height = _fit_line(subtitle, room, 2.6)
        _text(canvas, line, text_x, 16.5, height, ppm)
    coins = getattr(face, "coins", None)
    if coins is not None:
        centre = (round((CARD_W_MM - 9.5) * ppm), round(21.5 * ppm))
        cv2.circle(canvas, centre, round(3.6 * ppm), COIN, -1, cv2.LINE_AA)
        cv2.circle(canvas, centre, round(3.6 * ppm), INK, max(1, round(0.3 * ppm)), cv2.LINE_AA)
        label = str(coins)
        _text(canvas, label, CARD_W_MM - 9.5 - 1.3 * len(label), 23.0, 3.2, ppm, thickness_mm=0.45)

    # Art: the middle band between the markers.
    art_top, art_bottom = MARKER_INSET_MM + MARKER_MM + 2.0, CARD_H_MM - MARKER_INSET_MM - MARKER_MM - 2.0
    art_mm = min(art_bottom - art_top, (CARD_W_MM - 2 * FRAME_MM - 4) / len(symbols))
    size = max(8, round(art_mm * ppm))
    total = size * len(symbols)
    x0 = (w - total) // 2
    y0 = round((art_top + art_bottom) / 2 * ppm - size / 2)
    for index, symbol in enumerate(symbols):
        if symbol:
            paste_rgba(canvas, render_symbol(game_id, symbol, size), x0 + index * size, y0)

    # Rules text: the band left of the bottom-right marker; smaller type when it is long.
    text = str(getattr(face, "text", "") or getattr(face, "ability", "") or "")
    width_mm = CARD_W_MM - MARKER_INSET_MM - MARKER_MM - FRAME_MM - 2.5
    for height, max_lines in ((2.3, 5), (1.9, 6)):
        lines = _wrap(text, width_mm, height, max_lines)
        if len(_wrap(text, width_mm, height, 99)) <= max_lines:
            break
    top = CARD_H_MM - MARKER_MM - MARKER_INSET_MM + height + 0.6
    for index, line in enumerate(lines):
        _text(canvas, line, FRAME_MM + 1.3, top + index * height * 1.55, height, ppm, thickness_mm=0.3)
    canvas.setflags(write=False)
    return canvas


def render_side(game_id: str, printed: PrintedSide, px_per_mm: int = PRINT_PX_PER_MM) -> np.ndarray:
    """One printed side (front face or reel-side back) as a BGR image; cached, read-only."""
    marker_id = MarkerMap.for_game(game_id).id_of(printed.card_id, printed.side)
    return _render_cached(game_id, printed, marker_id, int(px_per_mm))


def printed_sides(game_id: str) -> list[PrintedSide]:
    """Every distinct printed side of a game: fronts in ``card_faces()`` order, then backs."""
    sides = list(MarkerMap.for_game(game_id).sides.values())
    return [s for s in sides if s.side == "front"] + [s for s in sides if s.side == "back"]


def file_stem(printed: PrintedSide) -> str:
    """The PNG name of a side: the card id for fronts, ``back-<a>-<b>`` for reel sides."""
    if printed.side == "back":
        return "back-" + "-".join(printed.symbols)
    return printed.card_id
