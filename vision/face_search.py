"""Taught cards found by their faces where no outline was found: covered, fanned, touching cards.

The outline search (:mod:`vision.card_outlines`) needs a card's edges; a card lying half under
another, a fan of cards, or two cards touching have no outline of their own, yet their faces
are full of the taught pictures' keypoints. When a frame is read in full (a photo, the first
frame, a frame in which the table settled after a change), the parts of the frame that no named
card explains are searched for taught faces:

1. SIFT keypoints of the frame (grey, light evened out as the taught pictures', at most
   ``SEARCH_SIDE`` px long: a camera frame costs half), outside the cards already named by
   their whole outline (again enlarged where cards are small: :mod:`vision.search_scale`),
   matched against the keypoints of every taught picture at once (the feature stage's index,
   with its ratio test between faces).
2. Per taught picture, a homography from its matches (USAC). A candidate is the taught card
   mapped into the frame; it is named only when every check of the feature stage holds: enough
   inliers spread over the card, card-shaped and card-sized, the best face ahead of any other
   matched at the same place, the taught picture aligned on the full frame (lined up within
   the keypoints' error: :mod:`vision.face_placing`) agreeing with it
   over the card's *visible* part near its matched keypoints, when both corner indices are in
   view one of them agreeing too, its ink ink there (a look-alike's pips, a ten's beside a
   taught nine's, may line up one pip off), and no other face explaining that place as well.
3. A named card's keypoints are taken out and the search goes on (several cards of one face).

A card is reported with its own corners (where the taught card lies, even under another card)
and its visible part (the part in the frame that no card lying over it covers), so a caller
places it by what shows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.aligned_compare import clipped_pixels, compare_aligned, detail, same_softness
from vision.card_checks import iou
from vision.face_features import (
    FEATURE_H,
    FEATURE_W,
    INLIER_LEAD,
    MIN_INLIERS,
    VERIFY_BLOCK,
    VERIFY_SCORE,
    FeatureMatcher,
    card_rect,
    mapped_card_shaped,
)
from vision.face_placing import agreeing, in_card, lined_up
from vision.index_ink import ink_shown
from vision.part_match import INDEX_H, INDEX_W
from vision.search_scale import search_copy, search_scale

#: Keypoints kept at most in a frame (the strongest; a table of a dozen cards stays below it).
FRAME_FEATURES = 3000
#: A found card's short side (px of the frame, or of a shrunk one): a far small card to a close-up.
MIN_CARD_PX = 28.0
#: Inliers must span this share of the taught card in both directions (a corner of a card
#: under another shows its index and a pip or two: at least this much of the card).
MIN_SPREAD = 0.2
#: ... and this share in one of them (a fanned card shows a strip: long and narrow).
MIN_SPREAD_LONG = 0.5
#: The part compared reaches this share of the card's short side beyond its matched keypoints.
HULL_MARGIN = 0.12
#: What shows of a card reaches at most this share of its short side beyond its matched
#: keypoints (a card lying over it whose outline is unknown covers the rest); strips of what
#: shows narrower than ``SLIVER`` of it are left out.
SHOWS_REACH, SLIVER = 0.3, 0.1
#: Share of the mapped card the comparison must see (the rest is covered or out of view).
MIN_VISIBLE = 0.2
#: Inliers of a card inside another card's outline, per area, below this share of its own
#: density overall: the other card lies over it there.
COVERED_DENSITY = 0.25
#: Rounds of search (each names at most one card).
MAX_FOUND = 12
#: A corner index zone (``INDEX_W`` x ``INDEX_H`` of the card) is in view when this share of it
#: lies in the frame outside every known card lying over the card.
INDEX_IN_VIEW = 0.8
#: ... and it is the taught index when its detail correlates with the taught picture's at least
#: this much. Measured on the face search's acceptances in realcards (phone and webcam-like
#: copies, every rank taught and each left out), where both indices were in view: the ten named
#: a nine on a webcam-like copy (its nine mapped one pip off, IMG_2579) -0.11 and 0.10; of 219
#: right cards, the better index 0.28 at the lowest (webcam-like), most above 0.6.
INDEX_AGREE = 0.2
#: ... and shows at least this share of its print (detail), both less an outer band this wide
#: (feature px), and this share of the taught index's ink is ink there (:mod:`vision.index_ink`;
#: right cards 0.41 at the lowest on realcards' photos and webcam-like copies, look-alikes 0.0).
INDEX_PRINT, INDEX_INSET, INDEX_INK = 0.5, 5, 0.25
#: The border band is looked at this share of the way in from the card's corners to its centre,
#: at this many samples in view at least; this share of them must be within ``BORDER_DROP`` grey
#: levels of the paper (the lighter tenth of what is compared).
BORDER_INSET, BORDER_SAMPLES, BORDER_PAPER, BORDER_DROP = 0.05, 8, 0.6, 45.0


@dataclass(frozen=True)
class FoundFace:
    """A taught card found by its face: ``corners`` where the whole card lies (TL TR BR BL of the
    taught picture, frame px), ``visible`` the polygon of its part that shows, ``score`` and
    ``block`` of the aligned comparison, ``homography`` taught picture (feature scale) -> frame,
    ``compared`` the part the comparison looked at, ``ref`` the taught picture."""

    card_id: str
    corners: np.ndarray
    visible: np.ndarray
    score: float
    block: float
    inliers: int
    homography: np.ndarray
    compared: np.ndarray
    ref: int
    #: Other faces whose pictures line up on the card as well (faces of one art: a cherry two
    #: and a cherry three), with ``card_id`` first: the corner index must tell which it is
    #: (:meth:`vision.enrolled.EnrolledDeck.vouches`).
    shared: tuple[str, ...] = ()


@dataclass
class _Fit:
    inliers: int
    ref: int
    homography: np.ndarray
    ref_points: np.ndarray
    view_index: np.ndarray


class FaceSearch:
    """Searches whole frames for the taught faces of a :class:`FeatureMatcher`."""

    def __init__(self, matcher: FeatureMatcher) -> None:
        self.matcher = matcher
        self._sift = cv2.SIFT_create(nfeatures=FRAME_FEATURES)

    def search(
        self,
        frame: np.ndarray,
        explained: list[np.ndarray] | None = None,
        lying: list[np.ndarray] | None = None,
        where: tuple[int, int, int, int] | None = None,
        scale: float | None = None,
    ) -> list[FoundFace]:
        """Taught cards in ``frame`` (BGR or grey) outside the ``explained`` polygons (cards
        named by their whole outline: nothing there is searched), each with its corners and
        visible part; ``lying`` are other cards' quads in view that may lie over a found card;
        ``where`` (x0, y0, x1, y1, frame px) limits the search to that box (what changed);
        ``scale``: the frame searched resized by it (default :func:`search_scale`)."""
        if not self.matcher.ready():
            return []
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        scale = search_scale(grey.shape) if scale is None else scale
        small = search_copy(grey, scale)
        h, w = small.shape[:2]
        mask = np.full((h, w), 255, np.uint8)
        for polygon in explained or []:
            cv2.fillPoly(mask, [np.round(np.asarray(polygon, np.float32) * scale).astype(np.int32)], 0)
        x0, y0, x1, y1 = 0, 0, w, h
        if where is not None:
            x0, y0 = max(0, int(where[0] * scale)), max(0, int(where[1] * scale))
            x1, y1 = min(w, int(np.ceil(where[2] * scale))), min(h, int(np.ceil(where[3] * scale)))
        least = MIN_CARD_PX * max(1.0, scale)  # an enlarged frame's cards: frame px still
        if x1 - x0 < least or y1 - y0 < least or not mask[y0:y1, x0:x1].any():
            return []
        # The taught pictures were evened out by CLAHE in tiles of about 37 x 52 px: the same here.
        tiles = (max(1, round(w / (FEATURE_W / 4))), max(1, round(h / (FEATURE_H / 4))))
        normal = cv2.createCLAHE(clipLimit=2.0, tileGridSize=tiles).apply(small)
        # SIFT's cost goes with the pixels it looks at: only the box searched. An enlarged frame
        # holds more keypoints, as it holds more pixels: so many more kept (lest a table's crowd
        # out its cards': IMG_2638's carpet, 3900 at its own size, 6100 at 1.27x).
        self._sift.setNFeatures(round(FRAME_FEATURES * max(1.0, scale) ** 2))
        keypoints, descriptors = self._sift.detectAndCompute(normal[y0:y1, x0:x1], mask[y0:y1, x0:x1])
        if descriptors is None or len(keypoints) < MIN_INLIERS:
            return []
        points = np.float32([k.pt for k in keypoints]) + np.float32([x0, y0])
        strict, loose = self.matcher.pairs(descriptors)
        others = [np.asarray(q, np.float32) * scale for q in (lying or [])]
        found: list[FoundFace] = []
        active = np.ones(len(points), bool)
        refused: set[int] = set()
        while len(found) < MAX_FOUND:
            fits = self._fits(strict, points, active, refused)
            accepted = None
            for fit in fits:
                if fit.inliers < MIN_INLIERS:
                    break
                accepted = self._check(fit, fits, loose, points, active, (small, grey, scale), others, found)
                if accepted is not None:
                    break
                refused.add(fit.ref)
            if accepted is None:
                break
            found.append(accepted)
            # Its keypoints are explained: the rest of the frame is searched again.
            inside = _inside(points, accepted.visible)
            active &= ~inside
            refused.clear()
        if scale != 1.0:
            found = [_scaled(face, 1.0 / scale) for face in found]
        return found

    def _fits(
        self, pairs: dict[int, np.ndarray], points: np.ndarray, active: np.ndarray, refused: set[int]
    ) -> list[_Fit]:
        """A homography per taught picture from its still active matches, most inliers first."""
        fits = []
        for ref, matched in pairs.items():
            if ref in refused:
                continue
            matched = matched[active[matched[:, 0]]]
            if len(matched) < MIN_INLIERS:
                continue
            src = self.matcher.reference_points(ref)[matched[:, 1]]
            dst = points[matched[:, 0]]
            homography, inlier_mask = cv2.findHomography(src, dst, cv2.USAC_FAST, 6.0)
            if homography is None:
                continue
            keep = inlier_mask.ravel() > 0
            fits.append(_Fit(int(keep.sum()), ref, homography, src[keep], matched[keep, 0]))
        return sorted(fits, key=lambda fit: -fit.inliers)

    def _check(
        self,
        fit: _Fit,
        fits: list[_Fit],
        loose: dict[int, np.ndarray],
        points: np.ndarray,
        active: np.ndarray,
        images: tuple[np.ndarray, np.ndarray, float],
        others: list[np.ndarray],
        found: list[FoundFace],
    ) -> FoundFace | None:
        """``fit`` as a found card when every check holds, else None. ``images``: the frame at the
        search's scale, the frame itself, and that scale."""
        grey, full, scale = images
        zoom = np.diag([1 / scale, 1 / scale, 1.0])
        card = cv2.perspectiveTransform(card_rect().reshape(-1, 1, 2), fit.homography).reshape(4, 2)
        if not _placed(card, fit.ref_points, grey.shape, MIN_CARD_PX * max(1.0, scale)):
            return None
        face = self.matcher.face_of(fit.ref)
        # Any other face matched at the same place must be clearly behind, among the taught
        # pictures as taught or among the softened ones, as the fit is (softened, faces look
        # more alike: each set decides on its own, as in the feature stage).
        soft = self.matcher.softened(fit.ref)
        # Faces it does not lead so: each must line up as well (below: one art), else not named.
        close = {
            self.matcher.face_of(other.ref)
            for other in fits
            if self.matcher.face_of(other.ref) != face
            and self.matcher.softened(other.ref) == soft
            and INLIER_LEAD * other.inliers > fit.inliers
            and _overlaps(card, points[other.view_index])
        }
        if any(iou(card, f.corners) > 0.5 for f in found):
            return None  # the same card again (another picture of its face)
        parts = _visible(card, points[fit.view_index], others + [f.corners for f in found], grey.shape)
        if parts is None:
            return None
        visible, compared, in_view = parts
        if not _border_is_paper(grey, card, compared, in_view):
            return None
        # Found at the search's scale, compared at the frame's own: a small card keeps its detail.
        score, block, view = self._compare(fit.ref, zoom @ fit.homography, full, compared / scale)
        if score < VERIFY_SCORE or block > VERIFY_BLOCK:
            return None
        to_card = np.linalg.inv(zoom @ fit.homography)
        if not self._index_agrees(fit.ref, view, in_card(in_view / scale, to_card)):
            return None
        # Given what faces share too, another face lining up as well at this place: the features
        # cannot tell them apart (faces of one art); only the corner index may.
        alike: set[str] = set()
        for ref, matched in loose.items():
            other_face = self.matcher.face_of(ref)
            if other_face == face or other_face in alike:
                continue
            matched = matched[active[matched[:, 0]]]
            matched = matched[_inside(points[matched[:, 0]], card)]
            if len(matched) < MIN_INLIERS:
                continue
            src = self.matcher.reference_points(ref)[matched[:, 1]]
            homography, mask = cv2.findHomography(src, points[matched[:, 0]], cv2.USAC_FAST, 6.0)
            if homography is None or int(mask.sum()) < MIN_INLIERS:
                continue
            theirs = cv2.perspectiveTransform(card_rect().reshape(-1, 1, 2), homography).reshape(4, 2)
            if not mapped_card_shaped(theirs) or iou(theirs, card) < 0.5:
                continue
            their_score, their_block, _view = self._compare(ref, zoom @ homography, full, compared / scale)
            if their_score >= VERIFY_SCORE and their_block <= VERIFY_BLOCK:
                alike.add(other_face)
        if not close <= alike:
            return None
        reference = self.matcher.reference_grey(fit.ref)
        shows = agreeing(reference, view, visible / scale, zoom @ fit.homography) * scale
        shared = (face, *sorted(alike)) if alike else ()
        return FoundFace(
            face, card, shows, score, block, fit.inliers, fit.homography, compared, fit.ref, shared
        )

    def _index_agrees(self, ref: int, view: np.ndarray, in_view: np.ndarray) -> bool:
        """Whether a corner index of the taught picture is what the straightened ``view``
        shows there, when both indices are in view (``in_view``: the taught picture's frame
        outside every known card lying over it, inside the frame).

        The comparison above looks only near the matched keypoints: an untaught look-alike's
        pips (a ten's beside a taught nine's) can line up with the taught ones one pip off,
        where both its corner indices fall on the table or on other pips. A card whose middle
        shows may have one corner under a hand or another card, hardly both: one must agree."""
        reference = self.matcher.reference_grey(ref)
        zone_w, zone_h = round(INDEX_W * FEATURE_W), round(INDEX_H * FEATURE_H)
        i = INDEX_INSET  # a picture cut a px or two off takes in the card's edge or the table
        zones = [np.s_[i:zone_h, i:zone_w], np.s_[FEATURE_H - zone_h : -i, FEATURE_W - zone_w : -i]]
        shows = in_view > 0
        if any(float(shows[zone].mean()) < INDEX_IN_VIEW for zone in zones):
            return True  # an index may be covered: the comparison near the keypoints decides
        # As the aligned comparison: both at one softness, the print's detail correlated.
        a, b = same_softness(reference, view, shows)
        detail_a, detail_b = detail(a), detail(b)
        for zone in zones:
            seen = shows[zone]
            da, db = detail_a[zone][seen], detail_b[zone][seen]
            da, db = da - da.mean(), db - db.mean()
            correlation = float((da * db).mean() / (np.sqrt((da**2).mean() * (db**2).mean()) + 1e-6))
            # A plain corner may correlate 0.2-0.47 by chance, yet shows 0.03-0.08 of the print.
            printed = (db**2).mean() >= INDEX_PRINT**2 * (da**2).mean()
            if correlation >= INDEX_AGREE and printed and ink_shown(a, b, shows, zone) >= INDEX_INK:
                return True
        return False

    def still_there(self, frame: np.ndarray, face: FoundFace) -> bool:
        """Whether ``face`` (found in an earlier frame) still lies where it was in ``frame``:
        its taught picture, aligned as then, agrees with what is there now (a few tenths of a
        millisecond; a card moved, taken or covered by a hand fails)."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        score, block, _view = self._compare(face.ref, face.homography, grey, face.compared)
        return score >= VERIFY_SCORE and block <= VERIFY_BLOCK

    def _compare(
        self, ref: int, homography: np.ndarray, grey: np.ndarray, compared: np.ndarray
    ) -> tuple[float, float, np.ndarray]:
        """The aligned comparison over the ``compared`` part, in the taught picture's frame;
        with the frame straightened there (evened out)."""
        to_card = np.linalg.inv(homography)
        score, block, view = self._compare_at(ref, to_card, grey, compared)
        if score >= VERIFY_SCORE and block <= VERIFY_BLOCK:
            return score, block, view
        # Keypoints place a card to a frame pixel or so, a small or soft card's (fewer, vaguer
        # keypoints) no better: compared again at the taught picture's best place within that.
        shift = lined_up(self.matcher.reference_grey(ref), view, in_card(compared, to_card), to_card)
        if shift is None:
            return score, block, view
        return self._compare_at(ref, shift @ to_card, grey, compared)

    def _compare_at(
        self, ref: int, to_card: np.ndarray, grey: np.ndarray, compared: np.ndarray
    ) -> tuple[float, float, np.ndarray]:
        """:meth:`_compare` with the frame straightened by ``to_card`` (frame -> taught picture)."""
        view = cv2.warpPerspective(grey, to_card, (FEATURE_W, FEATURE_H), flags=cv2.INTER_LINEAR)
        clipped = clipped_pixels(view)
        view = self.matcher.normalised(view)
        seen = in_card(compared, to_card)
        if np.count_nonzero(seen) < MIN_VISIBLE * seen.size:
            return 0.0, float("inf"), view
        score, block = compare_aligned(self.matcher.reference_grey(ref), np.eye(3), view, seen, clipped)
        return score, block, view


def _placed(card: np.ndarray, ref_points: np.ndarray, shape: tuple[int, ...], least: float) -> bool:
    """Card-shaped, a card's size for this frame (``least`` px at least), its inliers spread
    over the taught card."""
    if not mapped_card_shaped(card):
        return False
    sides = np.linalg.norm(card - np.roll(card, -1, axis=0), axis=1)
    short = min((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2)
    if not least <= short <= min(shape[:2]):
        return False
    x, y = np.ptp(ref_points[:, 0]) / FEATURE_W, np.ptp(ref_points[:, 1]) / FEATURE_H
    return bool(min(x, y) >= MIN_SPREAD and max(x, y) >= MIN_SPREAD_LONG)


def _inside(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Which points lie inside ``polygon`` (drawn over its bounding box: all points at once)."""
    if not len(points):
        return np.zeros(0, bool)
    poly = np.asarray(polygon, np.float32).reshape(-1, 2)
    x0, y0 = np.floor(poly.min(axis=0)).astype(int)
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int)
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    cv2.fillPoly(mask, [np.round(poly - (x0, y0)).astype(np.int32)], 1)
    ix = np.round(points[:, 0] - x0).astype(int)
    iy = np.round(points[:, 1] - y0).astype(int)
    within = (ix >= 0) & (iy >= 0) & (ix < mask.shape[1]) & (iy < mask.shape[0])
    result = np.zeros(len(points), bool)
    result[within] = mask[iy[within], ix[within]] > 0
    return result


def _overlaps(card: np.ndarray, points: np.ndarray) -> bool:
    """Half of ``points`` (another fit's inliers) inside ``card``: the same place."""
    return bool(len(points) and _inside(points, card).mean() >= 0.5)


def _border_is_paper(grey: np.ndarray, card: np.ndarray, compared: np.ndarray, in_view: np.ndarray) -> bool:
    """Whether the card's border band, where it is in view (in the frame, under no known card),
    is as light as its paper: a card lies there. A taught face mapped a pip off onto another
    card (an untaught ten taken for a taught nine) reaches past that card onto the table; a card
    whose border is nowhere in view says nothing (True)."""
    h, w = grey.shape[:2]
    centre = card.mean(axis=0)
    inset = card + (centre - card) * BORDER_INSET  # the band just inside the card's edge
    along = np.linspace(0.05, 0.95, 24, dtype=np.float32)[:, None]
    points = np.concatenate([inset[i] + (inset[(i + 1) % 4] - inset[i]) * along for i in range(4)])
    polygon = np.asarray(in_view, np.float32).reshape(-1, 1, 2)
    shown = [
        (int(x), int(y))
        for x, y in points
        if 0 <= x < w and 0 <= y < h and cv2.pointPolygonTest(polygon, (float(x), float(y)), False) > 0
    ]
    if len(shown) < BORDER_SAMPLES:
        return True
    # What is compared, drawn over its own box (not a mask the frame's size per card looked at).
    outline = np.round(np.asarray(compared, np.float32)).astype(np.int32)
    x0, y0 = np.maximum(outline.min(axis=0), 0)
    x1, y1 = np.minimum(outline.max(axis=0) + 1, (w, h))
    if x1 <= x0 or y1 <= y0:
        return True
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [outline - (x0, y0)], 1)
    if not mask.any():
        return True
    paper = float(np.percentile(grey[y0:y1, x0:x1][mask > 0], 90))
    values = np.array([grey[y, x] for x, y in shown], np.float32)
    return float((values >= paper - BORDER_DROP).mean()) >= BORDER_PAPER


def _visible(
    card: np.ndarray, inliers: np.ndarray, others: list[np.ndarray], shape: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The part of ``card`` that shows, the part that is compared, and the part in view (in
    the frame, under no known card, however far from the keypoints), as polygons (None when
    too little shows).

    What shows is the part inside the frame that no other card lying over it covers (another
    card lies over it where its inliers are much sparser than over the card as a whole), up to
    ``SHOWS_REACH`` of the card's short side from where its keypoints matched. What
    is compared is what shows near where the card's keypoints matched (their hull, grown by
    ``HULL_MARGIN`` of the card's short side): a hand, a book, or a card whose outline is
    unknown may cover the rest. All that lies inside the inliers' hull is compared, so a face
    that differs from the taught one in its middle (a ten beside a taught nine) is never
    excused as covered.
    """
    h, w = shape[:2]
    # Everything is drawn over the card's box (in the frame): offset by its top-left corner.
    x0, y0 = np.maximum(np.floor(card.min(axis=0)), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(card.max(axis=0)) + 1, (w, h)).astype(int)
    if x1 <= x0 or y1 <= y0:
        return None
    origin = np.float32([x0, y0])

    def drawn(polygon: np.ndarray) -> np.ndarray:
        return np.round(np.asarray(polygon, np.float32) - origin).astype(np.int32)

    shows = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(shows, drawn(card), 255)
    area = max(1.0, float(cv2.contourArea(card.astype(np.float32))))
    density = len(inliers) / area
    for other in others:
        overlap, _ = cv2.intersectConvexConvex(card.astype(np.float32), np.asarray(other, np.float32))
        if overlap < 0.03 * area:
            continue
        within = int(_inside(inliers, other).sum())
        if within < COVERED_DENSITY * density * overlap:
            cv2.fillConvexPoly(shows, drawn(other), 0)
    sides = np.linalg.norm(card - np.roll(card, -1, axis=0), axis=1)
    short = min((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2)
    # Slivers along a covering card's edge (its corners a few px off) are not what shows.
    thin = 2 * int(round(SLIVER * short / 2)) + 1
    shows = cv2.morphologyEx(shows, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (thin, thin)))
    hull = np.zeros_like(shows)
    cv2.fillConvexPoly(hull, cv2.convexHull(drawn(inliers)), 255)

    def grown(share: float) -> np.ndarray:
        size = 2 * int(round(share * short)) + 1
        return cv2.dilate(hull, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))

    parts = []
    for mask in (shows & grown(SHOWS_REACH), shows & grown(HULL_MARGIN), shows):
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            return None
        largest = max(contours, key=cv2.contourArea)
        if cv2.contourArea(largest) < MIN_VISIBLE * area:
            return None
        parts.append(largest.reshape(-1, 2).astype(np.float32) + origin)
    return parts[0], parts[1], parts[2]


def _scaled(face: FoundFace, factor: float) -> FoundFace:
    return replace(
        face,
        corners=face.corners * factor,
        visible=face.visible * factor,
        homography=np.diag([factor, factor, 1.0]) @ face.homography,
        compared=face.compared * factor,
    )
