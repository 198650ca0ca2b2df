"""Cards lying in the zones of our play mat, found by their known size where the mat is seen.

On the mat the search need not guess: the corner markers give every zone's place in the frame
(the homography image -> mat mm) and a playing card is 63 x 88 mm. A light card on the light mat
has edges too faint for the outline search on the whole frame (which then finds the mat itself,
a bigger light rectangle), yet inside one zone the card's border is the one step all round a
63 x 88 mm rectangle. Each single-card zone is looked at from straight above (warped to
``PX_PER_MM``); a card-sized rectangle is tried at several places and turns within the zone,
the one whose border shows the strongest step is placed on the card's edges
(:func:`vision.card_checks.refine`) and kept when there is ink inside. Such an outline is not
sure (a card's edge on the mat may be too faint to prove it): the reader reports it only when a
taught face confirms it, like every outline that is not sure.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_checks import card_evidence, order_quad, refine
from vision.card_outlines import CardOutline
from vision.frame_blocks import changed_blocks, covered_blocks
from vision.layout import CARD_H_MM, CARD_W_MM, transform
from vision.mats import MatLayout, Zone

#: The zone is looked at with this many pixels per millimetre (a card: 189 x 264 px).
PX_PER_MM = 3.0
#: Room round the zone (mm): a card may lie over its printed frame a little.
MARGIN_MM = 8.0
#: Tried placements: centre offsets (mm) and turns (degrees) from the zone's middle.
OFFSETS_MM = np.arange(-6.0, 6.01, 3.0)
TURNS_DEG = np.arange(-12.0, 12.01, 4.0)
#: ... then round the best of those.
FINE_OFFSETS_MM = np.array([-1.0, 0.0, 1.0])
FINE_TURNS_DEG = np.array([-1.5, 0.0, 1.5])
#: A zone's picture is the same as last time when no block of this small copy changed by more
#: than ``STILL_LEVELS`` grey levels.
_STILL_SIZE = (16, 20)
STILL_LEVELS = 8
#: A placement's border is sampled this deep on either side (mm): median of three depths, so
#: a thin line is no step.
DEPTHS_MM = (1.0, 2.0, 3.0)
#: Light print narrower than this (mm) is taken out of a zone's picture before placements are
#: tried: the zone's frame line (0.8 mm printed, about 2 mm through a camera's blur) and label.
PRINTED_LINE_MM = 2.3


def _cards_at(centre: np.ndarray, shifts: np.ndarray, turns_deg: np.ndarray) -> np.ndarray:
    """The 63 x 88 mm card's corners (TL TR BR BL, mm) at ``centre`` moved by every shift
    (S x 2) and turned by every turn: (S * T) x 4 x 2, shifts outermost."""
    half = np.array([[-CARD_W_MM, -CARD_H_MM], [CARD_W_MM, -CARD_H_MM], [CARD_W_MM, CARD_H_MM],
                     [-CARD_W_MM, CARD_H_MM]], np.float32) / 2
    angles = np.radians(turns_deg).astype(np.float32)
    cos, sin = np.cos(angles)[:, None], np.sin(angles)[:, None]
    turned = np.stack([half[:, 0] * cos - half[:, 1] * sin, half[:, 0] * sin + half[:, 1] * cos], axis=-1)
    return (turned[None] + (centre + shifts)[:, None, None]).reshape(-1, 4, 2)


def _border_steps(grey: np.ndarray, quads_px: np.ndarray) -> np.ndarray:
    """For each quad (P x 4 x 2, window px), the mean step between just inside and just outside
    its border (grey levels, median of three depths each side)."""
    ts = np.linspace(0.1, 0.9, 10, dtype=np.float32)
    starts = quads_px
    ends = np.roll(quads_px, -1, axis=1)
    direction = ends - starts
    direction /= np.linalg.norm(direction, axis=2, keepdims=True) + 1e-6
    centre = quads_px.mean(axis=1, keepdims=True)
    normal = np.stack([direction[..., 1], -direction[..., 0]], axis=-1)
    outward = np.einsum("pkd,pkd->pk", normal, (starts + ends) / 2 - centre) >= 0
    normal = np.where(outward[..., None], normal, -normal)
    points = starts[:, :, None] + (ends - starts)[:, :, None] * ts[None, None, :, None]  # P x 4 x T x 2
    depths = np.array(DEPTHS_MM, np.float32) * PX_PER_MM
    offsets = normal[:, :, None, None, :] * depths[None, None, None, :, None]  # P x 4 x 1 x D x 2
    h, w = grey.shape
    samples = []
    for sign in (-1.0, 1.0):
        where = points[:, :, :, None, :] + sign * offsets
        xs = np.clip(where[..., 0], 0, w - 1).astype(np.int32)
        ys = np.clip(where[..., 1], 0, h - 1).astype(np.int32)
        values = grey[ys, xs].astype(np.float32)
        # The median of three: their sum less the largest and the smallest.
        samples.append(values.sum(axis=-1) - values.max(axis=-1) - values.min(axis=-1))
    return np.abs(samples[0] - samples[1]).mean(axis=(1, 2))


#: A side of an outline lies on a zone's printed frame line when both its ends lie within this
#: of the line (mm).
FRAME_LINE_MM = 2.5


class MatZones:
    """Finds cards in the mat's zones (:meth:`find`), looking again only at zones whose picture
    changed since the last look (a card lying still costs nothing; a hand over one zone costs
    that zone)."""

    def __init__(self, layout: MatLayout) -> None:
        self.layout = layout
        self._last: dict[str, tuple[np.ndarray, np.ndarray | None]] = {}
        #: Per zone, the frame's small-copy blocks it lay on at its last look and their values.
        self._blocks: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        #: Zones looked at in their own picture, for tests (a zone whose blocks did not change
        #: is not: cutting out its picture costs about 1.3 ms a zone, 12 ms for Bandit's nine).
        self.cut_out = 0

    def is_frame(self, quad: np.ndarray, to_mat: np.ndarray) -> bool:
        """Whether ``quad`` (frame px) runs along a single-card zone's printed frame on two
        opposite sides: the frame's lines are straight edges round a card-sized rectangle, and
        the thorough search takes them, whole or joined to the edge of the card lying inside,
        for a card (whose thumbnail, cut along them, then names nothing). A card is 12 mm
        narrower and shorter than a zone: it never lies on both of two opposite frame lines."""
        corners = transform(to_mat, np.asarray(quad, np.float32).reshape(4, 2))
        sides = [(corners[k], corners[(k + 1) % 4]) for k in range(4)]
        for zone in self.layout.zones:
            if zone.multi:
                continue
            x0, y0, x1, y1 = zone.x, zone.y, zone.x + zone.w, zone.y + zone.h

            def on(axis: int, at: float) -> bool:
                return any(max(abs(a[axis] - at), abs(b[axis] - at)) <= FRAME_LINE_MM for a, b in sides)

            if (on(0, x0) and on(0, x1)) or (on(1, y0) and on(1, y1)):
                return True
        return False

    def find(
        self,
        frame: np.ndarray,
        to_mat: np.ndarray,
        taken: list[np.ndarray] | None = None,
        small: np.ndarray | None = None,
    ) -> list[CardOutline]:
        """Cards lying in the single-card zones of a BGR ``frame`` whose homography image -> mat
        mm is ``to_mat``: outlines in frame pixels (TL TR BR BL), whole, not sure (see the
        module's note); at most one per zone, none in a zone without ink, nor in a zone whose
        middle lies inside one of the ``taken`` outlines (frame px: cards already found).
        ``small``: the frame's small copy (:func:`vision.frame_blocks.small_copy`); a zone
        whose blocks in it did not change since its last look keeps that look's answer."""
        from_mat = np.linalg.inv(to_mat)
        found: list[CardOutline] = []
        for zone in self.layout.zones:
            if zone.multi:
                continue  # a row of cards: the outline search on the whole frame looks there
            middle = np.array([zone.x + zone.w / 2, zone.y + zone.h / 2], np.float32)
            seen_at = transform(from_mat, middle[None])[0]
            point = (float(seen_at[0]), float(seen_at[1]))
            if any(cv2.pointPolygonTest(q.reshape(-1, 1, 2).astype(np.float32), point, False) >= 0
                   for q in taken or []):
                continue
            origin = np.array([zone.x - MARGIN_MM, zone.y - MARGIN_MM], np.float32)
            size = (int((zone.w + 2 * MARGIN_MM) * PX_PER_MM), int((zone.h + 2 * MARGIN_MM) * PX_PER_MM))
            mm_to_window = np.array([[PX_PER_MM, 0, -origin[0] * PX_PER_MM],
                                     [0, PX_PER_MM, -origin[1] * PX_PER_MM], [0, 0, 1]])
            last = self._last.get(zone.name)
            blocks = None if small is None else _zone_blocks(zone, origin, from_mat, frame.shape)
            if last is not None and blocks is not None and self._still(zone.name, blocks, small):
                placed = last[1]  # the frame did not change where the zone lies: its answer stands
            else:
                window = cv2.warpPerspective(frame, mm_to_window @ to_mat, size, flags=cv2.INTER_AREA)
                window = cv2.GaussianBlur(window, (3, 3), 0)
                grey = _without_printed_lines(cv2.cvtColor(window, cv2.COLOR_BGR2GRAY))
                thumb = cv2.resize(grey, _STILL_SIZE, interpolation=cv2.INTER_AREA).astype(np.int16)
                self.cut_out += 1
                if last is not None and int(np.abs(last[0] - thumb).max()) <= STILL_LEVELS:
                    placed = last[1]  # nothing changed in this zone: the last answer stands
                else:
                    placed = _card_in_zone(window, grey, middle, origin)
                    self._last[zone.name] = (thumb, placed)
                if small is not None and blocks is not None:
                    self._blocks[zone.name] = (blocks, small[blocks])
            if placed is not None:
                in_frame = transform(from_mat @ np.linalg.inv(mm_to_window), placed)
                found.append(CardOutline(order_quad(in_frame), False, True))
        return found

    def _still(self, name: str, blocks: np.ndarray, small: np.ndarray) -> bool:
        """Whether the zone lies on the small copy's ``blocks`` as at its last look, and they
        show what they showed then (:func:`vision.frame_blocks.changed_blocks`)."""
        kept = self._blocks.get(name)
        if kept is None or not np.array_equal(kept[0], blocks):
            return False
        return not changed_blocks(small[blocks], kept[1]).any()


def _zone_blocks(zone: Zone, origin: np.ndarray, from_mat: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The frame's small-copy blocks (:mod:`vision.frame_blocks`) that the zone's picture, with
    its margin from ``origin`` (mm), lies on."""
    size = np.array([zone.w + 2 * MARGIN_MM, zone.h + 2 * MARGIN_MM], np.float32)
    corners_mm = origin + np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32) * size
    return covered_blocks([transform(from_mat, corners_mm)], shape)


def _without_printed_lines(grey: np.ndarray) -> np.ndarray:
    """A zone's top-down grey picture without its light printed lines (a grey opening).

    Blurred by the camera, the frame line is wider than the median of ``DEPTHS_MM`` can ignore.
    A card lying against it (cards turned a few degrees fill most of a zone) then showed a
    stronger step where a placement's side ran between the line and the card than on the card's
    own edge, and the card was placed millimetres off, too far off for its face to be found
    (the taught latency bench's deals, read offline in random frame orders: 8 of 1,350 cards
    never named, with the next change). The opening takes away what is lighter than its
    surroundings and narrower than ``PRINTED_LINE_MM``; a card, however light, is far wider,
    and its edge stays where it is."""
    size = int(PRINTED_LINE_MM * PX_PER_MM) | 1
    return cv2.morphologyEx(grey, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))


def _card_in_zone(
    window: np.ndarray, grey: np.ndarray, middle: np.ndarray, origin: np.ndarray
) -> np.ndarray | None:
    """The card's outline in a zone's top-down ``window`` (window px), None when no card lies
    there (no ink inside the best placement)."""
    # Coarse placements over the zone, then finer ones round the best.
    shift, turn = np.zeros(2, np.float32), 0.0
    for offsets, turns in ((OFFSETS_MM, TURNS_DEG), (FINE_OFFSETS_MM, FINE_TURNS_DEG)):
        grid = np.stack(np.meshgrid(offsets, offsets), axis=-1).reshape(-1, 2)
        shifts = shift + grid.astype(np.float32)
        tries = (_cards_at(middle, shifts, turn + turns) - origin) * PX_PER_MM
        steps = _border_steps(grey, tries)
        k = int(np.argmax(steps))
        shift, turn = shifts[k // len(turns)], turn + float(turns[k % len(turns)])
    best = tries[k]
    placed = refine(grey, best, 0.04)
    if _border_steps(grey, placed[None])[0] < steps.max():
        placed = best  # the edges pulled it onto something else: the best placement stands
    if card_evidence(cv2.cvtColor(window, cv2.COLOR_BGR2LAB), placed) == 0:
        return None  # no ink inside: an empty zone
    return placed


#: An outline whose inside is within this of the ground round it (Lab, summed over L, a and b)
#: holds no card: an empty zone's printed frame (1-2 on 40 simulated empty mats; the 72 cards,
#: printed and taught, laid in the zones of 4 mats: 88-130).
GROUND_STEP = 25.0


def holds_the_ground(colour: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the outline ``quad`` in the BGR (or grey) ``colour`` holds only the ground it lies
    on (an empty zone's printed frame on the mat): the median colour of its inside, its rim left
    out, against that of a band round it beyond the frame line."""
    corners = np.asarray(quad, np.float32)
    side = min(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1))
    reach = max(2, int(0.25 * side))
    x0, y0 = np.maximum(corners.min(axis=0).astype(int) - 2 * reach, 0)
    x1, y1 = corners.max(axis=0).astype(int) + 2 * reach
    crop = np.ascontiguousarray(colour[y0:y1, x0:x1])
    crop = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    shape = np.zeros(crop.shape[:2], np.uint8)
    whole = cv2.fillConvexPoly(shape.copy(), np.round(corners - (x0, y0)).astype(np.int32), 1)
    kernel = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
    inside, near = cv2.erode(whole, kernel), cv2.dilate(whole, np.ones((reach + 1, reach + 1), np.uint8))
    around = cv2.dilate(whole, kernel) & ~near & 1
    if inside.sum() < 20 or around.sum() < 20:
        return False
    apart = np.abs(np.median(crop[inside > 0], axis=0) - np.median(crop[around > 0], axis=0)).sum()
    return bool(apart < GROUND_STEP)
