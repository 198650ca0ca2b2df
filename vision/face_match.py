"""Which taught face a card is: small normalised thumbnails compared whole and block by block.

A card outline is rectified (:func:`rectify`) to a small portrait image; its signature is a
blurred grey thumbnail (brightness over the local light level) with the outline's margin cut
off, made zero-mean and unit-length, so a
dot product is the normalised cross-correlation (insensitive to brightness and contrast: lamp,
daylight, shadow over the whole card). Every taught picture is kept at 0 and 180 degrees (a card
lies either way up). A card is named only when all of these hold:

1. its best correlation with a taught picture is at least ``ACCEPT_SCORE``;
2. it beats the best picture of every *other* face by ``MARGIN`` (several pictures of one face,
   e.g. four suits of a rank, never compete with each other);
3. block by block (5 x 6 blocks) the card and that picture agree: the worst block's mean
   difference is at most ``MAX_BLOCK``. A look-alike that was never taught (a nine beside a
   taught ten: same pips in the corners, different middle) correlates well overall but fails
   in the blocks where it differs. A card refused by its blocks alone that no later stage
   names either is compared once more lined up with the picture (:meth:`FaceMatcher.lined_up`:
   an outline a pixel off).

Otherwise the answer is None: unidentified, never a guess. Measured on the development part of
``shared/realcards`` (see ``companion bench realcards``): the right answers accepted correlate
0.93-1.0 with a worst block under 0.62, the best wrong face at most 0.79. Cards this stage
leaves undecided go to :mod:`vision.face_features` (see :meth:`vision.enrolled.EnrolledDeck.identify`).

A face taught as light print on a dark ground (:func:`dark_ground`: a dark deck) is compared by
its print over the ground beneath it, not by brightness over the light level (a glossy
reflection adds light: see :func:`_level`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import cv2
import numpy as np

#: Rectified size of a card for identification (px, portrait) and of its thumbnail.
LOOK_W, LOOK_H = 72, 100
THUMB_W, THUMB_H = 24, 34
#: Thumbnail pixels cut off each side (the outline's few pixels of table or edge).
MARGIN_PX = 2
BLOCKS_X, BLOCKS_Y = 5, 6
#: Reach of the light-level estimate (px of the rectified card, a sixth of its width).
FLAT_SIGMA = 12.0
ACCEPT_SCORE = 0.88
MARGIN = 0.08
MAX_BLOCK = 0.65
#: A card refused by its blocks alone is compared again lined up with the picture, moved by up
#: to this many look px (a third of a thumbnail px). An outline found in a soft or small picture
#: lies a pixel off the card's edge; a pip's edge then crosses a block boundary and that block
#: differs (dev photos' webcam-like and 0.6x copies: three right aces at 0.66-0.68, 0.30-0.38
#: lined up). Lining up follows the correlation's peak, so a look-alike's differing block stays
#: (untaught faces' nearest block: 0.80-0.84 before and after).
ALIGN_PX = 1.0
#: A taught picture whose median grey is at most this share of its light print's (98th
#: percentile) is light print on a dark ground: other-decks' dark faces 0.12-0.28 taught (a
#: glossy one the highest), full-bleed art 0.35-0.65, white paper about 1. Such a face is
#: compared by its print over the ground (see :func:`_level`).
DARK_GROUND = 0.3
#: Of light print on a dark ground a thumbnail is nearly all its art: two faces sharing it (a
#: cherry two and a cherry three) differ by an index too small for the blocks, and a taught
#: picture cut a little off its card lets the other face win by the margin (other-decks seed 3:
#: a cherry three named as the two, 0.955 against 0.843). A card that correlates this well with
#: a second face is not named by the thumbnails: the features and the corner index decide
#: (:attr:`Match.shared`).
DARK_RIVAL = 0.8
#: Side (look px) of the darkest-neighbour estimate of a dark face's ground under its veil:
#: wider than the print's strokes (an index, a pip), so it finds the ground beside them.
GROUND_PX = 9

_INNER_W, _INNER_H = THUMB_W - 2 * MARGIN_PX, THUMB_H - 2 * MARGIN_PX
_TARGET = np.array([[0, 0], [LOOK_W - 1, 0], [LOOK_W - 1, LOOK_H - 1], [0, LOOK_H - 1]], np.float32)


def rectify(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (LOOK_W, LOOK_H)) -> np.ndarray:
    """The card inside ``quad`` (TL, TR, BR, BL of the portrait card) as an upright image."""
    w, h = size
    target = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    homography = cv2.getPerspectiveTransform(np.asarray(quad, np.float32).reshape(4, 2), target)
    return cv2.warpPerspective(
        image, homography, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _grey(card: np.ndarray) -> np.ndarray:
    """An upright card image (any size, BGR or grey) in grey at the look size."""
    grey = card if card.ndim == 2 else cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    if grey.shape != (LOOK_H, LOOK_W):
        grey = cv2.resize(grey, (LOOK_W, LOOK_H), interpolation=cv2.INTER_AREA)
    return grey


def dark_ground(card: np.ndarray) -> bool:
    """Whether an upright card image is light print on a dark ground (``DARK_GROUND``)."""
    grey = _grey(card).astype(np.float32)
    return bool(np.median(grey) <= DARK_GROUND * max(float(np.percentile(grey, 98)), 1.0))


def _level(card: np.ndarray, dark: bool = False) -> np.ndarray:
    """An upright card image (any size, BGR or grey) at the look size, as brightness over the
    local light level (``dark``: as print over its dark ground), blurred: what a thumbnail is
    cut from."""
    level = _grey(card).astype(np.float32)
    if dark:
        # A glossy coat's reflection or a lamp's glare adds light, it does not multiply it: on
        # white paper a little, on a dark face (grey 25) three times its ground, which dividing
        # by the light level leaves as a bright patch. The ground under it (its darkest
        # neighbours, smoothed) is taken away; the print over it is what is compared
        # (other-decks' dark faces, seeds 0-2: 63 read right, 80 so; 0 wrong either way).
        ground = cv2.erode(level, np.ones((GROUND_PX, GROUND_PX), np.uint8))
        flat = level - cv2.GaussianBlur(ground, (0, 0), FLAT_SIGMA)
    else:
        # Brightness over the local light level: a lamp's fall-off or a soft shadow across the
        # card (which multiply brightness) no longer outweigh a sparse face's print (an ace's
        # one pip).
        flat = level / (cv2.GaussianBlur(level, (0, 0), FLAT_SIGMA) + 8.0)
    return cv2.GaussianBlur(flat, (5, 5), 0)


def _thumbnail(level: np.ndarray) -> np.ndarray:
    """The signature of a :func:`_level` image: its thumbnail's inner part, zero-mean, unit length."""
    thumb = cv2.resize(level, (THUMB_W, THUMB_H), interpolation=cv2.INTER_AREA).astype(np.float32)
    inner = thumb[MARGIN_PX:-MARGIN_PX, MARGIN_PX:-MARGIN_PX]
    inner = inner - inner.mean()
    norm = float(np.linalg.norm(inner))
    return (inner / norm if norm > 1e-3 else inner).ravel()


def signature(card: np.ndarray, dark: bool = False) -> np.ndarray:
    """The normalised thumbnail of an upright card image of any size (BGR or grey), flattened
    (``dark``: of its print over a dark ground, :func:`_level`)."""
    return _thumbnail(_level(card, dark))


def aligned_block(card: np.ndarray, reference: np.ndarray, dark: bool = False) -> float:
    """:func:`worst_block` of ``card`` (an upright card image) against a taught signature
    after lining the two up: the card moved by up to ``ALIGN_PX`` look px each way, the move
    with the highest correlation kept (the correlation's peak, not the kindest block)."""
    level = _level(card, dark)
    best = _thumbnail(level)
    best_score = float(best @ reference)
    for dy in (-ALIGN_PX, 0.0, ALIGN_PX):
        for dx in (-ALIGN_PX, 0.0, ALIGN_PX):
            if dx == dy == 0.0:
                continue
            move = np.float32([[1, 0, dx], [0, 1, dy]])
            moved = cv2.warpAffine(
                level, move, (LOOK_W, LOOK_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
            sig = _thumbnail(moved)
            score = float(sig @ reference)
            if score > best_score:
                best, best_score = sig, score
    return worst_block(best, reference)


def _turned(sig: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(sig.reshape(_INNER_H, _INNER_W)[::-1, ::-1].ravel())


def worst_block(a: np.ndarray, b: np.ndarray) -> float:
    """The largest mean difference over the blocks of two signatures, in the thumbnail's own
    standard deviations (0: identical; a block of pips against bare paper is 1.5 or more)."""
    diff = np.abs(a - b).reshape(_INNER_H, _INNER_W) * np.sqrt(a.size)
    bh, bw = _INNER_H // BLOCKS_Y, _INNER_W // BLOCKS_X
    blocks = diff[: bh * BLOCKS_Y, : bw * BLOCKS_X].reshape(BLOCKS_Y, bh, BLOCKS_X, bw).mean(axis=(1, 3))
    return float(blocks.max())


@dataclass(frozen=True)
class Match:
    """The answer for one card: ``card_id`` None means unidentified.

    ``score`` is the best correlation, ``runner_up`` the best of any other face, ``block`` the
    worst block difference against the best picture. ``method`` says which stage decided:
    ``thumbnail`` (this module) or ``features`` (:mod:`vision.face_features`: ``score`` is then
    the aligned comparison's correlation, ``runner_up`` 0).
    """

    card_id: str | None
    score: float
    runner_up: float
    block: float
    best_id: str | None = None
    method: str = "thumbnail"
    #: Where the named card lies (TL TR BR BL, image px) when the feature stage found it inside
    #: an outline that is more than that card (a card overlapping it); None: the outline.
    corners: np.ndarray | None = field(default=None, compare=False)
    #: A card of light print on a dark ground left unnamed only because its art is shared
    #: (``DARK_RIVAL``): the faces whose art it is (best first). Their corner indices, which
    #: the thumbnail is too coarse to see, can tell which one it is.
    shared: tuple[str, ...] = ()

    @property
    def confidence(self) -> float:
        """0.8-1 for a named card (it passed every check), growing with score and margin; 0
        for an unidentified one, so a refused guess can never reach the daemon's threshold."""
        if self.card_id is None:
            return 0.0
        if self.method != "thumbnail":  # the feature stage or the face search: aligned comparison
            from vision.face_features import VERIFY_SCORE

            return float(0.8 + 0.2 * min(1.0, max(0.0, (self.score - VERIFY_SCORE) / (1.0 - VERIFY_SCORE))))
        strength = (self.score - ACCEPT_SCORE) / (1.0 - ACCEPT_SCORE)
        margin = (self.score - self.runner_up - MARGIN) / (4 * MARGIN)
        return float(0.8 + 0.2 * min(1.0, max(0.0, strength), max(0.0, margin)))


class FaceMatcher:
    """Taught pictures (face id, upright card image) and the matching against them. A picture
    of light print on a dark ground (:func:`dark_ground`) is kept as its print over the ground,
    and a card is compared with it so; with none such taught (a deck on paper, full-bleed art)
    a card is compared exactly as before, at the same cost."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self._rows: list[np.ndarray] = []
        self._matrix = np.zeros((0, _INNER_W * _INNER_H), np.float32)
        self._row_ids: list[str] = []
        #: Per row: whether its picture is light print on a dark ground.
        self._row_dark = np.zeros(0, bool)

    def add(self, face_id: str, card: np.ndarray) -> None:
        """Teach one picture of ``face_id`` (an upright card image, e.g. a cut-out)."""
        dark = dark_ground(card)
        sig = signature(card, dark)
        self.ids.append(face_id)
        self._rows += [sig, _turned(sig)]
        self._row_ids += [face_id, face_id]
        self._row_dark = np.append(self._row_dark, [dark, dark])
        self._matrix = np.stack(self._rows)

    def remove(self, face_id: str) -> None:
        """Forget every picture of ``face_id``."""
        keep = [i for i, row_id in enumerate(self._row_ids) if row_id != face_id]
        self._rows = [self._rows[i] for i in keep]
        self._row_ids = [self._row_ids[i] for i in keep]
        self._row_dark = self._row_dark[keep]
        self.ids = [i for i in self.ids if i != face_id]
        self._matrix = np.stack(self._rows) if self._rows else np.zeros((0, _INNER_W * _INNER_H), np.float32)

    def __len__(self) -> int:
        return len(self.ids)

    def _signatures(self, card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The card's signature for each row as that row's picture was taught (rows x length),
        and its correlation with each row."""
        plain = signature(card)
        if not self._row_dark.any():
            return plain[None, :], self._matrix @ plain
        sigs = np.where(self._row_dark[:, None], signature(card, True)[None, :], plain[None, :])
        return sigs, (self._matrix * sigs).sum(axis=1)

    def _decide(self, sigs: np.ndarray, scores: np.ndarray) -> Match:
        """The decision from the card's signatures (one, or one per row) and their scores."""
        if not self._row_ids:
            return Match(None, 0.0, 0.0, 0.0)
        order = np.argsort(-scores)
        best = int(order[0])
        best_id = self._row_ids[best]
        runner_up = next((float(scores[i]) for i in order[1:] if self._row_ids[i] != best_id), -1.0)
        score = float(scores[best])
        block = worst_block(sigs[min(best, len(sigs) - 1)], self._matrix[best])
        art = score >= ACCEPT_SCORE and block <= MAX_BLOCK
        if art and self._row_dark[best] and runner_up >= DARK_RIVAL:
            # Another face shares its art (see DARK_RIVAL): not named here, whatever the margin.
            shared = {best_id: score}
            for row in order[1:].tolist():
                if scores[row] < DARK_RIVAL:
                    break
                shared.setdefault(self._row_ids[row], float(scores[row]))
            return Match(None, score, runner_up, block, best_id, shared=tuple(shared))
        named = art and score - runner_up >= MARGIN
        return Match(best_id if named else None, score, runner_up, block, best_id)

    def match(self, card: np.ndarray) -> Match:
        """The decision for an upright card image."""
        return self._decide(*self._signatures(card))

    def lined_up(self, card: np.ndarray, found: Match) -> Match:
        """``found`` (this card's :meth:`match`) decided again with the blocks compared lined up
        (:func:`aligned_block`) when they alone refused it; otherwise ``found`` as it is."""
        refused_by_blocks = (
            found.card_id is None
            and found.score >= ACCEPT_SCORE
            and found.score - found.runner_up >= MARGIN
            and found.block > MAX_BLOCK
        )
        if not refused_by_blocks:
            return found
        row = int(np.argmax(self._signatures(card)[1]))
        block = aligned_block(card, self._matrix[row], bool(self._row_dark[row]))
        return dataclasses.replace(found, card_id=found.best_id if block <= MAX_BLOCK else None, block=block)

    def look_alikes(self, face_id: str, card: np.ndarray) -> list[tuple[str, float]]:
        """Other faces that ``card`` (a new picture of ``face_id``) would be taken for: a
        picture of theirs it correlates with at ``ACCEPT_SCORE`` or more *and* agrees with
        block by block. Faces that are merely alike overall (a jack and a king: same layout,
        other drawing) are not: the blocks tell them apart."""
        if not self._row_ids:
            return []
        sigs, scores = self._signatures(card)
        best: dict[str, float] = {}
        for row, (row_id, score) in enumerate(zip(self._row_ids, scores.tolist(), strict=True)):
            if row_id == face_id or score < ACCEPT_SCORE or score <= best.get(row_id, -1.0):
                continue
            # As :meth:`match` decides: blocks that fail are compared again lined up.
            row_sig, dark = self._matrix[row], bool(self._row_dark[row])
            sig = sigs[min(row, len(sigs) - 1)]
            if worst_block(sig, row_sig) <= MAX_BLOCK or aligned_block(card, row_sig, dark) <= MAX_BLOCK:
                best[row_id] = score
        return sorted(best.items(), key=lambda item: -item[1])
