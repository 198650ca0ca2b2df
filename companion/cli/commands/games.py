"""``companion games``: the registered games with their player counts and variants."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.engine import all_games


def register(subparsers: Any) -> None:
    """Add the ``games`` command."""
    parser = subparsers.add_parser("games", help="list the games, player counts and variants")
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print one line (or JSON object) per registered game."""
    for game_id, cls in all_games().items():
        if args.json:
            print(json.dumps({"id": game_id, "title": cls.title, "min_players": cls.min_players,
                              "max_players": cls.max_players, "variants": dict(cls.variants)}))
            continue
        players = f"{cls.min_players}" if cls.min_players == cls.max_players else (
            f"{cls.min_players}-{cls.max_players}")
        variants = ", ".join(cls.variants) or "-"
        print(f"{game_id:<18} {cls.title:<20} players {players:<5} variants: {variants}")
    return 0
