"""The machinery every rule runs on: the table context, steps, reveals and ``advance``.

The state's ``step`` names what the rules wait for. Each step (see :data:`STEPS`) lists the
current player's legal decisions; a step with no decision to offer moves on by itself
(``auto``). :func:`advance` runs those automatic moves, reveals known cards, reshuffles an empty
deck, and stops at the next chance point (a card to reveal from a deck or from the display's draw
deck) or the next decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from companion.engine.actions import Action
from companion.engine.events import Event
from companion.engine.games.jackpot_payout.cards import Card, Catalogue
from companion.engine.games.jackpot_payout.state import (
    AbilityResolved,
    CardDiscarded,
    CardRevealed,
    CardScored,
    DeckReshuffled,
    DisplayRefilled,
    JackpotPayoutState,
    Revealed,
    add,
    pay,
    total,
)


@dataclass(frozen=True)
class Table:
    """What the rules need besides the state: the cards and the number of players."""

    catalogue: Catalogue
    players: int

    @property
    def solo(self) -> bool:
        """One player against The House."""
        return self.players == 1

    def card(self, card_id: str) -> Card:
        """The face of ``card_id``."""
        return self.catalogue.cards[card_id]

    def cards(self, card_ids: list[str]) -> list[Card]:
        """The faces of several card ids."""
        return list(map(self.catalogue.cards.__getitem__, card_ids))

    def opponents(self, seat: int) -> list[int]:
        """The other seats, clockwise from ``seat``."""
        return [(seat + k) % self.players for k in range(1, self.players)]

    @cached_property
    def coinless_wild(self) -> str:
        """The coinless wild's card id."""
        return self.catalogue.of_kind("coinless-wild")[0].id


def who(seat: int) -> str:
    """Table words for a seat."""
    return f"player {seat + 1}"


Options = Callable[[Table, JackpotPayoutState], list[Action]]
Apply = Callable[[Table, JackpotPayoutState, Action], list[Event]]
Auto = Callable[[Table, JackpotPayoutState], list[Event]]


@dataclass(frozen=True)
class Step:
    """One thing the rules can wait for: its decisions, how to apply one, and how to move on."""

    options: Options
    apply: Apply
    auto: Auto
    #: what the player may do here, for error messages
    hint: str
    #: a more specific reason an action is refused (optional)
    explain: Callable[[Table, JackpotPayoutState, Action], str | None] | None = None
    #: whether ``options`` is not empty (``advance`` asks after every move); None for an
    #: automatic step, which never offers a decision
    offers: Callable[[Table, JackpotPayoutState], bool] | None = None


STEPS: dict[str, Step] = {}
#: ability id -> the function that starts resolving it
ABILITY_START: dict[str, Auto] = {}


def no_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    """For automatic steps."""
    return []


def no_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    """For automatic steps (never called: they offer no decision)."""
    raise AssertionError("an automatic step has no decisions")


def step(name: str, hint: str, options: Options = no_options, apply: Apply = no_apply,
         explain: Callable[[Table, JackpotPayoutState, Action], str | None] | None = None,
         offers: Callable[[Table, JackpotPayoutState], bool] | None = None) -> Callable[[Auto], Auto]:
    """Decorator: register ``auto`` (the decorated function) as step ``name``.

    ``offers`` tells whether ``options`` lists anything, for a step where that is cheaper to
    tell than to list them all (the list is then made once, when the player is asked).
    """
    if offers is None and options is not no_options:
        def offers(table: Table, state: JackpotPayoutState) -> bool:
            return bool(options(table, state))

    def register(auto: Auto) -> Auto:
        STEPS[name] = Step(options, apply, auto, hint, explain, offers)
        return auto
    return register


def ability(name: str) -> Callable[[Auto], Auto]:
    """Decorator: register the function that starts resolving ability ``name``."""
    def register(start: Auto) -> Auto:
        ABILITY_START[name] = start
        return start
    return register


# --- reveals -------------------------------------------------------------------------------------


def queue_reveals(state: JackpotPayoutState, seats: list[int], reason: str) -> None:
    """Ask for the top card of each of ``seats``' decks (in order); they land in ``revealed``."""
    state.reveal_queue.extend(seats)
    state.reveal_reason = reason


def reveal_outcome(table: Table, state: JackpotPayoutState, card: str) -> list[Event]:
    """The next queued top card turned out to be ``card`` (already checked possible)."""
    seat_index = state.reveal_queue.pop(0)
    seat = state.seats[seat_index]
    left = seat.deck[card] - 1
    if left:
        seat.deck[card] = left
    else:
        del seat.deck[card]
    state.revealed.append(Revealed(seat_index, card))
    return [CardRevealed(seat_index, card, state.reveal_reason)]


def refill_outcome(state: JackpotPayoutState, card: str) -> list[Event]:
    """The display's draw deck gave ``card`` to the next pile waiting."""
    slot = state.refill.pop(0)
    left = state.supply[card] - 1
    if left:
        state.supply[card] = left
    else:
        del state.supply[card]
    state.display[slot] = card
    return [DisplayRefilled(slot, card)]


def needs_chance(state: JackpotPayoutState) -> bool:
    """True when ``advance`` stopped at a chance point."""
    if state.over:
        return False
    if state.reveal_queue:
        return bool(state.seats[state.reveal_queue[0]].deck)
    return bool(state.refill)


#: no chain of automatic steps is this long unless a rule loops (a bug)
_MAX_AUTO = 10_000


def advance(table: Table, state: JackpotPayoutState, events: list[Event] | None = None) -> list[Event]:
    """Run everything that needs no decision and no chance, up to the next of either; returns
    ``events`` (a new list when None) with the events of what ran added."""
    if events is None:
        events = []
    queue = state.reveal_queue
    if queue and not state.over:
        # The usual case after a card is revealed: the next card of the queue is a chance
        # point too (no known top card, a deck to draw from), and nothing else runs.
        seat = state.seats[queue[0]]
        if seat.deck and not seat.deck_top:
            return events
    for _ in range(_MAX_AUTO):
        if state.over:
            return events
        if state.reveal_queue:
            seat_index = state.reveal_queue[0]
            seat = state.seats[seat_index]
            if seat.deck_top:
                card = seat.deck_top.pop(0)
                state.reveal_queue.pop(0)
                state.revealed.append(Revealed(seat_index, card))
                events.append(CardRevealed(seat_index, card, state.reveal_reason))
            elif seat.deck:
                return events
            elif seat.discard:
                # Empty deck: the discard pile is shuffled to form a new deck (kept in id
                # order, so each reveal's chance point sorts it in one pass).
                seat.deck, seat.discard = dict(sorted(seat.discard.items())), {}
                events.append(DeckReshuffled(seat_index, total(seat.deck)))
            else:
                state.reveal_queue.pop(0)  # nothing left anywhere: this card is not revealed
            continue
        if state.refill:
            if state.supply:
                return events
            slot = state.refill.pop(0)
            if state.supply_bottom:
                card = state.supply_bottom.pop(0)
                state.display[slot] = card
                events.append(DisplayRefilled(slot, card))
            continue
        current = STEPS[state.step]
        if current.offers is not None and current.offers(table, state):
            return events
        events += current.auto(table, state)
    raise AssertionError(f"the rules did not settle at step {state.step!r}")


# --- moves shared by the abilities and the turn ------------------------------------------------


def score_card(table: Table, state: JackpotPayoutState, seat: int, card: str) -> list[Event]:
    """``seat`` scores ``card``: it leaves the game and its coins go to their score pile."""
    add(state.removed, card)
    return [CardScored(seat, card), *pay(state, seat, table.card(card).coins)]


def discard_card(state: JackpotPayoutState, seat: int, card: str) -> list[Event]:
    """``card`` goes to ``seat``'s discard pile."""
    add(state.seats[seat].discard, card)
    return [CardDiscarded(seat, card)]


def is_active(table: Table, card: str) -> bool:
    """True when ``card`` has an ability that resolves when it is revealed."""
    return table.catalogue.cards[card].is_active


def start_ability(table: Table, state: JackpotPayoutState, slot: int) -> list[Event]:
    """Start resolving the ability of the card in play slot ``slot``."""
    card = table.card(state.seats[state.current].play[slot])
    assert card.ability is not None
    state.ability, state.ability_slot = card.ability, slot
    state.stage, state.number, state.named = "", 0, ""
    return ABILITY_START[card.ability](table, state)


def finish_ability(state: JackpotPayoutState, outcome: str = "") -> list[Event]:
    """The ability resolving now is done: back to choosing the next one."""
    events: list[Event] = []
    if state.ability is not None:
        events.append(AbilityResolved(state.current, state.ability, outcome))
    state.ability, state.ability_slot = None, -1
    state.stage, state.number, state.named = "", 0, ""
    state.seats_left = []
    state.refill.extend(state.emptied)
    state.emptied = []
    state.step = "order"
    return events
