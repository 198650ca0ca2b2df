"""Checks that an outline is a card: its shape, the step all round its border, the ink and paper
band inside, and placing its sides on the card's edges (used by :mod:`vision.card_outlines`)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.paper_bands import EVEN_SHARE, median_rows, side_papers

#: A card's short side / long side is 63 / 88 = 0.716; perspective and a loose outline widen it.
ASPECT_MIN, ASPECT_MAX = 0.5, 0.92
#: A card covers at least this share of the work image's area (a 1280x720 frame: ~45x63 px) ...
MIN_AREA_SHARE = 0.004
#: ... and at most this share (a close-up of one card).
MAX_AREA_SHARE = 0.6


def order_quad(quad: np.ndarray) -> np.ndarray:
    """Order four corners TL, TR, BR, BL with the long side vertical (portrait).

    Of the two portrait orders (0 and 180 degrees) the one starting nearest the image's top
    left is returned; identification tries both.
    """
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    # Plain Python on the eight numbers: it runs tens of times per frame, and numpy's per-call
    # overhead on a 4 x 2 array cost several times the arithmetic.
    points = quad.tolist()
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points
    # The sums added left to right, as sum() adds them.
    cx = (x0 + x1 + x2 + x3) / 4
    cy = (y0 + y1 + y2 + y3) / 4
    # Clockwise in image coordinates, starting anywhere (each angle once, not once a comparison).
    angles = [math.atan2(y - cy, x - cx) for x, y in points]
    order = sorted(range(4), key=angles.__getitem__)
    (ax, ay), (bx, by), (ex, ey) = (points[k] for k in order[:3])
    if (ax - bx) ** 2 + (ay - by) ** 2 > (bx - ex) ** 2 + (by - ey) ** 2:
        order = order[1:] + order[:1]  # make the first edge a short one (the top)
    if sum(points[order[0]]) > sum(points[order[2]]):
        order = order[2:] + order[:2]
    # take(), not quad[order]: the same rows, for a fifth of the indexing's overhead.
    return quad.take(order, axis=0)


def card_shaped(
    quad: np.ndarray, image_area: float, aspect: tuple[float, float] = (ASPECT_MIN, ASPECT_MAX)
) -> bool:
    """Whether ``quad`` has a card's shape under moderate perspective and a card's size
    (``aspect``: its short side / long side, another band for other shapes of paper)."""
    if not cv2.isContourConvex(quad.reshape(4, 1, 2).astype(np.int32)):
        return False
    area = cv2.contourArea(quad)
    if not MIN_AREA_SHARE * image_area <= area <= MAX_AREA_SHARE * image_area:
        return False
    q = order_quad(quad).tolist()
    sides = [math.dist(q[i], q[(i + 1) % 4]) for i in range(4)]
    short, long_ = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if not aspect[0] <= short / max(long_, 1.0) <= aspect[1]:
        return False
    # Opposite sides of similar length (perspective within reason), corners not too sharp.
    if min(sides[0], sides[2]) < 0.6 * max(sides[0], sides[2]):
        return False
    if min(sides[1], sides[3]) < 0.6 * max(sides[1], sides[3]):
        return False
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = q[i - 1], q[i], q[(i + 1) % 4]
        cos = ((ax - bx) * (cx - bx) + (ay - by) * (cy - by)) / (sides[i - 1] * sides[i] + 1e-6)
        if abs(cos) > 0.45:  # corners between ~63 and ~117 degrees
            return False
    return True


#: A border's step between card and table (summed Lab) counts from STEP, on a smooth table from
#: TEXTURE_TIMES its own spread, at least SMOOTH_STEP (see :func:`border_contrasts`).
STEP, TEXTURE_TIMES, SMOOTH_STEP = 20.0, 3.0, 10.0
#: Where along each side (shares of it, the corners left out) the border is looked at.
_CONTRAST_ALONG = np.linspace(0.12, 0.88, 12)
_HALF = len(_CONTRAST_ALONG) // 2


def side_colours(
    lab: np.ndarray, quad: np.ndarray, depths: tuple[float, ...], along: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Colours (Lab, float32) beside each side of ``quad`` once ordered (TL-TR, TR-BR, BR-BL,
    BL-TL): at the shares ``along`` of the side, each of ``depths`` (shares of the card's size,
    at least 1.5 px; negative: inside) off it; 4 x len(along) x len(depths) x 3, and which
    samples lie in the picture (4 x len(along) x len(depths); those outside are the nearest
    pixel's colour). All sides in one go: numpy's per-call overhead on a side's few dozen
    samples costs more than the work."""
    colours, ok = sides_colours(lab, [quad], depths, along)
    return colours[0], ok[0]


def sides_colours(
    lab: np.ndarray, quads: list[np.ndarray], depths: tuple[float, ...], along: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`side_colours` of each of ``quads`` (Q x ...), all in one go: the same samples,
    for one set of numpy's per-call overheads."""
    h, w = lab.shape[:2]
    q = np.stack([order_quad(quad) for quad in quads])  # Q x 4 x 2
    centre = q.mean(axis=1, keepdims=True)
    sizes = [math.sqrt(max(1.0, cv2.contourArea(corners))) for corners in q]
    offsets = np.array(
        [[math.copysign(max(1.5, abs(k) * size), k) for k in depths] for size in sizes], np.float32
    )
    ends = q[:, [1, 2, 3, 0]]
    normals = np.stack([ends[..., 1] - q[..., 1], q[..., 0] - ends[..., 0]], axis=2)
    normals /= np.sqrt((normals * normals).sum(axis=2, keepdims=True)) + 1e-6
    outward = ((normals * ((q + ends) / 2 - centre)).sum(axis=2) >= 0)[..., None]
    normals = np.where(outward, normals, -normals)
    points = q[:, :, None] + (ends - q)[:, :, None] * np.asarray(along)[None, None, :, None]  # Q x 4 x A x 2
    at = np.round(
        points[:, :, :, None] + normals[:, :, None, None, :] * offsets[:, None, None, :, None]
    ).astype(int)
    # Both axes clipped at once (np.clip's wrapper costs more than the two ufuncs); a sample
    # lies in the picture where clipping left it where it was.
    inside = np.minimum(np.maximum(at, 0), (w - 1, h - 1))
    ok = (inside == at).all(axis=-1)
    return lab[inside[..., 1], inside[..., 0]].astype(np.float32), ok


def border_contrast(lab: np.ndarray, quad: np.ndarray) -> float:
    """How clearly the quad's border separates the card inside from the table outside (0..1).

    Samples pairs of points just inside and just outside each side; a pair counts when their
    colours (Lab) differ by a clear step, either way (a light card on dark wood, a dark card on
    a white cloth). A side along the frame's border gives no evidence either way, but at least
    three sides, or every side in view, must each show the step on most of their length: a
    card's border is one long step all round, while a region of table cut out by the frame's
    edge, a patch of light or a square of floor tile has a step on part of its border only.
    Returns the share of pairs with a step, 0 when too few sides show one.
    """
    return border_contrasts(lab, [quad])[0]


def border_contrasts(lab: np.ndarray, quads: list[np.ndarray]) -> list[float]:
    """:func:`border_contrast` of each of ``quads``, all in one go (the same values: the
    outline search looks at several outlines a frame, and numpy's per-call overhead on one
    outline's samples cost more than the work)."""
    if not quads:
        return []
    # Three depths on each side, and the median of each: a thin printed line next to the
    # side (a zone's frame on the mat) is one sample, not a step between two surfaces.
    colours, inside = sides_colours(lab, quads, (-0.03, -0.05, -0.07, 0.03, 0.05, 0.07), _CONTRAST_ALONG)
    ok = inside.all(axis=3)  # Q x 4 x 12
    # The median of three samples is the middle one once sorted (as np.median, cheaper).
    samples = np.sort(colours.reshape(len(quads), 4, len(_CONTRAST_ALONG), 2, 3, -1), axis=4)[:, :, :, :, 1]
    steps = np.abs(samples[:, :, :, 0] - samples[:, :, :, 1]).sum(axis=3)  # Q x 4 x 12
    # A step counts when it is clear against the table's own texture: at least STEP, less on a
    # smooth table (its spread across the three outside depths: a folder or a lacquered tray
    # 2-3, carpet 45-75, cloth 7-30), down to SMOOTH_STEP (dev IMG_2579: a jack on a manila
    # folder steps by 15-20 on three sides, the folder varies by 2-3).
    outside = colours.reshape(len(quads), 4, len(_CONTRAST_ALONG), 2, 3, -1)[:, :, :, 1]
    # (Samples off the picture, copies of its edge pixel, are taken as rough: never lower it.)
    spread = np.where(ok, (outside.max(axis=3) - outside.min(axis=3)).sum(axis=3), 255.0)  # Q x 4 x 12
    # Its median along the side: the mean of the middle two of the twelve, in float32, as
    # np.median gives it (the spreads are finite), without its overhead (~0.05 ms a call).
    middle = np.partition(spread, (_HALF - 1, _HALF), axis=2)[:, :, _HALF - 1 : _HALF + 1]
    needed = np.clip(TEXTURE_TIMES * (middle.sum(axis=2, keepdims=True) / 2), SMOOTH_STEP, STEP)
    # A side with fewer than half its samples in the picture runs along the frame's border:
    # no evidence either way.
    in_picture = ok.sum(axis=2)
    in_view = in_picture >= len(_CONTRAST_ALONG) // 2
    shown = ((steps >= needed) & ok).sum(axis=2)
    sides_shown = (in_view & (shown >= 0.5 * in_picture)).sum(axis=1).tolist()
    sides_in_view = in_view.sum(axis=1).tolist()
    votes = (shown * in_view).sum(axis=1).tolist()
    total = (in_picture * in_view).sum(axis=1).tolist()
    return [
        0.0 if shown_k < min(3, view_k) or view_k < 2 else (votes_k / total_k if total_k else 0.0)
        for shown_k, view_k, votes_k, total_k in zip(sides_shown, sides_in_view, votes, total, strict=True)
    ]


#: Where along each side (shares of it) :func:`refine` looks across it.
REFINE_ALONG = np.linspace(0.12, 0.88, 16, dtype=np.float32)
_REFINE_ALONG = REFINE_ALONG[None, :, None]


def refine(
    lightness: np.ndarray, quad: np.ndarray, reach_share: float = 0.08, seen: np.ndarray | None = None
) -> np.ndarray:
    """Move each side of ``quad`` onto the strongest step between card and table near it.

    Region masks round corners and grow or shrink by a few pixels (opening, closing, a
    regrown split); the card's own edge is where brightness drops going outwards. Along each
    side, profiles across the side find that step; a robust line through the steps is the new
    side and neighbouring sides meet in the new corners. Sides with too few clear steps stay.
    ``seen`` (4 x 16 bool, side i from corner i to the next of the ordered quad, profiles at
    ``REFINE_ALONG``): only those profiles count (where another card hides the side, the edge
    near it is that card's, no edge of this one).
    """
    return refine_many([lightness], [quad], reach_share, None if seen is None else [seen])[0]


def refine_many(
    images: list[np.ndarray],
    quads: list[np.ndarray],
    reach_share: float = 0.08,
    seens: list[np.ndarray] | None = None,
) -> list[np.ndarray]:
    """:func:`refine` of each of ``quads`` in its image (``images``, one a quad; the same one
    may be given for all; ``seens``: each one's ``seen``), the same results as one call each.

    The arithmetic on the few dozen samples of an outline is mostly numpy's per-call overhead
    (~40 calls on 4 x 16 arrays): outlines whose profiles are equally long share those calls.
    """
    ordered = [order_quad(quad) for quad in quads]  # float32, new arrays
    reaches = [max(3.0, reach_share * math.sqrt(cv2.contourArea(q))) for q in ordered]
    offsets = [np.arange(-reach, reach + 1, 1.0, dtype=np.float32) for reach in reaches]
    # Outlines of other sizes have profiles of other lengths. Those of similar lengths (within
    # half again: a frame's cards) share one set of calls, each profile carried on past its own
    # end to the group's longest (those samples are not looked at).
    out: list[np.ndarray] = [np.empty(0)] * len(quads)
    by_length = sorted(range(len(quads)), key=lambda k: len(offsets[k]))
    while by_length:
        shortest = len(offsets[by_length[0]])
        group = [k for k in by_length if len(offsets[k]) <= 1.5 * shortest]
        by_length = by_length[len(group) :]
        longest = len(offsets[group[-1]])
        padded = np.stack(
            [
                np.concatenate((o, o[-1] + np.arange(1, longest - len(o) + 1, dtype=np.float32)))
                for o in (offsets[k] for k in group)
            ]
        )
        placed = _refine_group(
            [images[k] for k in group],
            np.stack([ordered[k] for k in group]),
            padded,
            np.array([len(offsets[k]) for k in group]),
            None if seens is None else np.stack([seens[k] for k in group]),
        )
        for k, lines in zip(group, placed, strict=True):
            out[k] = _corners_of(lines, ordered[k], reaches[k])
    return out


def _refine_group(
    images: list[np.ndarray],
    q: np.ndarray,
    offsets: np.ndarray,
    lengths: np.ndarray,
    seen: np.ndarray | None = None,
) -> list[list[tuple[np.ndarray, np.ndarray]]]:
    """Each quad's four sides (a point and a direction each) moved onto the card's edge: ``q``
    Q x 4 x 2 ordered corners, ``offsets`` Q x L places across the side (see :func:`refine`),
    of which each quad's first ``lengths`` are its own (the rest pad it to L)."""
    n = len(q)
    centre = q.mean(axis=1)
    # Each step once, and indexing rather than np.roll or np.linalg.norm (the same float32
    # arithmetic as on one outline).
    starts, ends = q, q[:, [1, 2, 3, 0]]
    sides = ends - starts
    directions = sides / (np.sqrt((sides * sides).sum(axis=2, keepdims=True)) + 1e-6)
    normals = np.stack([directions[..., 1], -directions[..., 0]], axis=2)
    outward = np.einsum("qij,qij->qi", normals, (starts + ends) / 2 - centre[:, None]) >= 0
    normals[~outward] *= -1
    base = starts[:, :, None, :] + sides[:, :, None, :] * _REFINE_ALONG  # Q x 4 x 16 x 2
    # Every profile across every side of an outline in one remap: 64 rows of L samples.
    samples = base[:, :, :, None, :] + offsets[:, None, None, :, None] * normals[:, :, None, None, :]
    if all(image is images[0] for image in images):
        # One image for all (the outline search's): one remap of every outline's rows, each
        # sample interpolated alone, as in a remap per outline.
        h, w = images[0].shape
        xs = np.clip(samples[..., 0], 0, w - 1).reshape(n * 64, -1)
        ys = np.clip(samples[..., 1], 0, h - 1).reshape(n * 64, -1)
        # In blocks: a remap's map is at most SHRT_MAX rows (500 outlines).
        rows = [
            cv2.remap(images[0], xs[k : k + 32000], ys[k : k + 32000], cv2.INTER_LINEAR)
            for k in range(0, n * 64, 32000)
        ]
        profile = np.concatenate(rows).reshape(n, 64, -1).astype(np.float32)
    else:
        profiles = []
        for k, image in enumerate(images):
            h, w = image.shape
            xs = np.clip(samples[k, ..., 0], 0, w - 1).reshape(64, -1)
            ys = np.clip(samples[k, ..., 1], 0, h - 1).reshape(64, -1)
            profiles.append(cv2.remap(image, xs, ys, cv2.INTER_LINEAR))
        profile = np.stack(profiles).astype(np.float32)  # Q x 64 x L
    # Inside minus outside, two pixels apart; a card may be lighter than the table or darker
    # (a cream card on the white mat): each side takes the polarity most of its profiles show.
    step = profile[:, :, :-2] - profile[:, :, 2:]
    padding = (np.arange(step.shape[2])[None, :] >= (lengths - 2)[:, None])[:, None, :]  # Q x 1 x L-2
    per_side = step.reshape(n, 4, 16, -1)
    lowest = np.where(padding[:, :, None], np.inf, per_side).min(axis=3)
    highest = np.where(padding[:, :, None], -np.inf, per_side).max(axis=3)
    darker = lowest.sum(axis=2) < -highest.sum(axis=2)
    step = np.where(np.repeat(darker, 16, axis=1)[:, :, None], -step, step)
    best = np.where(padding, -np.inf, step).argmax(axis=2)
    # Indexing, not np.take_along_axis (the same elements, without its overhead).
    outline = np.arange(n)[:, None]
    clear = (step[outline, np.arange(64)[None, :], best] >= 12).reshape(n, 4, 16)
    if seen is not None:
        clear &= seen
    reached = offsets[outline, best + 1].reshape(n, 4, 16)
    moved = base + reached[..., None] * normals[:, :, None]
    # How many clear profiles each side has, all at once (not a numpy sum a side).
    counts = clear.sum(axis=2).tolist()
    placed = []
    for k in range(n):
        lines = []
        for i in range(4):
            if counts[k][i] < 6:
                lines.append((starts[k, i], directions[k, i]))
                continue
            vx, vy, x0, y0 = cv2.fitLine(moved[k, i][clear[k, i]], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
        placed.append(lines)
    return placed


def _corners_of(lines: list[tuple[np.ndarray, np.ndarray]], q: np.ndarray, reach: float) -> np.ndarray:
    """Where neighbouring sides (point, direction) meet; ``q`` when two are parallel or a
    corner moved further than the search reached (the refinement went wrong)."""
    # Neighbouring sides meet where p1 + d1 t = p2 + d2 u (Cramer's rule in plain Python: a
    # 2 x 2 system through numpy's solver cost more in overhead than the arithmetic).
    flat = [(*p.tolist(), *d.tolist()) for p, d in lines]
    corners = []
    for i in range(4):
        (x1, y1, dx1, dy1), (x2, y2, dx2, dy2) = flat[i - 1], flat[i]
        det = dx2 * dy1 - dx1 * dy2
        if abs(det) < 1e-3:
            return q
        t = (dx2 * (y2 - y1) - dy2 * (x2 - x1)) / det
        corners.append((x1 + dx1 * t, y1 + dy1 * t))
    refined = np.array(corners, np.float32)
    # np.linalg.norm's own float32 arithmetic (sqrt of the summed squares), without its overhead.
    moved = refined - q
    if np.sqrt(np.add.reduce(moved * moved, axis=1)).max() > 2.5 * reach:
        return q
    return refined


def refine_in_frame(
    frame: np.ndarray, quad: np.ndarray, reach_share: float = 0.08, seen: np.ndarray | None = None
) -> np.ndarray:
    """:func:`refine` on a BGR frame, looking only at the grey of the quad's surroundings
    (as far as the search reaches, plus a pixel for interpolation): the same result as on the
    whole frame's grey, without converting all of it."""
    return refine_many_in_frame(frame, [quad], reach_share, None if seen is None else [seen])[0]


def refine_many_in_frame(
    frame: np.ndarray,
    quads: list[np.ndarray],
    reach_share: float = 0.08,
    seens: list[np.ndarray] | None = None,
    grey: np.ndarray | None = None,
) -> list[np.ndarray]:
    """:func:`refine_in_frame` of each of ``quads`` (the same results, see :func:`refine_many`);
    ``grey``: the frame's grey when the caller has it (cut, not converted again, round each)."""
    h, w = frame.shape[:2]
    greys, moved, offsets = [], [], []
    for quad in quads:
        margin = math.ceil(max(3.0, reach_share * math.sqrt(cv2.contourArea(order_quad(quad))))) + 3
        x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - margin, 0)
        x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + margin + 1, [w, h])
        patch = frame[y0:y1, x0:x1]
        greys.append(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if grey is None else grey[y0:y1, x0:x1])
        offsets.append(np.array([x0, y0], np.float32))
        moved.append(quad - offsets[-1])
    refined = refine_many(greys, moved, reach_share, seens)
    return [q + offset for q, offset in zip(refined, offsets, strict=True)]


#: The card is looked at flattened to this size (px) for the border and ink checks.
_LOOK_W, _LOOK_H = 40, 56
_LOOK_CORNERS = np.array([[0, 0], [_LOOK_W - 1, 0], [_LOOK_W - 1, _LOOK_H - 1], [0, _LOOK_H - 1]], np.float32)


def card_evidence(lab: np.ndarray, quad: np.ndarray, covered: bool = False) -> int:
    """How card-like the inside of ``quad`` is: 0 not a card, 1 maybe, 2 surely (see
    :func:`card_paper`)."""
    return card_paper(lab, quad, covered)[0]


def card_paper(lab: np.ndarray, quad: np.ndarray, covered: bool = False) -> tuple[int, np.ndarray]:
    """How card-like the inside of ``quad`` is (0 not a card, 1 maybe, 2 surely), and the
    colour (Lab) of its paper border.

    Every card has ink inside (an envelope, a sheet of paper or a bright patch of table has
    none: 0). A printed card with a paper border has an even band all round just inside its
    edge, of one colour on all four sides (carpet, grain and the inner frame of a face card's
    art have not): 2. Full-bleed art has no such band: 1, and the reader reports it only when
    a taught face confirms it.

    The band is looked for 2.5, 4.5 and 6.5 % in from each side (an outline a pixel off
    catches the table in the outermost); a side may be split once by a shadow's edge (sun
    across the card), and the sides' papers are compared by colour, and by lightness only as
    far as shade goes (half the card may lie in shade).
    """
    return card_papers(lab, [quad], covered)[0]


def card_papers(
    lab: np.ndarray, quads: list[np.ndarray], covered: bool = False
) -> list[tuple[int, np.ndarray]]:
    """:func:`card_paper` of each of ``quads``, their paper bands looked at all in one go
    (:mod:`vision.paper_bands`; the same values)."""
    if not quads:
        return []
    cards = np.stack(
        [
            cv2.warpPerspective(
                lab,
                cv2.getPerspectiveTransform(order_quad(quad), _LOOK_CORNERS),
                (_LOOK_W, _LOOK_H),
                flags=cv2.INTER_AREA,
            )
            for quad in quads
        ]
    ).astype(np.float32)
    shares, medians = side_papers(cards)
    # Each card's paper (the median of its four sides') and its ink,
    # all cards in one go: the same float32 values element by element as one card at a time.
    papers = median_rows(medians.transpose(1, 0, 2))
    inner = cards[:, 8:-8, 6:-6].reshape(len(cards), -1, 3)
    inked = ((np.abs(inner - papers[:, None]).sum(axis=2) > 50).mean(axis=1) >= 0.02).tolist()
    return [
        _paper_verdict(share, sides, paper, ink, covered)
        for share, sides, paper, ink in zip(shares, medians, papers, inked, strict=True)
    ]


def _paper_verdict(
    shares: np.ndarray, medians: np.ndarray, paper: np.ndarray, inked: bool, covered: bool
) -> tuple[int, np.ndarray]:
    """:func:`card_paper`'s verdict on one flattened card from its sides' bands (``shares``:
    how even, ``medians``: their papers, top, bottom, left, right), their median ``paper``
    and whether the card has ink inside."""
    if not inked:
        return 0, paper
    even = shares >= EVEN_SHARE
    if even.sum() < (2 if covered else 4):
        return 1, paper
    paper = median_rows(medians[even])
    return (2 if same_paper(medians[even]) else 1), paper


#: Ink: a pixel this far (summed Lab) from the paper's colour.
INK_STEP = 50.0
#: A card's face: this share of its inside is ink (the taught faces: 0.24 and more; a napkin, a
#: sheet of paper, an envelope, a patch of light table: 0.03-0.14).
FACE_INK = 0.2
#: A card's paper is light and nearly colourless (Lab; the taught faces: lightness 167-254, a
#: card behind a wire mesh 97, colour 0-16 from neutral; wood, a dark cloth, a painted bird:
#: darker or more coloured).
PAPER_LIGHT, PAPER_CHROMA = 140.0, 20.0
#: A card to teach from, its short / long side under a phone's perspective (development photos,
#: the cards taught: 2nd to 98th percentile 0.64-0.84); postcards, envelopes and book covers
#: lying near a card are mostly longer (0.58-0.62) or squarer.
TEACH_ASPECT = (0.62, 0.86)


def aspect(quad: np.ndarray) -> float:
    """Short over long side of an outline (mean of opposite sides; ``quad`` ordered as
    :func:`order_quad`)."""
    q = np.asarray(quad, np.float32).tolist()
    sides = [math.dist(q[i], q[(i + 1) % 4]) for i in range(4)]
    return (sides[0] + sides[2]) / max(1.0, sides[1] + sides[3])


def ink_share(lab: np.ndarray, quad: np.ndarray, paper: np.ndarray) -> float:
    """The share of the inside of ``quad`` (its paper border left out) that is ink: far from
    the paper's colour ``paper`` (Lab); looked at as :func:`card_paper` looks at a card."""
    homography = cv2.getPerspectiveTransform(order_quad(quad).astype(np.float32), _LOOK_CORNERS)
    card = cv2.warpPerspective(lab, homography, (_LOOK_W, _LOOK_H), flags=cv2.INTER_AREA).astype(np.float32)
    inner = card[8:-8, 6:-6].reshape(-1, 3)
    return float((np.abs(inner - paper).sum(axis=1) > INK_STEP).mean())


def light_paper(paper: np.ndarray) -> bool:
    """Whether ``paper`` (Lab) is light, nearly colourless paper, as a card's."""
    light, a, b = (float(v) for v in paper)
    return light >= PAPER_LIGHT and abs(a - 128) + abs(b - 128) <= PAPER_CHROMA


def same_paper(papers: np.ndarray) -> bool:
    """Whether the paper colours (N x 3, Lab) are one paper: one colour (a and b), lightness
    within what shade does (half a card may lie in shade)."""
    middle = median_rows(papers)
    colour = np.abs(papers[:, 1:] - middle[1:]).sum(axis=1).max()
    light = papers[:, 0].min() / max(1.0, papers[:, 0].max())
    return bool(colour <= 20 and light >= 0.5)


def inside_share(inner: np.ndarray, outer: np.ndarray) -> float:
    """The share of ``inner``'s area that lies inside ``outer`` (convex outlines)."""
    overlap, _ = cv2.intersectConvexConvex(inner.astype(np.float32), outer.astype(np.float32))
    area = cv2.contourArea(inner)
    return float(overlap / area) if area > 0 else 0.0


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex outlines (corner arrays, any order of turn)."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0
