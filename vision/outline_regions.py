"""Regions of a reduced frame that may be cards, for :mod:`vision.card_outlines`.

The masks (paper lighter than its surroundings, Otsu on a "paperness" map, the spaces between
edges), the outer boundaries of their regions, a region split where it touches another only by
a thin neck (cards corner to corner), and a region's four-corner outline.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

__all__ = ["outer_regions", "paper_map", "quad_of", "region_masks", "split_at_necks"]


def quad_of(contour: np.ndarray, hull: np.ndarray | None = None) -> np.ndarray | None:
    """A four-corner outline for a contour (``hull``: its convex hull, when known), or None
    when it is not one quadrilateral."""
    hull = cv2.convexHull(contour) if hull is None else hull
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


#: Weights of |a - 128| and |b - 128| in the colour-difference channel (``paper_map``).
_CHROMA_WEIGHTS = np.array([[0.0, 3.0, 3.0]], np.float32)


def paper_map(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lightness and a colour-difference channel (0: neutral paper; high: coloured table) of a
    Lab image: min(3 (|a - 128| + |b - 128|), 255)."""
    # A contiguous copy once: OpenCV copies a strided channel view on every call it is given
    # to (~40 us each for the remaps and warps of every outline looked at).
    lightness = cv2.extractChannel(lab, 0)
    # In OpenCV's saturating arithmetic, not numpy's int16 (0.23 ms instead of 0.52 on a
    # 516x290 work copy): the distances from neutral are exact in uint8, and the weighted sum
    # is exact integers clipped at 255, as before (checked over every a, b pair).
    chroma = cv2.transform(cv2.absdiff(lab, (0, 128, 128, 0)), _CHROMA_WEIGHTS)
    return lightness, chroma


#: Opens the paper map (:func:`region_masks`): 5 px across, wider than the necks by which
#: carpet's tufts touch a card that the 3 x 3 opening leaves (3-4 px), narrower than a card's
#: paper border in the development photos' work copies (a card 80-140 px wide: 5-9 px).
_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def region_masks(
    lightness: np.ndarray, chroma: np.ndarray, size: int, opened: bool = True
) -> list[np.ndarray]:
    """Binary maps whose regions may be cards (measured on the development photos: each adds
    cards the others miss; edges alone, or edges closed into blobs, added phantoms and time);
    ``size``: the whole view's longer side (a part of it is looked at as the whole would be);
    ``opened``: with the paper map opened (cards joined to carpet's tufts)."""
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
    # On carpet, light tufts touch a card's paper border by thin necks: the card's region is
    # then a web of specks, no quadrilateral (dev singles IMG_2405, 2429). Opened by a disc
    # wider than a neck the card comes apart from them; an addition, not in place of the
    # map, as it erases a small card's border (in place of it: 2 cards lost on dev photos).
    apart = [cv2.morphologyEx(otsu, cv2.MORPH_OPEN, _DISC)] if opened else []
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
    # The search looks at the last map's regions first (an outline looked at once is not looked
    # at again): the opened map's come last, a card's outline from the others placed first.
    return [*apart, lighter, otsu, between_edges]


def outer_regions(mask: np.ndarray, least: float) -> list[np.ndarray]:
    """Outer boundaries of every region of ``mask``, also of one inside another's hole (a card
    lying inside a mat's printed zone, a card on a sheet of paper; holes themselves are not),
    of at least four points enclosing at least ``least`` px (the search passes smaller ones by).

    Texture makes hundreds of specks: their areas come from one shoelace sum over all of them
    (integer corners: exactly ``cv2.contourArea``'s value), not a call and a loop step each."""
    found, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    # Specks of fewer than four points are passed by before their areas are summed (nearly
    # half of them: one to three pixels), the rest kept in order.
    parents = hierarchy[0][:, 3].tolist()
    outer = [c for c, parent in zip(found, parents, strict=True) if parent < 0 and len(c) >= 4]
    if not outer:
        return []
    lengths = np.array([len(c) for c in outer])
    points = np.concatenate(outer).reshape(-1, 2).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    after = np.arange(1, len(points) + 1)
    after[starts + lengths - 1] = starts  # each contour's last corner is followed by its first
    cross = points[:, 0] * points[after, 1] - points[:, 1] * points[after, 0]
    areas = np.abs(np.add.reduceat(cross, starts)) * 0.5
    return [outer[k] for k in np.flatnonzero(areas >= least).tolist()]


def split_at_necks(contour: np.ndarray, min_area: float) -> list[np.ndarray]:
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
            # Each part grows within its own box (as far as the kernel reaches, and a pixel
            # of background for the contour search): the same result as on the whole mask,
            # for a fraction of the dilation's cost.
            px, py, pw, ph = cv2.boundingRect(part)
            reach = radius // 2 + 1
            x0, y0 = max(px - reach, 0), max(py - reach, 0)
            x1, y1 = min(px + pw + reach, mask.shape[1]), min(py + ph + reach, mask.shape[0])
            one = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.drawContours(one, [part - [x0, y0]], -1, 255, -1)
            one = cv2.dilate(one, grow) & mask[y0:y1, x0:x1]
            grown, _h = cv2.findContours(one, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            out += [g + [x0 + x - 1, y0 + y - 1] for g in grown]
    return out
