"""Cards cut by the frame's edge: the whole card completed from the part in view.

At a table the camera's view ends somewhere, and a card lying across its border shows only in
part; so does a card at the edge of a phone photo. Its outline (:mod:`vision.card_outlines`)
is the part in view (one side along the border), or a card-sized guess reaching past the
border (the straight-edge search proposes one along two edges meeting square). Neither is the
card: its thumbnail is squeezed, and its local features are few when the face is sparse (an
ace's one pip, a nine's corner).

Yet its geometry is known in part. When both corners of one side lie in view and the two
sides from them run out of view, that side is one of the card's sides whole, and the two
sides give the card's directions; a card's sides are 63 : 88, so the side in view is either
its short side (the card reaches 88/63 of it beyond) or its long one (63/88). Each completion
is one hypothesis, dropped when the card's visible length along its cut sides is already
longer than it; the part of each hypothesis in view is then compared with the taught faces
by :class:`vision.part_match.PartMatcher` (only with a corner index in view, never a strip of
pips alone), and a card is named only when the hypotheses agree: one names it and none names
another face. A card with three corners in view has all four sides known: its outline is the
card. One with a single corner in view has no side whole, and stays unidentified.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: A card's short side over its long side (63 x 88 mm).
CARD_RATIO = 63.0 / 88.0
#: A corner this close to the frame's border (share of the frame's short side: 6 px of a 378 px
#: photo, 11 of a 720 px frame) is not in view: the outline's side there may be the border
#: itself placed a few pixels in (IMG_2611's nine: its cut side 2-5 px from the border).
CORNER_MARGIN = 0.015
#: A hypothesis is dropped when the card's visible length along a cut side exceeds its length
#: by more than this share (perspective and the outline's error: a few %).
LENGTH_TOLERANCE = 0.08


def _in_view(point: tuple[float, float], width: int, height: int, margin: float) -> bool:
    x, y = point
    return margin < x < width - 1 - margin and margin < y < height - 1 - margin


def _to_border(start: np.ndarray, direction: np.ndarray, width: int, height: int) -> float:
    """How far from ``start`` (in view) along the unit ``direction`` the frame's border is."""
    reach = math.inf
    for axis, limit in ((0, width - 1), (1, height - 1)):
        step = float(direction[axis])
        if step > 1e-9:
            reach = min(reach, (limit - float(start[axis])) / step)
        elif step < -1e-9:
            reach = min(reach, -float(start[axis]) / step)
    return reach


def corners_in_view(quad: np.ndarray, shape: tuple[int, ...], margin: float) -> list[bool]:
    """For each corner of ``quad`` (image px) whether it lies inside the frame of ``shape``,
    more than ``margin`` px from its border."""
    height, width = shape[:2]
    return [_in_view(p, width, height, margin) for p in np.asarray(quad, np.float64).reshape(-1, 2).tolist()]


def is_cut(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether some corner of ``quad`` (image px) lies on or beyond the frame's border."""
    return not all(corners_in_view(quad, shape, max(2.0, CORNER_MARGIN * min(shape[:2]))))


def completed_cards(quad: np.ndarray, shape: tuple[int, ...]) -> list[np.ndarray]:
    """The whole cards (4 x 2 float32, image px, in the quad's turn) that an outline cut by the
    frame's edge may be part of; [] when it is not cut, or too little of it is in view to say
    (fewer than two corners in view)."""
    height, width = shape[:2]
    margin = max(2.0, CORNER_MARGIN * min(height, width))
    q = np.asarray(quad, np.float32).reshape(4, 2)
    shown = corners_in_view(q, shape, margin)
    if sum(shown) == 3:
        return [q.copy()]  # every side reaches a corner in view: the outline is the card
    if sum(shown) != 2:
        return []
    for i in range(4):
        if shown[i] and shown[(i + 1) % 4]:
            near, far = q[i], q[(i + 1) % 4]
            near_out, far_out = q[(i - 1) % 4], q[(i + 2) % 4]
            break
    else:
        return []  # the corners in view face each other across the card: no side is whole
    whole_side = float(np.linalg.norm(far - near))
    ways, seen = [], []
    for start, end in ((near, near_out), (far, far_out)):
        length = float(np.linalg.norm(end - start))
        if length < 1e-3:
            return []
        way = (end - start) / length
        ways.append(way)
        # What shows of the card along this side: to its outline's end or to the border.
        seen.append(min(length, _to_border(start, way, width, height)))
    cards = []
    for length in (whole_side / CARD_RATIO, whole_side * CARD_RATIO):
        if max(seen) > (1 + LENGTH_TOLERANCE) * length:
            continue
        card = np.float32([near + ways[0] * length, near, far, far + ways[1] * length])
        # The sides run out of view, so the card's far corners lie beyond the border: a card
        # ending in view would have shown its far side (a region of two cards and table
        # reaching the border once completed to a card ending short of it, IMG_2624).
        if any(_in_view(p, width, height, margin) for p in (card[0].tolist(), card[3].tolist())):
            continue
        cards.append(card)
    return cards


def part_in_view(card: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """The polygon (N x 2 float32, image px) of ``card`` inside the frame; None if none is."""
    height, width = shape[:2]
    frame = np.float32([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]])
    area, polygon = cv2.intersectConvexConvex(np.asarray(card, np.float32), frame)
    if polygon is None or area <= 0:
        return None
    return polygon.reshape(-1, 2).astype(np.float32)


#: Of a card cut by the frame's edge at least this share must show (its area over the smaller
#: completion's) for its outline to be kept: less is a sliver that no index fits in.
MIN_SHOWN = 0.15


def cut_card_shaped(quad: np.ndarray, shape: tuple[int, ...], image_area: float) -> bool:
    """Whether ``quad`` (the image's px, of size ``shape``) may be the part in view of a card cut
    by the frame's edge: convex, cut, some completion of it card-shaped
    (:func:`vision.card_checks.card_shaped`), and at least ``MIN_SHOWN`` of that card in view.
    The part itself may be of any aspect (a strip along the border)."""
    from vision.card_checks import MIN_AREA_SHARE, card_shaped

    q = np.asarray(quad, np.float32).reshape(4, 2)
    if not cv2.isContourConvex(q.reshape(4, 1, 2).astype(np.int32)) or not is_cut(q, shape):
        return False
    shown = float(cv2.contourArea(q))
    if shown < MIN_AREA_SHARE * image_area:
        return False
    for card in completed_cards(q, shape):
        if card_shaped(card, image_area) and shown >= MIN_SHOWN * float(cv2.contourArea(card)):
            return True
    return False
