"""Pay Line's double or nothing (rulebook seed 002 and docs/rulings.md "Pay Line")."""

from __future__ import annotations

import pytest

from companion.engine import Action, IllegalActionError
from companion.engine.events import CoinsPaid, GameEnded, JackpotHit
from companion.engine.games.pay_line import BankShort, BoxRefilled, DoubleOrNothing, ThreeOfAKind, WalkedAway
from tests.test_pay_line_helpers import NO_JACKPOT, new_match, roll, take_turn, walk_turn


def test_double_or_nothing_is_offered_only_right_after_hitting_a_jackpot() -> None:
    match = new_match()
    roll(match, *NO_JACKPOT)
    assert Action.of("double") not in match.legal_actions()
    with pytest.raises(IllegalActionError, match="three of a kind"):
        match.apply("double")
    match.apply("reroll 1 2")
    roll(match, "black", "black")
    assert Action.of("double") in match.legal_actions()


def test_going_double_discards_the_token_and_re_rolls_all_dice_free() -> None:
    match = new_match()
    roll(match, "yellow", "yellow", "yellow")
    events = match.apply("double")
    assert events == [DoubleOrNothing(0, "yellow")]
    assert match.state.tokens == [0, 1]
    assert match.state.bags == [5, 5], "the re-roll of all three dice is free"
    assert match.state.boxes["yellow"] == 7, "nobody looks in the box: its chips stay"
    assert match.chance_point is not None and match.chance_point.what == "die 1"
    assert match.game.conserved(match.state)["tokens"] == 2


def test_the_same_three_of_a_kind_pays_the_box_and_as_much_again_from_the_bank() -> None:
    match = new_match()
    roll(match, "yellow", "yellow", "yellow")
    match.apply("double")
    events = roll(match, "yellow", "yellow", "yellow")
    assert ThreeOfAKind(0, "yellow", pays=True) in events
    events = match.apply("take")
    assert JackpotHit(0, "yellow", 14) in events
    assert CoinsPaid(0, 7, "the yellow box") in events and CoinsPaid(0, 7, "the bank") in events
    assert BoxRefilled("yellow", 7) in events
    assert match.state.bags == [19, 5]
    assert match.state.bank == 44 - 7 - 7
    assert match.state.current == 1


def test_re_rolls_during_double_or_nothing_cost_chips_as_usual() -> None:
    match = new_match()
    roll(match, "red", "red", "red")
    match.apply("double")
    roll(match, "red", "black", "red")
    match.apply("reroll 1")
    assert match.state.bags[0] == 4 and match.state.boxes["black"] == 4
    roll(match, "red")
    match.apply("take")
    assert match.state.bags[0] == 4 + 32


def test_walking_away_from_double_or_nothing_pays_nothing_and_the_chips_stay_in_the_box() -> None:
    match = new_match()
    roll(match, "red", "red", "red")
    match.apply("double")
    roll(match, "red", "red", "black")
    match.apply("reroll 2")
    roll(match, "yellow")
    events = match.apply("walk")
    assert WalkedAway(0, "red") in events
    assert match.state.bags == [4, 5]
    assert match.state.boxes == {"black": 4, "yellow": 7, "red": 16}
    assert match.state.bank == 44, "no jackpot was taken: nothing to refill"
    assert match.state.doubling is None and match.state.current == 1


def test_another_three_of_a_kind_during_double_or_nothing_pays_nothing() -> None:
    # docs/rulings.md: only the same three of a kind pays; another result pays nothing. It is not a
    # jackpot: it cannot be taken, and the player re-rolls on (paying) or walks away.
    match = new_match()
    roll(match, "yellow", "yellow", "yellow")
    match.apply("double")
    events = roll(match, "black", "black", "black")
    assert ThreeOfAKind(0, "black", pays=False) in events
    legal = match.legal_actions()
    assert Action.of("take") not in legal and Action.of("double") not in legal
    assert Action.of("reroll", 0, 1, 2) in legal and Action.of("walk") in legal
    with pytest.raises(IllegalActionError, match="pays only three yellow"):
        match.apply("take")
    match.apply("reroll 0 1 2")
    assert match.state.boxes["black"] == 6
    roll(match, "yellow", "yellow", "yellow")
    match.apply("take")
    assert match.state.bags[0] == 5 - 3 + 14


def test_a_double_cannot_be_doubled_again() -> None:
    match = new_match()
    roll(match, "black", "black", "black")
    match.apply("double")
    roll(match, "black", "black", "black")
    assert Action.of("double") not in match.legal_actions()
    with pytest.raises(IllegalActionError, match="already"):
        match.apply("double")


def test_double_or_nothing_is_once_per_player_per_game() -> None:
    match = new_match()
    roll(match, "black", "black", "black")
    match.apply("double")
    roll(match, *NO_JACKPOT)
    match.apply("walk")
    walk_turn(match)
    roll(match, "black", "black", "black")
    assert Action.of("double") not in match.legal_actions()
    with pytest.raises(IllegalActionError, match="once per game"):
        match.apply("double")
    match.apply("walk")
    roll(match, "black", "black", "black")
    assert Action.of("double") in match.legal_actions(), "the other player still holds a token"


def test_a_short_bank_pays_the_rest_from_the_other_boxes_fullest_first_and_ends_the_game() -> None:
    match = new_match(chips=86)  # bank 86 - 40 - 10 - 26 = 10
    roll(match, "red", "red", "red")
    match.apply("double")
    roll(match, "red", "red", "red")
    events = match.apply("take")
    assert JackpotHit(0, "red", 32) in events
    assert CoinsPaid(0, 10, "the bank") in events
    assert CoinsPaid(0, 6, "the yellow box") in events, "yellow (7) is fuller than black (3)"
    assert BankShort("red", 16, 10) in events
    assert isinstance(events[-1], GameEnded) and match.is_over
    assert match.state.boxes == {"black": 3, "yellow": 1, "red": 0}
    assert match.state.bank == 0
    assert match.game.conserved(match.state)["chips"] == 86


def test_the_fullest_other_box_pays_first_whatever_its_colour() -> None:
    match = new_match(chips=92, boxes={"black": 9})  # bank 92 - 40 - 10 - 32 = 10
    roll(match, "red", "red", "red")
    match.apply("double")
    roll(match, "red", "red", "red")
    events = match.apply("take")
    assert CoinsPaid(0, 6, "the black box") in events
    assert match.state.boxes == {"black": 3, "yellow": 7, "red": 0}


def test_when_every_box_together_is_short_the_player_gets_what_there_is() -> None:
    match = new_match(chips=78)  # bank 2
    roll(match, "red", "red", "red")
    match.apply("double")
    roll(match, "red", "red", "red")
    match.apply("take")
    assert match.state.bags[0] == 5 + 16 + 2 + 7 + 3
    assert match.state.boxes == {"black": 0, "yellow": 0, "red": 0} and match.state.bank == 0
    assert match.is_over


def test_a_double_the_bank_covers_exactly_still_ends_the_game_when_the_box_cannot_be_refilled() -> None:
    match = new_match(chips=83)  # bank 7
    roll(match, "yellow", "yellow", "yellow")
    match.apply("double")
    roll(match, "yellow", "yellow", "yellow")
    events = match.apply("take")
    assert match.state.bags[0] == 19
    assert BankShort("yellow", 7, 0) in events and match.is_over


def test_a_double_from_a_short_bank_ends_the_game_even_when_it_makes_a_tie() -> None:
    match = new_match(chips=79)  # bank 3
    take_turn(match, "black")  # seat 0: 8 chips, bank 0
    roll(match, "black", "black", "black")
    match.apply("double")
    roll(match, "black", "black", "black")
    events = match.apply("take")
    # 3 from the box, 0 from the bank, 3 from yellow (fullest): 5 + 6 = 11
    assert match.state.bags == [8, 11]
    assert GameEnded(scores=(8, 11), winners=(1,)) in events
