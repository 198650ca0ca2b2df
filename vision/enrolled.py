"""Publishers' cards, recognised by their art after one enrolment photo per face.

``companion vision enroll GAME`` stores one reference photo per distinct face (flattened to a
card-shaped image). Recognition of a card-shaped object:

1. shortlist: a 64-bit perceptual hash (DCT of a 32x32 grey thumbnail) of the card against
   every reference, each stored at 0 and 180 degrees (a card can lie either way up), keeps the
   few nearest;
2. verify: ORB features matched against the shortlist only, with Lowe's ratio test and a
   RANSAC homography; the best reference needs ``MIN_INLIERS`` inliers and a clear margin over
   the runner-up, else the answer is "unknown" (None). Never a guess.

The store is a folder per game of PNGs named by card id, in ``$STATE_DIRECTORY/enrolled`` (under
systemd) or ``~/.local/state/jackpot-companion/enrolled`` (XDG state home), or ``--store``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UserError

#: Enrolled references are flattened to this size (px, portrait), about 3.2 px/mm.
CANON_W, CANON_H = 200, 280
SHORTLIST = 4
MIN_INLIERS = 15
#: The best reference needs this many times the runner-up's inliers (and MARGIN_MIN more).
MARGIN_RATIO = 2.0
MARGIN_MIN = 10


def default_store() -> Path:
    """Where enrolled photos live: systemd's state directory, else the XDG state home."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]) / "enrolled"
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "jackpot-companion" / "enrolled"


def order_quad(quad: np.ndarray) -> np.ndarray:
    """Order four corners TL, TR, BR, BL with the long side vertical (portrait)."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # clockwise in image coordinates, starting anywhere
    if np.linalg.norm(quad[0] - quad[1]) > np.linalg.norm(quad[1] - quad[2]):
        quad = np.roll(quad, -1, axis=0)  # make the first edge a short one (the top)
    return quad


def flatten(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card inside ``quad`` as a CANON_W x CANON_H grey image."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    target = np.array([[0, 0], [CANON_W - 1, 0], [CANON_W - 1, CANON_H - 1], [0, CANON_H - 1]], np.float32)
    homography = cv2.getPerspectiveTransform(order_quad(quad), target)
    return cv2.warpPerspective(grey, homography, (CANON_W, CANON_H), flags=cv2.INTER_AREA)


def largest_card_quad(image: np.ndarray) -> np.ndarray | None:
    """The biggest card-shaped (4-corner, card aspect) bright outline in a photo, if any."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    blurred = cv2.GaussianBlur(grey, (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(blurred, 40, 120), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best, best_area = None, 0.02 * grey.shape[0] * grey.shape[1]
    for contour in contours:
        hull = cv2.convexHull(contour)
        quad = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        area = cv2.contourArea(hull)
        if len(quad) == 4 and area > best_area:
            ordered = order_quad(quad)
            short = np.linalg.norm(ordered[0] - ordered[1])
            long_ = np.linalg.norm(ordered[1] - ordered[2])
            if 0.5 <= short / max(long_, 1) <= 0.95:
                best, best_area = ordered, area
    return best


def phash(card: np.ndarray) -> np.ndarray:
    """A 64-bit perceptual hash: signs of the low DCT frequencies of a 32x32 thumbnail."""
    thumb = cv2.resize(card, (32, 32), interpolation=cv2.INTER_AREA).astype(np.float32)
    low = cv2.dct(thumb)[:8, :8].ravel()[1:]
    return low > np.median(low)


@dataclass
class Reference:
    """One enrolled face: its id, hashes at 0 and 180 degrees, ORB features."""

    card_id: str
    hashes: tuple[np.ndarray, np.ndarray]
    keypoints: np.ndarray  # Nx2 positions
    descriptors: np.ndarray | None


@dataclass(frozen=True)
class Match:
    """The answer for one card: ``card_id`` None means unknown."""

    card_id: str | None
    inliers: int
    runner_up: int

    @property
    def confidence(self) -> float:
        """0.8-1 for a verified match (it already beat MIN_INLIERS and the margin), 0 for unknown."""
        if self.card_id is None:
            return 0.0
        return float(0.8 + 0.2 * min(1.0, (self.inliers - self.runner_up) / (4.0 * MIN_INLIERS)))


class EnrolledDeck:
    """The enrolled references of one game."""

    def __init__(self, game_id: str, store: Path | None = None) -> None:
        self.game_id = game_id
        self.folder = (store or default_store()) / game_id
        self._orb = cv2.ORB_create(nfeatures=500, fastThreshold=12)
        self._matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        self.references: list[Reference] = []
        if self.folder.is_dir():
            for path in sorted(self.folder.glob("*.png")):
                card = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
                if card is None or card.shape != (CANON_H, CANON_W):
                    raise UserError(f"enrolled photo {path} is damaged; enrol that card again")
                self.references.append(self._reference(path.stem, card))

    def _features(self, card: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        # Smooth away sensor noise first: ORB's FAST corners fire on noise in flat areas.
        equalised = cv2.equalizeHist(cv2.GaussianBlur(card, (3, 3), 0))
        keypoints, descriptors = self._orb.detectAndCompute(equalised, None)
        return np.array([k.pt for k in keypoints], np.float32).reshape(-1, 2), descriptors

    def _reference(self, card_id: str, card: np.ndarray) -> Reference:
        points, descriptors = self._features(card)
        return Reference(card_id, (phash(card), phash(card[::-1, ::-1])), points, descriptors)

    def enroll(self, card_id: str, image: np.ndarray, quad: np.ndarray | None = None) -> Path:
        """Store ``card_id``'s reference from a photo (the card found in it, or ``quad``)."""
        if not card_id or "/" in card_id or card_id.startswith("."):
            raise UserError(f"'{card_id}' cannot be a card id")
        if quad is None:
            quad = largest_card_quad(image)
        if quad is None:
            raise UserError(f"no card found in the photo for '{card_id}': lay it flat on a plain table")
        card = flatten(image, quad)
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{card_id}.png"
        if not cv2.imwrite(str(path), card):
            raise UserError(f"cannot write {path}")
        self.references = [r for r in self.references if r.card_id != card_id]
        self.references.append(self._reference(card_id, card))
        return path

    def identify(self, image: np.ndarray, quad: np.ndarray) -> Match:
        """Which enrolled face lies inside ``quad`` of ``image``; Match(None, ...) when unsure."""
        if not self.references:
            return Match(None, 0, 0)
        card = flatten(image, quad)
        query_hash = phash(card)
        distances = [
            min(int(np.count_nonzero(query_hash != h)) for h in ref.hashes) for ref in self.references
        ]
        shortlist = [self.references[i] for i in np.argsort(distances)[:SHORTLIST]]
        points, descriptors = self._features(card)
        scores = sorted(
            ((self._inliers(points, descriptors, ref), ref.card_id) for ref in shortlist), reverse=True
        )
        best, best_id = scores[0]
        runner_up = scores[1][0] if len(scores) > 1 else 0
        clear = best >= MIN_INLIERS and best >= MARGIN_RATIO * runner_up and best - runner_up >= MARGIN_MIN
        return Match(best_id if clear else None, best, runner_up)

    def _inliers(self, points: np.ndarray, descriptors: np.ndarray | None, ref: Reference) -> int:
        if descriptors is None or ref.descriptors is None or len(descriptors) < 4 or len(ref.descriptors) < 4:
            return 0
        pairs = self._matcher.knnMatch(descriptors, ref.descriptors, k=2)
        good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < 0.78 * p[1].distance]
        if len(good) < 6:
            return 0
        src = points[[m.queryIdx for m in good]]
        dst = ref.keypoints[[m.trainIdx for m in good]]
        _homography, mask = cv2.findHomography(src, dst, cv2.RANSAC, 6.0)
        return int(mask.sum()) if mask is not None else 0
