"""Consistent copies of the journal with SQLite's online backup API.

A person copying ``journal.sqlite`` by hand misses what is still in the ``-wal`` file (and a
copy taken mid-write can be torn); :func:`backup` copies through SQLite, page by page, so the
copy is one committed state of the whole journal, WAL included, even while the daemon writes.
The copy is written to ``NAME.partial`` and renamed only when complete and synced: a power cut
during a backup leaves the journal as it was and no half copy that looks like a backup.

The daemon keeps :data:`KEEP` automatic copies in ``backups/`` beside the journal, one at the end
of each game; the newest intact one is what a damaged journal is restored from (:mod:`.recovery`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from companion.journal.readonly import APPLICATION_ID, journal_uri

#: Automatic backups kept (the oldest beyond this are removed).
KEEP = 5
BACKUP_DIR = "backups"
PARTIAL = ".partial"


def backup_dir(journal: Path) -> Path:
    """Where the automatic backups of ``journal`` are kept."""
    return journal.parent / BACKUP_DIR


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def backup(source: sqlite3.Connection, target: Path,
           progress: Callable[[int, int, int], object] | None = None) -> Path:
    """Copy the journal open as ``source`` to ``target`` atomically; returns ``target``.

    ``progress`` is SQLite's callback (status, remaining pages, total pages), called between
    steps of 64 pages. Raises ``sqlite3.Error``/``OSError`` (the caller words them).
    """
    partial = target.with_name(target.name + PARTIAL)
    partial.unlink(missing_ok=True)
    copy = sqlite3.connect(partial)
    try:
        source.backup(copy, pages=64, progress=progress)
        # One self-contained file: no -wal beside it for someone to forget when copying it on.
        copy.execute("PRAGMA journal_mode=DELETE")
    finally:
        copy.close()
    fd = os.open(partial, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, target)
    _fsync_dir(target.parent)
    return target


def automatic_backup(source: sqlite3.Connection, journal: Path, label: str, keep: int = KEEP) -> Path:
    """A backup in :func:`backup_dir` named by time and ``label``; keeps the ``keep`` newest."""
    directory = backup_dir(journal)
    directory.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = directory / f"{journal.stem}-{stamp}-{label}.sqlite"
    backup(source, target)
    for old in backups(journal)[:-keep]:
        old.unlink(missing_ok=True)
    return target


def backups(journal: Path) -> list[Path]:
    """The automatic backups of ``journal``, oldest first (complete ones only)."""
    directory = backup_dir(journal)
    if not directory.is_dir():
        return []
    found = [p for p in directory.glob(f"{journal.stem}-*.sqlite") if p.is_file()]
    return sorted(found, key=lambda p: (p.stat().st_mtime, p.name))


def is_intact(path: Path) -> bool:
    """True when ``path`` is one of our journals and SQLite's integrity check passes."""
    try:
        db = sqlite3.connect(journal_uri(path, mode="ro"), uri=True)
        try:
            app = db.execute("PRAGMA application_id").fetchone()[0]
            check = [row[0] for row in db.execute("PRAGMA integrity_check(1)")]
        finally:
            db.close()
    except sqlite3.Error:
        return False
    return app == APPLICATION_ID and check == ["ok"]


def newest_intact(journal: Path) -> Path | None:
    """The newest automatic backup that is intact, or None."""
    for candidate in reversed(backups(journal)):
        if is_intact(candidate):
            return candidate
    return None
