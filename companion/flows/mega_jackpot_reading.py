"""How Mega Jackpot's flow reads the table: pile tops and discards seen become reveals and flips.

A mixin of :class:`companion.flows.mega_jackpot_play.MegaJackpotPlay`: it keeps the zones' latest
readings, waits until a discard has settled, takes a revealed pile top as the engine's reveal,
and infers which flip the player made from the discards that changed."""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine import ImpossibleOutcomeError
from companion.engine.games.mega_jackpot.components import PILES, split_face
from companion.flows.base import Observation
from companion.flows.mega_jackpot_table import (
    describe_card,
    discard_zone,
    face_side,
    infer_moves,
    is_face,
    pile_zone,
    side_of_back,
)

#: Camera batches (about 15 a second) a discard may be unreadable, while a flip is awaited, before
#: the screen asks to straighten it (a hand over the table is unreadable for a moment too).
UNSURE_BATCHES = 10
#: Alerts about what the discards show, dropped once they show what the engine expects again.
STALE_WHEN_UNCHANGED = ("Discard", "Pay first", "Three discards", "No pile top", "No more spins",
                        "Which piles")


class MegaJackpotTableReading:
    """Reads pile tops and discards from the camera into reveals and flips (table mode)."""

    # --- the camera (table mode) ------------------------------------------------------------

    def zones(self) -> tuple[str, ...]:
        """The zones read now: the card being revealed, or every zone while a flip is awaited."""
        if not self.table_mode or self.over:
            return ()
        phase = self.phase()
        if phase == "reveal":
            if not self._enterable():
                return ()
            reveal = self.state.pending[0]
            if reveal.kind == "side" and self._initial_side(reveal.pile):
                return (discard_zone(reveal.pile), pile_zone(reveal.pile))
            return (self._reveal_zone(),)
        if phase in ("flip", "spun"):
            return tuple(discard_zone(d) for d in range(3)) + tuple(pile_zone(p) for p in range(PILES))
        return ()

    def _reveal_zone(self) -> str:
        reveal = self.state.pending[0]
        return discard_zone(reveal.target) if reveal.kind == "front" else pile_zone(reveal.pile)

    def _initial_side(self, pile: int) -> bool:
        """Setting up, before pile ``pile``'s first card was flipped onto the discard below it."""
        return bool(self.state.then == "start" and not self.state.discards[pile])

    def on_observations(self, observations: Mapping[str, Observation]) -> None:
        """Keep the latest readings; turn stable, possible ones into the flip and its reveals."""
        self.observations = dict(observations)
        self.batches += 1
        if self.table_mode and self.camera_ok and not self.over:
            self._read_table()

    def _read_table(self) -> None:
        for _ in range(12):  # a flip and its reveals at most; each step applies one action
            self._sync()
            if self.over or not self.camera_ok or self.manual is not None:
                return
            version = self.session.version
            phase = self.phase()
            self._forget_taken()
            if phase == "reveal":
                if not self._enterable():
                    return
                self._take_reveal()
            elif phase in ("flip", "spun"):
                self._watch_for_flip(phase)
            if self.session.version == version:
                return

    def _seen(self, zone: str) -> Observation | None:
        seen = self.observations.get(zone)
        if seen is None or seen.status not in ("stable", "changed") or seen.card_id is None:
            return None
        return seen

    def _settled(self, moved_at: int | None) -> bool:
        """A card that looks like the one before counts only after the camera had time to see the
        new one: after COLLECT ("the card is down"), or when the camera saw the card move."""
        if self.confirmed_at is not None and self.batches - self.confirmed_at >= self.settle_batches:
            return True
        return moved_at is not None and self.batches - moved_at >= self.settle_batches

    def _unsure(self, zone: str, place: str) -> bool:
        seen = self.observations.get(zone)
        if seen is not None and seen.status == "unsure":
            self.alert = f"{place}: cannot read that card: straighten it, or HOLD1/HOLD3 to enter it"
            return True
        return False

    def _take_reveal(self) -> None:
        reveal = self.state.pending[0]
        point = self.match.chance_point
        assert point is not None
        if reveal.kind == "front":
            zone, place = discard_zone(reveal.target), f"Discard {reveal.target + 1}"
            if self._unsure(zone, place):
                return
            seen = self._seen(zone)
            if seen is None or seen.card_id is None:
                return
            card = seen.card_id
            if not is_face(card):
                self._misread(f"{place} shows a reel side: turn the card symbol side up")
                return
            old = {self.top_face(reveal.target), self.taken.get(reveal.target)}
            if card in old and not self._settled(self.camera_moved.get(reveal.pile)):
                return  # the old card still shows; wait for the new one (or COLLECT)
            expected = self.state.pile_tops[reveal.pile]
            if face_side(card) != expected:
                reel = str(expected).replace("-", "/")
                self._misread(f"{place}: {describe_card(card)} is not pile {reveal.pile + 1}'s {reel} card: "
                              "fix it, or HOLD1/HOLD3")
                return
            outcome = split_face(card)[0]
        else:
            zone, place = pile_zone(reveal.pile), f"Pile {reveal.pile + 1}"
            below = self._seen(discard_zone(reveal.pile)) if self._initial_side(reveal.pile) else None
            if below is not None and below.card_id is not None and is_face(below.card_id):
                zone, card = discard_zone(reveal.pile), below.card_id  # already flipped: its reel side
                outcome = face_side(card)
            else:
                if self._unsure(zone, place):
                    return
                seen = self.observations.get(zone)
                if seen is not None and seen.status == "empty":
                    left = self.state.pile_sizes[reveal.pile] - 1
                    cards = f"{left} card{'s' if left != 1 else ''}"
                    self._misread(f"{place} looks empty but {cards} are left: put it back, or HOLD1/HOLD3",
                                  sound=False)
                    return
                seen = self._seen(zone)
                if seen is None or seen.card_id is None:
                    return
                card = seen.card_id
                side = side_of_back(card)
                if side is None:
                    self._misread(f"{place} shows {describe_card(card)}: the pile lies reel side up")
                    return
                if not self._initial_side(reveal.pile):
                    flipped = self.flipped_sides.get(reveal.pile)
                    if side == flipped and not self._settled(self.camera_moved.get(reveal.pile)):
                        return
                outcome = side
        try:
            point.check(outcome)
        except ImpossibleOutcomeError:
            self._misread(f"{place} reads {describe_card(card)}, which cannot be: fix it, or HOLD1/HOLD3")
            return
        self.session.observe({"zone": zone, "card": card, "source": "camera"})
        if self._reveal(outcome) is not None:
            if reveal.kind == "side":
                self.camera_moved.pop(reveal.pile, None)
            else:  # the camera saw the card land: the pile shows its next card now
                self.camera_moved.setdefault(reveal.pile, self.batches)

    def _misread(self, message: str, sound: bool = True) -> None:
        if self.alert != message and sound:
            self.cue("error")
        self.alert = message

    def _forget_taken(self) -> None:
        """A taken jackpot card no longer seen on its discard is gone for good."""
        for discard, face in list(self.taken.items()):
            seen = self.observations.get(discard_zone(discard))
            if seen is not None and seen.status in ("stable", "changed", "empty") and seen.card_id != face:
                del self.taken[discard]

    def _long_unsure(self, zone: str) -> bool:
        """True once a zone has been unreadable for a while (a hand passing over it is not)."""
        seen = self.observations.get(zone)
        if seen is None or seen.status != "unsure":
            self.unsure_since.pop(zone, None)
            return False
        since = self.unsure_since.setdefault(zone, self.batches)
        return self.batches - since >= UNSURE_BATCHES

    def _watch_for_flip(self, phase: str) -> None:
        """Before a flip is journaled: which discards show a new card, and from which pile."""
        if self.picks or self.pile_question is not None:
            return
        changed: dict[int, str] = {}
        for discard in range(3):
            zone = discard_zone(discard)
            if self._long_unsure(zone):
                self._misread(f"Discard {discard + 1}: cannot read that card: straighten it, or HOLD pile, "
                              "discard, LEVER", sound=False)
                return
            seen = self._seen(zone)
            if seen is None or seen.card_id is None:
                continue
            card = seen.card_id
            if card == self.top_face(discard) or card == self.taken.get(discard):
                continue
            if not is_face(card):
                self._misread(f"Discard {discard + 1} shows a reel side: turn the card symbol side up")
                return
            changed[discard] = card
        if not changed:
            if self.alert and self.alert.startswith(STALE_WHEN_UNCHANGED):
                self.alert = None
            return
        if phase == "spun":
            value = self.pay_value()
            if value is None:
                self._misread("No more spins this turn: put the card back; COLLECT stops")
            else:
                self._misread(f"Pay first: LEVER pays a {value}-point card into tray {self.tray + 1} "
                              "(HOLD1/HOLD2 tray)", sound=False)
            return
        if len(changed) > 2:
            self._misread("Three discards changed: a spin flips one or two cards; put one back")
            return
        key = tuple(sorted(changed.items()))
        if key != self.candidate:
            self.candidate, self.candidate_since = key, self.batches
        if len(changed) == 1 and self.batches - self.candidate_since < self.flip_settle_batches:
            return  # a second card may still be on its way (two cards flip together)
        piles_changed = set()
        for pile in range(PILES):
            zone = pile_zone(pile)
            seen = self.observations.get(zone)
            if seen is None:
                continue
            if seen.status == "empty" or (seen.card_id is not None and seen.status in ("stable", "changed")
                                          and side_of_back(seen.card_id) != self.state.pile_tops[pile]):
                piles_changed.add(pile)
        options = infer_moves(changed, self.state.pile_tops, self.state.pile_sizes, piles_changed)
        if not options:
            discard, card = sorted(changed.items())[0]
            self._misread(f"Discard {discard + 1}: no pile showed the reel of {describe_card(card)}: "
                          "put it back, or HOLD pile, discard")
            return
        if len(options) > 1:
            if len(changed) == 1:
                discard, face = key[0]
                piles = tuple(sorted({moves[0][0] for moves in options}))
                self.pile_question = (discard, face, piles)
                self.alert = None
                return
            self._misread("Which piles? HOLD pile, discard for each card, then the LEVER", sound=False)
            return
        for discard, card in key:
            self.session.observe({"zone": discard_zone(discard), "card": card, "source": "camera"})
        self._flip(options[0], by_camera=True)
