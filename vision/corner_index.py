"""Whether a card named by its face as a whole shows the named face's corner index.

The thumbnails (:mod:`vision.face_match`) and the features (:mod:`vision.face_features`) judge a
face as a whole. A look-alike (the same art, another number: a taught 3 beside a never-taught
2 or 4) agrees with it everywhere but in the corner index and a few pips: a few pixels of a
thumbnail, too few for its blocks. What tells them apart is the print of the index itself, so a
whole card is named only when a corner index of it is the print of one of the named face's
pictures (:meth:`CornerIndex.shows`):

- the corner is rectified straight from the frame (a ``cv2.warpPerspective`` of the corner
  alone) at the card's own resolution (its width in the frame, at most ``MAX_WIDTH`` px): a
  small card is not enlarged into detail it never had;
- the taught picture's corner is brought to that scale, and the sharper of the two is blurred
  to the other's measured softness (:func:`softness`: a webcam's blur, a card far away), rather
  than a threshold lowered for soft views;
- the two are lined up where they correlate best (``cv2.matchTemplate`` over every shift up to
  ``SHIFT`` px, the outline's error, refined to a tenth of a pixel), the taught one scaled to
  the card's contrast and brightness (either polarity: dark print on light paper, light print
  on a dark face; where the camera clipped the corner's paper white or its print black, fitted
  to the rest and clipped as the camera clips); the largest mean difference over a
  ``WINDOW_PX`` window, in units of the index's own print contrast, is what tells them apart:
  a stroke one index has and the other lacks is a window of print against ground, a right
  card differs by noise and by what is left of the outline's error;
- each corner of the card (top left; bottom right, turned) against the taught corners most
  like it (both ways up, ``PRESELECT``); the card passes when one agrees within
  ``MAX_DIFFERENCE`` (glare or a covering card may spoil the other corner) and tells the named
  face apart: every other taught face's corners (each face's ``PRESELECT`` most like it) differ from it
  at least ``DECISIVE`` times as much. A limit alone does not hold on a small soft card: its
  index is a few soft pixels, a never-taught 4 there differs from a taught 2 no more than
  right cards may (0.19-0.27), but it differs as much from the taught 3, which a right 2 does
  not;
- a taught picture vouches only when its corners are an index (:func:`_vouches`): print in
  both, not cut through by the picture's edge (a teaching photo cut
  off its card vouches for nothing; its face is then never named whole).

Measured on every whole card the thumbnails or the features named before this check
(``companion bench realcards`` dev photos, their webcam-like and 0.6x copies, 296 right;
``companion bench other-decks`` seeds 0-2, 108 right, 27 look-alikes): right cards differ at
most 0.256, look-alikes at least 0.282 (a 3 read as a 2 at 51 px wide; most 0.32-0.5).
With the rivals: the other-decks look-alikes that passed the limit (seeds 0-2, 7 cards) were
at most 1.04 times nearer their named face than a rival; right cards from 1.36.
Cost: about 0.15-0.2 ms a named card, and as much again for its rivals, once: a card lying
still is not identified again.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

__all__ = ["CornerIndex", "corner_patch", "indices_in_view", "softness"]

#: The corner zone compared, as shares of the card's width (x) and height (y): where decks print
#: their rank and suit (pinochle: the rank letter over the suit; the other decks' numerals).
ZONE_X = (0.02, 0.22)
ZONE_Y = (0.02, 0.22)
#: Card width (px) the corners are compared at, at most (a rank glyph then ~12 px tall). Cards
#: are compared at their own width in the frame, rounded down to a multiple of ``WIDTH_STEP``
#: (the taught corners are kept per width).
MAX_WIDTH = 90
WIDTH_STEP = 2
#: Least width compared: below it an index is a few pixels and tells nothing apart.
MIN_WIDTH = 30
#: Height over width of a card (63 x 88 mm; the taught cut-outs' 200 x 280).
ASPECT = 1.4
#: The shift search (px at the comparison's scale): the outline's error.
SHIFT = 2
#: Side (px at the comparison's scale) of the window the difference is averaged over: a rank
#: glyph's stroke with its blur at ``MAX_WIDTH`` (strokes 1-2 px).
WINDOW_PX = 3
#: Px along the zone's sides where differences are not weighed (see _difference).
EDGE_PX = 2
#: A taught corner counts only when its print stands out from its ground by this many grey
#: levels (2nd to 98th percentile): an index is printed to be read at a glance (pinochle's 188
#: or more, the other decks' 99 or more; a full-bleed picture cut off its card, its corners a
#: plain colour field: 49-77).
MIN_PRINT = 88.0
#: A taught picture whose two corner zones both hold print along the picture's edge (``EDGE_PX``)
#: at this share of their print's contrast was cut through its index, inside the card: it
#: vouches for nothing. Taught pictures of whole cards: 0.6 at most in their better corner
#: (pinochle, the other decks); a bordered card cut at its white centre 1.0, a full-bleed
#: card's middle 1.07 (other-decks seeds 1, 0).
CUT_PRINT = 0.8
#: The largest window difference of the card's better corner from a taught corner, at most.
MAX_DIFFERENCE = 0.27
#: A corner shows the named face's index only when every other taught face's corners differ
#: from it at least this many times as much as the named face's. A taught look-alike (the same
#: art, another number) measures how far a sibling's index differs at the card's softness; a
#: never-taught sibling differs about as much from both of a taught pair (a 4 beside a 2 and
#: a 3), which no limit right cards need can refuse (other-decks seeds 0-2, full-bleed cards
#: 48-125 px wide: the 4 at 0.19-0.30 from both, right cards up to 0.19). Measured there:
#: look-alikes at most 1.04 times nearer their named face than a rival, right cards from 1.36
#: (one at 1.12: a 2 at 62 px whose index is as near the 3's, unidentified).
DECISIVE = 1.25
#: Levels from either end of 0-255 a camera's clipped pixels lie within (after the corner's
#: straightening blends them a little with their neighbours).
CLIPPED_LEVELS = 5
#: A corner with this share of its pixels clipped is compared as a camera that clips shows it
#: (:func:`_as_seen`); fewer, and the plain scale is kept (a bright but unclipped card as before).
CLIPPED_SHARE = 0.02
#: Refits of the clipped fit at most (each with the pixels its last prediction left free).
CLIPPED_STEPS = 4
#: Unclipped pixels a clipped corner needs to fit its scale on (a window or two of print).
CLIPPED_REST = 30
#: Taught corners compared in full per corner of the card: the best by a coarse correlation
#: (a face taught from many photos, e.g. four suits of a rank, has many).
PRESELECT = 3
#: Blur (sigma, px) of the coarse correlation: tolerates the outline's error.
COARSE_BLUR = 1.0


def _quantiles(values: np.ndarray, *shares: float) -> list[float]:
    """The values at these shares (0-1) of ``values`` sorted (np.percentile's nearest rank,
    without its cost: a tenth of a millisecond a call on a patch of a few hundred pixels)."""
    flat = values.ravel()
    ranks = [min(flat.size - 1, max(0, round(share * (flat.size - 1)))) for share in shares]
    parted = np.partition(flat, ranks)
    return [float(parted[rank]) for rank in ranks]


def softness(patch: np.ndarray) -> float:
    """The blur (Gaussian sigma, px) of a grey patch's sharpest edges: its contrast over its
    steepest gradient (a step blurred by sigma rises at most contrast / (sqrt(2 pi) sigma) a
    px). About 0.8 for a step from one pixel to the next."""
    values = patch.astype(np.float32)
    gx = cv2.Sobel(values, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(values, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    (steepest,) = _quantiles(cv2.magnitude(gx, gy), 0.99)
    low, high = _quantiles(values, 0.05, 0.95)
    return (high - low) / (np.sqrt(2 * np.pi) * max(steepest, 1e-3))


def _zone(width: int) -> tuple[int, int, int, int]:
    """The corner zone (x0, y0, x1, y1, px, inclusive) of a card ``width`` px wide."""
    height = ASPECT * width
    x0, x1 = (round(v * (width - 1)) for v in ZONE_X)
    y0, y1 = (round(v * (height - 1)) for v in ZONE_Y)
    return x0, y0, x1, y1


def corner_patch(image: np.ndarray, quad: np.ndarray, width: int, turned: bool = False) -> np.ndarray:
    """The card's top-left corner zone (``turned``: its bottom-right one, turned upright), grey,
    rectified from ``image`` (BGR or grey; ``quad`` TL TR BR BL) at ``width`` px a card's
    width, ``SHIFT`` px larger all round. A card wider in the frame is rectified at its own
    width first and then area-averaged (a linear warp straight down would alias the print's
    strokes)."""
    corners = np.asarray(quad, np.float32).reshape(4, 2)
    native = max(width, int(round(_across(corners))))
    reach = native / width
    x0, y0, x1, y1 = _zone(width)
    out = (x1 - x0 + 1 + 2 * SHIFT, y1 - y0 + 1 + 2 * SHIFT)
    size = (max(out[0], round(out[0] * reach)), max(out[1], round(out[1] * reach)))
    height = ASPECT * native
    target = np.float32([[0, 0], [native - 1, 0], [native - 1, height - 1], [0, height - 1]])
    move = np.float64([[1, 0, -(x0 - SHIFT) * reach], [0, 1, -(y0 - SHIFT) * reach], [0, 0, 1]])
    # The quad from its top left, or from its bottom right (the card turned).
    homography = cv2.getPerspectiveTransform(np.roll(corners, -2 if turned else 0, axis=0), target)
    patch = cv2.warpPerspective(
        image, move @ homography, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    if patch.ndim == 3:  # only the corner made grey, not the frame
        patch = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    if size != out:
        patch = cv2.resize(patch, out, interpolation=cv2.INTER_AREA)
    return patch.astype(np.float32)


def _across(quad: np.ndarray) -> float:
    """A card's width in the frame (px): its top and bottom sides' mean length (``quad`` TL TR
    BR BL)."""
    corners = np.asarray(quad, np.float32).reshape(4, 2)
    return float(np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])) / 2


def _seen_corners(
    image: np.ndarray, quad: np.ndarray, width: int, shown: tuple[bool, bool]
) -> Iterator[tuple[np.ndarray, float]]:
    """The card's corner zones ``shown`` (top left; bottom right, turned), each with its
    softness, one at a time: a right card's first corner mostly ends a check."""
    for turned, show in zip((False, True), shown, strict=True):
        if show:
            patch = corner_patch(image, quad, width, turned)
            yield patch, softness(patch)


def _coarse(zone: np.ndarray) -> np.ndarray:
    """A zone blurred, zero-mean and unit length, flattened: for the coarse correlation."""
    soft = cv2.GaussianBlur(zone, (0, 0), COARSE_BLUR).ravel()
    soft = soft - soft.mean()
    return soft / max(float(np.linalg.norm(soft)), 1e-6)


class _Zone:
    """One taught corner zone at one width: its softness, its coarse vector, and its blurred
    copies (the comparison's side of :func:`_difference`, made once per blur)."""

    def __init__(self, zone: np.ndarray) -> None:
        self.zone = zone
        self.soft = softness(zone)
        self.coarse = _coarse(zone)
        self._blurred: dict[int, tuple[np.ndarray, np.ndarray, float, float]] = {}

    def blurred(self, extra: float) -> tuple[np.ndarray, np.ndarray, float, float]:
        """The zone blurred by ``extra`` (sigma px, to a tenth): itself, less its mean, the
        sum of squares of that, and its print contrast (2nd to 98th percentile)."""
        key = round(extra * 10)
        found = self._blurred.get(key)
        if found is None:
            zone = cv2.GaussianBlur(self.zone, (0, 0), key / 10) if key > 0 else self.zone
            centred = zone - zone.mean()
            low, high = _quantiles(zone, 0.02, 0.98)
            found = self._blurred[key] = (zone, centred, float((centred * centred).sum()), high - low)
        return found


class CornerIndex:
    """The corner indices of the taught pictures, per face, and the check of a named card."""

    def __init__(self) -> None:
        #: face id -> grey taught pictures (upright, any size) whose corners vouch (_vouches).
        self._pictures: dict[str, list[np.ndarray]] = {}
        #: (face id, width) -> its pictures' corner zones at that width, and their coarse vectors.
        self._taught: dict[tuple[str, int], tuple[list[_Zone], np.ndarray]] = {}

    def add(self, face_id: str, card: np.ndarray) -> None:
        """Teach one picture of ``face_id`` (an upright card image, e.g. a cut-out)."""
        grey = card if card.ndim == 2 else cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
        pictures = self._pictures.setdefault(face_id, [])
        if _vouches(_taught_corners(grey, MAX_WIDTH)):
            pictures.append(grey)
        self._forget_zones(face_id)

    def remove(self, face_id: str) -> None:
        """Forget every picture of ``face_id``."""
        self._pictures.pop(face_id, None)
        self._forget_zones(face_id)

    def _forget_zones(self, face_id: str) -> None:
        self._taught = {key: value for key, value in self._taught.items() if key[0] != face_id}

    def difference(
        self, image: np.ndarray, quad: np.ndarray, face_id: str, shown: tuple[bool, bool] = (True, True)
    ) -> float:
        """How far the card inside ``quad`` (TL TR BR BL, image px) is from showing a corner
        index of ``face_id``'s pictures: its better corner (of those ``shown``: top left, bottom
        right) at its least difference from a taught corner (:func:`_difference`; infinite:
        none taught with print, none shown, or the card too small to tell)."""
        prepared = self._prepare(quad, face_id)
        if prepared is None:
            return float("inf")
        width, zones, coarse = prepared
        seen = _seen_corners(image, quad, width, shown)
        return min((_least(patch, soft, zones, coarse) for patch, soft in seen), default=float("inf"))

    def shows(
        self,
        image: np.ndarray,
        quad: np.ndarray,
        face_id: str,
        shown: tuple[bool, bool] = (True, True),
        limit: float = MAX_DIFFERENCE,
        rivals: bool = True,
    ) -> bool:
        """Whether the card inside ``quad`` shows ``face_id``'s corner index in one of the
        corners ``shown``: within ``limit`` of a taught corner of it, and (``rivals``) every
        other taught face's corners at least ``DECISIVE`` times as far (the first that does
        ends the comparison)."""
        prepared = self._prepare(quad, face_id)
        if prepared is None:
            return False
        width, zones, coarse = prepared
        for patch, soft in _seen_corners(image, quad, width, shown):
            near = _least(patch, soft, zones, coarse)
            if near > limit:
                continue
            if not rivals or self._rival(patch, soft, width, face_id, DECISIVE * near) >= DECISIVE * near:
                return True
        return False

    def _rival(self, patch: np.ndarray, soft: float, width: int, face_id: str, near: float) -> float:
        """The least difference of ``patch`` from another taught face's corners (each face's
        ``PRESELECT`` most like it); the first below ``near`` ends the comparison. Every other
        face is compared: on a deck whose indices all sit on one disc the coarse correlation
        does not single out the look-alike's (other-decks seed 4: a 4 read as its taught 3,
        the 2's corner not among the three most like it of all faces')."""
        least = float("inf")
        for other in self._pictures:
            prepared = None if other == face_id else self._prepare(None, other, width)
            if prepared is not None:
                least = min(least, _least(patch, soft, prepared[1], prepared[2], near - 1e-9))
                if least < near:
                    break
        return least

    def _prepare(
        self, quad: np.ndarray | None, face_id: str, width: int | None = None
    ) -> tuple[int, list[_Zone], np.ndarray] | None:
        """The width a card inside ``quad`` is compared at (or ``width``), and ``face_id``'s
        taught zones and their coarse vectors there; None: none taught with print, or the card
        too small to tell."""
        pictures = self._pictures.get(face_id)
        if width is None:
            assert quad is not None
            width = int(min(MAX_WIDTH, _across(quad)) // WIDTH_STEP * WIDTH_STEP)
        if not pictures or width < MIN_WIDTH:
            return None
        taught = self._taught.get((face_id, width))
        if taught is None:
            zones = [_Zone(zone) for picture in pictures for zone in _taught_corners(picture, width)]
            taught = self._taught[(face_id, width)] = (zones, np.stack([zone.coarse for zone in zones]))
        return width, taught[0], taught[1]


def _preselected(patch: np.ndarray, coarse: np.ndarray) -> list[int]:
    """The ``PRESELECT`` taught zones (their ``coarse`` vectors) most like ``patch``'s zone."""
    return np.argsort(-(coarse @ _coarse(patch[SHIFT:-SHIFT, SHIFT:-SHIFT])))[:PRESELECT].tolist()


def _least(
    patch: np.ndarray, soft: float, zones: list[_Zone], coarse: np.ndarray, enough: float = -1.0
) -> float:
    """The least difference of ``patch`` from the preselected ``zones``; the first at most
    ``enough`` ends the comparison."""
    least = float("inf")
    for k in _preselected(patch, coarse):
        least = min(least, _difference(patch, soft, zones[k]))
        if least <= enough:
            break
    return least


def indices_in_view(quad: np.ndarray, shape: tuple[int, ...], lying: list[np.ndarray]) -> tuple[bool, bool]:
    """Whether the top-left and the bottom-right corner zone of the card inside ``quad`` (TL TR
    BR BL, image px) show: inside the image (``shape``) and off every card ``lying`` beside or
    over it (corners, image px)."""
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    to_image = cv2.getPerspectiveTransform(unit, np.asarray(quad, np.float32).reshape(4, 2))
    others = [np.asarray(other, np.float32).reshape(-1, 1, 2) for other in lying]
    shown = []
    for xs, ys in ((ZONE_X, ZONE_Y), ((1 - ZONE_X[1], 1 - ZONE_X[0]), (1 - ZONE_Y[1], 1 - ZONE_Y[0]))):
        zone = np.float32([[x, y] for x in xs for y in ys]).reshape(-1, 1, 2)
        points = [(float(x), float(y)) for x, y in cv2.perspectiveTransform(zone, to_image).reshape(-1, 2)]
        inside = all(0 <= x < shape[1] and 0 <= y < shape[0] for x, y in points)
        covered = any(cv2.pointPolygonTest(other, p, False) >= 0 for other in others for p in points)
        shown.append(inside and not covered)
    return shown[0], shown[1]


def _taught_corners(picture: np.ndarray, width: int) -> list[np.ndarray]:
    """A taught picture's top-left corner zone and its bottom-right one turned, at ``width``."""
    x0, y0, x1, y1 = _zone(width)
    h, w = picture.shape[:2]
    fx, fy = (w - 1) / (width - 1), (h - 1) / (ASPECT * width - 1)
    size = (x1 - x0 + 1, y1 - y0 + 1)
    found = []
    for turned in (picture, picture[::-1, ::-1]):
        # The zone's pixels at this scale, area-averaged from the picture's.
        crop = turned[int(y0 * fy) : int(np.ceil((y1 + 1) * fy)), int(x0 * fx) : int(np.ceil((x1 + 1) * fx))]
        zone = cv2.resize(np.ascontiguousarray(crop), size, interpolation=cv2.INTER_AREA)
        found.append(zone.astype(np.float32))
    return found


def _vouches(pair: list[np.ndarray]) -> bool:
    """Whether a taught picture's two corner zones (top left; bottom right, turned; at
    ``MAX_WIDTH``) can vouch for a card: both hold print (``MIN_PRINT``) and not both are cut
    through their print by the picture's edge (``CUT_PRINT``). (That the two show the same
    print is not asked: a deck's art may reach into one corner zone only.)"""
    cut = 0
    for zone in pair:
        low, high = _quantiles(zone, 0.02, 0.98)
        if high - low < MIN_PRINT:
            return False
        # The band along the picture's edges (the zone's first columns and rows): a card's
        # margin, border or field, unless the picture was cut inside the card.
        edge = np.concatenate([zone[:, :EDGE_PX].ravel(), zone[:EDGE_PX, :].ravel()])
        edge_low, edge_high = _quantiles(edge, 0.02, 0.98)
        cut += edge_high - edge_low >= CUT_PRINT * (high - low)
    return cut < len(pair)


def _peak(a: float, b: float, c: float) -> float:
    """Where a parabola through three neighbouring values peaks, from the middle one (px)."""
    bend = a - 2 * b + c
    return 0.0 if bend >= 0 else min(0.5, max(-0.5, float(0.5 * (a - c) / bend)))


def _as_seen(view: np.ndarray, centred: np.ndarray, energy: float) -> tuple[float, np.ndarray] | None:
    """The taught zone (``centred``: less its mean; ``energy``: its sum of squares) as the
    camera shows it in ``view`` (lined up with it): scaled to its contrast and brightness, and
    clipped where the camera clips (a card in bright light, or a camera that meters a dark
    table, turns its paper flat white: print and paper no longer differ in proportion, realcards
    half a stop over: a right jack's corners at 0.36 and 0.41, 0.26 so compared). Where
    ``CLIPPED_SHARE`` of the view is at either end of the camera's range, the scale is fitted
    to the pixels that are not, then refitted with those clipped where the prediction is not
    past the end they show at (a few steps of the clipped prediction's least squares). With its
    gain; None when the print's polarity turned."""
    gain = float((centred * view).sum()) / max(energy, 1e-6)
    offset = float(view.mean())
    high, low = view >= 255 - CLIPPED_LEVELS, view <= CLIPPED_LEVELS
    if gain <= 0.0 or float((high | low).mean()) < CLIPPED_SHARE:
        return None if gain <= 0.0 else (gain, offset + gain * centred)
    free = ~(high | low)  # first fitted to what is not clipped
    for _step in range(CLIPPED_STEPS):
        x, y = centred[free], view[free]
        if x.size < CLIPPED_REST:
            break
        spread = float(((x - x.mean()) ** 2).sum())
        if spread <= 1e-6:
            break
        gain = float(((x - x.mean()) * (y - y.mean())).sum()) / spread
        offset = float(y.mean()) - gain * float(x.mean())
        if gain <= 0.0:
            return None
        predicted = offset + gain * centred
        free = ~((high & (predicted >= 255.0)) | (low & (predicted <= 0.0)))
    return gain, np.clip(offset + gain * centred, 0.0, 255.0)


def _difference(seen: np.ndarray, seen_soft: float, taught: _Zone) -> float:
    """How much ``seen`` (a corner zone and ``SHIFT`` px round it, ``seen_soft`` its softness)
    differs from a ``taught`` zone, the sharper of the two blurred to the other's softness,
    lined up where they correlate best: the largest mean difference over a ``WINDOW_PX``
    window once the taught zone is scaled to the seen one's contrast and brightness, in units
    of the print's contrast (the taught zone's, at that softness: a thin stroke blurred stands
    out less, and so does its absence). 0: identical."""
    extra = float(np.sqrt(abs(seen_soft**2 - taught.soft**2)))
    if extra > 0.3 and seen_soft < taught.soft:
        seen = cv2.GaussianBlur(seen, (0, 0), extra)
    softer = extra > 0.3 and seen_soft > taught.soft
    zone, centred, energy, contrast = taught.blurred(extra if softer else 0.0)
    th, tw = zone.shape
    fit = cv2.matchTemplate(seen, zone, cv2.TM_CCOEFF_NORMED)
    _low, _high, _at, (dx, dy) = cv2.minMaxLoc(fit)
    x, y = float(dx), float(dy)
    if 0 < dx < fit.shape[1] - 1 and 0 < dy < fit.shape[0] - 1:
        x += _peak(fit[dy, dx - 1], fit[dy, dx], fit[dy, dx + 1])
        y += _peak(fit[dy - 1, dx], fit[dy, dx], fit[dy + 1, dx])
    move = np.float32([[1, 0, -x], [0, 1, -y]])
    view = cv2.warpAffine(seen, move, (tw, th), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    predicted = _as_seen(view, centred, energy)
    if predicted is None:
        return float("inf")  # the print's polarity turned: not this face
    gain, expected = predicted
    apart = np.abs(view - expected)
    window = cv2.blur(apart, (WINDOW_PX, WINDOW_PX), borderType=cv2.BORDER_REFLECT)
    # Not within EDGE_PX of the zone's sides: what the zone cuts (a court card's frame, a pip)
    # is lined up only from one side there (realcards' webcam-like kings: 0.37 there).
    window = window[EDGE_PX:-EDGE_PX, EDGE_PX:-EDGE_PX]
    return float(window.max()) / (gain * max(contrast, 1.0))
