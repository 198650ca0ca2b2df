"""How far across a card its corner index reaches: the first line of print in the corner (the
rank's characters), measured once on each taught picture.

A card beneath another is named from the strip that shows (:mod:`vision.part_match`); when the
strip is narrow, its index is compared over a narrow zone along the card's side. A one-character
rank (pinochle's, a playing card's) fits in it. A two-digit index does not: the zone then holds
its first digit and part of the second, alike for a "19" and a never-taught "16" with the same
art, and the strip must not be named by it (``companion bench covered``: a "19"'s art numbered
"10" to "18" was named in 9 of 9 at a quarter strip).

The rank is found as characters: the print nearest the corner, and the print beside it in the
same line (tops level, heights alike, a small gap). A pip or a face card's picture frame beside
the index runs on past the zone, or stands lower, or is larger: it is not counted. On the
realcards deck's cut-outs 222 of 231 corners measure inside the narrow zone, 2 past it and 7
not known (a rank joined to the picture frame beside it); a picture whose reach is past the
zone or not known is named from wide strips only.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["index_reach"]

#: Print smaller than this (px) is a speck.
_MIN_AREA = 6
#: The first character starts in the top part of the zone (this share of its height) and is at
#: least this many px tall.
_TOP_SHARE, _MIN_HEIGHT = 0.5, 5
#: A further character of the line: its top within this share of the first's height of the
#: first's top, its height within these shares of it, and at most this share of it from the
#: character before.
_LEVEL, _HEIGHTS, _GAP = 0.35, (0.6, 1.4), 0.6


def index_reach(zone: np.ndarray) -> int | None:
    """The column (px from the card's side) where the first line of print in ``zone`` ends: the
    top-left corner index zone of a card picture (grey, the card's side at column 0, its top at
    row 0). None when no line stands wholly inside the zone (nothing printed, or print that runs
    on past the zone's edge: its extent is not known)."""
    values = zone.astype(np.float32)
    paper, ink = float(np.percentile(values, 75)), float(np.percentile(values, 5))
    if paper - ink <= 1e-6:
        return None
    printed = (values < paper - 0.5 * (paper - ink)).astype(np.uint8)
    count, _labels, stats, _centres = cv2.connectedComponentsWithStats(printed, connectivity=8)
    h, w = zone.shape[:2]
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
    right = x0 + w0
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
                right = max(right, x + bw)
                grew = True
    return right
