"""Which taught face a card is when its thumbnail cannot tell: local features, checked twice.

The thumbnail comparison (:mod:`vision.face_match`) needs the whole card, cut exactly along its
outline, in even light. A card in a real photo is often not that: an outline a few pixels off,
a shadow across half of it, a fan of cards where only part of one shows, a card cut by the
frame's edge. Those go here:

1. SIFT keypoints of the card (or of its visible part) at a fixed scale, matched against the
   keypoints of every taught picture (computed once per picture and kept beside it in the
   store, ``<n>.features.npz``), as taught and softened (``SOFT_SIGMA``: a webcam is softer
   than the phone a card was taught with). Each of the two sets is searched and decides on its
   own; the sharp one first. A match is kept
   only when its nearest taught keypoint is clearly nearer than the nearest one of any *other*
   face (ratio test between faces: the pips a nine and a ten share, or the four pictures of one
   rank, never count for or against a face).
2. Per taught picture, a homography from the matches (RANSAC). The face with most inliers must
   have ``MIN_INLIERS``, twice the inliers of any other face, inliers spread over the card
   (not one corner's worth), and the taught card mapped into the view must be card-shaped and
   explain the outline (whole card) or contain the visible part (partly seen card).
3. The taught picture, warped onto the card by that homography, is compared with it: detail
   (band-passed) correlation over the part both show and, block by block, the worst block's
   difference. A look-alike (a ten where a nine was taught: same pips, same corners) lines up
   well and fails in the blocks where it differs; an untaught face does not line up at all.

Only when all hold is the card named; otherwise it is unidentified, never a guess.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision.aligned_compare import clipped_pixels, compare_aligned
from vision.card_checks import iou
from vision.feature_cache import cached, store

#: Scale of the features: a taught picture (and a whole card) is looked at at this size (px).
FEATURE_W, FEATURE_H = 150, 210
FEATURES_PER_CARD = 300
#: Nearest keypoint of a face / nearest keypoint of any other face must be below this.
RATIO = 0.8
#: Nearest taught keypoints looked at per keypoint of a view (in each set: as taught, softened).
NEIGHBOURS = 12
MIN_INLIERS = 10
#: The best face's inliers over the inliers of the best other face.
INLIER_LEAD = 2.0
#: Inliers must span this share of the card (or visible part) in both directions.
MIN_SPREAD = 0.4
#: A whole outline: the taught card mapped into it overlaps it at least this much (IoU). Low,
#: because the card is reported with its own corners: an outline that took in a card lying
#: over it, or a strip of table, still names the card it holds, where it lies.
MIN_OVERLAP = 0.3
#: A part of a card: at least this share of the visible part lies inside the mapped card (the
#: outline of a covered card may take in a sliver of what covers it).
MIN_INSIDE = 0.7
#: The aligned comparison: detail correlation at least, worst block difference at most.
VERIFY_SCORE = 0.88
VERIFY_BLOCK = 0.95
#: Taught pictures of the best face that are aligned and compared (by inliers).
VERIFY_TRIES = 3

_RECT = np.float32([[0, 0], [FEATURE_W - 1, 0], [FEATURE_W - 1, FEATURE_H - 1], [0, FEATURE_H - 1]])


@dataclass(frozen=True)
class FeatureMatch:
    """The answer of the feature stage: ``card_id`` None when unidentified.

    ``inliers`` of the best face and ``runner_up`` (of any other face), ``score`` and ``block``
    of the aligned comparison, ``best_id`` the face with most inliers (named or not),
    ``card_in_view`` where the taught card's corners (TL TR BR BL) land in the view when named.
    """

    card_id: str | None
    inliers: int
    runner_up: int
    score: float
    block: float
    best_id: str | None = None
    card_in_view: np.ndarray | None = field(default=None, compare=False)
    #: Unnamed because other faces' pictures line up on the card as well as ``best_id``'s (taught
    #: faces sharing their art: a cherry two and a cherry three): those faces, best first, and
    #: ``card_in_view`` where the best one's lies, so that the corner index can tell them apart.
    shared: tuple[str, ...] = ()


class _View(NamedTuple):
    """A view of a card as the feature stage compares it: evened out (``grey``), and where the
    camera clipped it white (:func:`vision.aligned_compare.clipped_pixels`)."""

    grey: np.ndarray
    clipped: np.ndarray


@dataclass
class _Reference:
    face_id: str
    points: np.ndarray
    descriptors: np.ndarray
    grey: np.ndarray
    soft: bool = False


def _normalised_grey(image: np.ndarray, clahe: cv2.CLAHE) -> np.ndarray:
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return clahe.apply(grey)


def card_rect() -> np.ndarray:
    """The taught picture's corners at the feature scale (TL TR BR BL)."""
    return _RECT.copy()


def mapped_card_shaped(corners: np.ndarray) -> bool:
    """A taught card mapped into the view must still look like a card (convex, card-like
    sides): a wild homography from a few chance matches does not."""
    if not cv2.isContourConvex(corners.astype(np.float32)):
        return False
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    short, long_ = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
    return bool(long_ > 0 and 0.5 <= short / long_ <= 0.95)


#: A taught picture is also described softened by this blur (sigma, feature px): a webcam's
#: frame is softer and noisier than the phone photo a card was taught from, and SIFT finds
#: few of the sharp picture's fine keypoints in it (on webcam-like copies of the shared
#: photos the right face kept a third of its inliers; described soft too, cards came back).
SOFT_SIGMA = 1.5

#: What the cached keypoints of a picture depend on (a change makes them be computed again).
CACHE_KEY = np.array([FEATURE_W, FEATURE_H, FEATURES_PER_CARD, 2, round(10 * SOFT_SIGMA)], np.int32)


def _by_ref(rows: np.ndarray) -> dict[int, np.ndarray]:
    """(view keypoint, taught keypoint, picture) rows grouped: picture -> its (view, taught) rows."""
    if not len(rows):
        return {}
    order = np.argsort(rows[:, 2], kind="stable")
    rows = rows[order]
    refs, starts = np.unique(rows[:, 2], return_index=True)
    return {int(r): part[:, :2] for r, part in zip(refs, np.split(rows, starts[1:]), strict=True)}


class FeatureMatcher:
    """Keypoints of the taught pictures and the matching of a card (or part of one) to them."""

    def __init__(self) -> None:
        self._sift = cv2.SIFT_create(nfeatures=FEATURES_PER_CARD)
        self._clahe = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(4, 4))
        self._pending: list[tuple[str, np.ndarray, Path | None]] = []
        self._refs: list[_Reference] = []
        self._all: np.ndarray | None = None
        self._owner = np.zeros(0, np.int32)
        self._start = np.zeros(0, np.int32)
        self._ref_face = np.zeros(0, np.int32)
        self._ref_soft = np.zeros(0, bool)
        #: Per set (as taught, softened): its search index and its rows of ``_all``.
        self._indexes: list[tuple[cv2.flann_Index, np.ndarray]] = []

    def add(self, face_id: str, card: np.ndarray, cache: Path | None = None) -> None:
        """Teach one upright picture of ``face_id``; its keypoints are computed when first
        needed, or read from ``cache`` (a ``.npz`` file written the first time)."""
        self._pending.append((face_id, card, cache))

    def remove(self, face_id: str) -> None:
        """Forget every picture of ``face_id``."""
        self._pending = [p for p in self._pending if p[0] != face_id]
        self._refs = [r for r in self._refs if r.face_id != face_id]
        self._all = None

    def describe(self) -> None:
        """Keypoints of the pictures taught since the last call (read from their cache files,
        else computed and kept there): teaching pays for them, not the first frame read."""
        for face_id, card, cache in self._pending:
            small = cv2.resize(card, (FEATURE_W, FEATURE_H), interpolation=cv2.INTER_AREA)
            grey = _normalised_grey(small, self._clahe)
            source = zlib.crc32(grey.tobytes())  # the picture the cache was made from
            found = cached(cache, source, CACHE_KEY)
            if found is None:
                softened = cv2.GaussianBlur(small, (0, 0), SOFT_SIGMA)
                found = self._keypoints(grey), self._keypoints(_normalised_grey(softened, self._clahe))
                store(cache, source, *found, CACHE_KEY)
            # Both descriptions are pictures of the face (the ratio test is between faces, so
            # they never count against each other); both are compared as taught (the aligned
            # comparison brings the sharper side to the other's softness).
            for soft, (points, descriptors) in enumerate(found):
                if len(points) >= MIN_INLIERS:
                    self._refs.append(_Reference(face_id, points, descriptors, grey, bool(soft)))
                    self._all = None
        self._pending = []

    def _keypoints(self, grey: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """SIFT keypoints (positions) and descriptors of a taught picture."""
        keypoints, descriptors = self._sift.detectAndCompute(grey, None)
        points = np.float32([k.pt for k in keypoints]).reshape(-1, 2)
        return points, descriptors if descriptors is not None else np.zeros((0, 128), np.float32)

    def ready(self) -> bool:
        """Whether any picture is taught (its keypoints and the index over all of them ready)."""
        return self._ready()

    def pairs(self, descriptors: np.ndarray) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
        """(view keypoint, taught keypoint) rows per taught picture, strict and loose (see
        :meth:`_pairs`); call :meth:`ready` first."""
        return self._pairs(descriptors)

    def reference_points(self, ref: int) -> np.ndarray:
        """The keypoints (feature scale) of taught picture ``ref``."""
        return self._refs[ref].points

    def reference_grey(self, ref: int) -> np.ndarray:
        """Taught picture ``ref`` as the comparison sees it (grey, evened out, feature scale)."""
        return self._refs[ref].grey

    def face_of(self, ref: int) -> str:
        """The face taught picture ``ref`` shows."""
        return self._refs[ref].face_id

    def softened(self, ref: int) -> bool:
        """Whether ``ref`` is the softened description of a taught picture (see ``SOFT_SIGMA``)."""
        return self._refs[ref].soft

    def normalised(self, grey: np.ndarray) -> np.ndarray:
        """``grey`` evened out as the taught pictures are."""
        return _normalised_grey(grey, self._clahe)

    def _ready(self) -> bool:
        """Every taught picture described, and the search index over them built (once)."""
        self.describe()
        if self._all is None and self._refs:
            self._all = np.vstack([r.descriptors for r in self._refs]).astype(np.float32)
            sizes = [len(r.descriptors) for r in self._refs]
            self._owner = np.repeat(np.arange(len(self._refs), dtype=np.int32), sizes)
            self._start = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int32)
            for ref, start, size in zip(self._refs, self._start.tolist(), sizes, strict=True):
                ref.descriptors = self._all[start : start + size]  # one copy of them kept, not two
            faces = sorted({r.face_id for r in self._refs})
            self._ref_face = np.array([faces.index(r.face_id) for r in self._refs], np.int32)
            self._ref_soft = np.array([r.soft for r in self._refs], bool)
            # Approximate nearest neighbours (randomised k-d trees): a few ms for a whole deck.
            # The trees are drawn from OpenCV's generator: seeded, a deck reads the same every run.
            self._indexes = []
            for soft in (False, True):
                rows = np.flatnonzero(self._ref_soft[self._owner] == soft)
                if len(rows):
                    cv2.setRNGSeed(FEATURE_W)
                    self._indexes.append(
                        (cv2.flann_Index(self._all[rows], {"algorithm": 1, "trees": 4}), rows)
                    )
        return bool(self._refs) and self._all is not None

    def match(self, view: np.ndarray, whole: bool, without: str | None = None) -> FeatureMatch:
        """Which taught face ``view`` shows: a whole card rectified to ``FEATURE_W`` x
        ``FEATURE_H`` (portrait, either way up), or (``whole`` False) the visible part of one,
        at about the same scale. ``without``: as if that face had not been taught (what the
        camera would take a new picture of it for)."""
        nobody = FeatureMatch(None, 0, 0, 0.0, float("inf"))
        if not self._ready():
            return nobody
        grey = _normalised_grey(view, self._clahe)
        keypoints, descriptors = self._sift.detectAndCompute(grey, None)
        if descriptors is None or len(keypoints) < MIN_INLIERS:
            return nobody
        strict, loose = self._pairs(descriptors, without)
        points = np.float32([k.pt for k in keypoints])
        fits = self._fits(strict, points)
        if not fits:
            return nobody
        # The pictures as taught decide first (a sharp view, as before the softened set was
        # added); a card they leave unnamed may be named by the softened set on its own: the
        # best face leads the other faces of that set, and every check holds as for a sharp one.
        answer, seen = None, _View(grey, clipped_pixels(view))
        for soft in (False, True):
            of_set = [fit for fit in fits if self._refs[fit[1]].soft == soft]
            if of_set:
                decided = self._decide(of_set, loose, points, seen, whole)
                if decided.card_id is not None:
                    return decided
                answer = answer or decided  # why the first set left it unnamed
        return answer or nobody

    def _decide(
        self,
        fits: list[tuple[int, int, np.ndarray, np.ndarray]],
        loose: dict[int, np.ndarray],
        points: np.ndarray,
        view: _View,
        whole: bool,
    ) -> FeatureMatch:
        """The answer of one set's ``fits`` (most inliers first): the best face named when it has
        enough inliers, leads every other face, is placed well and lines up, and no other face
        given what faces share lines up as well. Faces that do line up as well (faces of one art:
        a cherry two and a cherry three, whose index and a pip or two are all that differs) are
        given in ``shared``, the card unnamed, for the corner index to tell apart; the best face
        need not lead them (on a rendered cherry three it led the two by 1.8 times, not 2)."""
        best_id = self._refs[fits[0][1]].face_id
        inliers = fits[0][0]
        runner_up = max((f[0] for f in fits if self._refs[f[1]].face_id != best_id), default=0)
        if inliers < MIN_INLIERS:
            return FeatureMatch(None, inliers, runner_up, 0.0, float("inf"), best_id)
        # Faces the best does not lead by ``INLIER_LEAD``: each must line up as well (of its art),
        # else the card is unnamed, as before faces of one art were told apart.
        close = {self._refs[f[1]].face_id for f in fits if INLIER_LEAD * f[0] > inliers} - {best_id}
        if not all(self._lines_up(face, loose, points, view, whole) for face in sorted(close)):
            return FeatureMatch(None, inliers, runner_up, 0.0, float("inf"), best_id)
        of_best = [fit for fit in fits if self._refs[fit[1]].face_id == best_id]
        named, score, block = self._verified(of_best, view, whole)
        if named is None:
            return FeatureMatch(None, inliers, runner_up, score, block, best_id)
        # The ratio test between faces drops what two faces share; a face that, given the shared
        # keypoints too, lines up just as well means the features cannot tell them apart (faces
        # of one art, or the same card taught under two ids).
        others = sorted({self._refs[r].face_id for r in loose} - {best_id} - close)
        alike = sorted(close) + [face for face in others if self._lines_up(face, loose, points, view, whole)]
        card = cv2.perspectiveTransform(_RECT.reshape(-1, 1, 2), named).reshape(4, 2)
        if alike:
            return FeatureMatch(None, inliers, runner_up, score, block, best_id, card, (best_id, *alike))
        return FeatureMatch(best_id, inliers, runner_up, score, block, best_id, card)

    def _lines_up(
        self, face_id: str, loose: dict[int, np.ndarray], points: np.ndarray, view: _View, whole: bool
    ) -> bool:
        """Whether a picture of ``face_id``, placed by its ``loose`` pairs (those two faces share
        kept), is placed well and agrees with the view aligned (:meth:`_verified`)."""
        theirs = {r: p for r, p in loose.items() if self._refs[r].face_id == face_id}
        return self._verified(self._fits(theirs, points), view, whole)[0] is not None

    def _fits(
        self, pairs: dict[int, np.ndarray], points: np.ndarray
    ) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
        """Per taught picture with enough pairs: (inliers, picture, homography taught -> view,
        the inliers' taught points), most inliers first."""
        fits = []
        for ref_index, matched in pairs.items():
            if len(matched) < MIN_INLIERS:
                continue
            src = self._refs[ref_index].points[matched[:, 1]]
            dst = points[matched[:, 0]]
            homography, inlier_mask = cv2.findHomography(src, dst, cv2.USAC_FAST, 6.0)
            if homography is None:
                continue
            keep = inlier_mask.ravel() > 0
            fits.append((int(keep.sum()), ref_index, homography, src[keep]))
        return sorted(fits, key=lambda fit: -fit[0])

    def _verified(
        self, fits: list[tuple[int, int, np.ndarray, np.ndarray]], view: _View, whole: bool
    ) -> tuple[np.ndarray | None, float, float]:
        """The homography of the first of the ``VERIFY_TRIES`` best fits that is placed well and
        whose picture, aligned, agrees with the view (None: none); with the comparison's score
        and block."""
        h, w = view.grey.shape[:2]
        view_quad = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
        best_score, best_block = 0.0, float("inf")
        for count, ref_index, homography, ref_points in fits[:VERIFY_TRIES]:
            if count < MIN_INLIERS or not self._placed_well(homography, ref_points, view_quad, whole):
                continue
            reference = self._refs[ref_index].grey
            score, block = compare_aligned(reference, homography, view.grey, clipped=view.clipped)
            if score >= VERIFY_SCORE and block <= VERIFY_BLOCK:
                return homography, score, block
            if score > best_score:
                best_score, best_block = score, block
        return None, best_score, best_block

    def _pairs(
        self, descriptors: np.ndarray, without: str | None = None
    ) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
        """(view keypoint, taught keypoint) rows per taught picture: ``strict`` after the ratio
        test between faces, ``loose`` every picture's nearest keypoint that is about as near as
        the nearest of all (what faces share included).

        The pictures as taught and their softened descriptions are two sets, each searched and
        ratio-tested on its own: softened, different faces look more alike, and in one test
        with the sharp pictures they would drop pairs a sharp view matched clearly."""
        assert self._all is not None and self._indexes
        strict: list[np.ndarray] = []
        loose: list[np.ndarray] = []
        queries = descriptors.astype(np.float32)
        for index, rows in self._indexes:
            k = min(NEIGHBOURS, len(rows))
            found, squared = index.knnSearch(queries, k, params={"checks": 32})
            found = found.reshape(len(descriptors), k).astype(np.int64)
            distance = np.sqrt(np.maximum(squared.reshape(len(descriptors), k), 0))
            distance[found < 0] = np.inf  # fewer neighbours found than asked for
            found = rows[np.maximum(found, 0)]
            if without is not None:
                # That face's pictures are left out: their neighbours never count.
                left_out = np.array([r.face_id == without for r in self._refs])[self._owner[found]]
                distance = np.where(left_out, np.inf, distance)
            # Neighbours that do not count move to the row's end, at an infinite distance.
            order = np.argsort(distance, axis=1, kind="stable")
            these = self._pairs_among(
                np.take_along_axis(found, order, axis=1), np.take_along_axis(distance, order, axis=1)
            )
            strict.append(these[0])
            loose.append(these[1])
        return _by_ref(np.concatenate(strict)), _by_ref(np.concatenate(loose))

    def _pairs_among(self, found: np.ndarray, distance: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Strict and loose (view keypoint, taught keypoint, picture) rows from each view
        keypoint's nearest taught keypoints (``found``, ``distance``: nearest first, infinite
        where a neighbour does not count)."""
        queries = np.flatnonzero(np.isfinite(distance[:, 0]))
        found, distance = found[queries], distance[queries]
        refs = self._owner[found]
        faces = self._ref_face[refs]
        other_face = faces != faces[:, :1]
        has_other = other_face.any(axis=1)
        nearest_other = distance[np.arange(len(found)), np.argmax(other_face, axis=1)]
        distinct = ~has_other | (distance[:, 0] < RATIO * nearest_other)
        near = distance * RATIO <= distance[:, :1]
        rows = np.arange(len(found))
        seen = np.zeros((len(found), len(self._refs)), bool)
        loose_rows, strict_rows = [np.zeros((0, 3), np.int64)], [np.zeros((0, 3), np.int64)]
        for column in range(found.shape[1]):
            ref = refs[:, column]
            fresh = near[:, column] & ~seen[rows, ref]  # each picture gets its own nearest keypoint
            seen[rows[fresh], ref[fresh]] = True
            pair = np.stack([queries, found[:, column] - self._start[ref], ref], axis=1)[fresh]
            loose_rows.append(pair)
            strict_rows.append(pair[distinct[fresh] & (faces[fresh, column] == faces[fresh, 0])])
        return np.concatenate(strict_rows), np.concatenate(loose_rows)

    @staticmethod
    def _placed_well(
        homography: np.ndarray, ref_points: np.ndarray, view_quad: np.ndarray, whole: bool
    ) -> bool:
        """The inliers spread over the card and the taught card lands where the card is."""
        card = cv2.perspectiveTransform(_RECT.reshape(-1, 1, 2), homography).reshape(4, 2)
        if not mapped_card_shaped(card):
            return False
        if whole:
            spread = min(np.ptp(ref_points[:, 0]) / FEATURE_W, np.ptp(ref_points[:, 1]) / FEATURE_H)
            return bool(spread >= MIN_SPREAD and iou(card, view_quad) >= MIN_OVERLAP)
        # A part of a card: the inliers spread over what is visible, which lies on the card.
        seen = cv2.perspectiveTransform(ref_points.reshape(-1, 1, 2), homography).reshape(-1, 2)
        width, height = view_quad[2] - view_quad[0]
        spread = min(np.ptp(seen[:, 0]) / width, np.ptp(seen[:, 1]) / height)
        inter, _ = cv2.intersectConvexConvex(card.astype(np.float32), view_quad)
        inside = inter / max(1.0, float(cv2.contourArea(view_quad)))
        return bool(spread >= MIN_SPREAD and inside >= MIN_INSIDE)
