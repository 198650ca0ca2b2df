"""The ``companion`` command line.

Each sub-command lives in its own module in :mod:`companion.cli.commands` and exposes
``register(subparsers)``; this module discovers them, so adding a command never means editing a
shared list. User mistakes (:class:`~companion.errors.UserError`, engine errors) print one line
on stderr and exit 2; they never print a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from companion import __version__
from companion.engine.errors import EngineError
from companion.errors import UserError

EXIT_USER_ERROR = 2
#: an error line longer than this is cut: it would be quoting the input back
MAX_ERROR_LINE = 400


def error_line(error: BaseException) -> str:
    """The one stderr line for a user error: newlines folded, at most ``MAX_ERROR_LINE`` long.

    >>> error_line(ValueError("bad\\nvalue " + "x" * 1000))[:14], len(error_line(ValueError("x" * 1000)))
    ('companion: bad', 400)
    """
    text = "companion: " + " ".join(str(error).split())
    return text if len(text) <= MAX_ERROR_LINE else text[: MAX_ERROR_LINE - 3] + "..."


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Build the argument parser from the modules in ``companion.cli.commands``: every one, or
    with ``only`` (a command's name) just that one, so running a command imports nothing of the
    others (``adjudicate`` starts in a third of the time)."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Jackpot Companion: the game-night companion for five slot-machine games.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    from companion.cli import commands

    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))
    for name in [only] if only in names else names:
        module = importlib.import_module(f"{commands.__name__}.{name}")
        module.register(subparsers)
    return parser


def command_named(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs (its first word when that is not an option), or None.

    >>> command_named(["adjudicate", "bandit"]), command_named(["--help"]), command_named([])
    ('adjudicate', None, None)
    """
    return argv[0] if argv and not argv[0].startswith("-") else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # An unknown command builds every command's parser, so argparse lists them in its error.
    parser = build_parser(command_named(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        code = args.func(args)
    except (UserError, EngineError) as error:
        print(error_line(error), file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `companion ... | head` closes the pipe early; that is not an error.
        return 0
    return int(code or 0)
