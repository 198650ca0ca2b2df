"""Jackpot Payout solo play against The House (rulebook "Solo play", docs/rulings.md)."""

from __future__ import annotations

import pytest

from companion.engine import ConfigError, GameConfig, GameEnded, Match
from companion.engine.games.jackpot_payout.state import EndTriggered, HouseCoinsPaid, ShowdownStarted
from tests.test_jackpot_payout_setup import legal, play, reveal, start

PLAIN = {"start-grapes": 2, "start-cherries": 2, "start-diamond": 2, "start-crown": 2, "start-shamrock": 2}


def test_solo_setup_bank_25_without_improve_the_odds_and_with_house_cards() -> None:
    match = Match.new(GameConfig("jackpot-payout", 1))
    seat = match.state.seats[0]
    assert match.state.bank == 25
    assert "start-improve-the-odds" not in seat.deck
    # by default the two gentlest House cards (the player may choose 2-5)
    assert {c: n for c, n in seat.deck.items() if c.startswith("house-")} == {
        "house-shamrock": 1, "house-cherries": 1}


@pytest.mark.parametrize("chosen", [2, 5, ["house-crown", "house-diamond"]])
def test_the_player_chooses_two_to_five_house_cards(chosen: int | list[str]) -> None:
    match = Match.new(GameConfig("jackpot-payout", 1, options={"house_cards": chosen}))
    house = {c: n for c, n in match.state.seats[0].deck.items() if c.startswith("house-")}
    assert sum(house.values()) == (chosen if isinstance(chosen, int) else len(chosen))
    if isinstance(chosen, list):
        assert set(house) == set(chosen)


@pytest.mark.parametrize("chosen", [1, 6, "three", ["house-crown"], ["house-crown", "house-moon"], True])
def test_an_impossible_house_card_choice_is_refused(chosen: object) -> None:
    with pytest.raises(ConfigError, match="house_cards"):
        Match.new(GameConfig("jackpot-payout", 1, options={"house_cards": chosen}))


def test_solo_plays_only_cards_marked_for_solo() -> None:
    match = Match.new(GameConfig("jackpot-payout", 1, ("expert",)))
    point = match.chance_point
    assert point is not None and point.total == 58
    assert not any("thief" in card for card, _ in point.outcomes)


def test_a_house_card_gives_the_house_coins_and_lets_the_player_remove_display_cards() -> None:
    match = start(players=1, decks={0: {**PLAIN, "house-diamond": 1}})
    events = reveal(match, "house-diamond", "start-crown", "start-grapes")
    assert HouseCoinsPaid(3) in events
    assert match.state.house == 3 and match.state.bank == 22
    assert legal(match) == [*(f"remove {i}" for i in range(7)), "done"]
    play(match, "remove 0", "remove 4", "done")
    assert match.state.removed == {"int-grapes-2": 1, "int-crown-4": 1}
    point = match.chance_point
    assert point is not None and point.what == "the new card for display pile 1"


def test_a_house_card_removes_at_most_n_display_cards() -> None:
    match = start(players=1, decks={0: {**PLAIN, "house-shamrock": 1}})
    reveal(match, "house-shamrock", "start-crown", "start-grapes")
    play(match, "remove 3")
    assert match.state.step != "the-house"


def test_an_empty_bank_ends_the_solo_game_after_the_turn_and_more_coins_than_the_house_wins() -> None:
    match = start(players=1, decks={0: {"int-grapes-3": 1, "start-grapes": 2, "start-crown": 3}})
    match.state.bank, match.state.box = 4, 66 - 4 - 2
    match.state.house = 2
    events = reveal(match, "int-grapes-3", "start-grapes", "start-grapes")
    assert EndTriggered(0, "bank") in events
    assert match.is_over and GameEnded((5,), (0,)) in events


def test_eliminating_every_house_card_ends_the_game_and_the_player_takes_the_bank() -> None:
    match = start(players=1, decks={0: {"house-grapes": 1, "start-grapes": 2, "start-crown": 3}})
    match.state.house_cards = {"house-grapes": 1, "house-shamrock": 1}
    match.state.removed = {"house-shamrock": 1}
    reveal(match, "house-grapes", "start-grapes", "start-grapes")
    events = play(match, "done")  # no display card removed; then the jackpot
    assert EndTriggered(0, "house") in events
    assert match.is_over
    assert match.state.bank == 0 and match.state.seats[0].coins == 25 - 2
    assert match.game.result(match.state).winners == (0,)


def test_behind_the_house_the_player_gets_one_final_showdown_to_overtake_it() -> None:
    match = start(players=1, decks={0: {"int-grapes-3": 1, "start-grapes": 4, "start-crown": 3,
                                        "start-diamond": 1}})
    match.state.bank, match.state.house = 5, 8
    match.state.box = 66 - 5 - 8
    events = reveal(match, "int-grapes-3", "start-grapes", "start-grapes")  # 5 coins: bank empty
    assert ShowdownStarted((0,)) in events and not match.is_over
    reveal(match, "start-crown", "start-crown", "start-crown")  # showdown jackpot: 8, still not more
    assert not match.is_over
    events = reveal(match, "start-grapes", "start-grapes", "start-diamond")
    assert match.is_over
    assert GameEnded((8,), ()) in events  # equal coins: The House keeps the win
    assert "does not beat The House" in match.game.result(match.state).details


def test_a_showdown_jackpot_that_overtakes_the_house_wins() -> None:
    match = start(players=1, decks={0: {"int-grapes-3": 1, "start-grapes": 4, "start-crown": 3,
                                        "int-crown-4": 1}})
    match.state.bank, match.state.house = 5, 8
    match.state.box = 66 - 5 - 8
    reveal(match, "int-grapes-3", "start-grapes", "start-grapes")
    reveal(match, "start-crown", "start-crown", "int-crown-4")  # 6 more from the box: 11
    reveal(match, "start-grapes", "start-grapes", "start-crown")
    assert match.is_over and match.game.result(match.state).winners == (0,)
    assert match.state.box == 66 - 5 - 8 - 6
