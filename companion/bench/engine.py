"""``companion bench engine``: games per second and microseconds per apply, per game.

Random bots, one core (this process), seeded. Chance is resolved by the seeded resolver; the
time counted is the whole game loop (chance, bot choice, apply) and, separately, apply alone.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterable
from typing import Any

from companion.engine import Action, GameConfig, Match, RandomBot, SeededResolver, all_games

NAME = "engine"
HELP = "engine throughput per game: games/s and microseconds per apply (random bots, one core)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: time budget per game and which games."""
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per game (default 2)")
    parser.add_argument("--game", action="append", help="only these game ids (repeatable)")


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """One JSON-ready figure per game."""
    games = all_games()
    for game_id in args.game or list(games):
        cls = games[game_id]
        players = cls.min_players
        bot = RandomBot()
        played = applies = 0
        apply_ns = 0
        start = time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            config = GameConfig(game_id, players, seed=played)
            match = Match.new(config)
            resolver, rng = SeededResolver(played), random.Random(played)
            while not match.is_over:
                point = match.chance_point
                if point is not None:
                    action = Action.reveal(resolver.resolve(point))
                else:
                    action = bot.choose(match.game, match.state, rng)
                t0 = time.perf_counter_ns()
                match.game.apply(match.state, action)
                apply_ns += time.perf_counter_ns() - t0
                applies += 1
            played += 1
        elapsed = time.perf_counter() - start
        yield {
            "bench": "engine",
            "game": game_id,
            "players": players,
            "games": played,
            "games_per_second": round(played / elapsed, 1),
            "applies": applies,
            "us_per_apply": round(apply_ns / applies / 1000, 2) if applies else None,
        }
