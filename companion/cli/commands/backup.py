"""``companion backup [FILE]``: a consistent copy of the journal, safe while the daemon plays.

Copying ``journal.sqlite`` by hand misses what is still in its ``-wal`` file; this copies through
SQLite's online backup (everything committed, one self-contained file). The journal is opened
read-only, so it also works from a read-only SD card.
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from pathlib import Path
from typing import Any

from companion.journal import JournalError, open_for_cli
from companion.journal.backup import backup, backup_dir, is_intact
from companion.journal.opening import unwritable
from companion.journal.readonly import APPLICATION_ID, SQLITE_HEADER


def register(subparsers: Any) -> None:
    """Add ``backup``."""
    parser = subparsers.add_parser("backup", help="copy the journal consistently (safe while a game runs)")
    parser.add_argument("file", nargs="?",
                        help="where to write the copy (default: backups/ beside the journal)")
    parser.add_argument("--config", help="configuration file (to find the journal)")
    parser.add_argument("--journal", help="journal file (default: the state directory's)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the copy, check it, and say where it is and what it holds."""
    with open_for_cli(args.config, args.journal) as journal:
        if args.file:
            target = Path(args.file)
            if target.is_dir():
                target = target / f"{journal.path.stem}-{time.strftime('%Y%m%dT%H%M%S')}.sqlite"
        else:
            stamp = time.strftime("%Y%m%dT%H%M%S")
            target = backup_dir(journal.path) / f"{journal.path.stem}-{stamp}-manual.sqlite"
        if target.resolve() == journal.path.resolve():
            raise JournalError(f"{target} is the journal itself; name another file for the copy")
        if target.exists() and not _is_journal_copy(target):
            raise JournalError(f"{target} exists and is not a journal copy; name another file for the copy "
                               "(nothing was written)")
        games = journal.games()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            backup(journal.connection, target)
        except (OSError, sqlite3.Error) as error:
            raise unwritable(error, target, "write the backup") from None
    if not is_intact(target):
        raise JournalError(f"the copy at {target} did not pass SQLite's integrity check; try again")
    actions = sum(record.actions for record in games)
    print(f"backed up {len(games)} game{'' if len(games) == 1 else 's'} ({actions} actions) to {target}")
    return 0


def _is_journal_copy(path: Path) -> bool:
    """Whether ``path`` is an earlier copy of a journal (replacing it loses nothing the journal
    does not hold); anything else there (notes, photos, another database) is someone's file."""
    try:
        with path.open("rb") as handle:
            header = handle.read(72)
    except OSError:
        return False
    # the SQLite header, and the application id (big-endian at byte 68) that marks our journals
    return header[:16] == SQLITE_HEADER and int.from_bytes(header[68:72], "big") == APPLICATION_ID
