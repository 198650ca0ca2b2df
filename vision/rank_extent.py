"""Where a card's corner index prints its rank: the first line of print in the corner (the
rank's characters), measured once on each taught picture.

A card beneath another is named from the strip that shows (:mod:`vision.part_match`), by its
corner index. The index zone holds more than the rank: the suit beneath it and pips beside it,
alike in two ranks of one suit, and where a strip shows a two-digit rank only in part, its first
digit and a half, alike in a "19" and a never-taught "16" with the same art. So the named face's
rank is compared once more alone, and only where its characters show.

The rank is found as characters: the print nearest the corner, and the print beside it in the
same line (tops level, heights alike, a small gap). A pip or a face card's picture frame beside
the index runs on past the zone, or stands lower, or is larger: it is not counted. Print is
looked for at two depths (``_STEPS``): a soft picture's thin strokes are lighter than its solid
pips. On the realcards deck's 119 cut-outs 233 of 238 corners measure inside the narrow zone (a
one-character rank), 2 past it and 3 not known (a rank joined to the picture frame beside it);
on their webcam-like copies' cut-outs 35 of 230 are not known (98 at one depth).
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["Extent", "rank_extent"]

#: A rank's box: left, top, right and bottom (px from the card's side and top).
Extent = tuple[int, int, int, int]

#: Print smaller than this (px) is a speck.
_MIN_AREA = 6
#: The first character starts in the top part of the zone (this share of its height) and is at
#: least this many px tall.
_TOP_SHARE, _MIN_HEIGHT = 0.5, 5
#: A further character of the line: its top within this share of the first's height of the
#: first's top, its height within these shares of it, and at most this share of it from the
#: character before.
_LEVEL, _HEIGHTS, _GAP = 0.35, (0.6, 1.4), 0.6
#: Print is darker than the paper by these shares of the zone's contrast (paper to its darkest
#: print), each looked at. The darkest print is often a solid pip beside the index; a soft
#: picture's thin rank strokes (a webcam's, taught or read) stay lighter than half of it: at half
#: the "10" of 29 of 36 webcam-taught tens' corners was not found or found as its "1" alone, and
#: a nine's strip beneath a card was named a ten by the index zone's pip (realcards, all from
#: webcam-like copies, nines untaught: IMG_2616).
_STEPS = (0.5, 0.35)


def rank_extent(zone: np.ndarray) -> Extent | None:
    """The box of the first line of print in ``zone``, the top-left corner index zone of a card
    picture (grey, the card's side at column 0, its top at row 0): its left, top, right and
    bottom (px from the card's side and top; the right and bottom just past its characters).
    None when no line stands wholly inside the zone (nothing printed, or print that runs on past
    the zone's edge: its extent is not known)."""
    values = zone.astype(np.float32)
    paper, ink = float(np.percentile(values, 75)), float(np.percentile(values, 5))
    if paper - ink <= 1e-6:
        return None
    lines = [_first_line(values < paper - step * (paper - ink)) for step in _STEPS]
    known = [line for line in lines if line is not None]
    if not known:
        return None
    # One box round all: a box a little large still holds the rank (and the rank check then
    # compares a little more), one cut short would leave a character out.
    left, top, right, bottom = zip(*known, strict=True)
    return min(left), min(top), max(right), max(bottom)


def _first_line(printed: np.ndarray) -> Extent | None:
    """The box of the first line of print in a corner zone's print map (True: print)."""
    marks = printed.astype(np.uint8)
    count, _labels, stats, _centres = cv2.connectedComponentsWithStats(marks, connectivity=8)
    h, w = printed.shape[:2]
    # Print touching the card's own edge is its border or the table; print touching the zone's
    # inner edges runs on past it.
    boxes = [
        (int(x), int(y), int(bw), int(bh))
        for x, y, bw, bh, area in stats[1:count]
        if area >= _MIN_AREA and x >= 2 and y >= 2 and x + bw < w - 1 and y + bh < h - 1
    ]
    tops = [box for box in boxes if box[1] < _TOP_SHARE * h and box[3] >= _MIN_HEIGHT]
    if not tops:
        return None
    x0, y0, w0, h0 = min(tops, key=lambda box: box[0] + 0.5 * box[1])
    left, top, right, bottom = x0, y0, x0 + w0, y0 + h0
    line = {(x0, y0, w0, h0)}
    grew = True
    while grew:
        grew = False
        for box in boxes:
            x, y, bw, bh = box
            if box in line or x < right - 2 or x - right > _GAP * h0:
                continue
            if abs(y - y0) <= _LEVEL * h0 and _HEIGHTS[0] * h0 <= bh <= _HEIGHTS[1] * h0:
                line.add(box)
                top, right, bottom = min(top, y), max(right, x + bw), max(bottom, y + bh)
                grew = True
    return left, top, right, bottom
