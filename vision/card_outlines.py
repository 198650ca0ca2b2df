"""Card outlines on real tables (wood grain, carpet, cloth, tiles, sun patches, shadows).

Playing cards are light, nearly colourless rectangles with a 63 x 88 mm outline. The search
works on a reduced copy of the frame (``WORK_PIXELS``) and combines two cues, because
each fails somewhere the other does not:

- **edges**: Canny on the blurred grey and on a colour-difference channel (how far a pixel is
  from neutral grey; a card's paper is neutral, wood and carpet are not), closed so a card's
  border is one unbroken line. Contours of the filled regions inside those lines are cards
  whose edges are clear, even on a light table.
- **paper**: pixels both brighter than their surroundings and less saturated (Otsu on a
  "paperness" map). Finds cards on busy grain where edges break up into the texture.

The thorough search (``thorough=True``, for a picture looked at once: teaching) adds a third:

- **straight edges** (:mod:`vision.card_lines`): two long straight steps meeting square at a
  corner propose the card along them; a proposal must lie on straight edges all round.

A region whose outline is crossed by seams (:mod:`vision.card_seams`: the edge of a card lying
over another) is several cards: it is not sure, and its parts between the seams are reported
as the visible parts of the cards, never whole.

The plain search looks for straight edges too, but only in small crops round the regions no
outline took (:mod:`vision.region_edges`: a card joined to carpet specks, cards lying over each
other). The masks, their regions and the splits of regions at thin necks are in
:mod:`vision.outline_regions`. Every candidate contour becomes a quadrilateral
(``approxPolyDP`` of its convex hull, else its minimum-area rectangle when the contour fills
it), then must pass (:mod:`vision.card_checks`):
a card's aspect ratio under perspective, area bounds, convexity, fill, and a contrast check
along its border (the inside next to each edge differs from the outside). Overlapping
candidates are merged by non-maximum suppression; of two one inside the other, the surer wins
(neither sure, a small one inside stays beside the larger: print on a card, or a card; a sure
card a third or more of an unsure row stays beside it). :mod:`vision.outline_choice` decides.

``find_card_candidates(frame)`` returns :class:`CardOutline` s in the frame's pixels, corners
ordered TL, TR, BR, BL of the card held portrait (see :func:`order_quad`), each saying whether
it is surely a card and whether the whole card is in view; ``find_card_outlines(frame)`` the
corners of those that are surely cards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.card_checks import (
    MIN_AREA_SHARE,
    border_contrasts,
    card_papers,
    card_shaped,
    order_quad,
    refine_many,
    refine_many_in_frame,
    same_paper,
)
from vision.card_lines import corner_quads, edge_support, straight_edges
from vision.card_rows import pair_shaped
from vision.card_seams import Seam, find_seams, find_seams_many, split_at_seams, things_across
from vision.frame_cut import corners_in_view, cut_card_shaped, off_border_profiles, past_border_quad
from vision.outline_batches import SeenOutlines, card_shaped_many, order_quads
from vision.outline_choice import Scored, select_outlines
from vision.outline_regions import outer_regions, paper_map, quad_of, region_masks, split_at_necks
from vision.region_edges import edges_in_boxes, inside_shares, untaken_boxes

__all__ = ["CardOutline", "find_card_candidates", "find_card_outlines", "order_quad"]

#: The search runs on a copy of at most this many pixels (a 1280x720 frame: 516x290; cards of
#: 90-170 px there are 36-68 px, enough for the outline; identification uses the full frame).
WORK_PIXELS = 150_000
#: A card is sure only when straight edges cover this share of its sides in view.
SURE_SUPPORT = 0.7
REGION_SURE_SUPPORT = 0.5
#: Each part of a region split at its seams is at least this share of the region's narrow
#: side wide (narrower parts were mostly a face card's print or a strip of table beyond a
#: card's edge on the development photos; the region is then left whole and unsure).
PART_SHARE = 0.3
#: An outline this close (share of the frame's short side) to the frame's border is cut by it.
EDGE_MARGIN = 0.006


@dataclass(frozen=True)
class CardOutline:
    """One card found in a frame.

    ``quad``: 4 x 2 float32 corners in frame pixels, TL TR BR BL of the card held portrait (for
    a card not wholly in view: of its visible part). ``sure``: surely a card (an even paper
    border all round); False for outlines that only a taught face should confirm (full-bleed
    art looks like a patch of table). ``whole``: the whole card is in view; False when it is cut
    by the frame's edge or partly covered by another card (teaching takes only whole cards).
    """

    quad: np.ndarray
    sure: bool
    whole: bool


def _uncovered_area(contour: np.ndarray, quads: list[np.ndarray]) -> int:
    """Pixels of the region inside ``contour`` that none of ``quads`` covers."""
    x, y, w, h = cv2.boundingRect(contour)
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [contour - [x, y]], -1, 255, -1)
    # All corners moved and rounded in one go (the same float64 arithmetic as one at a time).
    for corners in np.round(np.array(quads, np.float32).reshape(-1, 4, 2) - [x, y]).astype(np.int32):
        cv2.fillConvexPoly(mask, corners, 0)
    return cv2.countNonZero(mask)


def _support_in_view(quads: np.ndarray, segments: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """For each quad (Q x 4 x 2, or one 4 x 2), the share of its sides in view that straight
    edges cover; sides along or past the frame's border are the frame's, not the card's, and
    count neither way (0 when fewer than two sides are in view)."""
    single = quads.ndim == 2
    quads = quads.reshape(-1, 4, 2)
    h, w = shape[:2]
    support = edge_support(quads, segments)
    ends = np.roll(quads, -1, axis=1)
    on_border = np.zeros(quads.shape[:2], bool)
    for axis, low, high in ((0, 1.5, w - 2.5), (1, 1.5, h - 2.5)):
        on_border |= (quads[..., axis] <= low) & (ends[..., axis] <= low)
        on_border |= (quads[..., axis] >= high) & (ends[..., axis] >= high)
    in_view = (~on_border).sum(axis=1)
    result = np.where(in_view >= 2, (support * ~on_border).sum(axis=1) / np.maximum(in_view, 1), 0.0)
    return result[0] if single else result


def _narrow_side(quad: np.ndarray) -> float:
    """The shorter of a quad's two mean side lengths (opposite sides averaged)."""
    q = quad.tolist()
    sides = [math.dist(q[i], q[(i + 1) % 4]) for i in range(4)]
    return min(sides[0] + sides[2], sides[1] + sides[3]) / 2


def _inside_frame(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether no corner of ``quad`` lies on (or past) the frame's border."""
    return all(corners_in_view(quad, shape, max(1.0, EDGE_MARGIN * min(shape[:2]))))


def shrink(frame: np.ndarray, scale: float) -> np.ndarray:
    """``frame`` reduced by ``scale`` (<= 1) by area averaging: halved (2 x 2 blocks) while it
    stays at least twice the target, then averaged the rest of the way.

    OpenCV's area average over one fractional factor cost ~3.0 ms on a 1280x720 frame; a
    halving (its integer fast path) and a fractional step of at most 2x cost ~1.7 ms. Pixel
    centres stay where they were (x_small + 0.5 = scale * (x_frame + 0.5), as with one
    resize). A linear last step (0.5 ms) was measured too: on the development photos it found
    3 cards fewer and made 5 phantoms more, so the last step stays an average.
    """
    small = frame
    while scale <= 0.5:
        small = cv2.resize(small, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        scale *= 2
    if scale < 1.0:
        small = cv2.resize(small, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return small


def work_scale(work: np.ndarray, shape: tuple[int, ...]) -> float | None:
    """The scale of ``work`` as a small copy of a frame of ``shape`` when the search can use it
    in place of its own (both axes reduced alike, to about ``WORK_PIXELS``), else None."""
    sx, sy = work.shape[1] / shape[1], work.shape[0] / shape[0]
    pixels = work.shape[0] * work.shape[1]
    if abs(sx - sy) > 0.01 * sx or not 0.8 * WORK_PIXELS <= pixels <= 1.25 * WORK_PIXELS:
        return None
    return sx if sx <= 1.0 else None


def find_card_candidates(
    frame: np.ndarray,
    thorough: bool = False,
    region: tuple[int, int, int, int] | None = None,
    work: np.ndarray | None = None,
    grey: np.ndarray | None = None,
    region_edges: bool = True,
) -> list[CardOutline]:
    """Card-shaped outlines in a BGR (or grey) frame, each with how sure it is and whether the
    whole card is in view (see :class:`CardOutline`).

    ``thorough`` adds the straight-edge search (:mod:`vision.card_lines`): cards on carpet,
    on a table as light as they are, partly shadowed or covered are found, and every outline
    must lie on straight edges (fewer phantoms); it costs several times the plain search, so
    it is for a picture looked at once (teaching from a photo, the frame in which the table
    settles), not every frame. ``region`` (x0, y0, x1, y1, frame px): only cards lying wholly
    inside it are looked for, at the whole frame's scale and card sizes (the part of the table
    that changed). ``work``: the whole frame already reduced to about ``WORK_PIXELS`` (a Pi
    camera's second, small stream, made by its ISP for nothing: see :mod:`vision.camera`),
    searched in place of the copy reduced here (1.4 ms of CPU per 1280x720 frame); ignored
    with a ``region`` or when it is no such copy (see :func:`work_scale`). ``grey``: the frame
    in grey, when the caller made it already (the outlines are placed again on it).
    ``region_edges`` (plain search only): straight edges are looked for in the regions no
    outline took (:mod:`vision.region_edges`), and the paper map opened (cards joined to carpet
    tufts); teaching, which runs the thorough search besides, leaves both out."""
    if frame.ndim == 2:
        grey, frame = frame, cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    scale = min(1.0, math.sqrt(WORK_PIXELS / (frame.shape[0] * frame.shape[1])))
    x0, y0, x1, y1 = 0, 0, frame.shape[1], frame.shape[0]
    if region is not None:
        x0, y0 = max(0, int(region[0])), max(0, int(region[1]))
        x1, y1 = min(x1, int(region[2])), min(y1, int(region[3]))
    given = None if work is None or region is not None else work_scale(work, frame.shape)
    if work is not None and given is not None:
        # The search's own scale for a copy of the size it makes itself (the same outlines as
        # without the copy), the copy's for any other (a camera's 512x288 of a 1280x720 frame).
        if work.shape[:2] != (round(frame.shape[0] * scale), round(frame.shape[1] * scale)):
            scale = given
        small = work if work.ndim == 3 else cv2.cvtColor(work, cv2.COLOR_GRAY2BGR)
    else:
        small = shrink(frame[y0:y1, x0:x1], scale)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    lightness, chroma = paper_map(lab)
    # Card sizes are judged against the whole frame's work size, whatever part is looked at.
    longest, image_area = max(small.shape[:2]), float(small.shape[0] * small.shape[1])
    if region is not None:
        longest = round(max(frame.shape[:2]) * scale)
        image_area = float(round(frame.shape[0] * scale) * round(frame.shape[1] * scale))
        if min(small.shape[:2]) < 8:
            return []
    scored: list[Scored] = []
    min_area = MIN_AREA_SHARE * image_area
    margin = max(1.0, EDGE_MARGIN * min(lightness.shape))
    contours: list[tuple[np.ndarray, bool]] = []
    looked_at = SeenOutlines()

    segments = None
    # The plain search's straight edges near the regions that failed, once looked for.
    lines_near: np.ndarray | None = None
    if thorough:
        segments = straight_edges(cv2.GaussianBlur(lightness, (3, 3), 0), 0.4 * math.sqrt(min_area))

    # Outlines waiting to be looked at closely: their sides are placed (refine) all in one go,
    # the same as one at a time for less of numpy's overhead, before anything needs their
    # verdicts (a region's split, the selection).
    waiting: list[tuple[np.ndarray, bool]] = []
    # A region's split needs the verdicts of the outlines before it (batches of one or two).
    # The masks' own regions' outlines are known before any split: judged in the first batch,
    # ahead of their turn (a verdict depends on the outline alone), kept in ``verdicts``.
    ahead: list[np.ndarray] = []
    verdicts: dict[tuple[bytes, bool], list[Scored]] = {}

    def consider(quad: np.ndarray, from_lines: bool = False, ordered: np.ndarray | None = None) -> None:
        # The same card comes out of several maps: look at each outline once.
        if looked_at.first_time(quad, ordered):
            waiting.append((quad, from_lines))

    def judge_waiting() -> None:
        unique = {(q.tobytes(), f): (q, f) for q, f in waiting + [(q, False) for q in ahead]}
        todo = [item for key, item in unique.items() if key not in verdicts]
        ahead.clear()
        if todo:  # (most splits bring none: an empty batch cost numpy's overhead for nothing)
            judge_all(todo)
        for quad, from_lines in waiting:
            scored.extend(verdicts[(quad.tobytes(), from_lines)])
        waiting.clear()

    def judge_all(todo: list[tuple[np.ndarray, bool]]) -> None:
        """Verdicts on the outlines ``todo`` (each with whether straight edges proposed it)."""
        # A side along the frame's border stays there: the card's edge is out of view.
        quads = [quad for quad, _f in todo]
        unseen = off_border_profiles(quads, lightness.shape, margin)
        placed = refine_many([lightness] * len(todo), quads, seens=unseen)
        # Card-shaped or not, found and placed, all in one go (a thorough search: hundreds).
        found_shaped = card_shaped_many(np.array(quads, np.float32), image_area).tolist()
        placed_shaped = card_shaped_many(np.array(placed, np.float32), image_area).tolist()
        shaped = [
            (q, shape(q, refined, q_shaped, refined_shaped), f)
            for (q, f), refined, q_shaped, refined_shaped in zip(
                todo, placed, found_shaped, placed_shaped, strict=True
            )
        ]
        verdicts.update(((q.tobytes(), f), []) for q, _s, f in shaped)
        kept = [(q, judged, f) for q, judged, f in shaped if judged is not None]
        # Straight-edge support and borders of all in one go (numpy's overhead once, not once
        # an outline; the thorough search looks at dozens).
        supports = [1.0] * len(kept)
        if segments is not None and kept:
            ordered = np.stack([order_quad(judged[0]) for _q, judged, _f in kept])
            supports = _support_in_view(ordered, segments, lightness.shape).tolist()
        elif lines_near is not None:
            # The plain search: only outlines proposed by straight edges are measured on them.
            lined = [k for k, item in enumerate(kept) if item[2]]
            if lined:
                ordered = np.stack([order_quad(kept[k][1][0]) for k in lined])
                measured = _support_in_view(ordered, lines_near, lightness.shape).tolist()
                for k, v in zip(lined, measured, strict=True):
                    supports[k] = v
        # An outline proposed by two edges meeting must lie on straight edges all round.
        looked = [(*item, v) for item, v in zip(kept, supports, strict=True) if not (item[2] and v < 0.5)]
        contrasts = border_contrasts(lab, [item[1][0] for item in looked])
        # Of those whose border is clear, the paper bands in one go.
        clear = [(*item, c) for item, c in zip(looked, contrasts, strict=True) if c >= 0.6]
        papers = card_papers(lab, [item[1][0] for item in clear])
        # Surely a card only along straight edges (a region's outline may run through texture
        # where the detector breaks a card's edge up, so it needs less).
        evidences = [
            1 if evidence == 2 and support < (SURE_SUPPORT if lines else REGION_SURE_SUPPORT) else evidence
            for (_q, _j, lines, support, _c), (evidence, _p) in zip(clear, papers, strict=True)
        ]
        # The seams of those still sure, looked for in one go (the same seams as one at a time).
        sure = [item[1][0] for item, e in zip(clear, evidences, strict=True) if e == 2]
        seams = iter(find_seams_many(lightness, sure))
        for (quad, (judged, cut, pair), lines, support, contrast), e in zip(clear, evidences, strict=True):
            found = next(seams) if e == 2 else []
            if things_across(lightness, judged, found):
                found = []  # a cable or a pen lying across one card (vision.card_seams)
            verdicts[(quad.tobytes(), lines)] = judge(judged, cut, pair, support, contrast, e, found)

    def shape(
        quad: np.ndarray, refined: np.ndarray, quad_shaped: bool, refined_shaped: bool
    ) -> tuple[np.ndarray, bool, bool] | None:
        """The outline judged (the refined one when card-shaped), whether it is cut by the
        frame and whether it is two cards side by side; None when it cannot be a card.
        ``quad_shaped``, ``refined_shaped``: whether each is card-shaped."""

        # A side pulled onto a shadow's or an object's edge bends the outline: keep the
        # region's own outline then.
        # Two cards side by side make a nearly square outline (vision.card_rows): kept, never
        # sure (a taught face must name a card in it), as a whole outline, not a part. On the
        # frame's border a squarer outline is a card cut by it (dev IMG_2614: a ten's half).
        def pair_outline(outline: np.ndarray) -> bool:
            return pair_shaped(outline, image_area) and _inside_frame(outline, lightness.shape)

        # A card's shape first, refined or not (dev single IMG_2475: the lit part of a card half
        # in shade, card-shaped as found, is squarer once refined).
        if refined_shaped or (not quad_shaped and pair_outline(refined)):
            quad, quad_shaped = refined, refined_shaped
        pair = not quad_shaped and pair_outline(quad)
        # A card cut by the frame's edge shows a part of any aspect (a strip along the border):
        # kept when it completes to a card, never sure (a taught face must name it).
        cut = not pair and not quad_shaped
        if cut and not cut_card_shaped(quad, lightness.shape, image_area):
            return None
        return quad, cut, pair

    def judge(
        quad: np.ndarray,
        cut: bool,
        pair: bool,
        support: float,
        contrast: float,
        evidence: int,
        seams: list[Seam],
    ) -> list[Scored]:
        """What the outline (its border's ``contrast`` clear) adds to ``scored``; ``seams``:
        those across it when it is sure (``evidence`` 2, its straight edges' ``support`` told)."""
        # Several cards overlapping make one region with a paper border all round; the edge
        # of the card on top crosses it as a seam. Not one card: each part between seams is
        # the visible part of one, never whole (scored as the region, below an outline found
        # for the card on top alone).
        if seams or cut or pair:
            evidence = min(evidence, 1)
        score = evidence + 2 * support + contrast * math.sqrt(cv2.contourArea(quad)) / 100
        parts = split_at_seams(quad, seams)
        looks = card_papers(lab, parts, covered=True)
        # Every part must be a card's visible part, all of one paper: a strip of table beyond
        # a card's edge (an outline too large) or a sliver of a face card's print is not.
        if (
            parts
            and all(_narrow_side(part) >= PART_SHARE * _narrow_side(quad) for part in parts)
            and all(kind == 2 for kind, _paper in looks)
            and not any(find_seams(lightness, part) for part in parts)
            and same_paper(np.array([paper for _kind, paper in looks]))
        ):
            found = [(score, 2, order_quad(part), True) for part in parts]
        else:
            found = []
        if evidence:
            found.append((score, evidence, order_quad(quad), cut))
        return found

    # Not for teaching (it runs the thorough search besides): cut-outs so taught cost 4 reads.
    for mask in region_masks(lightness, chroma, longest, opened=region_edges and not thorough):
        contours += [(c, False) for c in outer_regions(mask, 0.8 * min_area)]
    # Their outlines once, in the order taken (``regions`` keeps the contours alive: ids stay).
    regions = [c for c, _s in reversed(contours)]

    def beyond_of(contour: np.ndarray) -> np.ndarray | None:
        # A card across the frame's border with three corners in view is a five-sided region:
        # no four corners fit it (or four that are no card's, one of its corners dropped). Its
        # outline is the whole card's, so it must be card-shaped. Looked at besides the
        # region's own outline (which, placed, may be the card's too).
        x, y, w, h = cv2.boundingRect(contour)
        if x > 0 and y > 0 and x + w < lightness.shape[1] and y + h < lightness.shape[0]:
            return None
        card = past_border_quad(contour, lightness.shape, hulls[id(contour)])
        return card if card is not None and card_shaped(card, image_area) else None

    large = [c for c in regions if len(c) >= 4 and cv2.contourArea(c) >= 0.8 * min_area]
    # Each region's hull once: its outline's and, in the plain search, its fill (region_edges).
    hulls = {id(c): cv2.convexHull(c) for c in large}
    quads_of = {id(c): quad_of(c, hulls[id(c)]) for c in large}
    beyond = {id(c): q for c in large if (q := beyond_of(c)) is not None}
    first_seen = SeenOutlines()
    ahead += [q for c in regions if (q := quads_of.get(id(c))) is not None and first_seen.first_time(q)]
    ahead += [q for q in beyond.values() if first_seen.first_time(q)]
    while contours:
        contour, was_split = contours.pop()
        area = cv2.contourArea(contour)
        if len(contour) < 4 or area < 0.8 * min_area:
            continue
        quad = quads_of[id(contour)] if id(contour) in quads_of else quad_of(contour)
        if quad is None:
            # Cards touching corner to corner make one region: split it (not the whole table).
            if (
                not was_split
                and 1.6 * min_area < area < 0.25 * image_area
                and len(contour) > 8
                and area >= 0.5 * cv2.contourArea(hulls[id(contour)])  # a few cards, not the table
            ):
                judge_waiting()
                # A region the outlines found so far cover but for less than a card (the
                # smallest contour looked at) holds no card they miss: not split.
                if _uncovered_area(contour, [quad for _s, _e, quad, _p in scored]) >= 0.8 * min_area:
                    contours += [(part, True) for part in split_at_necks(contour, min_area)]
            continue
        consider(quad)
    # After the regions' own outlines: one of those alike, placed, may be the card (and sure).
    for quad in beyond.values():
        consider(quad)
    if segments is None and region_edges:
        # The plain search: straight edges only round the regions no outline took, where a card
        # joined to specks or lying over others may lie (vision.region_edges). Segments of at
        # least the smallest card's side (shorter ones, as the thorough search takes, were
        # mostly texture: +2 ms a photo for no more cards on the development photos).
        judge_waiting()
        filled = [(c, cv2.contourArea(hulls[id(c)])) for c in large]
        # Outlines taken: the sure ones, and unsure ones of a card's shape (a taught face will
        # confirm the card there; straight edges inside one only cut it up: a shadow's edge
        # across a card made two card-shaped halves, each sure). Pairs and cut parts are not.
        taken = [quad for _s, evidence, quad, _p in scored if evidence == 2 or card_shaped(quad, image_area)]
        boxes, within, free = untaken_boxes(filled, taken, min_area, lightness, chroma)
        if boxes:
            lines_near = edges_in_boxes(lightness, boxes, math.sqrt(min_area))
            found = np.array(corner_quads(lines_near, math.sqrt(min_area)), np.float32).reshape(-1, 4, 2)
            # The card lies mostly in the region that failed, and mostly apart from the outlines
            # taken (else it is one of those, proposed again).
            found = found[(inside_shares(found, within) >= 0.8) & (inside_shares(found, free) >= 0.5)]
            for k in np.flatnonzero(_support_in_view(found, lines_near, lightness.shape) >= 0.45):
                consider(found[k], from_lines=True)
    proposals = corner_quads(segments, math.sqrt(min_area)) if segments is not None else []
    if segments is not None and proposals:
        # Most corners are of art, pips or texture: only outlines whose far sides lie on
        # straight edges too are looked at closely.
        stacked = np.array(proposals, np.float32)
        lined = np.flatnonzero(_support_in_view(stacked, segments, lightness.shape) >= 0.45)
        for k, ordered in zip(lined, order_quads(stacked[lined]), strict=True):
            consider(stacked[k], from_lines=True, ordered=ordered)
    judge_waiting()
    selected = select_outlines(scored, lightness.shape, margin)
    if region is not None:
        # An outline on a side of the region that is not the frame's may be a card cut by it.
        h, w = lightness.shape
        selected = [
            item
            for item in selected
            if not (
                (x0 > 0 and item[1][:, 0].min() <= 1.5)
                or (y0 > 0 and item[1][:, 1].min() <= 1.5)
                or (x1 < frame.shape[1] and item[1][:, 0].max() >= w - 2.5)
                or (y1 < frame.shape[0] and item[1][:, 1].max() >= h - 2.5)
            )
        ]
    offset = np.float32([x0, y0])
    chosen = [((quad + 0.5) / scale - 0.5 + offset, evidence == 2, part) for evidence, quad, part in selected]
    if scale < 1.0 and chosen:
        # The outline was found small; its sides are placed again on the full frame, where a
        # pixel is finer: identification compares thumbnails cut along these sides (a part's
        # seam side is no card's edge: parts stay as found).
        # A short reach: the small copy's sides are within a pixel or two of it there, and a
        # line printed near the card (a zone's frame on the mat) must not pull them away.
        # All in one go (the same sides as one at a time, for less of numpy's overhead).
        to_place = [quad for quad, _sure, part in chosen if not part]
        in_frame = max(1.0, EDGE_MARGIN * min(frame.shape[:2]))
        placed = iter(
            refine_many_in_frame(
                frame, to_place, 0.025, off_border_profiles(to_place, frame.shape, in_frame), grey
            )
        )
        chosen = [(quad if part else next(placed), sure, part) for quad, sure, part in chosen]
    return [
        CardOutline(quad, sure, not part and _inside_frame(quad, frame.shape)) for quad, sure, part in chosen
    ]


def find_card_outlines(frame: np.ndarray) -> list[np.ndarray]:
    """The corners of the outlines in a BGR frame that are surely cards (see
    :func:`find_card_candidates`)."""
    return [outline.quad for outline in find_card_candidates(frame) if outline.sure]
