"""Solo play against The House.

- Setup: the bank starts with 25 coins; Improve the Odds leaves the starting deck; 2-5 House
  cards join it (``config.options["house_cards"]``: a number, taking the gentlest first, or a
  list of House card ids; default 2). Only cards marked for solo play (1+) are in the display.
- A House card resolves like any ability: The House takes N coins from the bank (1 for the
  shamrock, 2 for cherries/grapes, 3 for diamond/crown: ``house_coins`` in the data file), then
  the player may remove up to N display cards from the game (``remove SLOT`` ... ``done``).
- The end is triggered only when the bank is empty or every House card has left the game
  (scored); the turn finishes first. In the second case the player takes what is left in the
  bank. More coins than The House wins; otherwise the player gets one Final Showdown (reveal
  three, resolve, score and repeat on every jackpot) to overtake it. Equal coins: The House wins.
  That end-of-turn check lives with the turn (``turn.solo_turn_ended``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.actions import Action
from companion.engine.errors import ConfigError
from companion.engine.events import Event
from companion.engine.games.jackpot_payout.cards import Catalogue
from companion.engine.games.jackpot_payout.core import Table, ability, finish_ability, step
from companion.engine.games.jackpot_payout.state import (
    CardRemoved,
    JackpotPayoutState,
    add,
    pay_house,
)

MIN_HOUSE_CARDS, MAX_HOUSE_CARDS = 2, 5


def house_cards(catalogue: Catalogue, options: Mapping[str, Any]) -> dict[str, int]:
    """The House cards shuffled into the solo deck, by card id; raises ConfigError."""
    faces = sorted(catalogue.of_kind("house"), key=lambda card: (card.house_coins, card.id))
    available = [card.id for card in faces for _ in range(card.count)]
    choice = options.get("house_cards", catalogue.house_cards_default)
    chosen: list[str]
    if isinstance(choice, int) and not isinstance(choice, bool):
        if not MIN_HOUSE_CARDS <= choice <= min(MAX_HOUSE_CARDS, len(available)):
            raise ConfigError(f"house_cards must be {MIN_HOUSE_CARDS}-{MAX_HOUSE_CARDS}, got {choice}")
        chosen = available[:choice]
    elif isinstance(choice, list):
        if not MIN_HOUSE_CARDS <= len(choice) <= MAX_HOUSE_CARDS:
            raise ConfigError(f"house_cards: {len(choice)} listed, use {MIN_HOUSE_CARDS}-{MAX_HOUSE_CARDS}")
        for card in choice:
            if card not in available:
                known = ", ".join(sorted(set(available)))
                raise ConfigError(f"house_cards: {card!r} is not a House card left to add ({known})")
            available.remove(card)
        chosen = list(choice)
    else:
        raise ConfigError("house_cards is a number (2-5) or a list of House card ids")
    counts: dict[str, int] = {}
    for card in chosen:
        add(counts, card)
    return counts


# --- the House card's ability ------------------------------------------------------------------------


@ability("the-house")
def the_house(table: Table, state: JackpotPayoutState) -> list[Event]:
    """The House takes N coins; the player may then remove up to N cards from the display."""
    card = table.card(state.seats[state.current].play[state.ability_slot])
    state.number = card.house_coins
    state.step = "the-house"
    return pay_house(state, card.house_coins)


def _remove_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    slots = [slot for slot, card in enumerate(state.display) if card is not None]
    if state.number <= 0 or not slots:
        return []
    return [Action.of("remove", slot) for slot in slots] + [Action.of("done")]


def _remove_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    if action.verb == "done":
        state.number = 0
        return []
    slot = action.int_args()[0]
    card = state.display[slot]
    assert card is not None
    state.display[slot] = None
    state.emptied.append(slot)
    add(state.removed, card)
    state.number -= 1
    return [CardRemoved(card, f"display pile {slot + 1} (The House)")]


@step("the-house", "remove a display card from the game ('remove SLOT') or 'done'",
      _remove_options, _remove_apply)
def _house_done(table: Table, state: JackpotPayoutState) -> list[Event]:
    return finish_ability(state, "The House was paid")
