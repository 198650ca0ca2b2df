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

Every candidate contour becomes a quadrilateral (``approxPolyDP`` of its convex hull, else its
minimum-area rectangle when the contour fills it), then must pass: a card's aspect ratio under
perspective, area bounds, convexity, fill, and a contrast check along its border (the inside
next to each edge is paper-like and differs from the outside). Overlapping candidates are
merged by non-maximum suppression.

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

#: The search runs on a copy of at most this many pixels (a 1280x720 frame: 516x290; cards of
#: 90-170 px there are 36-68 px, enough for the outline; identification uses the full frame).
WORK_PIXELS = 150_000
#: A card's short side / long side is 63 / 88 = 0.716; perspective and a loose outline widen it.
ASPECT_MIN, ASPECT_MAX = 0.5, 0.92
#: A card covers at least this share of the work image's area (a 1280x720 frame: ~45x63 px) ...
MIN_AREA_SHARE = 0.004
#: ... and at most this share (a close-up of one card).
MAX_AREA_SHARE = 0.6


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


def order_quad(quad: np.ndarray) -> np.ndarray:
    """Order four corners TL, TR, BR, BL with the long side vertical (portrait).

    Of the two portrait orders (0 and 180 degrees) the one starting nearest the image's top
    left is returned; identification tries both.
    """
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # clockwise in image coordinates, starting anywhere
    if np.linalg.norm(quad[0] - quad[1]) > np.linalg.norm(quad[1] - quad[2]):
        quad = np.roll(quad, -1, axis=0)  # make the first edge a short one (the top)
    if quad[0].sum() > quad[2].sum():
        quad = np.roll(quad, 2, axis=0)
    return quad


def _quad_of(contour: np.ndarray) -> np.ndarray | None:
    """A four-corner outline for a contour, or None when it is not one quadrilateral."""
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0:
        return None
    if cv2.contourArea(contour) < 0.8 * hull_area:
        return None  # a ragged or L-shaped region: two cards touching, or texture
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            if cv2.contourArea(quad) >= 0.9 * hull_area:
                return quad
        if len(approx) < 4:
            break
    # Rounded corners or a corner cut by the frame: the minimum rectangle, when it fits snugly.
    rect = cv2.minAreaRect(hull)
    if rect[1][0] * rect[1][1] > 0 and hull_area >= 0.85 * rect[1][0] * rect[1][1]:
        return cv2.boxPoints(rect).astype(np.float32)
    return None


def _card_shaped(quad: np.ndarray, image_area: float) -> bool:
    if not cv2.isContourConvex(quad.reshape(4, 1, 2).astype(np.int32)):
        return False
    area = cv2.contourArea(quad)
    if not MIN_AREA_SHARE * image_area <= area <= MAX_AREA_SHARE * image_area:
        return False
    q = order_quad(quad)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    short, long_ = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if not ASPECT_MIN <= short / max(long_, 1.0) <= ASPECT_MAX:
        return False
    # Opposite sides of similar length (perspective within reason), corners not too sharp.
    if min(sides[0], sides[2]) < 0.6 * max(sides[0], sides[2]):
        return False
    if min(sides[1], sides[3]) < 0.6 * max(sides[1], sides[3]):
        return False
    for i in range(4):
        a, b, c = q[i - 1], q[i], q[(i + 1) % 4]
        u, v = a - b, c - b
        cos = float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v) + 1e-6))
        if abs(cos) > 0.45:  # corners between ~63 and ~117 degrees
            return False
    return True


def _paper_map(small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Grey and a colour-difference channel (0: neutral paper; high: coloured table)."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    lightness = lab[:, :, 0]
    a = lab[:, :, 1].astype(np.int16) - 128
    b = lab[:, :, 2].astype(np.int16) - 128
    chroma = np.clip((np.abs(a) + np.abs(b)) * 3, 0, 255).astype(np.uint8)
    return lightness, chroma


def _border_contrast(lab: np.ndarray, quad: np.ndarray) -> float:
    """How clearly the quad's border separates the card inside from the table outside (0..1).

    Samples pairs of points just inside and just outside each edge; a pair counts when their
    colours (Lab) differ by a clear step, either way (a light card on dark wood, a dark card on
    a white cloth). A card passes on most of its border; a square of floor tile or a patch of
    light does not.
    """
    h, w = lab.shape[:2]
    q = order_quad(quad)
    centre = q.mean(axis=0)
    size = math.sqrt(cv2.contourArea(q))
    offset = max(2.0, 0.05 * size)
    votes = 0
    total = 0
    for i in range(4):
        p, r = q[i], q[(i + 1) % 4]
        normal = np.array([r[1] - p[1], p[0] - r[0]], np.float32)
        normal /= np.linalg.norm(normal) + 1e-6
        if normal @ ((p + r) / 2 - centre) < 0:
            normal = -normal  # outward
        ts = np.linspace(0.15, 0.85, 8)[:, None]
        points = p + (r - p) * ts
        inside = np.round(points - normal * offset).astype(int)
        outside = np.round(points + normal * offset).astype(int)
        ok = (
            (outside[:, 0] >= 0) & (outside[:, 0] < w) & (outside[:, 1] >= 0) & (outside[:, 1] < h)
            & (inside[:, 0] >= 0) & (inside[:, 0] < w) & (inside[:, 1] >= 0) & (inside[:, 1] < h)
        )
        if not ok.any():
            continue  # the edge runs along the frame's border: no evidence either way
        inside, outside = inside[ok], outside[ok]
        inner = lab[inside[:, 1], inside[:, 0]].astype(np.int16)
        step = np.abs(inner - lab[outside[:, 1], outside[:, 0]].astype(np.int16)).sum(axis=1)
        votes += int(np.count_nonzero(step >= 20))
        total += len(step)
    return votes / total if total else 0.0


def _masks(lightness: np.ndarray, chroma: np.ndarray) -> list[np.ndarray]:
    """Binary maps whose regions may be cards (measured on the development photos: each adds
    cards the others miss; edges alone, or edges closed into blobs, added phantoms and time)."""
    size = max(lightness.shape)
    blur = cv2.GaussianBlur(lightness, (5, 5), 0)
    cblur = cv2.GaussianBlur(chroma, (5, 5), 0)
    kernel = np.ones((3, 3), np.uint8)
    # Paper: light and colourless. Lighter than the neighbourhood finds a card in a sun patch
    # or on a light table; Otsu over the whole view finds one on busy grain.
    paper = cv2.subtract(blur, cblur)
    local = cv2.blur(paper, (size // 8 | 1, size // 8 | 1))
    lighter = cv2.compare(paper, cv2.add(local, 12), cv2.CMP_GT)
    lighter = cv2.morphologyEx(lighter, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    _t, otsu = cv2.threshold(paper, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    otsu = cv2.morphologyEx(otsu, cv2.MORPH_OPEN, kernel)
    # Edges cut touching cards apart where neither threshold can. Canny's thresholds come from
    # the image's own gradients: a card's edge is among the strongest steps in view, while
    # carpet, grain and sensor noise make many weak ones.
    gx = cv2.Sobel(blur, cv2.CV_16S, 1, 0)
    gy = cv2.Sobel(blur, cv2.CV_16S, 0, 1)
    magnitude = cv2.add(cv2.convertScaleAbs(gx), cv2.convertScaleAbs(gy))
    high = max(40.0, float(np.percentile(magnitude[::4, ::4], 90)))
    edges = cv2.Canny(gx, gy, 0.4 * high, high) | cv2.Canny(cblur, 30, 80)
    edges = cv2.dilate(cv2.morphologyEx(edges, cv2.MORPH_CLOSE, kernel), kernel)
    between_edges = cv2.bitwise_not(edges)  # any card with a visible edge, whatever its colour
    return [lighter, otsu, cv2.bitwise_and(otsu, between_edges), between_edges]


def _split(contour: np.ndarray, min_area: float) -> list[np.ndarray]:
    """Regions of one contour that touch others only by a thin neck (cards corner to corner),
    separated by eroding the filled contour and growing each part back."""
    x, y, w, h = cv2.boundingRect(contour)
    mask = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(mask, [contour - [x - 1, y - 1]], -1, 255, -1)
    distance = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    out: list[np.ndarray] = []
    size = math.sqrt(cv2.contourArea(contour))
    for depth in (0.04 * size, 0.08 * size, 0.13 * size, 0.2 * size):
        _t, core = cv2.threshold(distance, depth, 255, cv2.THRESH_BINARY)
        parts, _h = cv2.findContours(core.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if len(parts) < 2:
            continue
        radius = int(depth) * 2 + 1
        grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (radius, radius))
        for part in parts:
            if cv2.contourArea(part) < 0.5 * min_area:
                continue
            one = np.zeros_like(mask)
            cv2.drawContours(one, [part], -1, 255, -1)
            one = cv2.dilate(one, grow) & mask
            grown, _h = cv2.findContours(one, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            out += [g + [x - 1, y - 1] for g in grown]
    return out


def _refine(lightness: np.ndarray, quad: np.ndarray, reach_share: float = 0.08) -> np.ndarray:
    """Move each side of ``quad`` onto the strongest step between card and table near it.

    Region masks round corners and grow or shrink by a few pixels (opening, closing, a
    regrown split); the card's own edge is where brightness drops going outwards. Along each
    side, profiles across the side find that step; a robust line through the steps is the new
    side and neighbouring sides meet in the new corners. Sides with too few clear steps stay.
    """
    h, w = lightness.shape
    q = order_quad(quad).astype(np.float32)
    centre = q.mean(axis=0)
    reach = max(3.0, reach_share * math.sqrt(cv2.contourArea(q)))
    offsets = np.arange(-reach, reach + 1, 1.0, dtype=np.float32)
    starts, ends = q, np.roll(q, -1, axis=0)
    directions = (ends - starts) / (np.linalg.norm(ends - starts, axis=1, keepdims=True) + 1e-6)
    normals = np.stack([directions[:, 1], -directions[:, 0]], axis=1)
    outward = np.einsum("ij,ij->i", normals, (starts + ends) / 2 - centre) >= 0
    normals[~outward] *= -1
    ts = np.linspace(0.12, 0.88, 16, dtype=np.float32)[None, :, None]
    base = starts[:, None, :] + (ends - starts)[:, None, :] * ts  # 4 x 16 x 2
    # Every profile across every side in one remap: 64 rows of len(offsets) samples.
    samples = base[:, :, None, :] + offsets[None, None, :, None] * normals[:, None, None, :]
    xs = np.clip(samples[..., 0], 0, w - 1).reshape(64, -1)
    ys = np.clip(samples[..., 1], 0, h - 1).reshape(64, -1)
    profile = cv2.remap(lightness, xs, ys, cv2.INTER_LINEAR).astype(np.float32)
    # Inside minus outside, two pixels apart; a card may be lighter than the table or darker
    # (a cream card on the white mat): each side takes the polarity most of its profiles show.
    step = profile[:, :-2] - profile[:, 2:]
    per_side = step.reshape(4, 16, -1)
    darker = per_side.min(axis=2).sum(axis=1) < -per_side.max(axis=2).sum(axis=1)
    step = np.where(np.repeat(darker, 16)[:, None], -step, step)
    best = step.argmax(axis=1)
    clear = (step[np.arange(64), best] >= 12).reshape(4, 16)
    moved = base + offsets[best + 1].reshape(4, 16)[:, :, None] * normals[:, None, :]
    lines = []
    for i in range(4):
        if clear[i].sum() < 6:
            lines.append((starts[i], directions[i]))
            continue
        vx, vy, x0, y0 = cv2.fitLine(moved[i][clear[i]], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        matrix = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float32)
        if abs(float(np.linalg.det(matrix))) < 1e-3:
            return q
        t = np.linalg.solve(matrix, p2 - p1)
        corners.append(p1 + d1 * t[0])
    refined = np.array(corners, np.float32)
    # A refinement that moves a corner further than the search reach went wrong: keep the old.
    if np.linalg.norm(refined - q, axis=1).max() > 2.5 * reach:
        return q
    return refined


#: The card is looked at flattened to this size (px) for the border and ink checks.
_LOOK_W, _LOOK_H = 40, 56


def _card_evidence(lab: np.ndarray, quad: np.ndarray) -> int:
    """How card-like the inside of ``quad`` is: 0 not a card, 1 maybe, 2 surely.

    Every card has ink inside (an envelope, a sheet of paper or a bright patch of table has
    none: 0). A printed card with a paper border has an even band all round just inside its
    edge, of one colour on all four sides (carpet, grain and the inner frame of a face card's
    art have not): 2. Full-bleed art has no such band: 1, and the reader reports it only when
    a taught face confirms it.
    """
    target = np.array([[0, 0], [_LOOK_W - 1, 0], [_LOOK_W - 1, _LOOK_H - 1], [0, _LOOK_H - 1]], np.float32)
    homography = cv2.getPerspectiveTransform(order_quad(quad), target)
    card = cv2.warpPerspective(lab, homography, (_LOOK_W, _LOOK_H), flags=cv2.INTER_AREA).astype(np.float32)
    # Each side's band, 2-4 % in from the edge (art with a printed frame line starts further
    # in), leaving out the corners where indices sit.
    bands = [card[1:2, 8:-8], card[-2:-1, 8:-8], card[10:-10, 1:2], card[10:-10, -2:-1]]
    medians = np.array([np.median(band.reshape(-1, 3), axis=0) for band in bands])
    paper = np.median(medians, axis=0)
    inner = card[8:-8, 6:-6].reshape(-1, 3)
    if (np.abs(inner - paper).sum(axis=1) > 50).mean() < 0.02:
        return 0
    for band, median in zip(bands, medians, strict=True):
        # Most of the band within a small colour distance of its own median: even paper.
        if (np.abs(band.reshape(-1, 3) - median).sum(axis=1) <= 30).mean() < 0.6:
            return 1
    # The four sides are one paper (a shadow across one side is allowed).
    return 2 if np.abs(medians - paper).sum(axis=1).max() <= 60 else 1


def _inside_share(inner: np.ndarray, outer: np.ndarray) -> float:
    """The share of ``inner``'s area that lies inside ``outer``."""
    overlap, _ = cv2.intersectConvexConvex(inner.astype(np.float32), outer.astype(np.float32))
    area = cv2.contourArea(inner)
    return float(overlap / area) if area > 0 else 0.0


def _select(scored: list[tuple[float, int, np.ndarray]]) -> list[tuple[int, np.ndarray]]:
    """One outline per card: overlapping duplicates merged (best score kept), and of two
    outlines one inside the other, the outer when the inner is most of it (a face card's art
    frame inside the card), else the inner (a patch of table round a card)."""
    scored = sorted(scored, key=lambda item: -item[0])
    kept: list[tuple[float, int, np.ndarray]] = []
    for item in scored:
        if all(_iou(item[2], other[2]) < 0.3 for other in kept):
            kept.append(item)
    drop: set[int] = set()
    areas = [cv2.contourArea(quad) for _s, _e, quad in kept]
    for i, (_si, _ei, inner) in enumerate(kept):
        for j, (_sj, _ej, outer) in enumerate(kept):
            if i != j and areas[i] < areas[j] and _inside_share(inner, outer) > 0.8:
                drop.add(i if areas[i] >= 0.55 * areas[j] else j)
    return [(evidence, quad) for k, (_s, evidence, quad) in enumerate(kept) if k not in drop]


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


def _inside_frame(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether no corner of ``quad`` lies on (or past) the frame's border."""
    h, w = shape[:2]
    margin = max(1.0, EDGE_MARGIN * min(h, w))
    xs, ys = quad[:, 0], quad[:, 1]
    return bool(
        xs.min() > margin and ys.min() > margin and xs.max() < w - 1 - margin and ys.max() < h - 1 - margin
    )


def find_card_candidates(frame: np.ndarray) -> list[CardOutline]:
    """Card-shaped outlines in a BGR (or grey) frame, each with how sure it is and whether the
    whole card is in view (see :class:`CardOutline`)."""
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    scale = min(1.0, math.sqrt(WORK_PIXELS / (frame.shape[0] * frame.shape[1])))
    small = frame
    if scale < 1.0:
        small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lightness, chroma = _paper_map(small)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    image_area = float(small.shape[0] * small.shape[1])
    scored: list[tuple[float, int, np.ndarray]] = []
    min_area = MIN_AREA_SHARE * image_area
    contours: list[tuple[np.ndarray, bool]] = []
    looked_at: list[np.ndarray] = []
    for mask in _masks(lightness, chroma):
        # Outer boundaries of every region, also of one inside another's hole (a card lying
        # inside a mat's printed zone, a card on a sheet of paper); holes themselves are not.
        found, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        if hierarchy is not None:
            contours += [(c, False) for c, h in zip(found, hierarchy[0], strict=True) if h[3] < 0]
    while contours:
        contour, was_split = contours.pop()
        area = cv2.contourArea(contour)
        if len(contour) < 4 or area < 0.8 * min_area:
            continue
        quad = _quad_of(contour)
        if quad is None:
            # Cards touching corner to corner make one region: split it (not the whole table).
            if (
                not was_split
                and 1.6 * min_area < area < 0.25 * image_area
                and len(contour) > 8
                and area >= 0.5 * cv2.contourArea(cv2.convexHull(contour))  # a few cards, not the table
            ):
                contours += [(part, True) for part in _split(contour, min_area)]
            continue
        # The same card comes out of several maps: look at each outline once.
        if any(_iou(quad, other) > 0.85 for other in looked_at):
            continue
        looked_at.append(quad)
        quad = _refine(lightness, quad)
        if not _card_shaped(quad, image_area):
            continue
        contrast = _border_contrast(lab, quad)
        if contrast < 0.6:
            continue
        evidence = _card_evidence(lab, quad)
        if evidence:
            score = evidence + contrast * math.sqrt(cv2.contourArea(quad)) / 100
            scored.append((score, evidence, order_quad(quad)))
    chosen = [((quad + 0.5) / scale - 0.5, evidence == 2) for evidence, quad in _select(scored)]
    if scale < 1.0 and chosen:
        # The outline was found small; its sides are placed again on the full frame, where a
        # pixel is finer: identification compares thumbnails cut along these sides.
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        # A short reach: the small copy's sides are within a pixel or two of it there, and a
        # line printed near the card (a zone's frame on the mat) must not pull them away.
        chosen = [(_refine(grey, quad, 0.025), sure) for quad, sure in chosen]
    return [CardOutline(quad, sure, _inside_frame(quad, frame.shape)) for quad, sure in chosen]


def find_card_outlines(frame: np.ndarray) -> list[np.ndarray]:
    """The corners of the outlines in a BGR frame that are surely cards (see
    :func:`find_card_candidates`)."""
    return [outline.quad for outline in find_card_candidates(frame) if outline.sure]
