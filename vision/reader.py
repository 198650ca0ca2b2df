"""Read the cards on the table from one camera frame.

Per frame (``CardReader.read``):

1. Markers: one search finds card markers and the mat's corner markers alike
   (``vision.marker_search``: outlines at half size, codes read at full size, the far part of
   the frame searched again at full size where markers are small). Only exact codes count.
2. The mat (when used): every corner marker of this game's mat gives four point pairs, so one
   to four of them give the homography from image to mat millimetres. Markers of another
   game's mat are ignored.
3. Each trusted marker fixes its card's outline (the marker is a square on the card's plane);
   markers of the same id whose cards coincide are one card seen twice. A marker that belongs
   to another game is reported as that game's card, with ``game`` set to it, so the caller can
   say "wrong box" instead of guessing.
4. Card-shaped outlines (the white inside of the printed frame) that hold no readable marker
   are looked at again at full size; those still without one are reported as unidentified
   cards (``card_id None``): "re-place the card", never a guess.
5. A card's zone is the mat zone holding its centre, decided only from the current game's mat.
"""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache

import cv2
import numpy as np

from vision.enrolled import EnrolledDeck
from vision.layout import (
    CARD_H_MM,
    CARD_W_MM,
    FRAME_MM,
    MARKER_MM,
    card_from_markers,
    marker_corners_mm,
    transform,
)
from vision.marker_search import MarkerFinder
from vision.markers import MarkerMap, PrintedSide, all_marker_owners, all_mat_marker_ids, dictionary
from vision.mats import MAT_MARKER_MM, MatLayout, mat_layout
from vision.sightings import Reading, Sighting

__all__ = ["CardReader", "Reading", "Sighting", "marker_finder"]
from vision.frame_blocks import StillFrames, small_copy
from vision.taught_reader import TaughtCards


def _points(points: object, factor: float = 1.0) -> tuple[tuple[float, float], ...]:
    """(x, y) pairs as a tuple of float pairs, scaled by ``factor``."""
    return tuple((float(x) * factor, float(y) * factor) for x, y in points)  # type: ignore[attr-defined]


#: Each corner's next corner round a quad (cheaper than ``np.roll`` on small arrays).
_NEXT_CORNER = [1, 2, 3, 0]


def _detector_parameters(window: int, border: int = 3) -> cv2.aruco.DetectorParameters:
    """The outline search's settings for one threshold window (px) and edge distance (px)."""
    params = cv2.aruco.DetectorParameters()
    params.errorCorrectionRate = 0.0
    # One threshold window reads markers of ~20-70 px (9 px at full size, 5 at half size); each
    # extra window costs a full pass over the frame (measured: 7-17 in two passes doubles the
    # time, no recall gained).
    params.adaptiveThreshWinSizeMin = window
    params.adaptiveThreshWinSizeMax = window
    params.adaptiveThreshWinSizeStep = 10
    # A high threshold constant: markers are black on white, so this loses nothing, while the
    # default (7) turns table grain and sensor noise into thousands of contours (3x the time).
    params.adaptiveThreshConstant = 12
    params.minMarkerPerimeterRate = 0.045
    params.maxMarkerPerimeterRate = 4.0
    params.polygonalApproxAccuracyRate = 0.05
    # Corners at least a fifth of the perimeter apart: only squares seen at up to ~45 degrees
    # pass. A sliver of a marker (31 x 8 px) once decoded as another game's code.
    params.minCornerDistanceRate = 0.2
    params.minDistanceToBorder = border
    return params


def marker_finder() -> MarkerFinder:
    """Outlines at half size (window 5, edge 1 px), codes and close looks at full size; every
    game's mat corner markers take part in the size fit at their printed size."""
    mat_size = MAT_MARKER_MM / MARKER_MM
    relative = {marker_id: mat_size for marker_id in all_mat_marker_ids()}
    return MarkerFinder(_detector_parameters(9), _detector_parameters(5, border=1), relative)


#: Frames whose longest side exceeds this are read scaled down to READ_SIDE (see ``read``).
MAX_READ_SIDE = 1920
READ_SIDE = 1280


#: Unidentified outlines are searched in an image this many times smaller (cards stay 22+ px).
UNREADABLE_SCALE = 4


def _shrink(grey: np.ndarray, scale: int) -> np.ndarray:
    """``grey`` averaged down by ``scale`` (a power of two), one halving at a time.

    The same block means as one INTER_AREA resize by ``scale``, but OpenCV has a fast path for
    exact halving only: measured 0.03 ms per halving against 0.5 ms for one 4x resize of 1280x720.
    """
    small = grey
    while scale > 1:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
        scale //= 2
    return small


def _sample_weights() -> np.ndarray:
    """Bilinear weights of the four marker corners for the points the trust checks sample:
    the 36 cell centres (row by row), then 12 points half a cell outside the edges."""
    uv = [((x + 0.5) / 6, (y + 0.5) / 6) for y in range(6) for x in range(6)]
    for t in (0.25, 0.5, 0.75):
        uv += [(t, -1 / 12), (1 + 1 / 12, t), (t, 1 + 1 / 12), (-1 / 12, t)]
    return np.array([[(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v] for u, v in uv], np.float32)


_SAMPLE_WEIGHTS_T = np.ascontiguousarray(_sample_weights().T)
#: Indices of the 20 border cells among the 36 cell centres.
_BORDER_CELLS = np.array([i for i in range(36) if i // 6 in (0, 5) or i % 6 in (0, 5)])


@lru_cache(maxsize=512)
def _code_cells(marker_id: int) -> np.ndarray:
    """True where the marker's 6 x 6 cells are white, in detection order (corner 0 top-left)."""
    bits = cv2.aruco.Dictionary.getBitsFromByteList(dictionary().bytesList[marker_id : marker_id + 1], 4)
    cells = np.zeros((6, 6), bool)
    cells[1:5, 1:5] = bits.astype(bool)
    return cells.ravel()


def _median(rows: np.ndarray) -> np.ndarray:
    """The median of each row of an N x K array with K even (np.median costs 5x more on small rows)."""
    ordered, half = np.sort(rows, axis=1), rows.shape[1] // 2
    return (ordered[:, half - 1] + ordered[:, half]) / 2


#: Markers seen smaller than this (px per side) are ignored, whatever the image size: below it the
#: 4x4 bits are guesswork (VISION.md: one wrong id at 12 px) and glyphs of text can pass as codes.
MIN_MARKER_PX = 14.0


#: Card-mm offset from a card's first marker centre to its second (turned) marker centre.
_PARTNER_MM = (marker_corners_mm()[1].mean(axis=0) - marker_corners_mm()[0].mean(axis=0)).astype(np.float64)


def _centres_and_partners(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each marker's centre and where its card's other marker centre should be (N x 2 each).

    The same affine marker frame as ``layout._from_marker`` uses, for all markers in one go.
    """
    p0, p1, p2, p3 = quads[:, 0], quads[:, 1], quads[:, 2], quads[:, 3]
    u = ((p1 - p0) + (p2 - p3)) / (2 * MARKER_MM)
    v = ((p3 - p0) + (p2 - p1)) / (2 * MARKER_MM)
    centres = (p0 + p1 + p2 + p3) / 4
    return centres, centres + _PARTNER_MM[0] * u + _PARTNER_MM[1] * v


class CardReader:
    """Reads the cards of ``game_id`` (and notices other games' cards) in camera frames."""

    def __init__(
        self,
        game_id: str,
        use_mat: bool = True,
        find_unreadable: bool = True,
        enrolled: EnrolledDeck | None = None,
    ) -> None:
        self.game_id = game_id
        self.damaged_pictures = list(enrolled.damaged) if enrolled is not None else []  # skip_damaged
        self.enrolled = enrolled if enrolled is not None and enrolled.references else None
        #: Taught cards (the group's own deck) and the still-frame shortcut that comes with them.
        self.taught = TaughtCards(self.enrolled, game_id) if self.enrolled is not None else None
        self._still = StillFrames()
        self._last_reading = Reading()
        self.use_mat = use_mat
        self.find_unreadable = find_unreadable
        self.markers = MarkerMap.for_game(game_id)
        self.layout: MatLayout | None = mat_layout(game_id) if use_mat else None
        self._owners = all_marker_owners()
        mat_ids = self.layout.marker_ids if self.layout else ()
        self._mat_ids = {marker_id: index for index, marker_id in enumerate(mat_ids)}
        self._foreign: dict[str, MarkerMap] = {}
        self._symbols = {s.card_id: s.symbols for s in self.markers.sides.values() if s.side == "front"}
        self._finder = marker_finder()
        #: Whether any marker was ever read by this reader (see ``_read``).
        self._markers_seen = False

    # --- per frame ------------------------------------------------------------------------

    def read(self, frame: np.ndarray, work: np.ndarray | None = None) -> Reading:
        """Read one BGR (or grey) frame of any size; corners come back in its pixels. ``work``:
        the frame reduced for the outline search, when the camera delivers one with it (see
        :mod:`vision.work_copy`).

        With taught cards, a frame in which nothing changed since the last frame read in full
        gets that frame's reading again (a still table is not read, nor its cards identified,
        again).
        """
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        # The small copy changes are judged on, once for the still check and the taught cards.
        small = small_copy(grey) if self.taught is not None else None
        # Taught cards waiting for the slow stage (or a face search due once the table settles)
        # are read again even in an unchanged frame.
        waiting = self.taught is None or self.taught.waiting
        if small is not None and not waiting and self._still.unchanged(small):
            return self._last_reading
        longest = max(grey.shape[:2])
        if longest <= MAX_READ_SIDE:
            reading = self._read(grey, frame, small, work)
        else:
            # A phone photo (4000 px) makes markers 300+ px: far outside what the outline search
            # is tuned for (it then finds none). Read it at camera size, scale the corners back.
            scale = READ_SIDE / longest
            small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            colour = small if frame.ndim == 2 else cv2.resize(frame, small.shape[::-1], cv2.INTER_AREA)
            reading = self._read(small, colour)
            cards = [
                dataclasses.replace(
                    card,
                    corners=tuple((x / scale, y / scale) for x, y in card.corners),
                    visible=None if card.visible is None else _points(card.visible, 1 / scale),
                )
                for card in reading.cards
            ]
            reading = Reading(cards, reading.mat_found)
        self._last_reading = reading
        return reading

    def _read(
        self, grey: np.ndarray, colour: np.ndarray | None = None, small: np.ndarray | None = None,
        work: np.ndarray | None = None,
    ) -> Reading:
        half = _shrink(grey, 2)
        # One search finds card markers and the (bigger) mat corner markers alike. With too few
        # markers to tell where small ones would be, the whole frame is searched again at full
        # size (~2.5 ms per 1280x720 frame) only when markers are to be expected: a mat, or
        # printed cards read before. A table of taught cards alone is searched again only round
        # what the half-size pass saw (its cards' art always offers a few outlines: ~0.5 ms).
        whole_frame = self.layout is not None or self._markers_seen
        corners, ids = self._finder.find(grey, half, whole_frame)
        self._markers_seen = self._markers_seen or bool(ids)
        to_mat = self.mat_homography(corners, ids) if self.layout is not None else None
        cards = self._group(corners, ids, to_mat, grey)
        unread: list[Sighting] = []
        # Card-shaped outlines without a marker are looked at closely for one the half-size
        # search missed. Off the mat, with taught cards and no marker read yet, the close look
        # round the half-size outlines above stands in for it (the printed card's frame is one
        # of them), and the taught search reports every card-shaped outline anyway: ~2.4 ms per
        # frame of taught cards saved; on 80 mat-less printed scenes, as many cards named.
        if self.find_unreadable and (whole_frame or self.taught is None):
            unread = self._unreadable(half, cards, to_mat)
            if unread:
                cards, unread = self._look_closer(grey, half, corners, ids, to_mat, cards, unread)
        if self.taught is not None:
            taught = self._taught_cards(grey if colour is None else colour, grey, cards, to_mat, small, work)
            # A printed card without a readable marker is also a card-shaped outline: one card.
            # Off the mat (no millimetres to check its size) the printed-card outline search
            # mistakes light patches of a real table for cards; the taught search has the say.
            if to_mat is None:
                unread = []
            unread = [u for u in unread if not any(u.one_card_with(t) for t in taught)]
            cards += taught
        return Reading(cards + unread, to_mat is not None)

    def _taught_cards(
        self, frame: np.ndarray, grey: np.ndarray, known: list[Sighting], to_mat: np.ndarray | None,
        small: np.ndarray | None, work: np.ndarray | None = None,
    ) -> list[Sighting]:
        """Outlines that no printed card explains, named by the taught faces or unidentified
        (``grey``: ``frame`` in grey, made for the markers; ``small``, ``work``: its small copies)."""
        assert self.taught is not None
        corners = [np.array(card.corners, np.float32) for card in known]
        seen = self.taught.read(frame, corners, to_mat, grey, small, work)
        # A card found by its face lies where it shows (it may be half under another).
        zones = self._zones([(s.quad if s.visible is None else s.visible).mean(axis=0) for s in seen], to_mat)
        return [
            Sighting(
                s.match.card_id,
                self.game_id if s.match.card_id is not None else None,
                self.taught.symbols_of(s.match.card_id),
                zone,
                tuple((float(x), float(y)) for x, y in s.quad.tolist()),
                s.match.confidence,
                visible=None if s.visible is None else _points(s.visible.tolist()),
            )
            for s, zone in zip(seen, zones, strict=True)
        ]

    def find_markers(self, grey: np.ndarray) -> tuple[list[np.ndarray], list[int]]:
        """Every marker (of any game) in a grey image: corners, marker's top-left first, and ids."""
        return self._finder.find(grey, _shrink(grey, 2))

    def _look_closer(
        self,
        grey: np.ndarray,
        half: np.ndarray,
        corners: list[np.ndarray],
        ids: list[int],
        to_mat: np.ndarray | None,
        cards: list[Sighting],
        unread: list[Sighting],
    ) -> tuple[list[Sighting], list[Sighting]]:
        """Card-shaped outlines without a marker: search each one's box at full size.

        The half-size search misses a small marker under blur now and then; the outline of its
        card still shows. Costs nothing on frames where every card was read.
        """
        h, w = grey.shape[:2]
        boxes = []
        for card in unread:
            outline = np.array(card.corners)
            x0, y0 = np.maximum(outline.min(axis=0) - 12, 0).astype(int).tolist()
            x1, y1 = np.minimum(outline.max(axis=0) + 12, (w, h)).astype(int).tolist()
            boxes.append((x0, y0, x1, y1))
        more, more_ids = self._finder.look_closer(grey, boxes, corners, ids)
        if len(more_ids) == len(ids):
            return cards, unread
        cards = self._group(more, more_ids, to_mat, grey)
        return cards, self._unreadable(half, cards, to_mat)

    @staticmethod
    def _card_sized(quad: np.ndarray, to_mat: np.ndarray) -> bool:
        """On the mat we know millimetres: the white inside of a card is 58 x 83 mm."""
        corners = transform(to_mat, quad)
        sides = sorted(math.dist(corners[i], corners[(i + 1) % 4]) for i in range(4))
        short, long_ = (sides[0] + sides[1]) / 2, (sides[2] + sides[3]) / 2
        return abs(short - (CARD_W_MM - 2 * FRAME_MM)) < 9 and abs(long_ - (CARD_H_MM - 2 * FRAME_MM)) < 12

    def mat_homography(self, corners: list[np.ndarray], ids: list[int]) -> np.ndarray | None:
        """Image -> mat mm from this game's mat markers among ``corners``, ``ids``; None if none."""
        assert self.layout is not None
        reference = self.layout.marker_corners_mm()
        image_pts = [quad for quad, marker_id in zip(corners, ids, strict=True) if marker_id in self._mat_ids]
        mat_pts = [reference[self._mat_ids[i]] for i in ids if i in self._mat_ids]
        if not image_pts:
            return None
        src = np.vstack(image_pts).astype(np.float32)
        dst = np.vstack(mat_pts).astype(np.float32)
        if len(src) == 4:
            return cv2.getPerspectiveTransform(src, dst)
        to_mat, _ = cv2.findHomography(src, dst, 0)
        return to_mat

    def _printed(self, marker_id: int) -> PrintedSide | None:
        own = self.markers.face_for(marker_id)
        if own is not None:
            return own
        owner = self._owners.get(marker_id)
        if owner is None or owner == self.game_id:
            return None
        if owner not in self._foreign:
            try:
                self._foreign[owner] = MarkerMap.for_game(owner)
            except Exception:  # that game's engine module may not exist yet: unknown, not a guess
                return None
        return self._foreign[owner].face_for(marker_id)

    def _zones(self, centres: list[np.ndarray], to_mat: np.ndarray | None) -> list[str | None]:
        """The mat zone holding each image point (None off the mat or without one), in one go."""
        if to_mat is None or self.layout is None or not centres:
            return [None] * len(centres)
        names = []
        for x, y in transform(to_mat, np.array(centres)).tolist():
            zone = self.layout.zone_at((x, y))
            names.append(zone.name if zone else None)
        return names

    @staticmethod
    def _trustworthy(grey: np.ndarray, quads: list[np.ndarray], ids: list[int]) -> np.ndarray:
        """Which decoded card markers look like printed codes; all markers checked at once.

        - The code's cells really are black and white: sampled at the cell centres, the cells that
          should be white are clearly lighter than those that should be black. ArUco thresholds
          each candidate by Otsu, which finds "bits" even in a plain square of a checked
          tablecloth (noise and blur); such a square once matched a code exactly.
        - The printed white margin is there: half a cell outside each edge is clearly lighter
          than the black border. A "code" read from part of another marker, from text or from a
          patterned table fails this.
        """
        if not quads:
            return np.zeros(0, bool)
        corners = np.stack(quads).astype(np.float32)  # N x 4 x 2
        h, w = grey.shape[:2]
        # Adding a half and truncating rounds to the pixel holding each point (points >= 0).
        xs = np.clip(corners[:, :, 0] @ _SAMPLE_WEIGHTS_T + 0.5, 0, w - 1).astype(np.intp)
        ys = np.clip(corners[:, :, 1] @ _SAMPLE_WEIGHTS_T + 0.5, 0, h - 1).astype(np.intp)
        values = grey[ys, xs].astype(np.float32)
        cells, margin = values[:, :36], values[:, 36:]
        white = np.stack([_code_cells(i) for i in ids])
        white_mean = (cells * white).sum(axis=1) / np.maximum(1, white.sum(axis=1))
        black_mean = (cells * ~white).sum(axis=1) / np.maximum(1, (~white).sum(axis=1))
        middle = ((white_mean + black_mean) / 2)[:, None]
        wrong = ((cells < middle) & white).sum(axis=1) + ((cells > middle) & ~white).sum(axis=1)
        border = _median(cells[:, _BORDER_CELLS])
        margin_light = (_median(margin) - border >= 25) & (
            (margin > border[:, None] + 15).sum(axis=1) >= 9
        )
        return (white_mean - black_mean >= 30) & (wrong <= 2) & margin_light

    def _group(
        self, corners: list[np.ndarray], ids: list[int], to_mat: np.ndarray | None, grey: np.ndarray
    ) -> list[Sighting]:
        """Markers -> cards: two markers of one id are one card when each sits where the other
        predicts its partner (opposite corner, 180 degrees turned); otherwise separate cards."""
        found: list[tuple[PrintedSide, list[int]]] = []
        keep: list[int] = []
        printed_of: list[PrintedSide] = []
        for index, marker_id in enumerate(ids):
            if marker_id in self._mat_ids:
                continue
            printed = self._printed(marker_id)
            if printed is not None:
                keep.append(index)
                printed_of.append(printed)
        if not keep:
            return []
        # The geometry of every candidate at once (numpy), then a short loop over plain floats.
        quads = np.stack([corners[i] for i in keep]).astype(np.float64)  # N x 4 x 2
        sides = np.linalg.norm(quads - quads[:, _NEXT_CORNER], axis=2)  # N x 4
        side_px = np.linalg.norm(quads[:, 0] - quads[:, 2], axis=1) / math.sqrt(2)
        # Too small or not a square seen from above: never trust its bits.
        square = (sides.min(axis=1) >= MIN_MARKER_PX) & (sides.min(axis=1) >= 0.6 * sides.max(axis=1))
        centres, partners = _centres_and_partners(quads)
        trusted = np.zeros(len(keep), bool)
        if square.any():
            chosen = np.nonzero(square)[0]
            trusted[chosen] = self._trustworthy(
                grey, [corners[keep[i]] for i in chosen], [ids[keep[i]] for i in chosen]
            )
        centre_xy, partner_xy, reach = centres.tolist(), partners.tolist(), (0.6 * side_px).tolist()
        for k in np.nonzero(trusted)[0].tolist():
            printed = printed_of[k]
            for other, members in found:
                if other is printed and len(members) == 1:
                    j = members[0]
                    if (
                        math.dist(partner_xy[k], centre_xy[j]) < reach[k]
                        and math.dist(partner_xy[j], centre_xy[k]) < reach[k]
                    ):
                        members.append(k)
                        break
            else:
                found.append((printed, [k]))
        outlines = [card_from_markers([corners[keep[k]] for k in members]) for _printed, members in found]
        zones = self._zones([card.mean(axis=0) for card in outlines], to_mat)
        return [
            Sighting(
                card_id=printed.card_id,
                game=printed.game,
                symbols=printed.symbols,
                zone=zone if printed.game == self.game_id else None,
                corners=tuple(map(tuple, card.tolist())),
                confidence=1.0 if len(members) >= 2 else 0.8,
                side=printed.side,
            )
            for (printed, members), card, zone in zip(found, outlines, zones, strict=True)
        ]

    def _unreadable(
        self, half: np.ndarray, known: list[Sighting], to_mat: np.ndarray | None
    ) -> list[Sighting]:
        """Card-shaped outlines with no readable marker inside: reported, never guessed.

        The white inside of the printed frame is a bright region bounded by the dark band on any
        table: in a half-size local threshold it is a closed outline of card shape.
        """
        scale = UNREADABLE_SCALE
        small = _shrink(half, scale // 2)
        binary = cv2.adaptiveThreshold(small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 21, -8)
        # Connected components and their statistics come from C++; only components of card size
        # that no read card explains are looked at more closely in Python.
        _count, labels, stats, centroids = cv2.connectedComponentsWithStats(binary, connectivity=4)
        w, h, area = stats[:, 2], stats[:, 3], stats[:, 4]
        side = np.maximum(w, h) * scale
        keep = (side >= 70) & (side <= 380) & (area * scale * scale <= 160000) & (area >= 0.25 * w * h)
        keep[0] = False
        out: list[Sighting] = []
        centres = [np.mean(np.array(s.corners), axis=0) for s in known]
        chosen = np.nonzero(keep)[0]
        if centres and len(chosen):
            # Only the few card-sized components need the distance test against the read cards.
            gaps = np.linalg.norm(centroids[chosen, None, :] * scale - np.array(centres)[None], axis=2)
            chosen = chosen[~(gaps < 0.5 * side[chosen, None]).any(axis=1)]
        for index in chosen[:40]:
            x0, y0 = int(stats[index, 0]), int(stats[index, 1])
            mask = (labels[y0 : y0 + h[index], x0 : x0 + w[index]] == index).astype(np.uint8)
            contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            hull = cv2.convexHull(max(contours, key=len)) + np.array([x0, y0], np.int32)
            # The smallest rotated rectangle round the outline: robust to a corner cut off by a
            # thumb over a marker, and close enough under the tilts we allow.
            (_cx, _cy), (rw, rh), _angle = rect = cv2.minAreaRect(hull)
            if rw * rh <= 0 or cv2.contourArea(hull) < 0.6 * rw * rh:
                continue
            short, long_ = sorted((rw * scale, rh * scale))
            if not 0.5 <= short / long_ <= 0.92:
                continue
            quad = cv2.boxPoints(rect).astype(np.float32) * scale + (scale - 1) / 2
            centre = quad.mean(axis=0)
            if any(math.dist(centre, c) < long_ * 0.6 for c in centres):
                continue
            if to_mat is not None and not self._card_sized(quad, to_mat):
                continue  # e.g. an empty zone's printed outline
            # Grow the white inside by the frame band to the card's outline.
            grown = centre + (quad - centre) * (CARD_H_MM / (CARD_H_MM - 2 * FRAME_MM))
            centres.append(centre)
            out.append(
                Sighting(
                    None,
                    None,
                    (),
                    self._zones([centre], to_mat)[0],
                    tuple((float(px), float(py)) for px, py in grown),
                    0.0,
                )
            )
        return out
