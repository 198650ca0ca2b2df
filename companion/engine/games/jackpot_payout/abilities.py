"""The starting deck's and the Introductory set's abilities: one function per ability.

Each function named after an ability starts resolving it (or, for the abilities that only
change a later part of the turn, does that part). Decisions (text form):

- Improve the Odds: ``improve discard CARD`` / ``improve deck CARD`` (looking through the deck
  shuffles it afterwards);
- Filter 2: after the top two cards are revealed, ``filter none`` / ``filter 0`` / ``filter 1`` /
  ``filter 0 1`` (the revealed cards to discard; the others go back on top in order);
- Guess Suit: ``guess SYMBOL`` (never wild), then for a revealed wild ``score`` or ``discard``;
- Second Chance: ``replace SLOT`` (the revealed card replaces the card in play slot SLOT, which
  is discarded; the new card's ability resolves too) or ``discard``;
- Stuck Reel (no jackpot, end of turn): ``keep`` or ``release`` for each Stuck Reel in play;
- Consolation Prize and Shopping Spree need no decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from companion.engine.actions import Action
from companion.engine.events import Event
from companion.engine.games.jackpot_payout.cards import SYMBOLS, Card
from companion.engine.games.jackpot_payout.core import (
    Table,
    ability,
    discard_card,
    finish_ability,
    is_active,
    queue_reveals,
    score_card,
    step,
)
from companion.engine.games.jackpot_payout.evaluation import CONSOLATION_COINS, count_ability
from companion.engine.games.jackpot_payout.state import (
    CardRemoved,
    JackpotPayoutState,
    add,
    pay,
    shuffle_deck,
    take,
    total,
)

# --- Improve the Odds ----------------------------------------------------------------------------


@ability("improve-the-odds")
def improve_the_odds(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Remove a card from your discard pile or your deck from the game."""
    state.step = "improve-the-odds"
    return []


@cache
def _improve(pile: str, card: str) -> Action:
    """``improve PILE CARD``, made once (a deck of a dozen kinds is offered whole each time)."""
    return Action.of("improve", pile, card)


def _improve_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    seat = state.seats[state.current]
    actions = [_improve("discard", card) for card in sorted(seat.discard)]
    in_deck = set(seat.deck) | set(seat.deck_top)
    return actions + [_improve("deck", card) for card in sorted(in_deck)]


def _improve_offers(table: Table, state: JackpotPayoutState) -> bool:
    seat = state.seats[state.current]
    return bool(seat.discard or seat.deck or seat.deck_top)  # _improve_options is not empty


def _improve_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    seat = state.seats[state.current]
    pile, card = str(action.args[0]), str(action.args[1])
    if pile == "discard":
        take(seat.discard, card)
    else:
        if card in seat.deck_top:
            seat.deck_top.remove(card)
        else:
            take(seat.deck, card)
        shuffle_deck(seat)  # the player looked through the deck
    add(state.removed, card)
    return [CardRemoved(card, f"player {state.current + 1}'s {pile}"),
            *finish_ability(state, f"removed {card} from the {pile}")]


@step("improve-the-odds", "remove a card from the game: 'improve discard CARD' or 'improve deck CARD'",
      _improve_options, _improve_apply, offers=_improve_offers)
def _improve_nothing(table: Table, state: JackpotPayoutState) -> list[Event]:
    return finish_ability(state, "no card to remove")


# --- Consolation Prize ----------------------------------------------------------------------------


def consolation_prize(state: JackpotPayoutState, cards: Sequence[Card]) -> list[Event]:
    """No jackpot this turn: each Consolation Prize in play (``cards``) pays 2 coins."""
    return pay(state, state.current, CONSOLATION_COINS * count_ability(cards, "consolation-prize"))


# --- Filter 2 -------------------------------------------------------------------------------------


@ability("filter-2")
def filter_2(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Reveal the top two cards of your deck; then discard either, both or neither."""
    queue_reveals(state, [state.current, state.current], "Filter 2")
    state.step = "filter-2"
    return []


def _filter_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    if state.reveal_queue or not state.revealed:
        return []
    indices = range(len(state.revealed))
    actions = [Action.of("filter", "none")]
    for size in range(1, len(state.revealed) + 1):
        actions += [Action.of("filter", *chosen) for chosen in combinations(indices, size)]
    return actions


def _filter_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    seat = state.seats[state.current]
    chosen = set() if action.args == ("none",) else set(action.int_args())
    events: list[Event] = []
    kept = []
    for index, revealed in enumerate(state.revealed):
        if index in chosen:
            events += discard_card(state, state.current, revealed.card)
        else:
            kept.append(revealed.card)
    seat.deck_top[:0] = kept
    state.revealed = []
    return events + finish_ability(state, f"discarded {len(chosen)}, kept {len(kept)} on top")


@step("filter-2", "discard revealed cards: 'filter none', 'filter 0', 'filter 1' or 'filter 0 1'",
      _filter_options, _filter_apply)
def _filter_nothing(table: Table, state: JackpotPayoutState) -> list[Event]:
    return finish_ability(state, "no card to reveal")


# --- Guess Suit -------------------------------------------------------------------------------------


@ability("guess-suit")
def guess_suit(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Guess the top card's suit (never wild); right: score it, wrong: discard it."""
    seat = state.seats[state.current]
    state.step, state.stage = "guess-suit", "guess"
    if seat.deck_size + total(seat.discard) == 0:
        state.stage = "revealed"  # nothing to reveal: the guess cannot be checked
    return []


def _guess_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    if state.stage == "guess":
        return [Action.of("guess", symbol) for symbol in SYMBOLS]
    if state.revealed and not state.reveal_queue and table.card(state.revealed[0].card).is_wild:
        return [Action.of("score"), Action.of("discard")]
    return []


def _guess_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    if action.verb == "guess":
        state.named, state.stage = str(action.args[0]), "revealed"
        queue_reveals(state, [state.current], f"Guess Suit ({state.named})")
        return []
    card = state.revealed.pop(0).card
    if action.verb == "score":
        return [*score_card(table, state, state.current, card), *finish_ability(state, "scored a wild")]
    return [*discard_card(state, state.current, card), *finish_ability(state, "discarded a wild")]


def _guess_explain(table: Table, state: JackpotPayoutState, action: Action) -> str | None:
    if action.verb == "guess" and action.args == ("wild",):
        return "you cannot guess wild: name grapes, cherries, diamond, crown or shamrock"
    return None


@step("guess-suit", "guess the top card's suit: 'guess SYMBOL'", _guess_options, _guess_apply, _guess_explain)
def _guess_checked(table: Table, state: JackpotPayoutState) -> list[Event]:
    if not state.revealed:
        return finish_ability(state, "no card to reveal")
    card = state.revealed.pop(0).card
    # A split card showing the guessed suit counts: it can be used as either suit.
    if table.card(card).shows(state.named):
        return [*score_card(table, state, state.current, card), *finish_ability(state, "guessed right")]
    return [*discard_card(state, state.current, card), *finish_ability(state, "guessed wrong")]


# --- Second Chance ------------------------------------------------------------------------------------


@ability("second-chance")
def second_chance(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Reveal the top card: play it in place of a card in play, or discard it."""
    queue_reveals(state, [state.current], "Second Chance")
    state.step = "second-chance"
    return []


def _second_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    if state.reveal_queue or not state.revealed:
        return []
    play = state.seats[state.current].play
    return [Action.of("replace", slot) for slot in range(len(play))] + [Action.of("discard")]


def _second_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    card = state.revealed.pop(0).card
    if action.verb == "discard":
        return [*discard_card(state, state.current, card), *finish_ability(state, "discarded the card")]
    slot = action.int_args()[0]
    play = state.seats[state.current].play
    replaced, play[slot] = play[slot], card
    events = discard_card(state, state.current, replaced)
    # The replaced card's ability is lost if it had not resolved; the new card's resolves too.
    if slot in state.unresolved:
        state.unresolved.remove(slot)
    if is_active(table, card):
        state.unresolved.append(slot)
    return events + finish_ability(state, f"played it on reel {slot + 1}")


@step("second-chance", "play the revealed card ('replace SLOT') or 'discard' it",
      _second_options, _second_apply)
def _second_nothing(table: Table, state: JackpotPayoutState) -> list[Event]:
    return finish_ability(state, "no card to reveal")


# --- Shopping Spree ----------------------------------------------------------------------------------


def shopping_spree(cards: Sequence[Card]) -> bool:
    """With a Shopping Spree in play (``cards``) the player may take any number of cards from
    the display."""
    return count_ability(cards, "shopping-spree") > 0


# --- Stuck Reel --------------------------------------------------------------------------------------


def stuck_reel(table: Table, state: JackpotPayoutState) -> list[Event]:
    """No jackpot: for each Stuck Reel in play decide to keep it there or release it."""
    play, cards = state.seats[state.current].play, table.catalogue.cards
    state.stuck_left = [slot for slot, card in enumerate(play) if cards[card].ability == "stuck-reel"]
    state.stuck_kept = []
    state.step = "stuck"
    return []


def _stuck_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    return [Action.of("keep"), Action.of("release")] if state.stuck_left else []


def _stuck_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    slot = state.stuck_left.pop(0)
    if action.verb == "keep":
        state.stuck_kept.append(slot)
    return []


def _stuck_offers(table: Table, state: JackpotPayoutState) -> bool:
    return bool(state.stuck_left)  # _stuck_options is not empty


@step("stuck", "keep the Stuck Reel in play ('keep') or discard it ('release')", _stuck_options, _stuck_apply,
      offers=_stuck_offers)
def _stuck_decided(table: Table, state: JackpotPayoutState) -> list[Event]:
    state.step = "end-turn"
    return []
