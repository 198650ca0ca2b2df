"""``companion adjudicate thanks-a-lottery``: a block's validity, or a round's score."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from companion.engine import InvalidSituationError, get_game

GAME = get_game("thanks-a-lottery")


def rule(situation: Any) -> dict[str, Any]:
    return GAME.adjudicate(situation)


def scoring(**changes: Any) -> dict[str, Any]:
    situation = {"round": 1, "tokens": ["3", "all", "none"], "dice": [3, 5], "block_cards": 4, "hand": 1}
    situation.update(changes)
    return situation


# --- blocks ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ([6, 7, 1], "sequential"),
        ([6, 7, "wild"], "sequential"),
        (["5", "4", "3"], "sequential"),
        (["wild", 4, 4], "identical"),
        ([2, 2, 2, 2, 2, 2, 2, "wild"], "identical"),
    ],
)
def test_a_block_on_the_table_is_valid(cards: list[Any], kind: str) -> None:
    assert rule({"block": cards}) == {"valid": True, "kind": kind, "reason": None}


@pytest.mark.parametrize(
    ("cards", "why"),
    [
        ([1, 2], "at least 3 cards"),
        ([1, "wild", "wild"], "only one wild"),
        ([3, 5, 6], "run in sequence"),
        ([1, 2, 3, 4, 5, 6, 7, 1], "same number twice"),
    ],
)
def test_an_invalid_block_says_why(cards: list[Any], why: str) -> None:
    ruling = rule({"block": cards})
    assert ruling["valid"] is False and ruling["kind"] is None and why in ruling["reason"]


@pytest.mark.parametrize(
    ("situation", "named"),
    [
        ({"block": "1 2 3"}, "list of cards"),
        ({"block": [1, 2, 8]}, "unknown card 8"),
        ({"block": [1, 2, "joker"]}, "unknown card 'joker'"),
        ({"block": [True, 2, 3]}, "unknown card True"),
        ({"block": [4] * 8}, "8 '4' cards"),
        ({"block": ["wild"] * 4}, "4 'wild' cards"),
        ({}, '"block"'),
        ([1, 2, 3], "one JSON object"),
        ({"block": ["²", 2, 3]}, "unknown card '²'"),
        ({"block": [1, 2, 3], "hand": 2}, "does not know the key 'hand'"),
    ],
)
def test_a_bad_block_situation_is_refused_naming_the_bad_value(situation: Any, named: str) -> None:
    with pytest.raises(InvalidSituationError, match=named):
        rule(situation)


# --- round scores -------------------------------------------------------------------------------


def test_the_lottery_pays_the_space_of_each_matching_token() -> None:
    # round 1 spaces 1, 2, 3: the 3 on the 1-point space (one die), all on the 2-point space
    # (both dice), none on the 3-point space
    assert rule(scoring()) == {"lottery_points": 1 + 4, "round_score": 4 + 2 + 5 - 1}


def test_a_die_can_score_twice_with_all() -> None:
    ruling = rule(scoring(round=3, tokens=["5", "all", "1"], dice=[5, 5, 1]))
    # round 3 spaces 3, 4, 5: two 5s x 3, all three dice x 4, one 1 x 5
    assert ruling["lottery_points"] == 6 + 12 + 5


def test_numbers_may_be_written_as_text() -> None:
    assert rule(scoring(tokens=[3, "all", "none"], dice=["3", "5"])) == rule(scoring())


def test_a_round_score_never_goes_below_zero() -> None:
    assert rule(scoring(dice=[], block_cards=0, hand=9))["round_score"] == 0


def test_lucky_cards_add_the_rounds_bonus_for_the_middle_token() -> None:
    ruling = rule(scoring(round=2, tokens=["1", "4", "none"], dice=[], block_cards=6, hand=0, lucky_cards=3))
    assert ruling == {"lottery_points": 0, "lucky_bonus": 3 * 2, "round_score": 6 + 6}
    ruling = rule(scoring(tokens=["1", "all", "none"], dice=[], lucky_cards=0))
    assert ruling["lucky_bonus"] == 0  # no number in the middle: no lucky card
    ruling = rule(scoring(round=2, tokens=["1", "4", "none"], dice=[], block_cards=6, hand=0, lucky_cards=3,
                          variants=["lucky-card"]))
    assert ruling["lucky_bonus"] == 6


def test_a_misspelt_lucky_cards_is_refused_not_scored_as_absent() -> None:
    with pytest.raises(InvalidSituationError, match="does not know the key 'lucky_card'"):
        rule(scoring(round=2, tokens=["1", "4", "none"], dice=[], block_cards=6, hand=0, lucky_card=3))


def test_the_adjudicator_knows_the_games_variants() -> None:
    from companion.engine.games.thanks_a_lottery.adjudication import VARIANTS
    assert set(VARIANTS) == set(get_game("thanks-a-lottery").variants)


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"round": 4}, '"round" must be a whole number 1-3'),
        ({"round": "one"}, '"round"'),
        ({"round": "²"}, "not '²'"),
        ({"round": 10 ** 5000}, '"round" must be a whole number 1-3, not <a number too long to quote>'),
        ({"tokens": ["1", "2"]}, '"tokens"'),
        ({"tokens": ["1", "2", "7"]}, "unknown token '7'"),
        ({"tokens": ["1", "1", "2"]}, "one twice"),
        ({"dice": [1, 7]}, "not 7"),
        ({"dice": [1, "six"]}, "not 'six'"),
        ({"dice": "1 2"}, '"dice"'),
        ({"dice": [1] * 16}, "at most 15"),
        ({"block_cards": -1}, '"block_cards"'),
        ({"hand": None}, '"hand"'),
        ({"block_cards": 40, "hand": 13}, "more than the 52"),
        ({"lucky_cards": 5}, '"lucky_cards"'),
        ({"dice": ["²"]}, "a die must be a whole number 1-6, not '²'"),
        ({"block_cards": 2}, "a block has at least 3 cards"),
        ({"block_cards": 30, "tokens": ["1", "4", "none"], "lucky_cards": 20},
         "only 7 cards show the lucky number 4"),
        ({"tokens": ["1", "all", "none"], "lucky_cards": 1}, "the middle token is 'all'"),
        ({"lucky_cards": 1, "variants": ["long-game"]}, "only with the lucky-card variant"),
        ({"variants": ["lucky"]}, "no variant 'lucky'"),
    ],
)
def test_a_bad_round_situation_is_refused_naming_the_bad_value(changes: dict[str, Any], named: str) -> None:
    with pytest.raises(InvalidSituationError, match=named):
        rule(scoring(**changes))


def test_the_cli_rules_on_stdin_and_exits_2_on_a_bad_situation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({"block": [7, 1, 2]})))
    assert main(["adjudicate", "thanks-a-lottery"]) == 0
    assert json.loads(capsys.readouterr().out)["kind"] == "sequential"
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"block": [7, 1, 9]}'))
    assert main(["adjudicate", "thanks-a-lottery"]) == 2
    err = capsys.readouterr().err
    assert "unknown card 9" in err and len(err.strip().splitlines()) == 1
