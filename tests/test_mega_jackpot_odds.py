"""The odds advisor and the heuristic bot that plays it."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from companion.engine import Action, GameConfig, HeuristicBot, Match, RandomBot
from companion.engine.games.mega_jackpot.components import jackpot_symbol
from companion.engine.games.mega_jackpot.odds import flip_choices, odds_of
from companion.engine.simulate import play_game
from tests.test_mega_jackpot_rules import play, started

VALUES = {"apple": 1, "cherry": 2, "diamond": 3, "carpet": 5, "genie": 7}


def test_one_card_wins_with_the_unknown_fronts_of_its_reel_side() -> None:
    unknown = {"apple@apple-genie": 7, "genie@apple-genie": 2}
    odds = odds_of(((0, 2),), ["apple", "apple", "diamond"], ["apple-genie", None, None], unknown, VALUES)
    assert odds.jackpot == Fraction(7, 9)
    assert odds.by_symbol == (("apple", Fraction(7, 9)),)
    assert odds.expected_points == Fraction(7, 9) * 3
    assert odds.label() == "pile 1 -> discard 3: 77.8%"


def test_two_cards_of_the_same_reel_side_are_drawn_without_replacement() -> None:
    unknown = {"carpet@carpet-genie": 3, "genie@carpet-genie": 2}
    odds = odds_of(((0, 0), (1, 1)), [None, None, "genie"], ["carpet-genie", "carpet-genie", None], unknown,
                   VALUES)
    assert odds.jackpot == Fraction(2, 5) * Fraction(1, 4)


def test_two_cards_of_different_reel_sides_are_independent() -> None:
    unknown = {"apple@apple-genie": 7, "genie@apple-genie": 2,
               "carpet@carpet-genie": 3, "genie@carpet-genie": 1}
    sides = ["apple-genie", None, "carpet-genie"]
    odds = odds_of(((0, 0), (2, 1)), ["apple", "apple", "genie"], sides, unknown, VALUES)
    assert odds.jackpot == Fraction(2, 9) * Fraction(1, 4)
    assert odds.expected_points == odds.jackpot * 21


def test_an_empty_pile_offers_no_flip() -> None:
    choices = flip_choices([None, "apple-cherry", "apple-genie"])
    assert all(pile != 0 for moves in choices for pile, _ in moves)
    assert len(choices) == 6 + 6


def test_the_advisor_lists_every_legal_flip_of_the_position() -> None:
    match = started()
    odds = match.game.odds(match.state)
    assert [o.action for o in odds] == match.legal_actions()
    assert all(0 <= o.jackpot <= 1 for o in odds)
    best = max(odds, key=lambda o: o.jackpot)
    assert best.to_dict()["action"] == str(best.action)


def _jackpot_by_the_rules(match: Match, action: Action) -> Fraction:
    """Walk the rules' own chance points for the flipped fronts and add up the jackpots."""
    game = match.game

    def walk(state_text: str, p: Fraction) -> Fraction:
        state = game.decode_state(state_text)
        point = game.chance_point(state)
        if point is None or point.kind != "flip":
            return p if jackpot_symbol(state.discard_tops()) else Fraction(0)
        total = Fraction(0)
        for outcome, weight in point.outcomes:
            child = game.decode_state(state_text)
            game.apply(child, Action.reveal(outcome))
            total += walk(game.encode_state(child), p * Fraction(weight, point.total))
        return total

    state = game.decode_state(game.encode_state(match.state))
    game.apply(state, action)
    return walk(game.encode_state(state), Fraction(1))


def test_the_advisor_agrees_with_the_rules_chance_points_for_every_flip() -> None:
    match = started()
    # tops apple, apple, diamond; piles show apple/genie, apple/cherry, diamond/genie
    play(match, "flip 1 1", "apple", "apple-genie")
    match.apply("stop")
    for odds in match.game.odds(match.state):
        assert odds.jackpot == _jackpot_by_the_rules(match, odds.action), str(odds.action)
    assert any(odds.jackpot > 0 for odds in match.game.odds(match.state))


# --- the heuristic bot ---------------------------------------------------------------------


def _apple_apple_diamond() -> Match:
    match = started()
    play(match, "flip 1 1", "apple", "apple-cherry")
    return match


def test_heuristic_flips_for_the_best_expected_jackpot() -> None:
    match = _apple_apple_diamond()
    match.apply("stop")
    # an apple/genie card (7 apples in 9) beats an apple/cherry card (6 apples in 11)
    assert match.game.heuristic_action(match.state, random.Random(0)) == Action.of("flip", 0, 2)


def test_heuristic_pays_to_spin_when_the_best_flip_is_worth_more_than_the_card() -> None:
    match = _apple_apple_diamond()
    assert match.game.heuristic_action(match.state, random.Random(0)) == Action.of("pay", 1, 0)


def test_heuristic_stops_when_spinning_costs_more_than_it_is_worth() -> None:
    match = _apple_apple_diamond()
    match.state.in_front[0] = {"genie": 3}  # only 7-point cards left to pay with
    assert match.game.heuristic_action(match.state, random.Random(0)) == Action.of("stop")


@pytest.mark.parametrize(("tray", "expected"), [({}, "cash"), ({"carpet": 6}, "attempt 0")])
def test_heuristic_bets_a_jackpot_only_when_the_tray_is_worth_the_risk(tray: dict[str, int],
                                                                      expected: str) -> None:
    match = started(2, "tiles")
    play(match, "flip 0 2 1 1", "apple", "apple", "apple-cherry", "apple-cherry")
    match.state.trays[0] = tray
    assert match.game.heuristic_action(match.state, random.Random(0)) == Action.parse(expected)


@pytest.mark.parametrize("variants", [(), ("tiles",)])
def test_heuristic_bot_beats_the_random_bot(variants: tuple[str, ...]) -> None:
    wins = 0
    for seed in range(12):
        seat = seed % 2
        bots = [HeuristicBot(), RandomBot()] if seat == 0 else [RandomBot(), HeuristicBot()]
        played = play_game(GameConfig("mega-jackpot", 2, variants, seed=seed), bots)
        wins += played.result.winners == (seat,)
    assert wins >= 9
