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
its short side (the card reaches 88/63 of it beyond) or its long one (63/88), each also tried
a few per cent shorter and longer (a phone's perspective foreshortens a card). Each completion
is one hypothesis, dropped when the card's visible length along its cut sides is already
longer than it; the part of each hypothesis in view is then compared with the taught faces
by :class:`vision.part_match.PartMatcher` (only with a corner index in view, never a strip of
pips alone), and a card is named only when the hypotheses agree: one names it and none names
another face. A card with three corners in view has all four sides known: its outline is the
card. One with a single corner in view has no side whole; but the cards of one deck are one
size, and a camera looking down at a table sees them nearly the same size in one view: the two
sides from that corner give the card's directions, and the size of the whole cards in view
(:func:`card_size`) its lengths, each way round. Without a whole card in view to say how large
a card is, it stays unidentified.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

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


def _sides_out(
    sides: tuple[tuple[np.ndarray, np.ndarray], ...], width: int, height: int
) -> tuple[list[np.ndarray], list[float]] | None:
    """For each side (from a corner in view, to the outline's next corner): its unit direction,
    and how much of the card shows along it (to the outline's end or to the border); None when
    a side has no length."""
    ways, seen = [], []
    for start, end in sides:
        length = float(np.linalg.norm(end - start))
        if length < 1e-3:
            return None
        way = (end - start) / length
        ways.append(way)
        seen.append(min(length, _to_border(start, way, width, height)))
    return ways, seen


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


def card_size(quads: list[np.ndarray]) -> tuple[float, float] | None:
    """A card's short and long side (image px) in a view, from the outlines ``quads`` of whole
    cards in it (the median of each: an outline a few pixels off, or one card nearer the
    camera, moves it little); None without any."""
    if not quads:
        return None
    sides = []
    for quad in quads:
        q = np.asarray(quad, np.float64).reshape(4, 2)
        lengths = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
        sides.append(sorted(((lengths[0] + lengths[2]) / 2, (lengths[1] + lengths[3]) / 2)))
    short, long_ = np.median(np.array(sides), axis=0)
    return float(short), float(long_)


#: A card near the camera looks larger than the view's typical one: the completions of a corner
#: try the view's size scaled by each of these (the whole cards in one dev photo span 0.93-1.06
#: of their median's size, 10th to 90th percentile; a corner at the top of dev IMG_2642 is a
#: card 5-10 % larger than the median of the three lower down).
SIZE_SPREAD = (0.93, 1.0, 1.07)
#: A corner's two sides meet square within this (cosine of their angle: 78-102 degrees; a phone
#: photo's perspective turns a card's corners a few degrees).
SQUARE_COS = 0.2


def _corner_cards(
    q: np.ndarray,
    corner: int,
    shape: tuple[int, ...],
    margin: float,
    size: tuple[float, float],
    spread: tuple[float, ...],
) -> list[np.ndarray]:
    """The cards of ``size`` (short, long side) whose one corner in view is ``q[corner]``, their
    sides running out of view along the outline's two sides from it, each way round; a card
    shorter than what already shows of it, or with another corner in view (it would have
    shown), is none."""
    height, width = shape[:2]
    start = q[corner]
    sides = _sides_out(((start, q[(corner - 1) % 4]), (start, q[(corner + 1) % 4])), width, height)
    if sides is None:
        return []
    ways, seen = sides
    if abs(float(ways[0] @ ways[1])) > SQUARE_COS:
        return []  # no card's corner

    def completion(lengths: tuple[float, float]) -> np.ndarray | None:
        if any(shows > (1 + LENGTH_TOLERANCE) * length for shows, length in zip(seen, lengths, strict=True)):
            return None
        first, second = start + ways[0] * lengths[0], start + ways[1] * lengths[1]
        card = np.array([first, start, second, second + first - start], np.float32)
        if any(_in_view(p, width, height, margin) for p in card[[0, 2, 3]].tolist()):
            return None  # another corner in view: it would have shown
        shown = part_in_view(card, shape)
        if shown is None or cv2.contourArea(shown) < MIN_SHOWN * float(cv2.contourArea(card)):
            return None  # a sliver of a card: no index fits in it
        return card

    cards = []
    for short, long_ in (size, size[::-1]):
        if completion((short, long_)) is not None:
            scaled = (completion((short * scale, long_ * scale)) for scale in spread)
            cards += [c for c in scaled if c is not None]
    return cards


def completed_cards(
    quad: np.ndarray,
    shape: tuple[int, ...],
    size: tuple[float, float] | None = None,
    spread: tuple[float, ...] = SIZE_SPREAD,
) -> list[np.ndarray]:
    """The whole cards (4 x 2 float32, image px, in the quad's turn) that an outline cut by the
    frame's edge may be part of; [] when it is not cut, or too little of it is in view to say
    (fewer than two corners in view, and no ``size``: a whole card's short and long side in
    this view, see :func:`card_size`); each length tried at each of the scales ``spread``."""
    height, width = shape[:2]
    margin = max(2.0, CORNER_MARGIN * min(height, width))
    q = np.asarray(quad, np.float32).reshape(4, 2)
    shown = corners_in_view(q, shape, margin)
    if sum(shown) == 3:
        return [q.copy()]  # every side reaches a corner in view: the outline is the card
    if sum(shown) == 1 and size is not None:
        return _corner_cards(q, shown.index(True), shape, margin, size, spread)
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
    sides = _sides_out(((near, near_out), (far, far_out)), width, height)
    if sides is None:
        return []
    ways, seen = sides

    def completion(length: float) -> np.ndarray | None:
        if max(seen) > (1 + LENGTH_TOLERANCE) * length:
            return None
        card = np.array([near + ways[0] * length, near, far, far + ways[1] * length], np.float32)
        # The sides run out of view, so the card's far corners lie beyond the border: a card
        # ending in view would have shown its far side (a region of two cards and table
        # reaching the border once completed to a card ending short of it, IMG_2624).
        if any(_in_view(p, width, height, margin) for p in (card[0].tolist(), card[3].tolist())):
            return None
        return card

    cards = []
    for length in (whole_side / CARD_RATIO, whole_side * CARD_RATIO):
        if completion(length) is None:
            continue
        # A phone's perspective foreshortens a card along its length: the whole cards in dev
        # photos show 0.965-1.075 of 63:88 (10th to 90th percentile). A length that holds is
        # tried so spread (each again dropped when it cannot be the card).
        cards += [c for c in (completion(length * scale) for scale in spread) if c is not None]
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


def _least_cards(q: np.ndarray, corner: int, shape: tuple[int, ...]) -> list[tuple[float, float]]:
    """The smallest cards (short, long side) that reach as far as the part ``q`` shows along
    its two sides from its one ``corner`` in view, the short side along either."""
    height, width = shape[:2]
    start, seen = q[corner], []
    for end in (q[(corner - 1) % 4], q[(corner + 1) % 4]):
        length = float(np.linalg.norm(end - start))
        if length < 1e-3:
            return []
        seen.append(min(length, _to_border(start, (end - start) / length, width, height)))
    shorts = (max(seen[0], seen[1] * CARD_RATIO), max(seen[1], seen[0] * CARD_RATIO))
    return [(short, short / CARD_RATIO) for short in shorts]


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
    margin = max(2.0, CORNER_MARGIN * min(shape[:2]))
    shown_corners = corners_in_view(q, shape, margin)
    candidates = []
    if sum(shown_corners) == 1:
        # A corner alone: the card's size is not known here (the reader takes it from the whole
        # cards in view), but the smallest card reaching as far as the part shows along each
        # side must be a card (its corner square, its area a card's, enough of it in view).
        corner = shown_corners.index(True)
        candidates = [
            card
            for size in _least_cards(q, corner, shape)
            for card in _corner_cards(q, corner, shape, margin, size, (1.0,))
        ]
    # The outline search keeps the part as it was (one length each way round): the spread of
    # lengths is for naming a card, not for finding more outlines.
    for card in candidates or completed_cards(q, shape, spread=(1.0,)):
        if card_shaped(card, image_area) and shown >= MIN_SHOWN * float(cv2.contourArea(card)):
            return True
    return False


#: A region's vertex this close to the frame's border (share of the short side, at least 2 px)
#: lies on it: the masks' regions stop at the border or a pixel or two in (blur, closing).
BORDER_SHARE = 0.01


def past_border_quad(
    contour: np.ndarray, shape: tuple[int, ...], hull: np.ndarray | None = None
) -> np.ndarray | None:
    """The card whose part in view is ``contour`` (image px), when that part is a pentagon with
    one side along the frame's border: three of the card's corners in view, the fourth where
    the two sides running to the border meet beyond it; None for any other region.

    A card lying across the border with three corners in view shows as a five-sided region (its
    fourth corner cut off by the border), which no four-corner outline fits: on the dev photos
    at 0.6x and 2.5x such edge cards had no outline at all. Their two sides still run straight
    past the border, so the card's outline is known whole. ``hull``: the contour's convex hull,
    when the caller has it (the search keeps each region's)."""
    height, width = shape[:2]
    hull = cv2.convexHull(contour) if hull is None else hull
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0 or cv2.contourArea(contour) < 0.8 * hull_area:
        return None
    margin = max(2.0, BORDER_SHARE * min(height, width))
    perimeter = cv2.arcLength(hull, True)
    # Finer first than a quad's search: the corner cut off may be small beside the card.
    for eps in (0.01, 0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True).reshape(-1, 2).astype(np.float64)
        if len(approx) < 5:
            return None
        if len(approx) == 5 and cv2.contourArea(approx.astype(np.float32)) >= 0.9 * hull_area:
            return _through_border(approx, width, height, margin)
    return None


def _on_border(
    a: np.ndarray | Sequence[float], b: np.ndarray | Sequence[float], width: int, height: int, margin: float
) -> bool:
    """Whether the segment ``a``-``b`` runs along one side of the frame."""
    return bool(
        (a[0] <= margin and b[0] <= margin)
        or (a[1] <= margin and b[1] <= margin)
        or (a[0] >= width - 1 - margin and b[0] >= width - 1 - margin)
        or (a[1] >= height - 1 - margin and b[1] >= height - 1 - margin)
    )


def _through_border(p: np.ndarray, width: int, height: int, margin: float) -> np.ndarray | None:
    """Of a pentagon ``p`` with one side along the border, the quad with the two sides to the
    border met beyond it (None when no side lies on the border, or the sides do not meet beyond
    it: no card's corner)."""
    along = [i for i in range(5) if _on_border(p[i], p[(i + 1) % 5], width, height, margin)]
    if len(along) != 1:
        return None
    i = along[0]
    a0, a1 = p[(i - 1) % 5], p[i]  # the side running to the border at p[i]
    b0, b1 = p[(i + 2) % 5], p[(i + 1) % 5]  # the one running to it at p[i + 1]
    da, db = a1 - a0, b1 - b0
    cross = da[0] * db[1] - da[1] * db[0]
    if abs(cross) < 1e-9:
        return None
    t = ((b0[0] - a0[0]) * db[1] - (b0[1] - a0[1]) * db[0]) / cross
    s = ((b0[0] - a0[0]) * da[1] - (b0[1] - a0[1]) * da[0]) / cross
    if t < 1.0 or s < 1.0:
        return None  # the sides meet before the border: not one card's corner beyond it
    corner = a0 + t * da
    if _in_view(tuple(corner.tolist()), width, height, margin):
        return None
    return np.array([a0, corner, b0, p[(i + 3) % 5]], np.float32)


def off_border_profiles(quads: list[np.ndarray], shape: tuple[int, ...], margin: float) -> list[np.ndarray]:
    """For each of ``quads`` (image px), which profiles across its sides may place them
    (:func:`vision.card_checks.refine`'s ``seen``, 4 x 16 bool of the ordered quad): none of a
    side running along the frame's border (both ends within ``margin`` px of it, or past it).

    There the card runs on out of view and no edge of it is in the picture: the strongest step
    near that side is its print (IMG_2611's nine at 2.5x: its side on the border pulled 10-20 px
    in onto a column of pips, the outline then taken as the whole card)."""
    from vision.card_checks import REFINE_ALONG, order_quad

    height, width = shape[:2]
    out = []
    for quad in quads:
        # Plain floats (the float32 corners' exact values, as float64 held them): numpy's
        # scalar indexing and comparisons cost more than the test.
        q = order_quad(quad).tolist()
        seen = np.ones((4, len(REFINE_ALONG)), bool)
        for i in range(4):
            if _on_border(q[i], q[(i + 1) % 4], width, height, margin):
                seen[i] = False
        out.append(seen)
    return out
