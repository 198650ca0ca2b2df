"""`companion adjudicate pay-line`: {"dice": [s, s, s]} -> {"jackpot": colour or null}."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import InvalidSituationError, get_game
from companion.engine.games.pay_line import PayLineGame


@pytest.mark.parametrize("colour", ["black", "yellow", "red"])
def test_three_of_a_kind_is_a_jackpot_of_that_colour(colour: str) -> None:
    assert get_game("pay-line").adjudicate({"dice": [colour] * 3}) == {"jackpot": colour}


@pytest.mark.parametrize(
    "dice", [["black", "yellow", "red"], ["red", "red", "black"], ["yellow", "black", "yellow"]]
)
def test_anything_else_is_no_jackpot(dice: list[str]) -> None:
    assert PayLineGame.adjudicate({"dice": dice}) == {"jackpot": None}


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        ([["red", "red", "red"]], "JSON object"),
        ({}, 'needs "dice"'),
        ({"dice": "red red red"}, "list of three colours"),
        ({"dice": ["red", "red"]}, "exactly three dice, not 2"),
        ({"dice": ["red", "red", "red", "red"]}, "exactly three dice, not 4"),
        ({"dice": ["red", "green", "red"]}, "die 2: unknown Pay Line colour 'green'"),
        ({"dice": ["red", "red", None]}, "die 3: unknown Pay Line colour None"),
        ({"dice": [1, 1, 1]}, "die 1: unknown Pay Line colour 1"),
        ({"dice": ["RED", "red", "red"]}, "'RED'"),
        ({"dice": ["red"] * 3, "box": "red"}, "'box'"),
    ],
)
def test_bad_situations_are_refused_naming_the_bad_value(situation: Any, message: str) -> None:
    with pytest.raises(InvalidSituationError, match=message.replace("(", r"\(")) as error:
        PayLineGame.adjudicate(situation)
    assert "\n" not in str(error.value)


def test_adjudicate_and_play_decide_a_jackpot_with_the_same_rule() -> None:
    from companion.engine.games import pay_line

    assert pay_line.jackpot_symbol(["red"] * 3) == PayLineGame.adjudicate({"dice": ["red"] * 3})["jackpot"]
