"""``companion end [ID]``: end the unfinished game (or game ID) so the next start begins anew.

The game stays in the history as ``ended`` with the scores it had; nothing is deleted. The same
as "End this game" in the menu, or ``companion run --new``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``end``."""
    parser = subparsers.add_parser("end", help="end the unfinished game (it stays in the history as ended)")
    parser.add_argument("id", nargs="?", type=int, help="game number from `companion history` "
                                                        "(default: the unfinished game)")
    parser.add_argument("--config", help="configuration file (to find the journal)")
    parser.add_argument("--journal", help="journal file (default: the state directory's)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """End the game and say which."""
    from companion.config import load_config
    from companion.daemon.starting import describe, end_game
    from companion.errors import UserError
    from companion.journal import Journal, default_journal_path

    configured = None if args.journal else load_config(args.config).journal_path
    path = Path(args.journal) if args.journal else configured or default_journal_path()
    if not path.is_file():
        raise UserError(f"no journal at {path}: no game to end")
    with Journal.open(path) as journal:
        record = end_game(journal, args.id)
    scores = ", ".join(f"{name} {score}" for name, score in
                       zip(record.seats, (record.result or {}).get("scores", []), strict=False))
    print(f"ended {describe(record)}{f' at {scores}' if scores else ''}; the next start begins anew")
    return 0
