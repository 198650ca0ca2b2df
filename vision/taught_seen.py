"""What the taught-card reader saw: each outline with its answer, and the rules about them.

:class:`TaughtSeen` is one outline and what it was identified as. The rules here are the
reader's (:mod:`vision.taught_reader`) about what it saw: whether cards lie still, whether an
outline was looked at whole and named nothing, which card explains which outline, whether a
card shows whole, and whether an outline is a playing card's size on the mat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.card_checks import iou
from vision.enrolled import Match
from vision.frame_cut import is_cut, part_in_view

#: Corners moved less than this share of the card's long side: the same card, lying still.
STILL_FRACTION = 0.04


@dataclass(frozen=True)
class TaughtSeen:
    """One outline and what it was identified as: ``quad`` the card's corners (the outline's,
    or the named card's own when the outline took in more), ``outline`` as found; ``visible``
    the part of a card found by its face that shows (None: the whole ``quad``)."""

    quad: np.ndarray
    match: Match
    outline: np.ndarray
    visible: np.ndarray | None = None
    #: ``match`` came from the whole identification (thumbnails and features), not the fast one.
    closely: bool = False


def named_nothing(seen: TaughtSeen | None) -> bool:
    """Whether an outline was looked at whole and named nothing."""
    return seen is not None and seen.match.card_id is None and seen.closely


#: A card found inside a bigger unnamed outline (a row of cards) explains it when this share
#: of the card lies inside it.
INSIDE_OUTLINE = 0.8
#: A card found by its face shows whole when this share of it is in view (the face search says
#: a little less than all of a card on top shows: what shows is judged near its keypoints).
WHOLE_SHARE = 0.75


def in_view(seen: TaughtSeen, shape: tuple[int, ...]) -> TaughtSeen:
    """``seen``, a named card reaching past the frame's edge with no part said to show, showing
    its part in view: whatever named it (an outline, a guess at a row's end, a strip), its whole
    corners lie partly out of view, and zones and the bench place a card by what shows (IMG_2577
    read at 0.6x: an ace cut by the left edge, named at a row's end, was otherwise placed by a
    box mostly past the frame, IoU 0.36 with what shows: an id where no card is)."""
    if seen.visible is None and seen.match.card_id is not None and is_cut(seen.quad, shape):
        return replace(seen, visible=part_in_view(seen.quad, shape))
    return seen


def once_each(seen: list[TaughtSeen]) -> list[TaughtSeen]:
    """``seen`` with each card once: parts of one card named alike (a card split in two by a
    cable or a pen lying across it) are one card, the one that shows most."""
    kept: list[TaughtSeen] = []
    for one in sorted(seen, key=lambda s: -float(cv2.contourArea(part_shown(s).astype(np.float32)))):
        if one.match.card_id is not None and any(
            other.match.card_id == one.match.card_id and iou(other.quad, one.quad) > 0.5 for other in kept
        ):
            continue
        kept.append(one)
    return kept


def part_shown(seen: TaughtSeen) -> np.ndarray:
    """The part of a card that shows (all of it when it shows whole)."""
    return seen.quad if seen.visible is None else seen.visible


def same_places(quads: list[np.ndarray], before: list[np.ndarray] | None) -> bool:
    """Whether ``quads`` are the cards ``before``, each lying still (see ``STILL_FRACTION``)."""
    if before is None or len(quads) != len(before):
        return False
    for quad in quads:
        long_side = max(math.dist(quad[0], quad[3]), math.dist(quad[1], quad[2]), math.dist(quad[0], quad[1]))
        reach = STILL_FRACTION * long_side
        moved = [float(np.linalg.norm(old - quad, axis=1).max()) for old in before if old.shape == quad.shape]
        if not any(distance <= reach for distance in moved):
            return False
    return True


def shows_whole(seen: TaughtSeen) -> bool:
    """Whether the whole card shows (it was named by its outline, or its face shows whole)."""
    if seen.visible is None:
        return True
    shown = cv2.contourArea(seen.visible.reshape(-1, 1, 2).astype(np.float32))
    return bool(shown >= WHOLE_SHARE * cv2.contourArea(seen.quad.astype(np.float32)))


#: A card named by its features lies along its outline when the two overlap this much (IoU).
ALONG_OUTLINE = 0.85


def along_outline(seen: TaughtSeen) -> bool:
    """Whether a named card lies along the outline it was found by (not a card under another
    that the outline took in with it)."""
    return seen.match.corners is None or iou(seen.match.corners, seen.outline) >= ALONG_OUTLINE


#: ``Match.method`` of a card found by its face (:mod:`vision.face_search`), not by an outline.
FOUND_BY_FACE = "face search"


def explains(face: TaughtSeen, quad: np.ndarray) -> bool:
    """Whether a card found by its face explains an unidentified outline: the outline's centre
    lies on what shows of it, or the two overlap by half."""
    assert face.visible is not None
    centre = (float(quad[:, 0].mean()), float(quad[:, 1].mean()))
    on_it = cv2.pointPolygonTest(face.visible.reshape(-1, 1, 2).astype(np.float32), centre, False) >= 0
    return on_it or iou(face.quad, quad) > 0.5


#: Playing cards in millimetres, short and long side: from mini cards to tarot, with room for
#: an outline a few millimetres off.
CARD_SHORT_MM = (38.0, 80.0)
CARD_LONG_MM = (58.0, 125.0)


def card_sized_mm(quad: np.ndarray, to_mat: np.ndarray) -> bool:
    """Whether ``quad`` (image px) is a playing card's size on the mat."""
    corners = cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float64), to_mat).reshape(4, 2)
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    short, long_ = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
    return bool(CARD_SHORT_MM[0] <= short <= CARD_SHORT_MM[1] and CARD_LONG_MM[0] <= long_ <= CARD_LONG_MM[1])
