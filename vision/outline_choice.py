"""Which of the card-shaped outlines a search found are the cards: one outline per card.

The searches of :mod:`vision.card_outlines` find a card several times (in several masks, placed
a little differently) and find things round cards and inside them too: a row of cards side by
side, a patch of table, a face card's art frame, a pip. :func:`select_outlines` keeps one
outline per card and decides, of two one inside the other, which is the card.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_checks import inside_share, iou
from vision.card_rows import PAIR_CARD_SHARE, pair_like
from vision.frame_cut import corners_in_view

__all__ = ["Scored", "select_outlines"]

#: A scored outline: score, evidence (1 maybe, 2 surely a card), corners, whether only a part.
Scored = tuple[float, int, np.ndarray, bool]


def _surer_within(inner: Scored, outer: Scored, shape: tuple[int, ...], margin: float) -> bool:
    """Whether ``inner`` is surer than ``outer`` and lies inside it, less than most of it, both
    outlines whole ones (not a part of one between seams) and ``outer`` wholly inside the view of
    ``shape`` (its corners more than ``margin`` px from the border): a card in a row of cards (or a
    patch of table), not a duplicate of the row's outline. (An outline reaching the view's border
    may be anything round a card: dev single IMG_2528 webcam-like, a postcard beside the nine, a
    card-shaped part of its picture inside it; teaching would see two cards. A part between seams
    a row's outline suppressed may be no card's: overexposed, IMG_2655's ran across the king.)"""
    return (
        inner[1] > outer[1]
        and not inner[3]
        and not outer[3]
        and all(corners_in_view(outer[2], shape, margin))
        and cv2.contourArea(inner[2]) < 0.55 * cv2.contourArea(outer[2])
        and inside_share(inner[2], outer[2]) > 0.8
    )


def select_outlines(
    scored: list[Scored], shape: tuple[int, ...], margin: float
) -> list[tuple[int, np.ndarray, bool]]:
    """One outline per card (``shape``: the view's; ``margin``: how near its border, in px, an
    outline is cut by it, as the search judges whole cards): overlapping duplicates merged (best
    score kept); of two one inside the other, the outer when the inner is most of it (a face card's
    art frame), else the inner when both are sure (a patch of table round a card), both when
    neither is (or print on a card: dev IMG_2570 webcam-like, three diamond pips erased the nine);
    in a pair's outline, the inner when it is a card; a sure card in an unsure outline, the card,
    and the outline too when the card is a third of it or more and the outline lies wholly in view
    (a row of cards: the others in it are looked for)."""
    # By score: surer first cost a read at 0.6x (dev IMG_2617, the pair outline over a nine).
    scored = sorted(scored, key=lambda item: -item[0])
    kept: list[Scored] = []
    for item in scored:
        # A row of cards scores above a card in it (larger, straight outer edges): not merged
        # (dev IMG_2655 webcam-like, the row of ten, king and ace hid all three).
        if all(iou(item[2], other[2]) < 0.3 or _surer_within(item, other, shape, margin) for other in kept):
            kept.append(item)
    drop: set[int] = set()
    areas = [cv2.contourArea(quad) for _s, _e, quad, _p in kept]
    for i, (_si, ei, inner, _pi) in enumerate(kept):
        for j, (_sj, ej, outer, pj) in enumerate(kept):
            if i != j and areas[i] < areas[j] and inside_share(inner, outer) > 0.8:
                # The surer wins (a pip, a card on an envelope); equally sure, as above.
                if ei != ej:
                    # A row round a sure card (the pairs the merge above let through) stays:
                    # unsure, it counts only where a face names a card in it. Dropped, the cards
                    # beside the sure one were lost (dev IMG_2617 a stop under: the ace half
                    # under the nine).
                    if not (ei > ej and iou(inner, outer) >= 0.3):
                        drop.add(i if ej > ei else j)
                elif not pj and pair_like(outer):
                    # Two cards side by side: a card of the two in it is half of it or more and
                    # is kept (named, it shows where the other lies); less is print on them (dev
                    # IMG_2687: the ace's diamond pip, a card-shaped rhombus).
                    drop.add(j if areas[i] >= PAIR_CARD_SHARE * areas[j] else i)
                elif (most := areas[i] >= 0.55 * areas[j]) or ei == 2:
                    drop.add(i if most else j)
    return [(evidence, quad, part) for k, (_s, evidence, quad, part) in enumerate(kept) if k not in drop]
