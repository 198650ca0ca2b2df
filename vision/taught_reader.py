"""Taught (enrolled) cards in camera frames, for :class:`vision.reader.CardReader`.

Per frame: card outlines on the table (:mod:`vision.frame_outlines`: looked for again only where
the frame changed), minus those that printed marker cards already explain; each remaining
outline is identified against the game's taught faces (:mod:`vision.face_match`) or reported
unidentified (``card_id`` None). A sure outline no stage names is looked at again: out to a
border printed round it (:mod:`vision.printed_border`), then without a chip or a cable lying
across its edge (:mod:`vision.occluded`).

A card that lies still is not identified again: an outline whose corners are within
``STILL_FRACTION`` of its size of an outline of the previous frame keeps that outline's answer.
A card the thumbnails cannot decide waits for the local features (:mod:`vision.face_features`,
tens of times slower) until it lies still: in the frame it arrives in it is unidentified
(pending), in the next one, where it lies still, it is identified in full. A frame of moving
cards (a hand dealing) never pays for features; a card that moves on is never looked at twice.
The first frame a reader sees (a photo) is identified in full at once.

Cards without an outline of their own (covered, fanned, touching) are looked for by their faces
(:mod:`vision.face_search`) in the parts of the frame that no named card explains: in the first
frame, and then once the table has settled after a change (the frame after a changed one
shows the same scene), never in a frame of moving cards. A card found so is kept in later
frames while its taught picture, aligned as found, still agrees with what lies there.
:class:`vision.frame_blocks.StillFrames` goes further for the whole frame: when nothing in
view changed since the last frame that was read, the caller reuses that frame's reading.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.card_beneath import cards_beneath
from vision.card_checks import inside_share, iou, order_quad
from vision.card_outlines import CardOutline
from vision.card_rows import pair_like, placed_within
from vision.enrolled import CUT, PENDING, EnrolledDeck, Match
from vision.face_search import FaceSearch, FoundFace
from vision.fan_strips import fanned_cards
from vision.frame_blocks import changed_blocks, changed_box, covered_blocks, small_copy
from vision.frame_cut import card_size, is_cut, part_in_view
from vision.frame_outlines import FrameOutlines
from vision.kept_answers import KeptAnswers
from vision.mat_cards import holds_the_ground
from vision.occluded import named_under
from vision.outline_beneath import part_beneath
from vision.printed_border import named_by_border
from vision.small_faces import search_faces
from vision.taught_seen import (
    FOUND_BY_FACE,
    INSIDE_OUTLINE,
    STILL_FRACTION,
    TaughtSeen,
    along_outline,
    card_sized_mm,
    explains,
    in_view,
    named_nothing,
    once_each,
    part_shown,
    same_places,
    shows_whole,
)

if TYPE_CHECKING:
    from vision.mat_cards import MatZones

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
        self._search: FaceSearch | None = None
        self._found: list[FoundFace] = []
        self._last_small: np.ndarray | None = None
        self._searched_small: np.ndarray | None = None
        #: The table changed since faces were last searched for: search once it settles.
        self.search_due = False
        #: How many times faces were searched for (for tests).
        self.searches = 0
        #: Where the cards and unnamed outlines lay when cards beneath (and cards on top inside
        #: unnamed outlines) were last looked for, and what was found.
        self._beneath_places: list[np.ndarray] | None = None
        self._beneath: list[TaughtSeen] = []
        #: The small copy of the frame when cards beneath were last looked for.
        self._beneath_small: np.ndarray | None = None
        #: What was seen beside the cards' sides then, where the table has not changed since
        #: (its counts for tests).
        self.kept = KeptAnswers()
        #: How many cards beneath were compared with the taught faces (for tests).
        self.beneath_checks = 0
        #: The outlines of the frames, looked for again where the table changed.
        self.outlines = FrameOutlines(deck)

    @property
    def waiting(self) -> bool:
        """Whether the next frame must be read even if it shows what the last one showed
        (cards waiting for the feature stage, or a face search due once the table settled)."""
        return bool(self.pending) or self.search_due

    def read(
        self,
        frame: np.ndarray,
        known: list[np.ndarray],
        to_mat: np.ndarray | None = None,
        grey: np.ndarray | None = None,
        small: np.ndarray | None = None,
        work: np.ndarray | None = None,
    ) -> list[TaughtSeen]:
        """Outlines in ``frame`` whose centre lies in none of the ``known`` outlines (printed
        cards already read), each with its match. With the mat's homography (image -> mat mm),
        outlines that are not the size of a playing card are left out (the mat itself, a
        zone's printed frame). ``grey`` and ``small`` (its :func:`small_copy`), when given,
        are the frame's, made already by the caller; ``work``: the frame's small copy from the
        camera, for the outline search (see :func:`find_card_candidates`)."""
        first, self._first = self._first, False
        if grey is None:
            grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        # The table has settled when the frame shows what the last one showed (the first frame
        # of a reader, a photo, is read in full at once).
        if small is None:
            small = small_copy(grey)
        last, self._last_small = self._last_small, small
        moved = changed_blocks(small, last)
        settled = first or (moved is not None and not moved.any())
        # The first frame a reader sees (a photo), and the frame in which the table settles
        # after a change, get the thorough search, as they get the thorough identification: a
        # camera pays for it once per deal, not every frame.
        closely = first or (settled and self.search_due)
        if first:
            outlines = self.outlines.first(frame, small, work, grey)
        else:
            named = [s.outline for s in self._previous if s.match.card_id is not None]
            outlines = self.outlines.later(frame, small, work, grey, named)
        seen, remembered, size = self._named(frame, outlines, known, to_mat, closely, small)
        if closely and not first:
            # The thorough search once the cards waiting for the features are named: where named
            # cards explain the change, it has nothing to look at.
            explained = [s.quad for s in remembered if s.match.card_id]
            looked = self.outlines.look_closely(frame, small, grey, explained)
            if looked is not None:
                self._previous = remembered  # the outlines named just now are not named again
                seen, remembered, size = self._named(frame, looked, known, to_mat, closely, small)
        self._previous = remembered
        self.pending = sum(1 for s in remembered if s.match.method == PENDING)
        # Outlines no taught face was named in, before the face search explains any away: a row of
        # cards in one outline is looked into even where the face search found one of them.
        unnamed = [s for s in seen if s.match.card_id is None and s.visible is None]
        # Unnamed outlines, sure or not, may be a card partly under a card named over it.
        loose = [s.outline for s in remembered if s.match.card_id is None and s.visible is None]
        with_faces = self._with_faces(grey, small, settled, known, seen, first, to_mat, size)
        return self._with_beneath(frame, grey, small, settled, with_faces, known, unnamed, loose)

    def _named(
        self,
        frame: np.ndarray,
        outlines: list[CardOutline],
        known: list[np.ndarray],
        to_mat: np.ndarray | None,
        closely: bool,
        small: np.ndarray | None = None,
    ) -> tuple[list[TaughtSeen], list[TaughtSeen], tuple[float, float] | None]:
        """The ``outlines`` (and on the mat, the cards its zones hold) identified: the ones that
        count (sure, or named), all of them, and how large a whole card is in this view. An
        outline lying where one of the last frame's lay keeps its answer; ``closely``: a new one
        gets the feature stage at once, else only the thumbnails (it may be left pending).
        ``small``: the frame's small copy (a zone that did not change in it is not looked into
        again)."""
        seen: list[TaughtSeen] = []
        remembered: list[TaughtSeen] = []
        if to_mat is not None:
            # On our mat a light card's edges may be too faint for the search on the whole
            # frame: each zone is looked at for a card of a card's size (not sure: a taught
            # face must confirm it).
            if self._zones is None:
                from vision.mat_cards import MatZones
                from vision.mats import mat_layout

                self._zones = MatZones(mat_layout(self.game_id))
            # A zone's printed frame round a card is no card: the zone is looked into instead.
            outlines = [o for o in outlines if not self._zones.is_frame(o.quad, to_mat)]
            # A zone is looked into unless a sure outline already holds a card there: an outline
            # that is not sure may be a card's edge joined to its zone's frame line, named by no
            # face, and the card itself would then never be found. So may a sure one that a whole
            # look named nothing in, lying still (a card's outline a few px off, bench latency
            # --taught: kept while the frame changed nowhere, it was looked at again in vain).
            found = [
                o.quad
                for o in outlines
                if o.sure and card_sized_mm(o.quad, to_mat) and not named_nothing(self._still_seen(o.quad))
            ]
            outlines += self._zones.find(frame, to_mat, known + found, small)
        # How large a card is in this view (one deck's cards are one size): from the whole cards
        # in it; a card cut by the frame's edge with only a corner in view is completed to it.
        size = card_size([o.quad for o in outlines if o.whole and o.sure and not is_cut(o.quad, frame.shape)])
        for outline in outlines:
            quad, sure = outline.quad, outline.sure
            centre = (float(quad[:, 0].mean()), float(quad[:, 1].mean()))
            if any(cv2.pointPolygonTest(poly, centre, False) >= 0 for poly in known):
                continue
            if to_mat is not None and not card_sized_mm(quad, to_mat):
                continue
            still = self._still_seen(quad)
            # A card the fast stage named nothing is looked at whole once the table settles: its
            # outline cut off a zone's frame line, the thumbnails refused it, and lying still it
            # kept that answer and never showed (bench latency --taught: 3 cards of a deal).
            if still is not None and still.match.method != PENDING and not (
                closely and still.match.card_id is None and not still.closely
            ):
                match, looked = still.match, still.closely
                self.reused += 1
            else:
                # New here: the fast stage only (a photo: everything); pending and still: all.
                looked = closely or still is not None
                match = self.deck.identify(frame, quad, outline.whole, thorough=looked, cut=True, size=size)
                self.identified += 1
                if match.card_id is None and match.method != PENDING and sure and outline.whole:
                    quad, match = named_by_border(self.deck, frame, quad, match, size)  # a bordered card
                    if match.card_id is None:  # a chip or a cable lying across its edge
                        match = named_under(self.deck, frame, quad) or match
            # A part of a card named: where the whole card lies, and the part that shows (of a
            # card cut by the frame's edge: the part inside the frame).
            part = None if outline.whole or match.corners is None else quad
            if match.corners is not None and (match.method == CUT or is_cut(match.corners, frame.shape)):
                # A card reaching past the frame's edge shows all its part in view, not only the
                # outline it was named by (IMG_2610's jack read at 2.5x: named by its features
                # from an outline round its picture, IoU 0.39 with the card in view; the bench
                # then counts a card where none is, and zones place it by that patch).
                part = part_in_view(match.corners, frame.shape)
            placed = TaughtSeen(quad if match.corners is None else match.corners, match, quad, part, looked)
            remembered.append(placed)
            # An outline that is only maybe a card (full-bleed art, no paper border) counts
            # when a taught face confirms it; unconfirmed, it is most likely the table. On the
            # mat, one named nothing that holds only the ground round it is a zone's printed
            # frame (an empty mat, seed 26 of the simulated tables).
            ground = sure and to_mat is not None and match.card_id is None and holds_the_ground(frame, quad)
            if (sure and not ground) or match.card_id is not None:
                seen.append(placed)
        # An outline named nothing where a card was named (a zone's card found beside its own
        # outline a few px off) is that card's, not another card.
        named = [s.quad for s in seen if s.match.card_id is not None]
        seen = [s for s in seen if s.match.card_id or not any(iou(s.quad, q) > 0.5 for q in named)]
        return seen, remembered, size

    def _with_beneath(
        self,
        frame: np.ndarray,
        grey: np.ndarray,
        small: np.ndarray,
        settled: bool,
        seen: list[TaughtSeen],
        known: list[np.ndarray],
        unnamed: list[TaughtSeen],
        loose: list[np.ndarray],
    ) -> list[TaughtSeen]:
        """``seen`` with the cards of its unnamed outlines that hold several overlapping cards
        (the card on top, named) and the cards found beneath the cards it names (a fanned or
        overlapped card whose strip shows beside one): see :mod:`vision.card_beneath`. Looked
        for again only when a card came, went or moved; in between the last answer stands."""
        if frame.ndim == 2:
            return seen
        # Printed cards and named cards that show whole (an unnamed outline may be several cards
        # in one; a card partly covered has no free side to look beyond).
        tops = known + [s.quad for s in seen if s.match.card_id is not None and shows_whole(s)]
        # Cards found by their faces partly covered: a fan's cards but the last; the strip
        # beside a free side of one is a card beneath it (see cards_beneath).
        partly = [s.quad for s in seen if s.match.card_id is not None and not shows_whole(s)]
        places = tops + partly + [s.quad for s in unnamed] + loose
        moved = changed_blocks(small, self._beneath_small)
        changed = moved is None or bool(moved.any())
        if moved is not None and changed and self._beneath:
            # A card beneath slid out, or another laid on it: what shows of it changed; the
            # others stand until the table settles.
            self._beneath = [
                b for b in self._beneath if not (moved & covered_blocks([part_shown(b)], frame.shape)).any()
            ]
        if changed or not same_places(places, self._beneath_places):
            if not settled:
                # Cards moving (a hand dealing): looked for once the table settles, as faces are.
                if not same_places(places, self._beneath_places):
                    self._beneath = []
                return self._added(seen, frame.shape)
            self._beneath_places = places
            self._beneath_small = small
            self._beneath = []
            self.kept.settled(small, frame.shape)
            # Unnamed outlines squarer than a card are two cards side by side (vision.card_rows):
            # never sure, looked into as a row all the same.
            rows = [s.quad for s in unnamed]
            rows += [q for q in loose if pair_like(q) and not any(iou(q, row) > 0.9 for row in rows)]
            for row in rows:
                for placings in placed_within(frame, row):
                    # The thumbnails first (a fraction of a millisecond), then the feature stage,
                    # which finds the card inside the guess: two cards of a row seldom lie level
                    # and parallel, their outline is no rectangle, and a guess cut from it lies
                    # off the card's corners and turned; the thumbnails then say nothing (dev
                    # IMG_2681: a ten on a nine, 0.25). Looked for once the table settles:
                    # +1 % CPU a photo on dev. Each placing of the card in turn, till one names it.
                    for quad in placings:
                        match = self.deck.identify(frame, quad, whole=True, thorough=True)
                        self.beneath_checks += 1
                        if match.card_id is not None:
                            named = quad if match.corners is None else match.corners
                            self._beneath.append(TaughtSeen(named, match, quad))
                            tops.append(named)
                            break
            lying = [(s.quad, part_shown(s)) for s in seen + self._beneath if s.match.card_id is not None]
            for outline_quad in loose:
                part = part_beneath(outline_quad, lying)
                if part is None or any(iou(outline_quad, b.quad) > 0.5 for b in self._beneath):
                    continue
                match = self.deck.identify_covered(frame, outline_quad, part[0])
                self.beneath_checks += 1
                if match.card_id is not None:
                    quad = order_quad(outline_quad)
                    self._beneath.append(TaughtSeen(quad, match, quad, part[1]))
            # Strips of a fan side by side beside a card on top are told apart (vision.fan_strips).
            plain = cards_beneath(frame, tops, partly=partly, kept=self.kept)
            for beneath in fanned_cards(frame, tops, plain, grey, self.kept):
                if any(iou(beneath.card, b.quad) > 0.5 for b in self._beneath):
                    continue
                match = self.deck.identify_covered(frame, beneath.card, beneath.visible)
                self.beneath_checks += 1
                if match.card_id is not None:
                    self._beneath.append(TaughtSeen(beneath.card, match, beneath.card, beneath.main))
        return self._added(seen, frame.shape)

    def _added(self, seen: list[TaughtSeen], shape: tuple[int, ...]) -> list[TaughtSeen]:
        """``seen`` with the cards found beneath or inside outlines: a card named already (by
        its outline or its face) is not named twice; an unnamed outline that a card found in
        it explains is left out. A named card reaching past the frame's edge shows its part in
        view (:func:`in_view`)."""
        named = [s.quad for s in seen if s.match.card_id]
        added = [b for b in self._beneath if not any(iou(b.quad, quad) > 0.5 for quad in named)]
        kept = [
            s
            for s in seen
            if s.match.card_id or not any(inside_share(b.outline, s.quad) >= INSIDE_OUTLINE for b in added)
        ]
        return [in_view(s, shape) for s in once_each(kept + added)]

    def _with_faces(
        self,
        grey: np.ndarray,
        small: np.ndarray,
        settled: bool,
        known: list[np.ndarray],
        seen: list[TaughtSeen],
        first: bool,
        to_mat: np.ndarray | None,
        size: tuple[float, float] | None = None,
    ) -> list[TaughtSeen]:
        """``seen`` with the cards found by their faces: searched for in the first frame and
        once the table settled after a change (``settled``; ``small`` is the frame's small
        copy); in between, the ones found before that still lie where they were. Unidentified
        outlines that a found card explains are dropped. ``size``: a whole card's sides in view
        (small cards are searched for again in the frame enlarged)."""
        if self._search is None:
            self._search = FaceSearch(self.deck.features)
        if first or (settled and self.search_due):
            # Cards named by their own whole outline (the named card lies along it) and printed
            # cards explain their place.
            explained = known + [s.outline for s in seen if s.match.card_id and along_outline(s)]
            kept: list[FoundFace] = []
            where: tuple[int, int, int, int] | None = None  # the whole frame
            if not first and self._searched_small is not None:
                # Only where the table changed since the last search; the cards found before
                # elsewhere stay while they still lie where they were.
                kept = [f for f in self._found if self._search.still_there(grey, f)]
                blocks = changed_blocks(small, self._searched_small)
                if len(kept) == len(self._found):
                    # A change that named cards explain where they lie (a card dealt and read,
                    # by its outline or, a few pixels off it, by its features) leaves nothing
                    # to search for; what an outline took in besides its card is searched.
                    named = [s.quad for s in seen if s.match.card_id and s.visible is None]
                    blocks &= ~covered_blocks(known + named, grey.shape)
                where = changed_box(blocks, grey.shape)
            explained += [f.compared for f in kept]
            if first or where is not None:
                lying = known + [s.quad for s in seen] + [f.corners for f in kept]
                found = search_faces(self._search, grey, explained, lying, where, size and size[0])
                if to_mat is not None:
                    found = [f for f in found if card_sized_mm(f.corners, to_mat)]
                kept += [f for f in found if not any(iou(f.corners, k.corners) > 0.5 for k in kept)]
                self.searches += 1
            self._found = kept
            self._searched_small = small
            self.search_due = False
        else:
            self.search_due = self.search_due or not settled
            self._found = [f for f in self._found if self._search.still_there(grey, f)]
        named, faces = [s for s in seen if s.match.card_id is not None], []
        for face in self._found:
            if any(iou(face.corners, s.quad) > 0.5 for s in named):
                continue  # the card was named by its outline (or disagrees with it: not named twice)
            if not self.deck.vouches(grey, face, [s.quad for s in named] + [f.corners for f in self._found]):
                continue  # a corner index in view that is not its face's: a look-alike
            match = Match(face.card_id, face.score, 0.0, face.block, face.card_id, FOUND_BY_FACE)
            faces.append(TaughtSeen(face.corners, match, face.corners, face.visible))
        return [s for s in seen if s.match.card_id or not any(explains(f, s.quad) for f in faces)] + faces

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

    def _still_seen(self, quad: np.ndarray) -> TaughtSeen | None:
        """The outline of the last frame that lay where ``quad`` lies (its corners moved less
        than ``STILL_FRACTION`` of the card's long side), None when none did. Either
        portrait order may have been chosen for one card found again (a card lying turned near
        45 degrees: its outline a pixel off starts at the opposite corner), so both count."""
        long_side = max(math.dist(quad[0], quad[3]), math.dist(quad[1], quad[2]))
        turned = np.roll(quad, 2, axis=0)
        for old in self._previous:
            moved = min(
                float(np.linalg.norm(old.outline - quad, axis=1).max()),
                float(np.linalg.norm(old.outline - turned, axis=1).max()),
            )
            if moved <= STILL_FRACTION * long_side:
                return old
        return None
