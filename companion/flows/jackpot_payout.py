"""Jackpot Payout at the table (the camera reads the reels) or as a cabinet (the Pi deals).

The Pi keeps the bank, adjudicates every jackpot (wilds, split cards, Jackpot Payout cards),
resolves the abilities with the player, says what may be taken from the display, tracks the end
triggers and runs the Final Showdown. Solo, it plays The House: a House card revealed from the
deck pays The House from the bank, and the player then removes display cards.

Controls while a player decides (both modes): ``hold1``/``hold3`` step through the choices the
rules allow now (which ability first, which display card was taken, a guess, keep or release a
Stuck Reel ...), the prompt names the one showing, ``collect`` does it.

Table mode, while cards are revealed:

- reel cards: the camera reads zone ``reel<N>`` (the active player's reel slots, left to right;
  a Stuck Reel kept in play stays on reel 1). A card counts once the tracker says it is stable
  and it is new: the slot was seen empty since its last card, or it shows another card, or the
  player pressed ``collect`` ("cards down") and the camera has settled since. The engine then
  checks the card can be in that deck; a card the camera is unsure of or that cannot be there
  is not revealed: the screen says which reel and what to do. ``hold1``/``hold3`` enter it by
  hand instead (``collect`` confirms, ``back`` returns to the camera);
- cards the mat has no zone for (the top card an ability reveals, a new display card) are
  entered by hand the same way.

While taking from the display in table mode every display pile is offered, not only the ones
the rules allow: the player enters the card they took, and the engine says when it may not be
taken (a Special card without a pair), so the table is checked, not just guided.

Every card read or entered is journaled with where it came from. Cabinet mode: a lever pull
reveals the three reel cards; everything else the Pi deals by itself.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.engine import Action, ImpossibleOutcomeError
from companion.engine.events import CoinsPaid, Event, JackpotHit
from companion.engine.games.jackpot_payout.state import CardScored, EndTriggered, HouseCoinsPaid
from companion.flows.base import Flow, Observation
from companion.flows.jackpot_payout_screen import PayoutScreen
from companion.flows.jackpot_payout_view import (
    REEL_ZONES,
    REELS,
    card_label,
    entry_order,
    first_symbol,
)
from companion.session import Session
from hardware.events import LONG_PRESS, PRESS, PULL, InputEvent


class JackpotPayoutFlow(PayoutScreen, Flow):
    """One game of Jackpot Payout (1-4 players; 1 is solo against The House), table or cabinet."""

    game_id = "jackpot-payout"
    modes = ("table", "cabinet")

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        #: the choice showing while a player decides, and the log position it belongs to
        self.cursor = 0
        self._cursor_at = -1
        #: index into the chance point's outcomes while a card is entered by hand
        self.manual: int | None = None
        #: the reel slot where the camera saw the card being entered (shown there to be read)
        self.offered: str | None = None
        self.observations: dict[str, Observation] = {}
        self.batches = 0
        self.confirmed_at: int | None = None
        #: observation batches after COLLECT before a card looking like the old one counts
        self.settle_batches = 8
        #: the card believed to lie on each reel slot, and the slots seen empty since
        self.on_reel: dict[str, str | None] = dict.fromkeys(REEL_ZONES)
        self.cleared: set[str] = set(REEL_ZONES)
        #: cabinet: the lever was pulled and the reel cards are being dealt
        self.spinning = False
        #: what the reels show: card ids (None: still spinning), the spin id, a win and its coins
        self.reel_cards: tuple[str | None, ...] = (None,) * REELS
        self.spin_id = 0
        self.win = False
        self.payout = 0
        self._sync_reels()
        if session.resumed:
            self.cleared = {z for z, card in self.on_reel.items() if card is None}

    # --- engine facts ----------------------------------------------------------------------

    @property
    def solo(self) -> bool:
        """One player against The House."""
        return len(self.session.seats) == 1

    def point(self) -> Any:
        """The open chance point, if any."""
        return None if self.over else self.match.chance_point

    def revealing(self) -> bool:
        """True while a card is to be revealed (a reel, an ability's top card, a display pile)."""
        return self.point() is not None

    def reading_reels(self) -> bool:
        """True while the active player's reel cards are being revealed."""
        point = self.point()
        return point is not None and point.kind == "reel"

    def waiting_for_pull(self) -> bool:
        """Cabinet: the reels wait for the lever (no reel card of this spin dealt yet)."""
        return (not self.table_mode and self.reading_reels() and not self.state.revealed
                and not self.spinning)

    def next_reel(self) -> int:
        """The reel slot the next reel card goes to."""
        seat = self.state.seats[self.state.reveal_queue[0]]
        return min(REELS - 1, len(seat.play) + len(self.state.revealed))

    def zones(self) -> tuple[str, ...]:
        """The reel zones still to be read, left to right (table mode, reel cards only)."""
        if not self.table_mode or not self.reading_reels():
            return ()
        first = self.next_reel()
        return tuple(REEL_ZONES[first:first + len(self.state.reveal_queue)])

    def in_play(self) -> list[str]:
        """The active player's cards on the reels (those revealed this spin included)."""
        seat = self.state.seats[self.state.current]
        revealed = [r.card for r in self.state.revealed if r.seat == self.state.current]
        return [*seat.play, *revealed] if self.state.step == "reveal" else list(seat.play)

    def choices(self) -> list[Action]:
        """What the player may pick from now, in the order the hold buttons step through.

        Table mode, taking from the display: every display pile is listed (the engine checks
        what was taken and says why a card may not be).
        """
        if self.over or self.revealing():
            return []
        legal = list(self.game.decisions(self.state))
        if not (self.table_mode and self.state.step == "take"):
            return legal
        piles = [Action.of("take", slot) for slot, card in enumerate(self.state.display) if card is not None]
        return piles + [a for a in legal if not (a.verb == "take" and a.args and a.args[0] != "wild")]

    def chosen(self) -> Action | None:
        """The choice the prompt shows."""
        options = self.choices()
        if not options:
            return None
        if self._cursor_at != self.session.version:
            self._cursor_at, self.cursor = self.session.version, 0
        return options[self.cursor % len(options)]

    # --- inputs ----------------------------------------------------------------------------

    def on_input(self, event: InputEvent) -> None:
        """Route a control to the reveal or the decision at hand."""
        if self.over or event.kind not in (PRESS, PULL, LONG_PRESS):
            return
        if self.revealing():
            if not self.table_mode:
                if event.control == "lever" and event.kind == PULL and self.waiting_for_pull():
                    self.cue("lever")
                    self.spinning = True
                    self._deal_next()
                return
            self._entry_input(event)
            return
        self._decision_input(event)

    def _decision_input(self, event: InputEvent) -> None:
        options = self.choices()
        if not options or event.kind == LONG_PRESS:
            return
        self.chosen()  # moves the cursor to this decision
        control = event.control
        if control in ("hold1", "hold3") and event.kind == PRESS:
            self.cursor = (self.cursor + (1 if control == "hold3" else -1)) % len(options)
            self.cue("click")
        elif control == "collect" and event.kind == PRESS:
            action = options[self.cursor % len(options)]
            self.act(action)

    def act(self, action: Action | str) -> list[Event] | None:
        """Apply a decision or reveal (journaled), then update the reels and cues from its events."""
        new_spin = self.reading_reels() and not self.state.revealed
        events = self.apply(action)
        if events is None:
            return None
        if new_spin:
            self.spin_id += 1  # the first card of a spin: the reels start, the last win goes out
            self.win, self.payout = False, 0
        self._after(events)
        return events

    def _after(self, events: list[Event]) -> None:
        scored: list[str] = []
        jackpot = False
        for event in events:
            if isinstance(event, JackpotHit):
                jackpot, self.win, self.payout = True, True, event.amount
            elif isinstance(event, CardScored) and jackpot and len(scored) < REELS:
                scored.append(event.card)
            elif isinstance(event, (CoinsPaid, HouseCoinsPaid)):
                self.cue("coin")
            elif isinstance(event, EndTriggered):
                self.status = "the end is coming"
        if jackpot:
            # The scored cards left play in the same step: show them, and remember they lie there.
            self.reel_cards = tuple(scored) + (None,) * (REELS - len(scored))
            self._remember(scored)
        else:
            self._sync_reels()
        if not self.reading_reels():
            self.spinning = False

    def _sync_reels(self) -> None:
        """Follow the engine: the cards on the reels now (kept as they are between spins)."""
        if self.over:
            return
        if self.reading_reels() and not self.state.revealed:
            return  # between spins: the reels keep the last cards until a new card lands
        cards = self.in_play()
        if not cards:
            return  # a finished turn: its cards (or its jackpot) stay on screen
        self.reel_cards = tuple(cards[:REELS]) + (None,) * (REELS - len(cards[:REELS]))
        self._remember(cards)

    def _remember(self, cards: list[str]) -> None:
        """The physical reel slots now hold ``cards`` (left to right)."""
        for index, card in enumerate(cards[:REELS]):
            self._remember_at(REEL_ZONES[index], card)

    def _remember_at(self, zone: str, card: str) -> None:
        if self.on_reel.get(zone) != card:
            self.on_reel[zone] = card
            self.cleared.discard(zone)

    # --- reveals -----------------------------------------------------------------------------

    def tick(self, now: float) -> None:
        """Cabinet: deal the next card (reels only after a pull). Table: read the reels."""
        if not self.revealing():
            return
        if self.table_mode:
            if self.observations and self.camera_ok:
                self._take_observations()
            return
        if not self.waiting_for_pull():
            self._deal_next()

    def _deal_next(self) -> None:
        point = self.point()
        if point is not None:
            self.act(Action.reveal(self.session.cabinet_outcome(point)))

    def on_observations(self, observations: Mapping[str, Observation]) -> None:
        """Keep the latest readings; a reel slot seen empty is ready for a new card."""
        self.observations = dict(observations)
        self.batches += 1
        for zone in REEL_ZONES:
            seen = observations.get(zone)
            if seen is not None and seen.status == "empty":
                self.cleared.add(zone)
                self.on_reel[zone] = None
        if self.table_mode and self.camera_ok and self.reading_reels():
            self._take_observations()
        if self.table_mode and self.camera_ok:
            self._camera_offer()

    def settled(self) -> bool:
        """COLLECT ("cards down") was pressed and the camera has seen enough frames since."""
        return self.confirmed_at is not None and self.batches - self.confirmed_at >= self.settle_batches

    def _take_observations(self) -> None:
        while self.reading_reels() and self.manual is None and not self.over:
            reel = self.next_reel()
            zone = REEL_ZONES[reel]
            seen = self.observations.get(zone)
            if seen is not None and seen.status == "unsure":
                self.alert = f"Reel {reel + 1}: not sure of that card: straighten it, or HOLD1/HOLD3 enter it"
                return
            if seen is None or seen.status not in ("stable", "changed") or seen.card_id is None:
                return  # nothing there yet, or a card still settling
            new = zone in self.cleared or seen.card_id != self.on_reel.get(zone) or self.settled()
            if not new:
                return  # last turn's card still lies there: wait for the new one (or COLLECT)
            point = self.point()
            try:
                point.check(seen.card_id)
            except ImpossibleOutcomeError:
                owner = self.session.seats[self.state.reveal_queue[0]]
                self.alert = (f"Reel {reel + 1} reads {card_label(self.game, seen.card_id)}, which is not in "
                              f"{owner}'s deck: fix that card, or HOLD1/HOLD3 to enter it")
                self.cue("error")
                return
            self.session.observe({"zone": zone, "card": seen.card_id, "source": "camera"})
            if self.act(Action.reveal(seen.card_id)) is None:
                return
            self.confirmed_at = None

    def outcomes(self) -> list[str]:
        """The cards the open chance point allows, in entry order (by symbol, then coins)."""
        point = self.point()
        return [] if point is None else entry_order(self.game, [name for name, _ in point.outcomes])

    def _camera_offer(self) -> None:
        """A card the mat has no zone for, shown on a free reel slot: the camera proposes it.

        It is only proposed (the buttons show it); COLLECT confirms, as for any card entered by hand.
        """
        if self.offered is not None:
            seen = self.observations.get(self.offered)
            if seen is None or seen.card_id != self.manual_card():
                self.offered = None  # taken away before COLLECT: the buttons go on from there
        if self.manual is not None or self.reading_reels() or not self.revealing():
            return
        options = self.outcomes()
        for zone in REEL_ZONES:
            seen = self.observations.get(zone)
            if (seen is not None and seen.status in ("stable", "changed") and seen.card_id in options
                    and seen.card_id != self.on_reel.get(zone)):
                self.manual, self.offered = options.index(seen.card_id), zone
                return

    def entering(self) -> bool:
        """True while a card is entered by hand (always for cards the mat has no zone for)."""
        return self.manual is not None or (self.revealing() and not self.reading_reels())

    def manual_card(self) -> str | None:
        """The card the buttons show now while entering by hand."""
        options = self.outcomes()
        if not options or not self.entering():
            return None
        return options[(self.manual or 0) % len(options)]

    def _entry_input(self, event: InputEvent) -> None:
        options = self.outcomes()
        control = event.control
        if control in ("hold1", "hold3") and event.kind == PRESS:
            if self.manual is None and self.reading_reels():
                # Start from what the camera sees, when that card is possible at all.
                seen = self.observations.get(REEL_ZONES[self.next_reel()])
                guess = seen.card_id if seen is not None else None
                self.manual = options.index(guess) if guess in options else 0
            else:
                self.manual = ((self.manual or 0) + (1 if control == "hold3" else -1)) % len(options)
            self.offered = None
            self.cue("click")
        elif control == "hold2" and event.kind == PRESS and self.entering():
            # Jump to the first card of the next symbol: a deck is a few symbols, many cards.
            here = (self.manual or 0) % len(options)
            symbol = first_symbol(self.game, options[here])
            step = next((k for k in range(1, len(options))
                         if first_symbol(self.game, options[(here + k) % len(options)]) != symbol), 0)
            self.manual, self.offered = (here + step) % len(options), None
            self.cue("click")
        elif control == "collect" and event.kind == PRESS:
            if not self.entering():
                self.confirmed_at = self.batches  # "cards down": a card like the old one is new
                self._take_observations()
                return
            card = self.manual_card()
            assert card is not None
            zone = REEL_ZONES[self.next_reel()] if self.reading_reels() else self.offered
            seen = self.observations.get(zone) if zone else None
            point = self.point()
            if self.offered is not None and seen is not None and seen.card_id == card:
                self._remember_at(self.offered, card)  # it lies there: not offered again
            self.session.observe({"zone": zone, "card": card, "source": "buttons", "for": point.kind,
                                  "camera": seen.card_id if seen is not None and self.camera_ok else None})
            if self.act(Action.reveal(card)) is not None:
                self.manual = None if self.camera_ok else 0
                self.offered = None
        elif control == "back" and event.kind == PRESS and self.manual is not None and self.camera_ok:
            self.manual = None
            self.alert = None

    def set_camera(self, ok: bool) -> None:
        """The camera went away (every card by hand) or came back."""
        self.camera_ok = ok
        if not ok and self.table_mode and self.reading_reels() and self.manual is None:
            self.manual = 0
        if ok and self.manual == 0:
            self.manual = None

    # --- autoplay ------------------------------------------------------------------------

    def suggest(self, rng: random.Random) -> InputEvent | None:
        """The buttons a sensible player presses: the engine's heuristic choice, by the panel."""
        if self.over:
            return None
        if self.revealing():
            return InputEvent("lever", PULL, 0.0) if self.waiting_for_pull() else None
        options = self.choices()
        current = self.chosen()
        if not options or current is None:
            return None
        target = self.game.heuristic_action(self.state, rng)
        if target not in options or target == current:
            return InputEvent("collect", PRESS, 0.0)
        here, there = self.cursor % len(options), options.index(target)
        forward = (there - here) % len(options)
        return InputEvent("hold3" if forward <= len(options) - forward else "hold1", PRESS, 0.0)
