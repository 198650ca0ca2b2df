"""``companion adjudicate GAME``: one JSON situation on stdin, one JSON ruling on stdout.

This is the function the daemon calls when the camera reports cards, and what players use to
settle a dispute. A bad situation exits 2 with one line naming the bad value.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.engine import InvalidSituationError, get_game
from companion.errors import UserError


def register(subparsers: Any) -> None:
    """Add the ``adjudicate`` command."""
    parser = subparsers.add_parser(
        "adjudicate", help="rule on one table situation (JSON on stdin, JSON ruling on stdout)"
    )
    parser.add_argument("game", help="game id, e.g. bandit")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read the situation, print the ruling."""
    game = get_game(args.game)
    text = sys.stdin.read()
    try:
        situation = json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(f"the situation is not valid JSON ({error.msg} at line {error.lineno}, "
                        f"column {error.colno}); send one JSON object on stdin") from None
    if not isinstance(situation, dict):
        raise InvalidSituationError("the situation must be a JSON object, e.g. {\"dice\": [...]}")
    print(json.dumps(game.adjudicate(situation), sort_keys=True))
    return 0
