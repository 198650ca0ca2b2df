"""Jackpot Payout setup, plus the helpers the other Jackpot Payout test files build positions with.

Positions are built the way a table plays them: the seven display cards are revealed one by one,
then the test says what a player's deck holds (decks are face down: their order is unknown, so
a deck is what it holds) and reveals the cards it wants with ``Action.reveal``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from companion.engine import Action, ConfigError, Event, GameConfig, Match

GAME = "jackpot-payout"
#: a display with regular cards, Special cards, a split card and a wild (Introductory set)
DISPLAY = [
    "int-grapes-2", "int-cherries-3", "int-consolation-prize-grapes", "int-diamond-1",
    "int-crown-4", "int-grapes-cherries-1", "int-wild-1",
]
EXPERT_DISPLAY = [
    "exp-grapes-2", "exp-cherries-3", "exp-flush-grapes", "exp-diamond-1",
    "exp-crown-4", "exp-wild-1", "exp-shamrock-1",
]


def start(players: int = 2, decks: Mapping[int, Mapping[str, int]] | None = None,
          display: list[str] | None = None, variants: tuple[str, ...] = (), **options: Any) -> Match:
    """A game at player 1's first reveal, with the display dealt and the given decks."""
    if display is None:
        display = EXPERT_DISPLAY if "expert" in variants else DISPLAY
    match = Match.new(GameConfig(GAME, players, variants, options=options))
    for card in display:
        match.apply(Action.reveal(card))
    for seat, deck in (decks or {}).items():
        match.state.seats[seat].deck = dict(deck)
    return match


def reveal(match: Match, *cards: str) -> list[Event]:
    """The table reveals ``cards`` in order (each answers the current chance point)."""
    events: list[Event] = []
    for card in cards:
        events += match.apply(Action.reveal(card))
    return events


def play(match: Match, *actions: str) -> list[Event]:
    """Apply decisions by their text form."""
    events: list[Event] = []
    for action in actions:
        events += match.apply(action)
    return events


def kinds(events: list[Event]) -> list[str]:
    """The event type names, in order."""
    return [type(event).__name__ for event in events]


def legal(match: Match) -> list[str]:
    """The legal actions' text forms."""
    return [str(action) for action in match.legal_actions()]


# --- setup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "bank"), [(1, 25), (2, 18), (3, 25), (4, 30)])
def test_bank_starts_by_player_count_and_the_rest_stays_in_the_box(players: int, bank: int) -> None:
    match = Match.new(GameConfig(GAME, players))
    assert match.state.bank == bank
    assert match.state.box == 66 - bank
    assert match.game.conserved(match.state)["coins"] == 66


def test_each_player_starts_with_the_same_eleven_card_deck() -> None:
    match = Match.new(GameConfig(GAME, 3))
    expected = {f"start-{s}": 2 for s in ("grapes", "cherries", "diamond", "crown", "shamrock")}
    expected["start-improve-the-odds"] = 1
    for seat in match.state.seats:
        assert seat.deck == expected
        assert seat.deck_size == 11


def test_the_display_is_seven_cards_revealed_from_the_chosen_set() -> None:
    match = Match.new(GameConfig(GAME, 2))
    for pile in range(7):
        point = match.chance_point
        assert point is not None and point.what == f"the new card for display pile {pile + 1}"
        assert point.total == 60 - pile
        assert all(card.startswith("int-") for card, _ in point.outcomes)
        match.apply(Action.reveal(DISPLAY[pile]))
    assert match.state.display == DISPLAY
    point = match.chance_point
    assert point is not None and point.what == "player 1's card for reel 1"


def test_expert_and_mixed_variants_choose_the_sets_shuffled_into_the_display() -> None:
    expert = Match.new(GameConfig(GAME, 2, ("expert",))).chance_point
    mixed = Match.new(GameConfig(GAME, 2, ("mixed",))).chance_point
    assert expert is not None and expert.total == 60
    assert all(card.startswith("exp-") for card, _ in expert.outcomes)
    assert mixed is not None and mixed.total == 120


def test_coinless_wilds_are_a_separate_supply_of_ten() -> None:
    match = start()
    assert match.state.wilds == 10
    assert "coinless-wild" not in match.state.supply


def test_a_broken_component_table_is_refused_with_a_clear_message() -> None:
    with pytest.raises(ConfigError, match="rules"):
        Match.new(GameConfig(GAME, 2, options={"components": {"cards": []}}))


def test_house_cards_are_refused_in_a_multiplayer_game() -> None:
    with pytest.raises(ConfigError, match="solo"):
        Match.new(GameConfig(GAME, 2, options={"house_cards": 3}))
