"""``companion adjudicate mega-jackpot``: the foundation issue's contract, good and bad input."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from companion.engine import InvalidSituationError, get_game

ADJUDICATE = get_game("mega-jackpot").adjudicate


def test_three_identical_tops_are_a_jackpot_worth_the_three_cards() -> None:
    assert ADJUDICATE({"discards": ["carpet", "carpet", "carpet"]}) == {"jackpot": "carpet", "points": 15}


def test_different_tops_are_no_jackpot_and_report_no_points() -> None:
    assert ADJUDICATE({"discards": ["apple", "cherry", "genie"]}) == {"jackpot": None}


def test_discard_tops_may_be_the_card_ids_vision_identify_prints() -> None:
    ruling = ADJUDICATE({"discards": ["carpet@carpet-genie", "carpet", "carpet@apple-carpet"]})
    assert ruling == {"jackpot": "carpet", "points": 15}


def test_reel_sides_add_the_exact_odds_of_every_flip() -> None:
    ruling = ADJUDICATE({"discards": ["apple", "apple", "cherry"],
                         "reel_sides": [["cherry", "apple"], ["apple", "genie"], ["diamond", "carpet"]]})
    assert ruling["jackpot"] is None and "points" not in ruling
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
    ({"discards": ["apple"] * 3, "dice": [1, 2, 3]}, "does not know the key 'dice'"),
    ({"discards": ["apple"] * 3, "colected": []}, "does not know the key 'colected'"),
    ({"discards": ["apple@apple-banana", "apple", "apple"]}, "no Mega Jackpot card has the id"),
    ({"discards": ["apple"] * 3, "collected": ["apple@apple-cherry"]}, "give each discard top as its card"),
    ({"discards": ["genie@carpet-genie"] * 3},
     "3 cards genie@carpet-genie are out of the piles, but the game has"),
    ({"discards": ["apple@apple-cherry"] * 3, "removed": ["apple@apple-cherry"] * 6},
     "9 cards apple@apple-cherry are out of the piles, but the game has 8"),
    ({"discards": ["apple@apple-cherry"] * 3, "trays": ["start-1"] * 99}, "more start-1 cards"),
    ({"discards": ["apple@apple-cherry"] * 3, "trays": "apple"}, '"trays" must be a list'),
    ({"discards": ["apple@apple-cherry"] * 3, "removed": ["carpet@carpet-genie"] * 3,
      "discarded": ["genie@carpet-genie"], "reel_sides": [["carpet", "genie"], None, None]},
     "1 piles show the carpet/genie reel side but only 0 cards with it are still in the piles"),
    ({"discards": ["apple"] * 3, "variants": ["mega"]}, "no variant 'mega'"),
])
def test_a_bad_situation_is_refused_naming_the_bad_value(situation: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidSituationError, match=message):
        ADJUDICATE(situation)


def _late_game() -> tuple[Any, Any]:
    """A seeded game played by bots until few cards are left in the piles, at a flip."""
    from companion.engine import GameConfig, HeuristicBot, Match, SeededResolver

    match = Match.new(GameConfig("mega-jackpot", players=2, seed=3))
    resolver, bot, rng = SeededResolver(3), HeuristicBot(), __import__("random").Random(3)
    while not match.is_over:
        if match.chance_point is not None:
            match.resolve(resolver)
            continue
        state = match.state
        if state.phase == "flip" and sum(state.unknown.values()) <= 40 and all(state.discards):
            return match.game, state
        match.apply(bot.choose(match.game, state, rng))
    raise AssertionError("the game ended before a late flip")


def test_odds_are_exact_late_in_a_game_when_the_situation_lists_what_is_out_of_play() -> None:
    """The adjudicator assumed all 90 cards unseen: late in a game it said 7/10 where the true
    chance was 1. Told where the other cards are, it gives the game's own exact odds."""
    from collections import Counter

    game, state = _late_game()
    under_tops = [card for stack in state.discards for card in stack[:-1]]
    elsewhere = Counter(game.components.cards) - Counter(state.unknown) - Counter(
        card for stack in state.discards for card in stack)
    situation = {
        "discards": [stack[-1] for stack in state.discards],
        "discarded": under_tops,
        "collected": sorted(elsewhere.elements()),
        "reel_sides": state.pile_tops,
    }
    ruling = ADJUDICATE(situation)
    exact = {str(o.action): str(o.jackpot) for o in game.odds(state)}
    assert {entry["action"]: entry["probability"] for entry in ruling["odds"]} == exact
    # the same tops without the out-of-play lists count every other card as unseen: not exact
    estimate = ADJUDICATE({"discards": situation["discards"], "reel_sides": state.pile_tops})
    assert {entry["action"]: entry["probability"] for entry in estimate["odds"]} != exact
