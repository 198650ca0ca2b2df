"""``companion adjudicate GAME``: one JSON situation on stdin, one JSON ruling on stdout.

This is the function the daemon calls when the camera reports cards, and what players use to
settle a dispute. A bad situation exits 2 with one line naming the bad value (an excerpt, never
the whole input); docs/adjudicate.md is the contract, with an example per game.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.engine import InvalidSituationError, get_game
from companion.errors import UserError

#: a situation is a few hundred bytes; more is not a table situation
MAX_BYTES = 64 * 1024


def register(subparsers: Any) -> None:
    """Add the ``adjudicate`` command."""
    parser = subparsers.add_parser(
        "adjudicate", help="rule on one table situation (JSON on stdin, JSON ruling on stdout)"
    )
    parser.add_argument("game", help="game id, e.g. bandit")
    parser.set_defaults(func=run)


def read_stdin_text(what: str, limit: int = MAX_BYTES) -> str:
    """Stdin as UTF-8 text, whatever the locale says stdin's encoding is.

    Read as bytes: under en_GB.UTF-8 Python's text stdin is strict and raises on the first bad
    byte, under C.UTF-8 it smuggles them through as surrogates; both are one user error here.
    """
    stream = getattr(sys.stdin, "buffer", None)
    data = stream.read(limit + 1) if stream is not None else sys.stdin.read(limit + 1).encode(
        "utf-8", "surrogateescape")
    if len(data) > limit:
        raise UserError(f"{what} is over {limit // 1024} KB; send one JSON object on stdin")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UserError(f"{what} is not UTF-8 text (byte {error.start + 1}); "
                        "send one JSON object on stdin") from None


def parse_json(text: str, what: str) -> Any:
    """JSON text to a value; malformed, absurdly nested or giant-number input is a user error."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(f"{what} is not valid JSON ({error.msg} at line {error.lineno}, "
                        f"column {error.colno}); send one JSON object on stdin") from None
    except RecursionError:
        raise UserError(f"{what} is nested too deeply to be a table situation") from None
    except ValueError:  # an integer past Python's 4,300-digit conversion limit
        raise UserError(f"{what} holds a number too long to be a count or a value") from None


def run(args: argparse.Namespace) -> int:
    """Read the situation, print the ruling."""
    game = get_game(args.game)
    situation = parse_json(read_stdin_text("the situation"), "the situation")
    if not isinstance(situation, dict):
        raise InvalidSituationError(f"the situation must be one JSON object; docs/adjudicate.md has a "
                                    f"{game.title} example")
    try:
        ruling = game.adjudicate(situation)
    except RecursionError:
        raise InvalidSituationError("the situation is nested too deeply to be a table situation") from None
    print(json.dumps(ruling, sort_keys=True))
    return 0
