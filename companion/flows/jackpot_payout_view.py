"""Words and view models for Jackpot Payout's flow: card symbols, option labels, the panel.

Kept apart from :mod:`companion.flows.jackpot_payout` (the state machine) so each stays small.
Everything here reads the engine's state and returns new values; nothing is mutated.

>>> seat_words("the top card of player 2's deck", ["Ann", "Ben"])
"the top card of Ben's deck"
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from companion.engine import Action
from companion.engine.games.jackpot_payout.cards import SYMBOLS, WILD
from companion.engine.games.jackpot_payout.evaluation import pair_symbols
from companion.screen.views import CardView, PayoutPanel

REELS = 3
REEL_ZONES = tuple(f"reel{i}" for i in range(REELS))
#: Table words for the decision steps (the engine's hints are in action text form).
STEP_TITLES = {
    "order": "Resolve first",
    "improve-the-odds": "Improve the Odds",
    "filter-2": "Filter 2",
    "guess-suit": "Guess Suit",
    "second-chance": "Second Chance",
    "stuck": "Stuck Reel",
    "coin-sync": "Coin Sync",
    "flush": "Flush",
    "generous": "Generous",
    "imp": "Imp",
    "jackpot-shuffle": "Jackpot Shuffle",
    "predict-matches": "Predict Matches",
    "thief": "Thief",
    "the-house": "The House",
}

_PLAYER = re.compile(r"\bplayer (\d)\b")


def seat_words(text: str, seats: Sequence[str]) -> str:
    """``text`` with the engine's ``player N`` replaced by the seat's name."""

    def name(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return seats[index] if 0 <= index < len(seats) else match.group(0)

    return _PLAYER.sub(name, text)


def symbol_of(game: Any, card_id: str) -> str:
    """The reel symbol of a card: ``grapes``, ``wild`` or a split card's ``grapes|crown``."""
    return "|".join(game.table.card(card_id).symbols)


def entry_order(game: Any, card_ids: Sequence[str]) -> list[str]:
    """Cards in the order the buttons step through them: by symbol (grapes first, wilds last),
    single symbols before split cards, then by coins, so HOLD2 can jump from symbol to symbol."""
    order = {symbol: index for index, symbol in enumerate(SYMBOLS + (WILD,))}

    def key(card_id: str) -> tuple[int, int, int, str]:
        card = game.table.card(card_id)
        return order.get(card.symbols[0], len(order)), len(card.symbols), card.coins, card_id

    return sorted(card_ids, key=key)


def first_symbol(game: Any, card_id: str) -> str:
    """The symbol a card is filed under while entering by hand."""
    return str(game.table.card(card_id).symbols[0])


def card_label(game: Any, card_id: str) -> str:
    """``Grapes (2 coins)`` for people."""
    card = game.catalogue.cards.get(card_id)
    return card.label() if card is not None else card_id


def option_label(game: Any, state: Any, action: Action, seats: Sequence[str]) -> str:
    """What choosing ``action`` does, in table words, without the player's name in front."""
    line = game.describe(state, action)
    line = _PLAYER.sub("", line, count=1).strip() if line.startswith("player ") else line
    title = STEP_TITLES.get(state.step)
    if title and line.endswith(f" ({title})"):
        line = line[: -len(title) - 3]  # the prompt's heading names the ability already
    return seat_words(line, seats)


def take_context(state: Any) -> str:
    """What the display allows now: how many cards, and whether a Special card may be taken."""
    if state.takes_left < 0:
        count = "any number of cards (Shopping Spree)"
    else:
        count = f"{state.takes_left} card{'s' if state.takes_left != 1 else ''}"
    special = "Special allowed" if state.special_ok else "no Special (no pair)"
    return f"take {count}, {special}"


def step_title(state: Any) -> str:
    """The heading of the decision the current player faces."""
    if state.step == "take":
        return take_context(state)
    step: str = state.step
    return STEP_TITLES.get(step, step.replace("-", " ").capitalize())


def end_words(state: Any, seats: Sequence[str]) -> str | None:
    """The end trigger and the Final Showdown order, for the panel."""
    if state.in_showdown:
        order = [seats[state.current], *(seats[s] for s in state.showdown)]
        return "Final Showdown: " + ", then ".join(order)
    reasons = {
        "coins": "12 coins reached",
        "cards": "a deck ran low",
        "bank": "the bank is empty",
        "house": "every House card is gone",
    }
    if state.end_trigger:
        return f"End: {reasons.get(state.end_trigger, state.end_trigger)}; Final Showdown after this turn"
    return None


def payout_panel(game: Any, state: Any, seats: Sequence[str], in_play: Sequence[str]) -> PayoutPanel:
    """Bank, box, tokens, the display piles (then the coinless wilds), pairs in play, the end."""
    display = []
    for card_id in state.display:
        if card_id is None:
            continue
        card = game.table.card(card_id)
        display.append(CardView(tuple(card.symbols), card.coins, card.name if card.ability else None))
    if state.wilds:
        display.append(CardView(("wild",), 0, f"Coinless x{state.wilds}"))
    pairs = tuple(pair_symbols(game.table.cards(list(in_play)))) if in_play else ()
    return PayoutPanel(bank=state.bank, box=state.box, substitutes=state.substitutes, display=tuple(display),
                       pairs=pairs, end_trigger=end_words(state, seats))
