"""Thanks a Lottery as a registered game: components, views, transcript, bots, configuration."""

from __future__ import annotations

import random

import pytest

from companion.engine import (
    Action,
    ConfigError,
    GameConfig,
    HeuristicBot,
    Match,
    RandomBot,
    get_game,
    replay,
)
from companion.engine.simulate import play_game
from tests.test_thanks_a_lottery_rules import start, turn

GAME = "thanks-a-lottery"


def test_card_faces_are_the_seven_numbers_and_the_wild() -> None:
    faces = get_game(GAME).card_faces()
    assert [f.id for f in faces] == ["1", "2", "3", "4", "5", "6", "7", "wild"]
    assert sum(f.count for f in faces) == 52
    assert faces[-1].count == 3


def test_players_two_to_six_and_both_variants() -> None:
    cls = get_game(GAME)
    assert (cls.min_players, cls.max_players) == (2, 6)
    assert set(cls.variants) == {"lucky-card", "long-game"}
    with pytest.raises(ConfigError, match="2-6 players"):
        Match.new(GameConfig(GAME, 7))


def test_a_copy_with_other_components_is_played_from_the_override_table() -> None:
    match = Match.new(GameConfig(GAME, 2, options={"components": {"hand_size": 5, "dice": 10}}))
    assert match.state.to_deal == 10 and match.state.to_roll == 10


@pytest.mark.parametrize(
    ("components", "named"),
    [
        ({"hand_size": 0}, "'hand_size'"),
        ({"cards": {"1": 7}}, "'cards'"),
        ({"tokens": {"faces": ["1", "1"]}}, "tokens must be distinct"),
        ({"prizes": {"1": [1], "2": [1, 2, 3], "3": [3, 4, 5]}}, "round 1's prize card"),
        ({"hand_size": 30}, "cannot deal"),
        ({"prizes": "1 2 3"}, "components"),
    ],
)
def test_a_broken_component_table_is_refused_with_its_key(components: dict[str, object], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        Match.new(GameConfig(GAME, 2, options={"components": components}))


def test_components_must_be_a_table() -> None:
    with pytest.raises(ConfigError, match="a table"):
        Match.new(GameConfig(GAME, 2, options={"components": [1, 2]}))


def test_first_dealer_option_is_checked() -> None:
    assert Match.new(GameConfig(GAME, 3, options={"first_dealer": 0})).state.turn == 1
    with pytest.raises(ConfigError, match="first_dealer"):
        Match.new(GameConfig(GAME, 3, options={"first_dealer": 3}))


def test_the_public_view_hides_the_deck_and_other_players_hands() -> None:
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"])
    view = match.game.public_view(match.state, viewer=1)
    assert view["hands"] == [None, ["2", "3", "4", "5", "7", "7"]]
    assert view["hand_sizes"] == [6, 6]
    assert view["deck"] == {"cards": 40}
    assert match.game.public_view(match.state)["hands"] == [None, None]
    assert view["pool"] == match.state.pool  # dice are on the table for all to see


def test_the_transcript_reads_like_the_table() -> None:
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"])
    game = match.game
    assert game.describe(match.state, Action.reveal("4")) == "the card player 1 draws: 4"
    match.apply(Action.reveal("4"))
    assert game.describe(match.state, Action.parse("play 1 2 3 4")) == "player 1 plays the block 1 2 3 4 (b1)"
    match.apply("play 1 2 3 4")
    turn(match, "1", "play 3 4 5")
    match.apply(Action.reveal("7"))
    line = game.describe(match.state, Action.parse("add b2 6 7"))
    assert line == "player 1 adds 6 7 to b2 (player 2's block)"
    match.apply("add b2 6 7")
    line = game.describe(match.state, Action.parse("take 3"))
    assert line == "player 1 takes a die showing 3 from the pool"


def test_an_undo_goes_back_to_the_draw_and_no_further() -> None:
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"])
    match.apply(Action.reveal("4"))
    before = match.game.encode_state(match.state)
    match.apply("play 1 2 3 4")
    match.undo()
    assert match.game.encode_state(match.state) == before


def test_a_whole_game_replays_from_its_log() -> None:
    played = play_game(GameConfig(GAME, 5, ("lucky-card",), seed=8), [RandomBot()])
    again = replay(played.match.config, [str(a) for a in played.match.log])
    assert again.game.encode_state(again.state) == played.match.game.encode_state(played.match.state)


def test_the_heuristic_bot_adds_to_another_players_block_for_dice() -> None:
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"])
    turn(match, "4", "play 1 2 3 4")
    turn(match, "1", "play 3 4 5")
    match.apply(Action.reveal("7"))
    choice = match.game.heuristic_action(match.state, random.Random(0))
    assert str(choice) == "add b2 6 7"  # two cards out of hand and two dice beat any own play


def test_the_heuristic_bot_does_not_take_the_last_die_while_behind() -> None:
    # player 1 could only end the round (add a 7 to b2 for the one die) or pass
    match = start(["5 6 7 3 3 2", "1 2 3 4 5 6"], pool=[4], dice=1)
    turn(match, "5", "play 5 6 7")
    turn(match, "4", "play 1 2 3 4 5 6")
    match.apply(Action.reveal("7"))
    assert {str(a) for a in match.legal_actions()} == {"add b2 7", "pass"}
    choice = match.game.heuristic_action(match.state, random.Random(0))
    assert str(choice) == "pass"  # 3 in blocks and 5 in hand against 6 and 1: too far behind


def test_the_heuristic_bot_takes_the_last_die_when_ahead() -> None:
    match = start(["1 2 3 4 5 6", "1 3 5 7 7 2"], pool=[4], dice=1)
    turn(match, "7", "play 1 2 3 4 5 6 7")
    turn(match, "6", "play 5 6 7")
    match.apply(Action.reveal("4"))
    choice = match.game.heuristic_action(match.state, random.Random(0))
    assert str(choice) == "add b2 4"


def test_the_heuristic_bot_keeps_dice_that_a_reroll_cannot_improve() -> None:
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"], pool=[2, 6], dice=2)
    turn(match, "4", "play 1 2 3 4")
    turn(match, "1", "play 3 4 5")
    turn(match, "7", "add b2 6 7")
    assert str(match.game.heuristic_action(match.state, random.Random(0))) == "keep"


def test_the_heuristic_bot_rerolls_a_face_the_tin_has_no_token_for() -> None:
    tin = {"faces": ["1", "2", "3", "4", "5", "all", "none"]}  # a copy without the 6 token
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"], pool=[2, 6], dice=2, tokens=tin)
    turn(match, "4", "play 1 2 3 4")
    turn(match, "1", "play 3 4 5")
    turn(match, "7", "add b2 6 7")
    assert str(match.game.heuristic_action(match.state, random.Random(0))) == "reroll 6"


def test_the_heuristic_bot_beats_random_play() -> None:
    wins = 0
    for seed in range(12):
        played = play_game(GameConfig(GAME, 2, seed=seed), [HeuristicBot(), RandomBot()])
        wins += 0 in played.result.winners
    assert wins >= 9


def test_every_finalize_choice_is_listed_once_by_value() -> None:
    match = start(["1 2 3 5 1 6", "3 4 5 7 7 2"], pool=[2, 2, 6], dice=3)
    turn(match, "4", "play 1 2 3 4")
    turn(match, "1", "play 3 4 5")
    turn(match, "7", "add b2 6 7 1")  # three cards, three dice: all of them, and the round ends
    legal = [str(a) for a in match.legal_actions()]
    assert legal == ["keep", "reroll 2", "reroll 6", "reroll 2 2", "reroll 2 6", "reroll 2 2 6"]


def test_chance_points_weigh_what_is_left() -> None:
    match = start(["1 1 1 1 1 1", "1 2 2 2 2 2"])
    point = match.chance_point
    assert point.weight("1") == 0 and point.weight("2") == 2 and point.weight("wild") == 3
    assert point.total == 40


def test_a_golden_game_plays_out_the_same_way() -> None:
    """A seeded heuristic game, recorded once: any change to the rules, the chance points or the
    bot that changes play shows up here (re-record only for an intended change)."""
    import hashlib

    played = play_game(GameConfig(GAME, 4, ("lucky-card",), seed=2026), [HeuristicBot()])
    log = " | ".join(str(a) for a in played.match.log)
    assert played.match.state.round_scores == [[15, 16, 8, 9], [15, 2, 16, 10], [12, 18, 14, 12]]
    assert played.result.scores == (42, 36, 38, 31) and played.result.winners == (0,)
    assert len(played.match.log) == 248
    assert hashlib.sha256(log.encode()).hexdigest()[:16] == "335e1076251e4b23"
