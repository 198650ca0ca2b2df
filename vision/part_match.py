"""Parts of cards: a card beneath another, only a strip or a corner of it showing.

The whole card's corners are known (extrapolated from what shows, a few % off) and so is the
polygon of the part that shows. The card is rectified whole; only the pixels that show are
compared with every taught picture (coarsely, with a shift search for the corners' error), and
then the corner index, the one thing that tells a strip of a nine's pips from a ten's, finely.

Used by :meth:`vision.enrolled.EnrolledDeck.identify_covered`; whole cards are compared in
:mod:`vision.face_match`.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.face_match import Match
from vision.part_windows import worst_window
from vision.rank_extent import Extent, rank_extent

#: Size (px, portrait, 63:88) the whole card is rectified to and the corner index compared at:
#: about a card's own size in a 378 x 504 photo (a rank glyph is ~10 px wide).
FINE_W, FINE_H = 180, 252
#: The coarse comparison works at a quarter of that.
PART_SCALE = 4
PART_W, PART_H = FINE_W // PART_SCALE, FINE_H // PART_SCALE
#: Fine px dropped along the card's edge (2 % of its width): the whole card's corners are
#: extrapolated, so the edge band may hold table instead of card.
FINE_EDGE_PX = 4
#: Fine px the visible polygon is shrunk by (3 % of the width): the covering card's edge and
#: shadow, and the polygon's own error, stay out of the comparison.
FINE_ERODE_PX = 6
#: Blur (sigma, working px) of the coarse comparison: tolerates a pixel of misplaced corners.
PART_BLUR = 0.7
#: Reach of the light-level estimate (working px, a sixth of the card's width, as FLAT_SIGMA).
PART_FLAT_SIGMA = 7.5
#: Side (working px) of the neighbourhood whose brightest pixel is taken for the paper's light.
PAPER_PX = 7
#: The coarse shift search: every offset up to this many working px (4 % of the card's width).
PART_SHIFT = 2
#: Refusals: too little shows, or what shows is nearly blank paper (says nothing of the face).
PART_MIN_SHARE = 0.06
PART_MIN_DETAIL = 0.06
#: An id is a candidate when its best picture's masked correlation reaches this.
PART_ACCEPT = 0.85
#: An id's pictures within this of its best picture's masked correlation are ones the coarse
#: comparison cannot tell apart (two suits of one rank, two photos): each is compared finely
#: and the id is judged by the one that agrees best. IMG_2681's nine, through a flat tone
#: curve: 0.969 and 0.964 coarse, index 0.76 and 0.88 (rank alone 0.59 and 0.82); the first
#: alone refused it. Not every picture of the id: far from its best, an index compared at a
#: shift the whole part does not support agrees by chance (a king's strip, rank 1.00 on a
#: picture 0.44 coarse, 0.70 on its best).
PART_TIE = 0.01
#: The largest window difference allowed (:func:`vision.part_windows.worst_window`), as
#: MAX_BLOCK for whole cards.
PART_MAX_BLOCK = 0.8

#: The corner index: where standard cards print rank and suit (top left, and turned at the
#: bottom right), as shares of the card's width and height. A covered card is named only from
#: a part that shows one of them: without it, a strip of pips is as much a taught ten's as an
#: untaught nine's.
INDEX_W, INDEX_H = 0.17, 0.21
#: The wider zone an index is compared over when the part shows it: a two-digit index in a
#: large font reaches a quarter of the card's width, and the narrow zone tells a "34" from a
#: "33" or a never-taught "35" by half a digit (``companion bench covered`` on realcards' art,
#: where the wider zone holds pips beside the index: right 93, 88, 58 of 120 against 94, 92, 55
#: narrow).
INDEX_WIDE_W = 0.3
#: The named face's rank (the first line of its corner index, its characters' box: see
#: :mod:`vision.rank_extent`) is compared once more alone, over the zone from the card's corner
#: to ``INDEX_RANK_PX`` fine px past the characters, and only where ``INDEX_RANK_SHOWN`` of their
#: box shows; it too must reach ``INDEX_ACCEPT``. Two reasons:
#:
#: - the index zone holds the suit beneath the rank and pips beside it, alike in two ranks of one
#:   suit: a pinochle ten of clubs beneath a queen, tens never taught, agreed 0.78 with the nine
#:   of clubs' index over the narrow zone and was named a nine (realcards IMG_2648); its rank
#:   alone does not agree;
#: - a strip that shows a two-digit index only to its first digit and a half (a quarter strip
#:   and a "19") shows it as it shows a never-taught "16" with the same art: not named.
#:
#: A picture whose rank's box is not known (print joined to the art beside it) is compared over
#: the wide zone. 3 px and 80 %: 8 px let the ten of clubs through; ``bench covered`` names 93,
#: 88, 51 of 120 right (was 93, 88, 58) and none of the second-digit look-alikes at a quarter
#: strip (was 24, 23, 9 of 36).
INDEX_RANK_PX = 3
INDEX_RANK_SHOWN = 0.8
#: Share of an index zone that must show for it to count.
INDEX_MIN_SHOWN = 0.6
#: Blur (sigma, fine px) of the index comparison: a 9 and a 10 differ in a stroke or two.
INDEX_BLUR = 0.8
#: The index's own shift search (fine px) around the coarse comparison's best shift.
INDEX_SHIFT = 3
#: The best candidate's index agreement (the correlation of the two indices' gradients, see
#: _index_score), and its lead over every other taught face's, candidate or not (compared at
#: the best's place). Gradients, not brightness: two indices of one deck in one font correlate
#: 0.9-0.99 by brightness over the zone (paper and a blob of print where the other has one: a
#: "34" and a "50"), 0.5-0.8 by gradient, the right one 0.98 sharp. The lead over every taught
#: face measures how alike this deck's indices are at this view's softness: a never-taught
#: rank's index is as like the named one's as they are (a "34" left untaught beneath a card,
#: softened by 1 px, was read as the taught "50" by brightness). Measured with ``companion
#: bench covered`` (realcards' art and tables; 120 cards each sharp, softened by 1 and 1.5 px):
#: right 94, 92, 55 with the narrow zone alone (brightness with a 0.9 limit: 89, 78, 41), none
#: wrong, untaught or look-alike named; 0.7 gave 97, 95, 73 and 0.6 named untaught ranks (1,
#: 7, 12 cards): 0.75 keeps a margin from that for decks and cameras not measured.
INDEX_ACCEPT = 0.75
INDEX_MARGIN = 0.1

_IX, _IY = round(INDEX_W * FINE_W), round(INDEX_H * FINE_H)
_IXW = round(INDEX_WIDE_W * FINE_W)


def _flat(grey: np.ndarray, mask: np.ndarray | None, blur: float) -> np.ndarray:
    """Brightness over the local light level (reach ``PART_FLAT_SIGMA`` working px, estimated
    at the working size: light varies slowly), estimated only from ``mask`` when given: a
    covering card's white or shadow next to the part must not set the part's light level;
    then blurred by ``blur``."""
    level = grey.astype(np.float32)
    size = (PART_W, PART_H)
    small = level
    if small.shape != (PART_H, PART_W):
        small = cv2.resize(level, size, interpolation=cv2.INTER_AREA)
    # The paper's light, not the print's: the brightest nearby pixel (print is darker than
    # paper), so a dark pip beside the part (shown in a taught picture, hidden in the part)
    # does not change the part's level.
    paper = np.ones((PAPER_PX, PAPER_PX), np.uint8)
    if mask is None:
        light = cv2.GaussianBlur(cv2.dilate(small, paper), (0, 0), PART_FLAT_SIGMA)
    else:
        weight = mask.astype(np.float32)
        if weight.shape != small.shape:
            weight = (cv2.resize(weight, size, interpolation=cv2.INTER_AREA) > 0.99).astype(np.float32)
        shown = cv2.dilate(weight, paper)
        light = cv2.GaussianBlur(cv2.dilate(small * weight, paper) * shown, (0, 0), PART_FLAT_SIGMA) / (
            cv2.GaussianBlur(shown, (0, 0), PART_FLAT_SIGMA) + 1e-3
        )
    if light.shape != level.shape:
        light = cv2.resize(light, (level.shape[1], level.shape[0]), interpolation=cv2.INTER_LINEAR)
    return cv2.GaussianBlur(level / (light + 8.0), (0, 0), blur)


def _grey(card: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    grey = card if card.ndim == 2 else cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    if grey.shape != (size[1], size[0]):
        grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return grey


def part_image(card: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The light-normalised, blurred grey of an upright card image of any size (BGR or grey),
    at the coarse working size (``mask``: working-size 0/1 of what shows)."""
    return _flat(_grey(card, (PART_W, PART_H)), mask, PART_BLUR)


def index_image(card: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """As :func:`part_image` at the fine size and barely blurred (``mask`` at the fine size)."""
    return _flat(_grey(card, (FINE_W, FINE_H)), mask, INDEX_BLUR)


def part_mask(visible: np.ndarray) -> np.ndarray:
    """The fine-size 0/1 mask of a visible polygon given in fine px (of the rectified card),
    shrunk by ``FINE_ERODE_PX`` and without the card's edge band."""
    mask = np.zeros((FINE_H, FINE_W), np.uint8)
    points = np.round(np.asarray(visible, np.float64).reshape(-1, 2) * 16).astype(np.int32)
    cv2.fillPoly(mask, [points], 1, cv2.LINE_8, shift=4)
    if FINE_ERODE_PX:
        mask = cv2.erode(mask, np.ones((2 * FINE_ERODE_PX + 1,) * 2, np.uint8))
    edged = np.zeros_like(mask)
    edged[FINE_EDGE_PX:-FINE_EDGE_PX, FINE_EDGE_PX:-FINE_EDGE_PX] = 1
    return mask & edged


def _index_has_ink(fine: np.ndarray, fine_mask: np.ndarray, shown: list[bool]) -> bool:
    """Whether a corner index zone that shows holds print: its detail in ``fine`` (the part's
    :func:`index_image`), over what shows of it, reaches ``PART_MIN_DETAIL``."""
    for zone, mask, show in zip(_index_zones(fine), _index_zones(fine_mask), shown, strict=True):
        if show and float(zone[mask > 0].std()) >= PART_MIN_DETAIL:
            return True
    return False


#: A zone's horizontal and vertical gradients.
Gradients = tuple[np.ndarray, np.ndarray]


def index_zones(fine: np.ndarray) -> tuple[Gradients, Gradients]:
    """A picture's top-left and bottom-right index zones, wide (``INDEX_WIDE_W``; the narrow
    zone is their part along the card's side): the gradients (3 x 3 Sobel) of its
    :func:`index_image` (``fine``), taken over the whole image, so that no zone's edge makes one."""
    fine = fine.astype(np.float32)
    gx = cv2.Sobel(fine, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(fine, cv2.CV_32F, 0, 1, ksize=3)

    def zone(rows: slice, columns: slice) -> Gradients:
        # Copies: a view would keep the whole picture's gradients alive (0.7 MB a picture).
        return gx[rows, columns].copy(), gy[rows, columns].copy()

    top_left = zone(slice(0, _IY), slice(0, _IXW))
    return top_left, zone(slice(FINE_H - _IY, FINE_H), slice(FINE_W - _IXW, FINE_W))


def _index_zones(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The top-left and bottom-right index zones of a fine-size image."""
    return image[:_IY, :_IX].copy(), image[-_IY:, -_IX:].copy()


class PartMatcher:
    """Taught pictures at the part comparison's scales, and the masked matching against them.

    Every picture is kept at 0 and 180 degrees. For a part (the whole card rectified, and a
    mask of what shows):

    1. the masked, zero-mean normalised correlation with each picture is taken at every shift
       up to ``PART_SHIFT`` working px; each id scores its best picture (several pictures of
       one id, e.g. four suits, never compete with each other); ids scoring ``PART_ACCEPT`` or
       more are candidates;
    2. a corner index must show (``INDEX_MIN_SHOWN`` of its zone): it is compared, finely, with
       each candidate's pictures the coarse correlation cannot tell from its best
       (``PART_TIE``); the best id must reach ``INDEX_ACCEPT`` and beat every other taught
       face's index (candidate or not) by ``INDEX_MARGIN``, its rank alone too;
    3. one such picture and the part agree window by window over what shows
       (``PART_MAX_BLOCK``, :mod:`vision.part_windows`).

    Otherwise (also when too little shows, or blank paper: ``PART_MIN_SHARE``,
    ``PART_MIN_DETAIL``) the answer is None.
    """

    def __init__(self) -> None:
        self._rows: list[np.ndarray] = []
        self._zones: list[tuple[Gradients, Gradients]] = []
        # Each picture's rank's extent (fine px from the card's corner; None: not known) at its
        # top left and bottom right.
        self._extents: list[tuple[Extent | None, Extent | None]] = []
        self._row_ids: list[str] = []
        self._stacked: tuple[np.ndarray, np.ndarray] | None = None

    def add(self, face_id: str, card: np.ndarray) -> None:
        """Teach one picture of ``face_id`` (an upright card image)."""
        image = part_image(card)
        fine = index_image(card)
        self._rows += [image.ravel(), np.ascontiguousarray(image[::-1, ::-1]).ravel()]
        turned = np.ascontiguousarray(fine[::-1, ::-1])
        self._zones += [index_zones(fine), index_zones(turned)]
        top_left, bottom_right = rank_extent(fine[:_IY, :_IXW]), rank_extent(turned[:_IY, :_IXW])
        self._extents += [(top_left, bottom_right), (bottom_right, top_left)]
        self._row_ids += [face_id, face_id]
        self._stacked = None

    def remove(self, face_id: str) -> None:
        """Forget every picture of ``face_id``."""
        keep = [i for i, row_id in enumerate(self._row_ids) if row_id != face_id]
        self._rows = [self._rows[i] for i in keep]
        self._zones = [self._zones[i] for i in keep]
        self._extents = [self._extents[i] for i in keep]
        self._row_ids = [self._row_ids[i] for i in keep]
        self._stacked = None

    def _matrices(self) -> tuple[np.ndarray, np.ndarray]:
        if self._stacked is None:  # stacked once per change, not per picture taught
            rows = np.stack(self._rows).astype(np.float32)
            self._stacked = (rows, rows * rows)
        return self._stacked

    def match(self, card: np.ndarray, fine_mask: np.ndarray) -> Match:
        """The decision for an upright card image (any size; ``FINE_W`` x ``FINE_H`` or more
        keeps the index's detail) of which only ``fine_mask`` (0/1, see :func:`part_mask`)
        shows."""
        refused = Match(None, 0.0, 0.0, float("inf"), method="covered")
        fine_mask, mask = _masks(fine_mask)
        if not self._row_ids or int(mask.sum()) < PART_MIN_SHARE * PART_W * PART_H:
            return refused
        image = part_image(card, mask)
        shown_zones = [zone.mean() >= INDEX_MIN_SHOWN for zone in _index_zones(fine_mask)]
        if not any(shown_zones):
            return refused  # no corner index shows: nothing tells this card from its look-alikes
        # The fine image is made once, here only when what shows is nearly blank.
        blank = float(image[mask > 0].std()) < PART_MIN_DETAIL
        fine_image = index_image(card, fine_mask) if blank else None
        if fine_image is not None and not _index_has_ink(fine_image, fine_mask, shown_zones):
            # Blank paper says nothing; a sparse face's strip (an ace's: its index and paper)
            # says as much as its index, which must then show ink of its own.
            return refused
        scores, shifts = self._coarse_scores(image, mask)
        per_row = scores.max(axis=1)
        best_rows: dict[str, int] = {}
        for i, row_id in enumerate(self._row_ids):
            if row_id not in best_rows or per_row[i] > per_row[best_rows[row_id]]:
                best_rows[row_id] = i
        candidates = {row_id: i for row_id, i in best_rows.items() if per_row[i] >= PART_ACCEPT}
        if not candidates:
            top = max(best_rows.values(), key=lambda i: per_row[i])
            runner_up = max((float(per_row[i]) for i in best_rows.values() if i != top), default=-1.0)
            return Match(None, float(per_row[top]), runner_up, float("inf"), self._row_ids[top], "covered")
        fine_grads = _gradients(index_image(card, fine_mask) if fine_image is None else fine_image)
        padded_fine_mask = np.pad(fine_mask, _PAD)

        def shift_of(i: int) -> tuple[int, int]:
            return shifts[int(np.argmax(scores[i]))]

        def index_of(i: int, at: tuple[int, int]) -> float:
            return _index_score(fine_grads, padded_fine_mask, self._zones[i], at, _PAD)

        tied = {row_id: self._tied(row_id, per_row) for row_id in candidates}
        agree = {i: index_of(i, shift_of(i)) for rows in tied.values() for i in rows}
        index_scores = {row_id: max(agree[i] for i in rows) for row_id, rows in tied.items()}
        best_id = max(index_scores, key=lambda row_id: index_scores[row_id])
        runner_up = max((v for row_id, v in index_scores.items() if row_id != best_id), default=-1.0)
        # The best id's tied pictures judged whole (its index and its rank alone, then the
        # window check), best first: the id is named by the first that passes, if any.
        ranked = self._ranked(tied[best_id])
        rank_of = {i: self._rank(i, fine_grads, padded_fine_mask, shift_of(i)) for i in ranked}
        judged = sorted(((min(agree[i], rank), i) for i, rank in rank_of.items()), reverse=True)
        score, best = judged[0]
        shift = shift_of(best)
        if score >= INDEX_ACCEPT and score - runner_up >= INDEX_MARGIN:
            # Every other taught face's index at the best face's place: how alike two indices
            # of this deck are at this view's softness.
            for row_id, i in best_rows.items():
                if row_id not in index_scores:
                    runner_up = max(runner_up, index_of(i, shift))
                    if score - runner_up < INDEX_MARGIN:
                        break
        rows, _squares = self._matrices()
        blocks: dict[int, float] = {}
        for value, i in judged:
            if value < INDEX_ACCEPT or value - runner_up < INDEX_MARGIN:
                break
            blocks[i] = worst_window(image, mask, rows[i], shift_of(i))
            if blocks[i] <= PART_MAX_BLOCK:
                score, best = value, i
                break
        block = blocks[best] if best in blocks else worst_window(image, mask, rows[best], shift)
        named = score >= INDEX_ACCEPT and score - runner_up >= INDEX_MARGIN and block <= PART_MAX_BLOCK
        return Match(best_id if named else None, score, runner_up, block, best_id, "covered")

    def closest(self, card: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[int, int]] | None:
        """For an upright card image seen whole: its coarse :func:`part_image`, the taught
        picture (either way up, at the working size) it correlates best with, and the shift
        (dx, dy) it does at (the picture's pixel x lies at the image's x + (dx, dy)); None when
        nothing is taught."""
        if not self._row_ids:
            return None
        image = part_image(card)
        scores, shifts = self._coarse_scores(image, np.ones((PART_H, PART_W), np.uint8))
        row, shift = np.unravel_index(int(np.argmax(scores)), scores.shape)
        return image, self._matrices()[0][row].reshape(PART_H, PART_W), shifts[int(shift)]

    def rank_score(self, card: np.ndarray, fine_mask: np.ndarray, face_id: str) -> float | None:
        """How ``face_id``'s rank agrees with the rank in view on an upright card image (as
        :meth:`match` takes it, ``fine_mask`` what shows): its pictures most like what shows
        (``PART_TIE``), each compared over its rank's box alone (``INDEX_RANK_SHOWN`` of it in
        view; the wide zone where the box is not known), the best agreement. None when no
        picture of it is taught or the box shows in neither corner of any (the rank says
        nothing there)."""
        fine_mask, mask = _masks(fine_mask)
        if face_id not in self._row_ids or not mask.any():
            return None
        scores, shifts = self._coarse_scores(part_image(card, mask), mask)
        grads, padded_mask = _gradients(index_image(card, fine_mask)), np.pad(fine_mask, _PAD)
        ranked = self._ranked(self._tied(face_id, scores.max(axis=1)))
        score = max(self._rank(i, grads, padded_mask, shifts[int(np.argmax(scores[i]))]) for i in ranked)
        return None if score < -0.5 else score

    def _tied(self, face_id: str, per_row: np.ndarray) -> list[int]:
        """``face_id``'s pictures within ``PART_TIE`` of its best by coarse agreement (``per_row``:
        each picture's)."""
        rows = [i for i, row_id in enumerate(self._row_ids) if row_id == face_id]
        top = max(float(per_row[i]) for i in rows)
        return [i for i in rows if per_row[i] >= top - PART_TIE]

    def _ranked(self, tied: list[int]) -> list[int]:
        """Of pictures ``tied``, those whose rank's characters were found in both corners (the
        rank alone is compared on them); all of them when none's were. A picture whose rank's
        box is not known is compared over the wide zone, suit and pips beside the rank, and
        agrees with a never-taught rank's as its index does: a deck taught from a webcam's
        copies, nines untaught, had a nine's strip agree 0.92 with a ten's picture that way
        (0.56-0.68 on the ten's pictures whose box is known), and named it.
        """
        known = [i for i in tied if None not in self._extents[i]]
        return known or tied

    def _rank(self, best: int, grads: Gradients, padded_mask: np.ndarray, shift: tuple[int, int]) -> float:
        """:func:`_index_score` of picture ``best``'s rank alone (its boxes, :func:`_rank_boxes`)."""
        top_left, bottom_right = self._extents[best]
        boxes = (_rank_boxes(top_left), _rank_boxes(bottom_right))
        return _index_score(grads, padded_mask, self._zones[best], shift, _PAD, boxes)

    def _coarse_scores(self, image: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """Masked correlation of every picture with the query at every shift (pictures x
        shifts), and the shifts (dx, dy): the picture's pixel x is compared with the query's
        pixel x + (dx, dy), the query and its mask moved together."""
        rows, squares = self._matrices()
        s = PART_SHIFT
        padded = np.pad(image, s, mode="edge")
        padded_mask = np.pad(mask, s)
        # Only the pictures' pixels some shifted mask covers take part (a strip: a few
        # hundred of the 2,835): the products below cost that much less.
        reach = cv2.dilate(mask, np.ones((2 * s + 1, 2 * s + 1), np.uint8)).ravel() > 0
        rows, squares = rows[:, reach], squares[:, reach]
        shifts = [(dx, dy) for dy in range(-s, s + 1) for dx in range(-s, s + 1)]
        weights = np.empty((len(shifts), int(reach.sum())), np.float32)
        values = np.empty_like(weights)
        for k, (dx, dy) in enumerate(shifts):
            window = (slice(s + dy, s + dy + PART_H), slice(s + dx, s + dx + PART_W))
            m = padded_mask[window].ravel()[reach].astype(np.float32)
            q = padded[window].ravel()[reach] * m
            count = max(float(m.sum()), 1.0)
            q = (q - q.sum() / count) * m
            q /= max(float(np.linalg.norm(q)), 1e-6)
            weights[k], values[k] = m / count, q
        # Zero-mean over the mask on the query's side makes the picture's own masked mean drop
        # out of the product; only its masked spread is needed.
        means = rows @ weights.T
        spread = np.sqrt(np.maximum(squares @ weights.T - means * means, 1e-9))
        counts = 1.0 / weights.max(axis=1)
        return (rows @ values.T) / (spread * np.sqrt(counts)), shifts


#: The fine index image's padding: room for the coarse shift (scaled) and the fine one.
_PAD = PART_SCALE * PART_SHIFT + INDEX_SHIFT


def _masks(fine_mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``fine_mask`` as 0/1 bytes, and what shows at the working size (a working pixel counts as
    shown only when all of it shows)."""
    fine_mask = fine_mask.astype(np.uint8)
    shrunk = cv2.resize(fine_mask.astype(np.float32), (PART_W, PART_H), interpolation=cv2.INTER_AREA)
    return fine_mask, (shrunk > 0.99).astype(np.uint8)


def _gradients(fine_image: np.ndarray) -> Gradients:
    """The x and y gradients of an index image padded by ``_PAD`` (its edge repeated)."""
    fine = np.pad(fine_image, _PAD, mode="edge").astype(np.float32)
    return cv2.Sobel(fine, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(fine, cv2.CV_32F, 0, 1, ksize=3)


#: A zone compared: its width and height (fine px from the card's corner), where the part of it
#: that must show begins (the same from the corner; it ends with the zone), and the share of
#: that part that must show.
Box = tuple[int, int, int, int, float]
_WIDE: Box = (_IXW, _IY, 0, 0, INDEX_MIN_SHOWN)
_NARROW: Box = (_IX, _IY, 0, 0, INDEX_MIN_SHOWN)


def _index_score(
    seen: Gradients,
    fine_mask: np.ndarray,
    zones: tuple[Gradients, Gradients],
    shift: tuple[int, int],
    pad: int,
    boxes: tuple[tuple[Box, ...], tuple[Box, ...]] = ((_WIDE, _NARROW), (_WIDE, _NARROW)),
) -> float:
    """How the query's index zones (``seen``: the gradients of its index image, and its mask,
    both padded by ``pad``) agree with a picture's (:func:`index_zones`): the correlation of
    the two gradient fields over what shows, the query moved by the coarse ``shift`` (scaled)
    and then by up to ``INDEX_SHIFT`` fine px; the worst of the zones that show (-1: none
    does). A stroke one has where the other has paper, or runs another way, lowers it; the
    paper round an index, alike in any two, does not raise it. Each corner's zone is the first
    of its ``boxes`` that shows (by default wide, else narrow)."""
    t = INDEX_SHIFT
    worst = 2.0
    for zone, right, choices in ((zones[0], False, boxes[0]), (zones[1], True, boxes[1])):
        chosen = None
        # Whether a zone shows is judged where the card's corners put it (as ``match`` does):
        # the shift only takes up their error, and moved out over the card's edge band
        # (masked) it would hide an index that shows.
        for width, height, from_x, from_y, share in choices:
            x0, y0 = (FINE_W - width, FINE_H - height) if right else (0, 0)
            # The part that must show, in the padded mask.
            if right:
                must = (slice(pad + y0, pad + FINE_H - from_y), slice(pad + x0, pad + FINE_W - from_x))
            else:
                must = (slice(pad + from_y, pad + height), slice(pad + from_x, pad + width))
            if fine_mask[must].mean() >= share:
                # Every zone is the wide one's part at the card's corner.
                rows = slice(_IY - height, _IY) if right else slice(0, height)
                columns = slice(_IXW - width, _IXW) if right else slice(0, width)
                chosen = zone[0][rows, columns], zone[1][rows, columns], x0, y0, width, height
                break
        if chosen is None:
            continue
        rx, ry, x0, y0, width, height = chosen
        ys, xs = pad + y0 + PART_SCALE * shift[1], pad + x0 + PART_SCALE * shift[0]
        # Every further shift at once: windows of the query's gradients around the zone,
        # compared where the part shows (a px in from its edge: the covering card's edge is
        # no gradient of this card's).
        area = (slice(ys - t, ys + height + t), slice(xs - t, xs + width + t))
        shown = cv2.erode(fine_mask[area], np.ones((3, 3), np.uint8)).astype(np.float32)
        qx, qy = seen[0][area] * shown, seen[1][area] * shown
        # Sums over the zone at every further shift, as correlations (the query's gradients
        # and mask move together; the picture's zone stays).
        dot = _correlated(qx, rx) + _correlated(qy, ry)
        query = _correlated(qx * seen[0][area] + qy * seen[1][area], np.ones((height, width), np.float32))
        taught = _correlated(shown, rx * rx + ry * ry)
        agreement = dot / np.maximum(np.sqrt(np.maximum(query * taught, 0.0)), 1e-9)
        # (At most 1 but for rounding: 2 stands for no zone compared.)
        worst = min(worst, float(min(agreement.max(), 1.0)))
    return worst if worst <= 1.0 else -1.0


def _correlated(image: np.ndarray, template: np.ndarray) -> np.ndarray:
    """The sum of ``template`` times ``image``'s window at every place it fits whole."""
    return cv2.matchTemplate(np.ascontiguousarray(image), np.ascontiguousarray(template), cv2.TM_CCORR)


def _rank_boxes(extent: Extent | None) -> tuple[Box, ...]:
    """The zone a picture's rank is compared over at one corner: from the corner to its
    characters' far side (``extent``: x0, y0, x1, y1 from the corner) and ``INDEX_RANK_PX`` past
    it, within the wide zone; the characters themselves must show. The wide zone when the
    extent is not known."""
    if extent is None:
        return (_WIDE,)
    x0, y0, x1, y1 = extent
    return ((min(x1 + INDEX_RANK_PX, _IXW), min(y1 + INDEX_RANK_PX, _IY), x0, y0, INDEX_RANK_SHOWN),)
