"""The simulation's fast path (``play_game``: one chance point per step, bots' picks applied
with ``apply_legal_decision``) plays exactly the game the checked path (``Match.apply``) plays."""

from __future__ import annotations

import copy
import random

import pytest

from companion.engine import GameConfig, HeuristicBot, Match, RandomBot, SeededResolver, all_games
from companion.engine.bots import Bot
from companion.engine.simulate import play_game, play_game_checked

GAMES = sorted(all_games())


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("bot", [RandomBot(), HeuristicBot()], ids=["random", "heuristic"])
def test_play_game_plays_the_game_the_checked_path_plays(game_id: str, bot: Bot) -> None:
    cls = all_games()[game_id]
    for seed in range(4):
        config = GameConfig(game_id, max(cls.min_players, min(3, cls.max_players)), seed=seed)
        fast, checked = play_game(config, [bot]).match, play_game_checked(config, [bot])
        assert fast.log == checked.log
        assert fast.game.encode_state(fast.state) == checked.game.encode_state(checked.state)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_offered_decision_applies_alike_checked_or_not(game_id: str) -> None:
    """At each decision of random games, each offered move gives the same events and state
    through ``apply_legal_decision`` as through the checking ``apply_decision``."""
    rng = random.Random(5)
    for seed in range(3):
        cls = all_games()[game_id]
        match = Match.new(GameConfig(game_id, min(cls.min_players + 1, cls.max_players), seed=seed))
        game, resolver, steps = match.game, SeededResolver(seed), 0
        while not match.is_over and steps < 400:
            steps += 1
            if match.chance_point is not None:
                match.resolve(resolver)
                continue
            offered = game.decisions(match.state)
            for action in rng.sample(offered, min(6, len(offered))):
                checked, fast = copy.deepcopy(match.state), copy.deepcopy(match.state)
                assert game.apply_legal_decision(fast, action) == game.apply_decision(checked, action)
                assert game.encode_state(fast) == game.encode_state(checked)
            match.apply(rng.choice(offered))
