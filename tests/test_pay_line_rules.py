"""Pay Line, rule by rule (rulebook seed 002 and docs/rulings.md "Pay Line"): setup, turns, re-rolls,
jackpots, refills, the end of the game and its tie-breaks."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.engine import Action, GameOverError, IllegalActionError, ImpossibleOutcomeError, UndoError
from companion.engine.events import CoinsPaid, GameEnded, JackpotHit, TurnEnded, TurnStarted
from companion.engine.games.pay_line import (
    BankShort,
    BoxRefilled,
    DiceRerolled,
    ThreeOfAKind,
    WalkedAway,
    jackpot_symbol,
)
from tests.test_pay_line_helpers import NO_JACKPOT, new_match, roll, take_turn, walk_turn

# --- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "removed", "bank"), [(2, 40, 44), (3, 20, 59), (4, 0, 74)])
def test_setup_removes_chips_by_player_count_and_the_rest_is_the_bank(
    players: int, removed: int, bank: int
) -> None:
    match = new_match(players)
    state = match.state
    assert state.removed == removed
    # 120 chips - removed - 5 per bag - 3 + 7 + 16 in the boxes
    assert state.bank == bank == 120 - removed - 5 * players - 26
    assert match.game.conserved(state)["chips"] == 120


def test_each_player_starts_with_five_chips_and_one_double_or_nothing_token() -> None:
    state = new_match(3).state
    assert state.bags == [5, 5, 5]
    assert state.tokens == [1, 1, 1]
    assert state.turns == [0, 0, 0]


def test_boxes_are_filled_from_the_bank_to_3_7_and_16() -> None:
    assert new_match().state.boxes == {"black": 3, "yellow": 7, "red": 16}


def test_each_die_has_three_black_two_yellow_and_one_red_face() -> None:
    point = new_match().chance_point
    assert point is not None and point.what == "die 1"
    assert point.probabilities() == {"black": Fraction(1, 2), "yellow": Fraction(1, 3), "red": Fraction(1, 6)}


# --- the turn ---------------------------------------------------------------------------------


def test_a_turn_starts_with_a_free_roll_of_all_three_dice() -> None:
    match = new_match()
    events = roll(match, *NO_JACKPOT)
    assert TurnStarted(0) in events
    assert match.state.dice == ["black", "yellow", "red"]
    assert match.state.bags == [5, 5]
    assert match.state.turns == [1, 0]
    assert match.game.current_player(match.state) == 0


def test_no_decision_is_accepted_while_a_die_is_rolling() -> None:
    match = new_match()
    roll(match, "red")
    before = match.game.encode_state(match.state)
    with pytest.raises(IllegalActionError, match="die 2"):
        match.apply("walk")
    assert match.game.encode_state(match.state) == before


def test_three_of_a_kind_is_a_jackpot() -> None:
    match = new_match()
    events = roll(match, "yellow", "yellow", "yellow")
    assert ThreeOfAKind(0, "yellow", pays=True) in events
    assert Action.of("take") in match.legal_actions()
    assert jackpot_symbol(["yellow", "yellow", "red"]) is None


def test_taking_a_jackpot_puts_the_whole_box_in_the_bag_and_ends_the_turn() -> None:
    match = new_match()
    roll(match, "red", "red", "red")
    events = match.apply("take")
    assert JackpotHit(0, "red", 16) in events
    assert CoinsPaid(0, 16, "the red box") in events
    assert TurnEnded(0) in events
    assert match.state.bags == [21, 5]
    assert match.state.current == 1 and match.chance_point is not None


def test_after_a_turn_that_took_a_jackpot_the_emptied_box_is_refilled_from_the_bank() -> None:
    match = new_match()
    events = take_turn(match, "red")
    assert BoxRefilled("red", 16) in events
    assert match.state.boxes["red"] == 16
    assert match.state.bank == 44 - 16


def test_a_jackpot_takes_every_chip_paid_into_the_box_and_the_refill_is_back_to_its_level() -> None:
    match = new_match()
    roll(match, "black", "black", "red")
    match.apply("reroll 2")  # one chip into the red box
    roll(match, "red")
    match.apply("reroll 2")  # and another
    roll(match, "black")
    assert match.state.boxes["red"] == 18
    assert match.state.boxes["black"] == 3
    match.apply("take")
    assert match.state.bags[0] == 5 - 2 + 3
    # the black box is back to 3 from the bank; the red box keeps its extra chips
    assert match.state.boxes == {"black": 3, "yellow": 7, "red": 18}
    assert match.state.bank == 44 - 3


def test_rerolling_pays_one_chip_per_die_into_the_box_of_its_current_colour() -> None:
    match = new_match()
    roll(match, *NO_JACKPOT)
    events = match.apply("reroll 0 1 2")
    assert events == [DiceRerolled(0, (0, 1, 2), ("black", "yellow", "red"))]
    assert match.state.boxes == {"black": 4, "yellow": 8, "red": 17}
    assert match.state.bags[0] == 2
    assert match.game.conserved(match.state)["chips"] == 120


def test_only_the_picked_dice_are_rolled_again_in_die_order() -> None:
    match = new_match()
    roll(match, *NO_JACKPOT)
    match.apply("reroll 0 2")
    assert match.chance_point is not None and match.chance_point.what == "die 1"
    roll(match, "yellow")
    assert match.chance_point is not None and match.chance_point.what == "die 3"
    roll(match, "yellow")
    assert match.state.dice == ["yellow", "yellow", "yellow"]
    assert match.state.turns == [1, 0], "a re-roll is the same turn"


def test_a_player_may_re_roll_any_number_of_times_while_the_bag_pays() -> None:
    match = new_match()
    roll(match, *NO_JACKPOT)
    for _ in range(5):
        match.apply("reroll 1")
        roll(match, "yellow")
    assert match.state.bags[0] == 0
    assert match.state.boxes["yellow"] == 7 + 5


def test_a_player_cannot_re_roll_more_dice_than_chips_in_the_bag() -> None:
    match = new_match()
    roll(match, *NO_JACKPOT)
    match.apply("reroll 0 1 2")
    roll(match, *NO_JACKPOT)
    match.apply("reroll 0")
    roll(match, "black")
    assert match.state.bags[0] == 1
    assert Action.of("reroll", 0, 1) not in match.legal_actions()
    before = match.game.encode_state(match.state)
    with pytest.raises(IllegalActionError, match="costs 2 chips and your bag holds 1"):
        match.apply("reroll 0 1")
    assert match.game.encode_state(match.state) == before


def test_a_broke_player_without_a_jackpot_can_only_walk_away() -> None:
    match = new_match()
    roll(match, *NO_JACKPOT)
    match.apply("reroll 0 1 2")
    roll(match, *NO_JACKPOT)
    match.apply("reroll 0 1")
    roll(match, "black", "yellow")
    assert match.state.bags[0] == 0
    assert match.legal_actions() == [Action.of("walk")]


def test_a_broke_player_still_gets_the_free_roll_and_may_take_a_jackpot() -> None:
    match = new_match()
    roll(match, *NO_JACKPOT)
    match.apply("reroll 0 1 2")
    roll(match, *NO_JACKPOT)
    match.apply("reroll 0 1")
    roll(match, "black", "yellow")
    match.apply("walk")
    walk_turn(match)
    take_turn(match, "yellow")
    assert match.state.bags == [0 + 7 + 2, 5], "the box holds its 7 and the 2 chips paid for yellow dice"


def test_a_jackpot_may_be_declined_by_re_rolling_and_the_chips_go_into_its_box() -> None:
    match = new_match()
    roll(match, "black", "black", "black")
    match.apply("reroll 0 1 2")
    assert match.state.boxes["black"] == 6
    roll(match, "red", "red", "red")
    match.apply("take")
    assert match.state.bags[0] == 5 - 3 + 16


def test_walking_away_ends_the_turn_and_pays_nothing() -> None:
    match = new_match()
    roll(match, "red", "red", "red")
    events = match.apply("walk")
    assert events[:2] == [WalkedAway(0, None), TurnEnded(0)]
    assert match.state.bags == [5, 5]
    assert match.state.boxes["red"] == 16 and match.state.bank == 44, "no jackpot taken: no refill"
    assert match.state.current == 1


def test_the_dice_pass_clockwise_around_the_table() -> None:
    match = new_match(4)
    seats = []
    for _ in range(5):
        walk_turn(match)
        seats.append(match.state.current)
    assert seats == [1, 2, 3, 0, 1]
    assert match.state.turns == [2, 1, 1, 1]


def test_take_needs_three_of_a_kind() -> None:
    match = new_match()
    roll(match, "red", "red", "black")
    with pytest.raises(IllegalActionError, match="three of a kind"):
        match.apply("take")


@pytest.mark.parametrize(
    "text", ["reroll", "reroll 1 0", "reroll 0 0", "reroll 3", "reroll -1", "reroll red", "reroll 0 1 2 0"]
)
def test_reroll_names_each_die_once_lowest_first(text: str) -> None:
    match = new_match()
    roll(match, *NO_JACKPOT)
    before = match.game.encode_state(match.state)
    with pytest.raises(IllegalActionError):
        match.apply(text)
    assert match.game.encode_state(match.state) == before


@pytest.mark.parametrize("text", ["take 1", "walk 0", "double red", "claim 0", "spin"])
def test_other_words_are_refused_with_a_message(text: str) -> None:
    match = new_match()
    roll(match, "red", "red", "red")
    before = match.game.encode_state(match.state)
    with pytest.raises(IllegalActionError) as error:
        match.apply(text)
    assert str(error.value)
    assert match.game.encode_state(match.state) == before


# --- the end ----------------------------------------------------------------------------------


def test_the_game_ends_at_once_when_the_bank_cannot_refill_the_emptied_box() -> None:
    match = new_match(chips=80)  # bank: 80 - 40 - 10 - 26 = 4
    assert match.state.bank == 4
    events = take_turn(match, "red")
    assert BankShort("red", 16, 4) in events
    assert isinstance(events[-1], GameEnded)
    assert match.is_over and match.legal_actions() == []
    assert match.state.boxes["red"] == 0 and match.state.bank == 4
    assert match.game.conserved(match.state)["chips"] == 80
    assert "could not refill the red box" in match.game.result(match.state).details
    with pytest.raises(GameOverError):
        match.apply("walk")


def test_a_refill_that_empties_the_bank_exactly_lets_the_game_go_on() -> None:
    match = new_match(chips=79)  # bank 3: exactly one black refill
    take_turn(match, "black")
    assert match.state.bank == 0 and not match.is_over
    events = take_turn(match, "black")
    assert BankShort("black", 3, 0) in events and match.is_over


def test_most_chips_in_the_bag_wins() -> None:
    match = new_match(chips=83)  # bank 7
    take_turn(match, "yellow")
    events = take_turn(match, "black")
    assert GameEnded(scores=(12, 8), winners=(0,)) in events


def test_a_tie_goes_to_the_player_who_took_fewer_turns() -> None:
    match = new_match(chips=79)  # bank 3
    walk_turn(match)
    take_turn(match, "black")  # seat 1: 8 chips, the bank refills black and is empty
    events = take_turn(match, "black")  # seat 0 on its second turn: 8 chips, no refill
    assert match.state.bags == [8, 8] and match.state.turns == [2, 1]
    assert GameEnded(scores=(8, 8), winners=(1,)) in events


def test_a_tie_on_chips_and_turns_is_shared() -> None:
    match = new_match(chips=79)
    take_turn(match, "black")
    events = take_turn(match, "black")
    assert match.state.turns == [1, 1]
    assert GameEnded(scores=(8, 8), winners=(0, 1)) in events


def test_each_players_turn_count_is_kept_in_the_state() -> None:
    match = new_match(3)
    walk_turn(match)
    walk_turn(match)
    roll(match, "black")
    assert match.state.turns == [1, 1, 1]


# --- the table's mistakes ------------------------------------------------------------------------


def test_a_re_roll_can_be_taken_back_until_its_dice_are_revealed() -> None:
    match = new_match()
    roll(match, *NO_JACKPOT)
    before = match.game.encode_state(match.state)
    match.apply("reroll 0 2")
    assert match.undo() == Action.of("reroll", 0, 2)
    assert match.game.encode_state(match.state) == before
    match.apply("reroll 0 2")
    roll(match, "red")
    with pytest.raises(UndoError):
        match.undo()


def test_a_colour_the_dice_do_not_have_is_a_misread() -> None:
    match = new_match(die_faces={"red": 0})
    with pytest.raises(ImpossibleOutcomeError, match="'red' cannot be die 1"):
        match.apply(Action.reveal("red"))
    with pytest.raises(ImpossibleOutcomeError):
        match.apply(Action.reveal("green"))
    assert match.log == []
