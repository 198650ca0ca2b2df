"""Card faces of published decks unlike the pinochle one, drawn for the ``other_decks`` bench.

Every real-photo figure comes from one deck (white paper, plain border, red and black ink);
groups own decks whose faces are printed otherwise. Three styles are drawn here, each with
rounded corners (the table shows in the corners, as on real cards):

- ``full_bleed``: colour art to the very edge (a colour field, a large symbol, a numeral in a
  light disc in two corners), no paper showing;
- ``dark``: a near-black face with a light symbol and a light numeral;
- ``bordered``: a coloured band round a white centre holding the symbol and the numeral.

A face is (symbol, number): the symbol is our own games' art (:func:`companion.art.render_symbol`,
no markers), the number a corner index. Two faces with one symbol and different numbers are a
look-alike pair (a ten beside a nine).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.cardart import paste_rgba

#: The styles drawn, in bench order.
STYLES = ("full_bleed", "dark", "bordered")

#: Face size in pixels (63 x 88 mm at 4 px/mm): large enough to be warped down to any size a
#: camera sees a card at (45-225 px on its short side).
FACE_W, FACE_H = 252, 352

#: Corner radius: 3.5 mm on a 63 mm card, the common die-cut of published decks.
CORNER_RADIUS = 14


@dataclass(frozen=True)
class DeckFace:
    """One printed face: its style, its art (a Bandit symbol), its corner number, and the id it
    is taught as (None: a face never taught; any id read on it is wrong)."""

    style: str
    symbol: str
    number: int
    card_id: str | None


#: The faces of each style: five taught (cherry and plum share their art: a look-alike pair),
#: two never taught (the first a look-alike of the taught pair, the second new art).
FACES: tuple[tuple[str, int, str | None], ...] = (
    ("cherry", 2, "cherry"),
    ("cherry", 3, "plum"),
    ("bell", 5, "bell"),
    ("seven", 7, "seven"),
    ("bar", 9, "bar"),
    ("cherry", 4, None),
    ("plum", 6, None),
)


def deck_faces(style: str) -> list[DeckFace]:
    """The faces of one style (:data:`FACES`)."""
    if style not in STYLES:
        raise KeyError(style)
    return [DeckFace(style, symbol, number, card_id) for symbol, number, card_id in FACES]


#: Per symbol: the colour field of a full-bleed face and the band of a bordered one (BGR).
_FIELDS = {
    "cherry": (70, 60, 190),
    "plum": (150, 70, 120),
    "bell": (40, 170, 220),
    "seven": (160, 110, 40),
    "bar": (60, 140, 60),
}


def _symbol(symbol: str, size: int) -> np.ndarray:
    from companion.art import render_symbol

    return render_symbol("bandit", symbol, size)


def _index(
    canvas: np.ndarray, number: int, ink: tuple[int, int, int], disc: tuple[int, int, int] | None
) -> None:
    """The corner index, top-left and (turned) bottom-right; on a disc of ``disc`` if given."""
    for turn in (False, True):
        work = canvas[::-1, ::-1].copy() if turn else canvas
        if disc is not None:
            cv2.circle(work, (36, 40), 25, disc, -1, cv2.LINE_AA)
        cv2.putText(work, str(number), (22, 56), cv2.FONT_HERSHEY_DUPLEX, 1.3, ink, 3, cv2.LINE_AA)
        if turn:
            canvas[:] = work[::-1, ::-1]


def _pips(canvas: np.ndarray, number: int, colour: tuple[int, int, int], top: int) -> None:
    """``number`` small dots in a row under the art: the count a player reads at a glance."""
    step = 18
    x0 = FACE_W // 2 - step * (number - 1) // 2
    for k in range(number):
        cv2.circle(canvas, (x0 + k * step, top), 6, colour, -1, cv2.LINE_AA)


@lru_cache(maxsize=64)
def _render(style: str, symbol: str, number: int) -> np.ndarray:
    w, h = FACE_W, FACE_H
    if style == "full_bleed":
        field = np.array(_FIELDS[symbol], np.float32)
        ramp = np.linspace(0.75, 1.2, h, dtype=np.float32)[:, None, None]
        face = np.clip(field * ramp * np.ones((h, w, 1), np.float32), 0, 255).astype(np.uint8)
        # Rays from the middle: art, not paper, reaches every edge.
        for k in range(12):
            angle = k * np.pi / 6
            end = (int(w / 2 + 400 * np.cos(angle)), int(h / 2 + 400 * np.sin(angle)))
            cv2.line(
                face, (w // 2, h // 2), end, tuple(int(c * 0.8) for c in _FIELDS[symbol]), 9, cv2.LINE_AA
            )
        paste_rgba(face, _symbol(symbol, 190), (w - 190) // 2, (h - 190) // 2 + 10)
        _pips(face, number, (245, 245, 245), h - 60)
        _index(face, number, (30, 30, 30), (240, 240, 235))
    elif style == "dark":
        face = np.full((h, w, 3), (34, 26, 24), np.uint8)
        cv2.rectangle(face, (12, 12), (w - 13, h - 13), (150, 190, 205), 2, cv2.LINE_AA)
        paste_rgba(face, _symbol(symbol, 160), (w - 160) // 2, (h - 160) // 2, lighten=0.45)
        _pips(face, number, (200, 225, 235), h - 62)
        _index(face, number, (215, 235, 240), None)
    elif style == "bordered":
        face = np.full((h, w, 3), _FIELDS[symbol], np.uint8)
        band = 22  # 5.5 mm of colour round the white centre
        face[band : h - band, band : w - band] = (238, 240, 240)
        paste_rgba(face, _symbol(symbol, 150), (w - 150) // 2, (h - 150) // 2)
        _pips(face, number, _FIELDS[symbol], h - 70)
        _index(face, number, (30, 30, 30), (238, 240, 240))
    else:
        raise KeyError(style)
    face.setflags(write=False)
    return face


def render_face(face: DeckFace) -> np.ndarray:
    """The face as a ``FACE_H`` x ``FACE_W`` BGR image (cached, read-only); its rounded corners
    are cut by :func:`corner_mask`."""
    return _render(face.style, face.symbol, face.number)


@lru_cache(maxsize=1)
def corner_mask() -> np.ndarray:
    """The card's die-cut as a float mask in [0, 1]: 1 on the card, 0 beyond its rounded
    corners (anti-aliased)."""
    scale = 4
    big = np.zeros((FACE_H * scale, FACE_W * scale), np.uint8)
    r = CORNER_RADIUS * scale
    cv2.rectangle(big, (r, 0), (FACE_W * scale - 1 - r, FACE_H * scale - 1), 255, -1)
    cv2.rectangle(big, (0, r), (FACE_W * scale - 1, FACE_H * scale - 1 - r), 255, -1)
    for cx in (r, FACE_W * scale - 1 - r):
        for cy in (r, FACE_H * scale - 1 - r):
            cv2.circle(big, (cx, cy), r, 255, -1)
    mask = cv2.resize(big, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    mask.setflags(write=False)
    return mask
