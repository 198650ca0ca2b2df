"""The Expert set's abilities: one function per ability.

Decisions (text form):

- Coin Sync: after your top card is revealed, ``score`` or ``discard``; if you score, each
  opponent's top card is revealed and scored when it shows as many coins, else discarded;
- Diversity Dividends: none (2 coins with four different non-wild symbols in play);
- Flush: ``flush SYMBOL``: the display cards that match (wilds too) go under the display's draw
  deck, then the piles are refilled;
- Generous: ``give SLOT`` or ``give wild``, once per player starting with you, clockwise; the
  display is refreshed afterwards;
- Imp: everyone's top card is revealed (you first, clockwise); for each, ``put-back`` or
  ``discard``;
- Jackpot Payout: none (the jackpot's value: ``evaluation.jackpot_coins``);
- Jackpot Shuffle: after a jackpot, ``shuffle-in CARD`` ... ``done``;
- Predict Matches: ``predict N`` (2-5) before anything is revealed; N cards are revealed and
  scored if they all match, otherwise discarded;
- Thief: each opponent's top card is revealed; ``steal SEAT`` or ``pass``; the rest are
  discarded to their owners.
"""

from __future__ import annotations

from companion.engine.actions import Action
from companion.engine.events import CardTaken, Event
from companion.engine.games.jackpot_payout.cards import SYMBOLS, WILD
from companion.engine.games.jackpot_payout.core import (
    Table,
    ability,
    discard_card,
    finish_ability,
    queue_reveals,
    score_card,
    step,
)
from companion.engine.games.jackpot_payout.evaluation import (
    DIVERSITY_COINS,
    common_symbol,
    diversity_dividends_pay,
)
from companion.engine.games.jackpot_payout.state import JackpotPayoutState, add, pay, shuffle_deck, take

PREDICT_RANGE = range(2, 6)

# --- Coin Sync --------------------------------------------------------------------------------------


@ability("coin-sync")
def coin_sync(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Reveal your top card; you may score it, and then opponents score matching top cards."""
    queue_reveals(state, [state.current], "Coin Sync")
    state.step, state.stage = "coin-sync", "mine"
    return []


def _sync_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    if state.stage == "mine" and state.revealed and not state.reveal_queue:
        return [Action.of("score"), Action.of("discard")]
    return []


def _sync_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    card = state.revealed.pop(0).card
    if action.verb == "discard":
        return [*discard_card(state, state.current, card), *finish_ability(state, "discarded the card")]
    events = score_card(table, state, state.current, card)
    state.number, state.stage = table.card(card).coins, "theirs"
    queue_reveals(state, table.opponents(state.current), f"Coin Sync ({state.number} coins)")
    return events


@step("coin-sync", "'score' the revealed card or 'discard' it", _sync_options, _sync_apply)
def _sync_opponents(table: Table, state: JackpotPayoutState) -> list[Event]:
    events: list[Event] = []
    for revealed in state.revealed:
        if state.stage == "theirs" and table.card(revealed.card).coins == state.number:
            events += score_card(table, state, revealed.seat, revealed.card)
        else:
            events += discard_card(state, revealed.seat, revealed.card)
    state.revealed = []
    return events + finish_ability(state, "synced" if state.stage == "theirs" else "no card to reveal")


# --- Diversity Dividends -------------------------------------------------------------------------------


@ability("diversity-dividends")
def diversity_dividends(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Take 2 coins with at least four different non-wild symbols in play (split cards: both)."""
    cards = table.cards(state.seats[state.current].play)
    if diversity_dividends_pay(cards):
        return [*pay(state, state.current, DIVERSITY_COINS), *finish_ability(state, "paid 2 coins")]
    return finish_ability(state, "fewer than four symbols")


# --- Flush ----------------------------------------------------------------------------------------------


@ability("flush")
def flush(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Name a suit: every display card that matches it is replaced."""
    state.step = "flush"
    return []


def _flush_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    return [Action.of("flush", symbol) for symbol in SYMBOLS]


def _flush_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    symbol = str(action.args[0])
    flushed = 0
    for slot, card in enumerate(state.display):
        if card is not None and table.card(card).shows(symbol):
            # docs/rulings.md: flushed cards go under the draw deck before the display is refilled.
            state.supply_bottom.append(card)
            state.display[slot] = None
            state.emptied.append(slot)
            flushed += 1
    return finish_ability(state, f"flushed {flushed} {symbol} card(s)")


def _flush_explain(table: Table, state: JackpotPayoutState, action: Action) -> str | None:
    if action.verb == "flush" and action.args == (WILD,):
        return "name a suit (grapes, cherries, diamond, crown or shamrock); wilds are flushed with any suit"
    return None


@step("flush", "name a suit to flush: 'flush SYMBOL'", _flush_options, _flush_apply, _flush_explain)
def _flush_never(table: Table, state: JackpotPayoutState) -> list[Event]:
    raise AssertionError("Flush always offers the five suits")


# --- Generous --------------------------------------------------------------------------------------------


@ability("generous")
def generous(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Give each player, you first and then clockwise, a card from the display."""
    state.seats_left = [state.current, *table.opponents(state.current)]
    state.step = "generous"
    return []


def _give_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    if not state.seats_left:
        return []
    actions = [Action.of("give", slot) for slot, card in enumerate(state.display) if card is not None]
    if state.wilds:
        actions.append(Action.of("give", "wild"))
    return actions


def _give_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    recipient = state.seats_left.pop(0)
    if action.args[0] == "wild":
        state.wilds -= 1
        card, source = table.coinless_wild, "the coinless wilds"
    else:
        slot = int(action.args[0])
        found = state.display[slot]
        assert found is not None
        card, source = found, f"display pile {slot + 1} (Generous)"
        state.display[slot] = None
        state.emptied.append(slot)
    add(state.seats[recipient].discard, card)
    return [CardTaken(recipient, card, source)]


@step("generous", "give the next player a display card: 'give SLOT' or 'give wild'",
      _give_options, _give_apply)
def _generous_done(table: Table, state: JackpotPayoutState) -> list[Event]:
    given = "every player got a card" if not state.seats_left else "the display ran out"
    return finish_ability(state, given)


# --- Imp --------------------------------------------------------------------------------------------------


@ability("imp")
def imp(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Everyone reveals their top card; you choose which are put back, the rest are discarded."""
    queue_reveals(state, [state.current, *table.opponents(state.current)], "Imp")
    state.step = "imp"
    return []


def _imp_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    if state.reveal_queue or not state.revealed:
        return []
    return [Action.of("put-back"), Action.of("discard")]


def _imp_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    revealed = state.revealed.pop(0)
    if action.verb == "put-back":
        state.seats[revealed.seat].deck_top.insert(0, revealed.card)
        return []
    return discard_card(state, revealed.seat, revealed.card)


@step("imp", "put the revealed card back on its owner's deck ('put-back') or 'discard' it",
      _imp_options, _imp_apply)
def _imp_done(table: Table, state: JackpotPayoutState) -> list[Event]:
    return finish_ability(state, "done")


# --- Jackpot Payout (``evaluation.jackpot_coins``) and Jackpot Shuffle ----------------------------


def jackpot_shuffle(table: Table, state: JackpotPayoutState) -> list[Event]:
    """After a jackpot: choose cards of your discard pile to shuffle into your deck."""
    state.step, state.number = "jackpot-shuffle", 0
    return []


def _shuffle_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    discard = state.seats[state.current].discard
    if not discard:
        return []
    return [Action.of("shuffle-in", card) for card in sorted(discard)] + [Action.of("done")]


def _shuffle_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    seat = state.seats[state.current]
    if action.verb == "done":
        return _shuffle_done(table, state)
    card = str(action.args[0])
    take(seat.discard, card)
    add(seat.deck, card)
    state.number += 1
    return []


@step("jackpot-shuffle", "shuffle cards from your discard pile into your deck ('shuffle-in CARD'), or 'done'",
      _shuffle_options, _shuffle_apply)
def _shuffle_done(table: Table, state: JackpotPayoutState) -> list[Event]:
    if state.number:
        shuffle_deck(state.seats[state.current])
    state.number = 0
    state.step = "jackpot-done"
    return []


# --- Predict Matches ----------------------------------------------------------------------------------------


@ability("predict-matches")
def predict_matches(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Announce 2-5, reveal that many cards: score them all if they all match, else discard them."""
    state.step, state.stage = "predict-matches", "announce"
    return []


def _predict_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    if state.stage == "announce":
        return [Action.of("predict", n) for n in PREDICT_RANGE]
    return []


def _predict_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    state.number, state.stage = action.int_args()[0], "revealed"
    queue_reveals(state, [state.current] * state.number, f"Predict Matches ({state.number})")
    return []


def _predict_explain(table: Table, state: JackpotPayoutState, action: Action) -> str | None:
    if action.verb == "predict":
        return "announce a number from 2 to 5 before any card is revealed: 'predict 3'"
    return None


@step("predict-matches", "announce how many cards will match: 'predict N' (2-5)",
      _predict_options, _predict_apply, _predict_explain)
def _predict_checked(table: Table, state: JackpotPayoutState) -> list[Event]:
    cards = [r.card for r in state.revealed]
    state.revealed = []
    events: list[Event] = []
    if len(cards) == state.number and common_symbol(table.cards(cards)) is not None:
        for card in cards:
            events += score_card(table, state, state.current, card)
        return events + finish_ability(state, f"all {len(cards)} matched")
    for card in cards:
        events += discard_card(state, state.current, card)
    return events + finish_ability(state, "they did not all match")


# --- Thief ------------------------------------------------------------------------------------------------


@ability("thief")
def thief(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Opponents reveal their top card; you may put one in your discard pile."""
    queue_reveals(state, table.opponents(state.current), "Thief")
    state.step = "thief"
    return []


def _thief_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    if state.reveal_queue or not state.revealed:
        return []
    return [Action.of("steal", r.seat) for r in state.revealed] + [Action.of("pass")]


def _thief_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    victim = action.int_args()[0] if action.verb == "steal" else None
    events: list[Event] = []
    for revealed in state.revealed:
        if revealed.seat == victim:
            add(state.seats[state.current].discard, revealed.card)
            events.append(CardTaken(state.current, revealed.card, f"player {victim + 1}'s deck (Thief)"))
        else:
            events += discard_card(state, revealed.seat, revealed.card)
    state.revealed = []
    outcome = f"stole from player {victim + 1}" if victim is not None else "stole nothing"
    return events + finish_ability(state, outcome)


@step("thief", "take one revealed card ('steal SEAT') or 'pass'", _thief_options, _thief_apply)
def _thief_nothing(table: Table, state: JackpotPayoutState) -> list[Event]:
    return finish_ability(state, "no card to steal")
