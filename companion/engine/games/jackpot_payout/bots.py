"""The heuristic Jackpot Payout player: a fair opponent to watch, solo or at a full table.

It builds towards one symbol (the one its cards show most), values a card by its coins, by
being wild, by matching that symbol and by its ability, and then plays each decision greedily:
Second Chance completes a jackpot when it can, Guess Suit names the likeliest suit, Filter 2 and
Imp keep good cards on top, Thief and Generous favour itself, the display gives it cards worth
having (a deck that only grows gets no jackpots). The House's own moves are automatic; the
House card's display removals are the player's and it removes cards it would not want.
"""

from __future__ import annotations

import random

from companion.engine.actions import Action
from companion.engine.games.jackpot_payout.cards import SYMBOLS, Card
from companion.engine.games.jackpot_payout.core import Table
from companion.engine.games.jackpot_payout.evaluation import jackpot_coins, jackpot_symbol, pair_symbols
from companion.engine.games.jackpot_payout.state import JackpotPayoutState, Seat

#: what an ability is worth to the bot, in coins
ABILITY_VALUE = {
    "second-chance": 2.0, "jackpot-payout": 2.0, "consolation-prize": 1.5, "predict-matches": 1.0,
    "guess-suit": 1.0, "coin-sync": 1.0, "filter-2": 1.0, "shopping-spree": 1.0, "stuck-reel": 0.5,
    "thief": 1.0, "imp": 0.5, "generous": 0.5, "jackpot-shuffle": 0.5, "diversity-dividends": 0.5,
    "flush": 0.3, "improve-the-odds": 1.0, "the-house": -10.0,
}
#: the order the bot resolves abilities in (changes to the cards in play first)
RESOLVE_ORDER = (
    "improve-the-odds", "filter-2", "second-chance", "guess-suit", "predict-matches", "coin-sync", "imp",
    "thief", "flush", "generous", "the-house", "diversity-dividends",
)
#: a card must be worth this much to be taken from the display
TAKE_AT_LEAST = 2.0


def owned(seat: Seat) -> list[str]:
    """Every card the seat owns (deck, discard pile, play area)."""
    cards = [*seat.deck_top, *seat.play]
    cards += [c for pile in (seat.deck, seat.discard) for c, n in pile.items() for _ in range(n)]
    return cards


def main_symbol(table: Table, seat: Seat) -> str:
    """The symbol the seat's cards show most (the one it builds towards)."""
    cards = [table.card(c) for c in owned(seat)]
    counts = {s: sum(1 for card in cards if not card.is_wild and s in card.symbols) for s in SYMBOLS}
    return max(SYMBOLS, key=lambda s: counts[s])


def worth(card: Card, symbol: str) -> float:
    """What ``card`` is worth to a player building towards ``symbol`` (off-symbol cards dilute)."""
    value = float(card.coins)
    if card.is_wild:
        value += 2.5
    elif symbol in card.symbols:
        value += 1.5
    elif symbol:
        value -= 1.0
    if card.ability:
        value += ABILITY_VALUE.get(card.ability, 0.0)
    return value


def heuristic_decision(table: Table, state: JackpotPayoutState, options: list[Action],
                       rng: random.Random) -> Action:
    """A sensible decision among ``options`` (the current player's legal decisions)."""
    seat = state.seats[state.current]
    symbol = main_symbol(table, seat)
    choose = _CHOOSERS.get(state.step)
    if choose is not None:
        action = choose(table, state, options, symbol)
        if action in options:
            return action
    return options[0]


def _by_verb(options: list[Action], verb: str) -> list[Action]:
    return [a for a in options if a.verb == verb]


def _resolve(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    play = state.seats[state.current].play

    def rank(action: Action) -> int:
        ability = table.card(play[int(action.args[0])]).ability
        return RESOLVE_ORDER.index(ability) if ability in RESOLVE_ORDER else len(RESOLVE_ORDER)

    return min(options, key=rank)


def _improve(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    # Remove the least useful card; from the discard pile when equal (no shuffle needed).
    return min(options, key=lambda a: (worth(table.card(str(a.args[1])), symbol), a.args[0] != "discard"))


def _filter(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    bad = [i for i, r in enumerate(state.revealed) if worth(table.card(r.card), symbol) < 2.0]
    return Action.of("filter", *bad) if bad else Action.of("filter", "none")


def _deck_cards(state: JackpotPayoutState, seat: Seat) -> list[str]:
    if seat.deck_top:
        return [seat.deck_top[0]]  # the top card is known
    pile = seat.deck or seat.discard  # an empty deck is about to be the shuffled discard pile
    return [c for c, n in pile.items() for _ in range(n)]


def _guess(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    if state.stage == "revealed":  # a wild was revealed: score it when it is worth coins
        return Action.of("score" if table.card(state.revealed[0].card).coins else "discard")
    cards = [table.card(c) for c in _deck_cards(state, state.seats[state.current])]
    best = max(SYMBOLS, key=lambda s: sum(1 for card in cards if not card.is_wild and s in card.symbols))
    return Action.of("guess", best)


def _second_chance(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    play = state.seats[state.current].play
    new = state.revealed[0].card
    if table.card(new).ability == "the-house":
        return Action.of("discard")  # played, it would pay The House
    best, best_score = Action.of("discard"), 0.0
    now_pairs = len(pair_symbols(table.cards(play)))
    for slot in range(len(play)):
        trial = [*play[:slot], new, *play[slot + 1:]]
        cards = table.cards(trial)
        if jackpot_symbol(cards) is not None:
            score = 100.0 + jackpot_coins(cards)
        else:
            score = float(len(pair_symbols(cards)) - now_pairs)
            old = table.card(play[slot])
            if old.ability == "the-house" and slot in state.unresolved:
                score += 5.0  # replaced before it resolves: The House gets nothing
        if score > best_score:
            best, best_score = Action.of("replace", slot), score
    return best


def _coin_sync(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    return Action.of("score" if table.card(state.revealed[0].card).coins >= 1 else "discard")


def _flush(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    def gain(suit: str) -> float:
        flushed = [table.card(c) for c in state.display if c is not None and table.card(c).shows(suit)]
        return sum(1.5 - worth(card, symbol) for card in flushed)

    return Action.of("flush", max(SYMBOLS, key=gain))


def _give_value(table: Table, state: JackpotPayoutState, action: Action, symbol: str) -> float:
    if action.args[0] == "wild":
        return worth(table.card(table.coinless_wild), symbol)
    card = state.display[int(action.args[0])]
    return worth(table.card(card), symbol) if card else 0.0


def _generous(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    to_me = state.seats_left[0] == state.current
    ranked = sorted(options, key=lambda a: _give_value(table, state, a, symbol))
    return ranked[-1] if to_me else ranked[0]


def _imp(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    revealed = state.revealed[0]
    if revealed.seat == state.current:
        good = worth(table.card(revealed.card), symbol) >= 2.0
    else:
        good = worth(table.card(revealed.card), "") < 1.5  # a poor card for them: let them draw it
    return Action.of("put-back" if good else "discard")


def _predict(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    return Action.of("predict", 2)


def _thief(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    best = max(state.revealed, key=lambda r: worth(table.card(r.card), symbol))
    if worth(table.card(best.card), symbol) >= TAKE_AT_LEAST + 0.5:
        return Action.of("steal", best.seat)
    return Action.of("pass")


def _shuffle(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    picks = [a for a in _by_verb(options, "shuffle-in") if worth(table.card(str(a.args[0])), symbol) >= 3.0]
    return picks[0] if picks else Action.of("done")


def _take(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    takes = _by_verb(options, "take")
    if not takes:
        return Action.of("done")
    best = max(takes, key=lambda a: _give_value(table, state, a, symbol))
    return best if _give_value(table, state, best, symbol) >= TAKE_AT_LEAST else Action.of("done")


def _stuck(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    seat = state.seats[state.current]
    stuck = table.card(seat.play[state.stuck_left[0]])
    cards = [table.card(c) for c in _deck_cards(state, seat)]
    matching = sum(1 for card in cards if any(card.shows(s) for s in stuck.symbols))
    return Action.of("keep" if cards and matching / len(cards) >= 0.4 else "release")


def _house(table: Table, state: JackpotPayoutState, options: list[Action], symbol: str) -> Action:
    removable = [a for a in _by_verb(options, "remove") if _give_value(table, state, a, symbol) < 1.5]
    return removable[0] if removable else Action.of("done")


_CHOOSERS = {
    "order": _resolve, "improve-the-odds": _improve, "filter-2": _filter, "guess-suit": _guess,
    "second-chance": _second_chance, "coin-sync": _coin_sync, "flush": _flush, "generous": _generous,
    "imp": _imp, "predict-matches": _predict, "thief": _thief, "jackpot-shuffle": _shuffle, "take": _take,
    "stuck": _stuck, "the-house": _house,
}
