"""The Jackpot Payout heuristic player: legal, sensible, and a fair opponent."""

from __future__ import annotations

import random

from companion.engine import Action, GameConfig, HeuristicBot, RandomBot
from companion.engine.simulate import play_game
from tests.test_jackpot_payout_setup import play, reveal, start

PLAIN = {"start-grapes": 2, "start-cherries": 2, "start-diamond": 2, "start-crown": 2, "start-shamrock": 2}


def choose(match: object) -> str:
    game, state = match.game, match.state  # type: ignore[attr-defined]
    action = game.heuristic_action(state, random.Random(0))
    assert action in game.decisions(state)
    return str(action)


def test_second_chance_completes_a_jackpot_when_it_can() -> None:
    match = start(decks={0: {**PLAIN, "int-second-chance-grapes": 1}})
    reveal(match, "int-second-chance-grapes", "start-grapes", "start-crown", "start-grapes")
    assert choose(match) == "replace 2"


def test_second_chance_replaces_an_unresolved_house_card_in_solo() -> None:
    match = start(players=1, decks={0: {**PLAIN, "int-second-chance-grapes": 1, "house-cherries": 1}})
    reveal(match, "int-second-chance-grapes", "house-cherries", "start-crown")
    assert choose(match) == "resolve 0"
    play(match, "resolve 0")
    reveal(match, "start-diamond")
    assert choose(match) == "replace 1"


def test_guess_suit_names_the_suit_most_of_the_deck_shows() -> None:
    deck = {"int-guess-suit-diamond": 1, "start-grapes": 1, "start-crown": 1, "int-crown-1": 3}
    match = start(decks={0: deck})
    reveal(match, "int-guess-suit-diamond", "start-grapes", "start-crown")
    assert choose(match) == "guess crown"


def test_the_bot_takes_a_card_worth_having_and_leaves_poor_ones() -> None:
    match = start(decks={0: PLAIN})
    match.state.seats[0].discard = {"int-crown-1": 4}  # building towards crowns
    reveal(match, "start-grapes", "start-cherries", "start-diamond")
    assert choose(match) == "take 4"  # the 4-coin crown
    poor = ["int-shamrock-1"] * 3 + ["int-cherries-1"] * 3 + ["int-grapes-1"]
    match = start(decks={0: PLAIN}, display=poor)
    match.state.wilds = 0
    match.state.seats[0].discard = {"int-crown-1": 4}  # building towards crowns
    reveal(match, "start-grapes", "start-cherries", "start-diamond")
    assert choose(match) == "done"


def test_heuristic_beats_random_at_a_two_player_table() -> None:
    wins = 0
    for seed in range(20):
        played = play_game(GameConfig("jackpot-payout", 2, seed=seed), [HeuristicBot(), RandomBot()])
        wins += played.result.winners == (0,)
    assert wins >= 14


def test_solo_heuristic_beats_the_house_sometimes_but_not_always() -> None:
    results = [bool(play_game(GameConfig("jackpot-payout", 1, seed=seed), [HeuristicBot()]).result.winners)
               for seed in range(30)]
    assert 0 < sum(results) < 30


def test_the_bot_answers_every_step_with_a_legal_action() -> None:
    for seed in range(12):
        config = GameConfig("jackpot-payout", 1 + seed % 4, ("mixed",), seed=seed)
        played = play_game(config, [HeuristicBot()])
        assert played.match.is_over
    assert Action.parse("take wild").args == ("wild",)
