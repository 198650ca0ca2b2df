"""What the table sees and edits: secret boxes in the public view, the shake helper, the
component data file, transcript lines, and the heuristic bot's play."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from companion.engine import Action, ConfigError, EngineError, GameConfig, Match
from companion.engine.bots import HeuristicBot, RandomBot
from companion.engine.games.pay_line import PayLineGame
from companion.engine.simulate import play_game
from tests.test_pay_line_helpers import NO_JACKPOT, new_match, roll, take_turn

# --- secret boxes ---------------------------------------------------------------------------


def test_the_public_view_does_not_show_what_is_in_the_boxes() -> None:
    match = new_match()
    roll(match, "red", "red", "black")
    game, state = match.game, match.state
    other = game.decode_state(game.encode_state(state))
    other.boxes = {"black": 11, "yellow": 0, "red": 40}
    assert other != state
    assert game.public_view(other) == game.public_view(state)
    assert game.public_view(other, viewer=1) == game.public_view(state, viewer=1)
    view = game.public_view(state)
    assert view["boxes"] == [
        {"symbol": "black", "refill_to": 3},
        {"symbol": "yellow", "refill_to": 7},
        {"symbol": "red", "refill_to": 16},
    ]
    assert view["bags"] == [5, 5] and view["bank"] == 44 and view["dice"] == ["red", "red", "black"]


def test_the_boxes_are_opened_in_the_public_view_once_the_game_is_over() -> None:
    match = new_match(chips=80)
    take_turn(match, "red")
    assert match.is_over
    chips = {box["symbol"]: box["chips"] for box in match.game.public_view(match.state)["boxes"]}
    assert chips == {"black": 3, "yellow": 7, "red": 0}


def test_box_chips_tells_the_daemon_how_full_a_box_is_for_the_shake_rattle() -> None:
    match = new_match()
    roll(match, *NO_JACKPOT)
    match.apply("reroll 0")
    assert PayLineGame.box_chips(match.state, "black") == 4
    assert PayLineGame.box_chips(match.state, "red") == 16
    with pytest.raises(EngineError, match="no 'green' box"):
        PayLineGame.box_chips(match.state, "green")


# --- components -------------------------------------------------------------------------------


def test_the_die_faces_are_an_editable_assumed_default() -> None:
    match = new_match(die_faces={"black": 2, "red": 2})
    point = match.chance_point
    assert point is not None
    assert point.probabilities() == {"black": Fraction(1, 3), "yellow": Fraction(1, 3), "red": Fraction(1, 3)}


def test_a_colour_with_no_face_is_never_rolled() -> None:
    point = new_match(die_faces={"red": 0}).chance_point
    assert point is not None and point.weight("red") == 0 and point.total == 5


@pytest.mark.parametrize(
    ("components", "message"),
    [
        ({"chips": -1}, "'chips' must be a whole number"),
        ({"chips": "many"}, "'chips' must be a whole number"),
        ({"boxes": {"green": 3}}, "exactly the colours"),
        ({"die_faces": {"black": 0, "yellow": 0, "red": 0}}, "at least one face"),
        ({"removed_chips": {"two": 40}}, "keyed by number of players"),
        ({"chips": 60}, "too few for 2 players"),
        ({"dice": 4}, "no component 'dice'"),
        ({"boxes": 3}, "'boxes' must be a table"),
    ],
)
def test_a_broken_component_table_is_a_clear_config_error(components: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Match.new(GameConfig("pay-line", players=2, options={"components": components}))


def test_the_toml_says_which_counts_are_assumed() -> None:
    from importlib import resources

    text = resources.files("companion.engine.games").joinpath("pay_line.toml").read_text()
    assert "ASSUMED DEFAULT" in text


# --- transcript ---------------------------------------------------------------------------------


def test_describe_reads_like_the_table() -> None:
    match = new_match()
    game = match.game
    assert game.describe(match.state, Action.reveal("red")) == "die 1 shows red"
    roll(match, "black", "yellow", "red")
    assert game.describe(match.state, Action.of("reroll", 0, 2)) == (
        "player 1 re-rolls die 1 (black) and die 3 (red): 2 chips"
    )
    match.apply("reroll 1 2")
    roll(match, "black", "black")
    assert game.describe(match.state, Action.of("take")) == "player 1 takes the black box (3 chips)"
    assert game.describe(match.state, Action.of("double")) == "player 1 goes double or nothing on three black"
    match.apply("double")
    roll(match, *NO_JACKPOT)
    assert game.describe(match.state, Action.of("walk")) == (
        "player 1 walks away, losing double or nothing on black"
    )


# --- the heuristic bot ------------------------------------------------------------------------------


def bot_choice(match: Match) -> Action:
    return match.game.heuristic_action(match.state, random.Random(0))


def test_bot_takes_a_jackpot() -> None:
    match = new_match()
    roll(match, "red", "red", "red")
    assert bot_choice(match) == Action.of("take")


def test_bot_re_rolls_the_odd_die_when_a_pair_shows() -> None:
    match = new_match()
    roll(match, "yellow", "red", "yellow")
    assert bot_choice(match) == Action.of("reroll", 1)


def test_bot_with_three_colours_keeps_the_one_worth_most_and_re_rolls_the_others() -> None:
    match = new_match()
    roll(match, "black", "yellow", "red")
    # red: 16 - 2 x 6 = 4 beats black 3 - 2 x 2 and yellow 7 - 2 x 3
    assert bot_choice(match) == Action.of("reroll", 0, 1)


def test_bot_walks_away_when_broke() -> None:
    match = new_match()
    roll(match, *NO_JACKPOT)
    match.apply("reroll 0 1 2")
    roll(match, *NO_JACKPOT)
    match.apply("reroll 0 1")
    roll(match, "black", "yellow")
    assert bot_choice(match) == Action.of("walk")


def test_bot_goes_double_or_nothing_on_a_large_box() -> None:
    match = new_match(chips=127, boxes={"black": 10})
    roll(match, "black", "black", "black")
    assert bot_choice(match) == Action.of("double")
    match.apply("double")
    roll(match, "black", "yellow", "black")
    assert bot_choice(match) == Action.of("reroll", 1), "it plays for the doubled colour"
    match.apply("reroll 1")
    roll(match, "black")
    assert bot_choice(match) == Action.of("take")


def test_bot_takes_a_small_box_rather_than_doubling() -> None:
    match = new_match()
    roll(match, "black", "black", "black")
    assert bot_choice(match) == Action.of("take")


def test_bot_declines_a_jackpot_that_would_end_the_game_while_it_is_behind() -> None:
    match = new_match(chips=83)  # bank 7: one yellow refill
    take_turn(match, "yellow")  # seat 0: 12 chips, bank 0
    roll(match, "black", "black", "black")
    # taking gives seat 1 eight chips and ends the game (no refill): it would lose
    assert bot_choice(match) == Action.of("walk")


def test_bot_takes_a_jackpot_that_ends_the_game_when_it_wins() -> None:
    match = new_match(chips=83)
    take_turn(match, "black")  # seat 0: 8 chips, bank 4
    roll(match, "yellow", "yellow", "yellow")
    assert bot_choice(match) == Action.of("take")


def test_the_heuristic_bot_beats_the_random_bot() -> None:
    wins = 0.0
    games = 30
    for seed in range(games):
        bots = [HeuristicBot(), RandomBot()] if seed % 2 == 0 else [RandomBot(), HeuristicBot()]
        heuristic_seat = seed % 2
        played = play_game(GameConfig("pay-line", players=2, seed=seed), list(bots))
        if heuristic_seat in played.result.winners:
            wins += 1 / len(played.result.winners)
    assert wins > games * 0.7


def test_the_modules_docstring_examples_hold() -> None:
    import doctest

    from companion.engine.games.pay_line import state

    outcome = doctest.testmod(state)
    assert outcome.attempted > 0 and outcome.failed == 0
