"""Taught (enrolled) cards in camera frames, for :class:`vision.reader.CardReader`.

Per frame: card outlines on the table (:func:`vision.card_outlines.find_card_outlines`), minus
those that printed marker cards already explain; each remaining outline is identified against
the game's taught faces (:mod:`vision.face_match`) or reported unidentified (``card_id`` None).

A card that lies still is not identified again: an outline whose corners are within
``STILL_FRACTION`` of its size of an outline of the previous frame keeps that outline's answer.
A card the thumbnails cannot decide waits for the local features (:mod:`vision.face_features`,
tens of times slower) until it lies still: in the frame it arrives in it is unidentified
(pending), in the next one, where it lies still, it is identified in full. A frame of moving
cards (a hand dealing) never pays for features; a card that moves on is never looked at twice.
The first frame a reader sees (a photo) is identified in full at once.
:class:`StillFrames` goes further for the whole frame: when nothing in view changed since the
last frame that was read, the caller reuses that frame's reading.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.card_outlines import find_card_candidates
from vision.enrolled import PENDING, EnrolledDeck, Match

if TYPE_CHECKING:
    from vision.mat_cards import MatZones

#: Corners moved less than this share of the card's long side: the same card, lying still.
STILL_FRACTION = 0.04
#: A frame is still when no block of its small copy changed by more than this (grey levels).
STILL_LEVELS = 8.0
_STILL_SIZE = (64, 36)


@dataclass(frozen=True)
class TaughtSeen:
    """One outline and what it was identified as: ``quad`` the card's corners (the outline's,
    or the named card's own when the outline took in more), ``outline`` as found."""

    quad: np.ndarray
    match: Match
    outline: np.ndarray


class TaughtCards:
    """Finds and identifies taught cards; remembers the last frame's answers."""

    def __init__(self, deck: EnrolledDeck, game_id: str) -> None:
        self.deck = deck
        self.game_id = game_id
        self._symbols: dict[str, tuple[str, ...]] | None = None
        self._previous: list[TaughtSeen] = []
        #: How many outlines were identified afresh / taken from the still cache (for tests).
        self.identified = 0
        self.reused = 0
        self._first = True
        self._zones: MatZones | None = None
        #: Cards of the last frame waiting for the feature stage (they must be read again).
        self.pending = 0

    def read(
        self, frame: np.ndarray, known: list[np.ndarray], to_mat: np.ndarray | None = None
    ) -> list[TaughtSeen]:
        """Outlines in ``frame`` whose centre lies in none of the ``known`` outlines (printed
        cards already read), each with its match. With the mat's homography (image -> mat mm),
        outlines that are not the size of a playing card are left out (the mat itself, a
        zone's printed frame)."""
        seen: list[TaughtSeen] = []
        remembered: list[TaughtSeen] = []
        first, self._first = self._first, False
        # The first frame a reader sees (a photo) gets the thorough search, as it gets the
        # thorough identification; a camera pays for it once.
        outlines = find_card_candidates(frame, thorough=first)
        if to_mat is not None:
            # On our mat a light card's edges may be too faint for the search on the whole
            # frame: each zone is looked at for a card of a card's size (not sure: a taught
            # face must confirm it).
            if self._zones is None:
                from vision.mat_cards import MatZones
                from vision.mats import mat_layout

                self._zones = MatZones(mat_layout(self.game_id))
            found = [o.quad for o in outlines if card_sized_mm(o.quad, to_mat)]
            outlines += self._zones.find(frame, to_mat, known + found)
        for outline in outlines:
            quad, sure = outline.quad, outline.sure
            centre = (float(quad[:, 0].mean()), float(quad[:, 1].mean()))
            if any(cv2.pointPolygonTest(poly, centre, False) >= 0 for poly in known):
                continue
            if to_mat is not None and not card_sized_mm(quad, to_mat):
                continue
            match = self._still_match(quad)
            if match is None or match.method == PENDING:
                # New here: the fast stage only (a photo: everything); pending and still: all.
                match = self.deck.identify(frame, quad, outline.whole, thorough=first or match is not None)
                self.identified += 1
            else:
                self.reused += 1
            placed = TaughtSeen(quad if match.corners is None else match.corners, match, quad)
            remembered.append(placed)
            # An outline that is only maybe a card (full-bleed art, no paper border) counts
            # when a taught face confirms it; unconfirmed, it is most likely the table.
            if sure or match.card_id is not None:
                seen.append(placed)
        self._previous = remembered
        self.pending = sum(1 for s in remembered if s.match.method == PENDING)
        return seen

    def symbols_of(self, face_id: str | None) -> tuple[str, ...]:
        """The symbols of a taught face (what the engine plays), () for unidentified."""
        if face_id is None:
            return ()
        if self._symbols is None:
            from vision.teachable import teachable_faces

            try:
                self._symbols = {f.face_id: f.symbols for f in teachable_faces(self.game_id)}
            except Exception:  # noqa: BLE001 - a game whose rules are still being written: no symbols
                self._symbols = {}
        return self._symbols.get(face_id, ())

    def _still_match(self, quad: np.ndarray) -> Match | None:
        long_side = max(math.dist(quad[0], quad[3]), math.dist(quad[1], quad[2]))
        for old in self._previous:
            moved = float(np.linalg.norm(old.outline - quad, axis=1).max())
            if moved <= STILL_FRACTION * long_side:
                return old.match
        return None


#: Playing cards in millimetres, short and long side: from mini cards to tarot, with room for
#: an outline a few millimetres off.
CARD_SHORT_MM = (38.0, 80.0)
CARD_LONG_MM = (58.0, 125.0)


def card_sized_mm(quad: np.ndarray, to_mat: np.ndarray) -> bool:
    """Whether ``quad`` (image px) is a playing card's size on the mat."""
    corners = cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float64), to_mat).reshape(4, 2)
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    short, long_ = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
    return bool(CARD_SHORT_MM[0] <= short <= CARD_SHORT_MM[1] and CARD_LONG_MM[0] <= long_ <= CARD_LONG_MM[1])


def same_place(a: tuple[tuple[float, float], ...], b: tuple[tuple[float, float], ...]) -> bool:
    """Two outlines of one card: centres closer than a third of the first one's long side."""
    pa, pb = np.array(a), np.array(b)
    long_side = float(np.linalg.norm(pa - np.roll(pa, -1, axis=0), axis=1).max())
    return math.dist(pa.mean(axis=0), pb.mean(axis=0)) < long_side / 3


class StillFrames:
    """Tells whether a frame shows the same scene as the last one that was read in full."""

    def __init__(self) -> None:
        self._last: np.ndarray | None = None

    def unchanged(self, grey: np.ndarray) -> bool:
        """True when ``grey`` differs from the last *changed* frame nowhere by a clear step
        (sensor noise averages out in the small copy); else remembers ``grey`` as the new last."""
        small = cv2.resize(grey, _STILL_SIZE, interpolation=cv2.INTER_AREA).astype(np.int16)
        last = self._last
        if last is not None and last.shape == small.shape and int(np.abs(small - last).max()) <= STILL_LEVELS:
            return True
        self._last = small
        return False

    def forget(self) -> None:
        """The next frame is read in full whatever it shows."""
        self._last = None
