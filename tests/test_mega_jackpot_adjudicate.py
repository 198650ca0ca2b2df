"""``companion adjudicate mega-jackpot``: the foundation issue's contract, good and bad input."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from companion.engine import InvalidSituationError, get_game

ADJUDICATE = get_game("mega-jackpot").adjudicate


def test_three_identical_tops_are_a_jackpot_worth_the_three_cards() -> None:
    assert ADJUDICATE({"discards": ["carpet", "carpet", "carpet"]}) == {"jackpot": "carpet", "points": 15}


def test_different_tops_are_no_jackpot_but_still_have_a_value() -> None:
    assert ADJUDICATE({"discards": ["apple", "cherry", "genie"]}) == {"jackpot": None, "points": 10}


def test_reel_sides_add_the_exact_odds_of_every_flip() -> None:
    ruling = ADJUDICATE({"discards": ["apple", "apple", "cherry"],
                         "reel_sides": [["cherry", "apple"], ["apple", "genie"], ["diamond", "carpet"]]})
    assert ruling["jackpot"] is None and ruling["points"] == 4
    odds = {entry["action"]: entry for entry in ruling["odds"]}
    assert len(odds) == 27
    # a full deck: 8 of the 14 apple/cherry cards are apples, 7 of the 9 apple/genie cards
    assert Fraction(odds["flip 0 2"]["probability"]) == Fraction(8, 14)
    assert Fraction(odds["flip 1 2"]["probability"]) == Fraction(7, 9)
    assert odds["flip 1 2"]["percent"] == 77.8
    assert odds["flip 1 2"]["by_symbol"] == {"apple": "7/9"}
    assert ruling["best"] == "flip 1 2"


def test_an_empty_pile_is_null_and_offers_no_flip() -> None:
    ruling = ADJUDICATE({"discards": ["apple", "apple", "cherry"],
                         "reel_sides": [["apple", "cherry"], None, None]})
    assert [entry["action"] for entry in ruling["odds"]] == ["flip 0 0", "flip 0 1", "flip 0 2"]


@pytest.mark.parametrize(("situation", "message"), [
    ({}, '"discards"'),
    ({"discards": ["apple", "apple"]}, '"discards"'),
    ({"discards": "apple apple apple"}, '"discards"'),
    ({"discards": ["apple", "banana", "apple"]}, "'banana' in discard 2"),
    ({"discards": ["apple", None, "apple"]}, "None in discard 2"),
    ({"discards": ["apple"] * 3, "reel_sides": [["apple", "cherry"]]}, "three piles"),
    ({"discards": ["apple"] * 3, "reel_sides": [["apple", "apple"], None, None]}, "apple twice"),
    ({"discards": ["apple"] * 3, "reel_sides": [["apple"], None, None]}, "pile 1 must be two symbols"),
    ({"discards": ["apple"] * 3, "reel_sides": [None, ["apple", "lemon"], None]}, "'lemon' in the reel side"),
    ({"discards": ["apple"] * 3, "dice": [1, 2, 3]}, "unknown key 'dice'"),
])
def test_a_bad_situation_is_refused_naming_the_bad_value(situation: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidSituationError, match=message):
        ADJUDICATE(situation)
