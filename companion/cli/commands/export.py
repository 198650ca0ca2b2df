"""``companion export ID``: one journal game as JSON that ``companion replay FILE`` accepts."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.cli.paths import output_file, writing
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
    out = output_file(args.output, "game.json") if args.output is not None else None  # fail before reading
    with open_for_cli(args.config, args.journal) as journal:
        data = journal.export(args.id)
    text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    if out is not None:
        with writing(out), open(out, "w", encoding="utf-8") as file:
            file.write(text)
    else:
        print(text, end="")
    return 0
