"""``companion export ID``: one journal game as JSON that ``companion replay FILE`` accepts."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.journal import open_for_cli


def register(subparsers: Any) -> None:
    """Add ``export``."""
    parser = subparsers.add_parser("export", help="print a past game as JSON (for `companion replay`)")
    parser.add_argument("id", type=int, help="game number from `companion history`")
    parser.add_argument("--config", help="configuration file (to find the journal)")
    parser.add_argument("--journal", help="journal file (default: the state directory's)")
    parser.add_argument("-o", "--output", help="write to this file instead of standard output")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print (or write) the game in ``Match.to_dict()`` form plus a ``journal`` section."""
    with open_for_cli(args.config, args.journal) as journal:
        data = journal.export(args.id)
    text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        print(text, end="")
    return 0
