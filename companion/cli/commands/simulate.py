"""``companion simulate GAME --games N``: bots play N games; prints a summary."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

from companion.engine import GameConfig, get_game, make_bot
from companion.engine.simulate import PlayedGame, play_game
from companion.engine.summary import summarize
from companion.errors import UserError


def register(subparsers: Any) -> None:
    """Add the ``simulate`` command."""
    parser = subparsers.add_parser("simulate", help="play many games with bots and summarize")
    parser.add_argument("game", help="game id, e.g. pay-line")
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--players", type=int, help="seats (default: the game's minimum)")
    parser.add_argument("--seed", type=int, default=0, help="first seed; game i uses seed + i")
    parser.add_argument("--bot", choices=["random", "heuristic"], default="heuristic")
    parser.add_argument("--variant", action="append", default=[], help="switch a variant on (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.set_defaults(func=run)


def _games(args: argparse.Namespace, players: int) -> Iterator[PlayedGame]:
    bot = make_bot(args.bot)
    show = sys.stderr.isatty() and args.games >= 20
    for index in range(args.games):
        config = GameConfig(args.game, players, tuple(args.variant), seed=args.seed + index)
        yield play_game(config, [bot])
        if show:
            done = (index + 1) * 30 // args.games
            sys.stderr.write(f"\r[{'#' * done}{'.' * (30 - done)}] {index + 1}/{args.games}")
            sys.stderr.flush()
    if show:
        sys.stderr.write("\n")


def run(args: argparse.Namespace) -> int:
    """Play and print the summary."""
    cls = get_game(args.game)
    players = cls.min_players if args.players is None else args.players
    if (problem := cls.players_problem(players)) is not None:
        raise UserError(problem)
    if args.games < 1:
        raise UserError("--games must be at least 1")
    cls(GameConfig(args.game, players, tuple(args.variant)))  # bad seats or variant: fail before playing
    summary = {"game": args.game, "players": players, "bot": args.bot, "seed": args.seed,
               "variants": args.variant, **summarize(_games(args, players), players)}
    if args.json:
        print(json.dumps(summary, sort_keys=True))
        return 0
    print(f"{cls.title}: {summary['games']} games, {players} players, {args.bot} bots")
    rates = ", ".join(f"seat {i + 1} {r:.1%}" for i, r in enumerate(summary["win_rate_by_seat"]))
    print(f"  win rate by seat: {rates} (shared results: {summary['shared_results']})")
    print(f"  mean turns: {summary['mean_turns']}   mean actions: {summary['mean_actions']}")
    jackpots = ", ".join(f"{k} {v}" for k, v in summary["jackpots"].items()) or "none"
    print(f"  jackpots: {jackpots} ({summary['jackpots_per_game']} per game)")
    s = summary["scores"]
    print(f"  scores: mean by seat {s['mean_by_seat']}, min {s['min']}, median {s['median']}, max {s['max']}")
    return 0
