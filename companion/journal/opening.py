"""Opening the journal for writing: what is refused, what pauses, what is recovered.

Three kinds of trouble, never confused:

* **Not a journal, or not ours to touch** (a directory, a text or config file, another program's
  database, a newer schema, no permission): one :class:`JournalError` line; nothing on disk
  changes.
* **Cannot write right now** (full disk, read-only card, the card refusing writes):
  :class:`JournalUnwritableError` (:class:`JournalFullError`, :class:`JournalReadOnlyError`);
  nothing changes, and the daemon pauses and retries until a write succeeds.
* **Damaged**, as SQLite itself reports it (integrity check, ``SQLITE_CORRUPT``/``NOTADB`` on a
  file that starts like an SQLite file, or a main file emptied while its WAL holds data): the
  files are moved aside and :mod:`.recovery` saves what replays, from the newest backup too.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import sqlite3
import struct
import tempfile
import time
from pathlib import Path

from companion.journal.backup import newest_intact
from companion.journal.reading import JournalError
from companion.journal.readonly import (
    APPLICATION_ID,
    SCHEMA,
    SQLITE_HEADER,
    identity_of,
    identity_problem,
    journal_uri,
    side_file,
)
from companion.journal.recovery import RecoveryReport, copy_games, integrity_problem

log = logging.getLogger(__name__)

_TABLES = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    config      TEXT NOT NULL,
    seats       TEXT NOT NULL,
    mode        TEXT NOT NULL,
    started_at  REAL NOT NULL,
    ended_at    REAL,
    status      TEXT NOT NULL DEFAULT 'playing',
    result      TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    seq         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    text        TEXT NOT NULL,
    at          REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS nights (
    id          INTEGER PRIMARY KEY,
    started_at  REAL NOT NULL
);
"""


class JournalUnwritableError(JournalError):
    """The journal cannot be written right now; nothing was written and the write can be retried."""

    #: What the screen shows while the game waits.
    screen = "The journal cannot be written: the game is paused and nothing is lost. Check the SD card."


class JournalFullError(JournalUnwritableError):
    """The disk is full: nothing was written; free space and the same write can be retried."""

    screen = "Disk full: the game is paused and nothing is lost. Free space on the SD card."


class JournalReadOnlyError(JournalUnwritableError):
    """The card (file system) is read-only: nothing was written; history and export still read."""

    screen = ("The SD card is read-only: the game is paused and nothing is lost. "
              "Check the card; history and export still read it.")


def _existing_ancestor(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _read_only_fs(path: Path) -> bool:
    try:
        return bool(os.statvfs(_existing_ancestor(path)).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _no_space(path: Path) -> bool:
    try:
        stat = os.statvfs(_existing_ancestor(path))
    except OSError:
        return False
    return stat.f_bavail == 0 if os.geteuid() != 0 else stat.f_bfree == 0


def unwritable(error: BaseException, path: Path, doing: str = "write the journal") -> JournalError:
    """The one-line error for ``error`` met while trying to ``doing``, by what the disk says."""
    number = getattr(error, "errno", None)
    code = (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF
    refused = code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN)
    if number == errno.ENOSPC or code == sqlite3.SQLITE_FULL or (refused and _no_space(path)):
        return JournalFullError(f"cannot {doing} {path}: the disk is full; the game is paused until there "
                                "is space (nothing was lost)")
    if number == errno.EROFS or (refused and _read_only_fs(path)):
        return JournalReadOnlyError(f"cannot {doing} {path}: the SD card is read-only (often a card error); "
                                    "the game is paused, history and export still read")
    if number in (errno.EACCES, errno.EPERM) or code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN):
        return JournalError(f"cannot {doing} {path}: permission denied; the journal and its directory must "
                            "belong to the service user (sudo chown -R jackpot: /var/lib/jackpot-companion)")
    if number == errno.EIO or code == sqlite3.SQLITE_IOERR:
        return JournalUnwritableError(f"cannot {doing} {path}: the SD card refused the write ({error}); "
                                      "the game is paused and retries")
    return JournalError(f"cannot {doing} {path} ({error}); check the disk and [journal] path")


def check_target(path: Path) -> None:
    """Refuse (one line, nothing touched) a journal path that is not a journal file."""
    if path.is_dir():
        raise JournalError(f"the journal path {path} is a directory; set [journal] path to a file such as "
                           f"{path / 'journal.sqlite'} (nothing was changed)")
    if not path.exists():
        return
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as error:
        raise unwritable(error, path, "read the journal") from None
    if header and header != SQLITE_HEADER:
        raise JournalError(f"{path} is not a companion journal (not an SQLite database); set [journal] path "
                           "to the journal file, or move this file away (nothing was changed)")
    if header:
        _refuse_foreign(path)


def _refuse_foreign(path: Path) -> None:
    """Another program's database (or a newer schema) is refused before anything is created."""
    wal = side_file(path, "-wal")
    if not wal.exists() or wal.stat().st_size == 0:
        # Page 1 is whole in the main file: read the header itself (even a read-only SQLite
        # connection would leave -wal/-shm files beside a WAL database).
        with path.open("rb") as handle:
            header = handle.read(100)
        if len(header) < 100:
            return
        version, app = struct.unpack(">I", header[60:64])[0], struct.unpack(">I", header[68:72])[0]
        problem = identity_of(app, version)
    else:
        try:
            db = sqlite3.connect(journal_uri(path, mode="ro"), uri=True)
            try:
                problem = identity_problem(db)
            finally:
                db.close()
        except sqlite3.Error:
            return  # unreadable: open_checked asks SQLite whether it is damaged, under the lock
    if problem:
        raise JournalError(f"{path} is not a usable companion journal: {problem}; set [journal] path "
                           "to the journal file (nothing was changed)")


def connect(path: Path, *, configure: bool = True) -> sqlite3.Connection:
    """A writing connection; ``configure`` switches it to WAL with ``synchronous=FULL``.

    Unconfigured, it changes nothing on disk: :func:`open_checked` first asks what the file is.
    """
    # isolation_level=None: we issue BEGIN/COMMIT ourselves so each write is one transaction.
    db = sqlite3.connect(str(path), isolation_level=None, timeout=5.0, check_same_thread=False)
    if configure:
        try:
            _configure(db)
        except BaseException:
            db.close()
            raise
    return db


def _configure(db: sqlite3.Connection) -> None:
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")


def initialise(db: sqlite3.Connection) -> None:
    """Mark a new journal as ours and create the tables (additive: IF NOT EXISTS)."""
    if db.execute("PRAGMA application_id").fetchone()[0] == 0:
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute(f"PRAGMA user_version={SCHEMA}")
    db.executescript(_TABLES)


def _corrupt(error: sqlite3.Error) -> bool:
    code = (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF
    return code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def open_checked(path: Path) -> tuple[sqlite3.Connection, RecoveryReport | None]:
    """Open ``path`` for writing (creating it); recover it when SQLite reports it damaged."""
    wal = side_file(path, "-wal")
    size = path.stat().st_size if path.exists() else 0
    if size == 0 and wal.exists() and wal.stat().st_size > 0:
        # SQLite would silently delete this WAL: the whole journal may be in it.
        return _recover(path, "its main file is empty or missing while its write-ahead log holds data")
    try:
        db = connect(path, configure=False)
    except sqlite3.Error as error:
        raise unwritable(error, path, "open the journal") from None
    try:
        problem = identity_problem(db) if size else None
    except sqlite3.Error as error:
        db.close()
        if _corrupt(error):
            return _recover(path, str(error))
        raise unwritable(error, path, "open the journal") from None
    if problem:
        db.close()
        raise JournalError(f"{path} is not a usable companion journal: {problem}; set [journal] path "
                           "to the journal file (nothing was changed)")
    damage = integrity_problem(db) if size else None
    if damage:
        db.close()
        return _recover(path, damage)
    try:
        _configure(db)
        initialise(db)
    except sqlite3.Error as error:
        db.close()
        raise unwritable(error, path, "initialise the journal") from None
    return db, None


def move_aside(path: Path) -> Path:
    """Rename the journal and its ``-wal``/``-shm`` to ``NAME.corrupt-STAMP``; returns the new name."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists() or side_file(target, "-wal").exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    for suffix in ("-wal", "-shm"):
        if side_file(path, suffix).exists():
            side_file(path, suffix).rename(side_file(target, suffix))
    if path.exists():
        path.rename(target)
    return target


def _wal_page_size(wal: Path) -> int | None:
    with wal.open("rb") as handle:
        header = handle.read(32)
    if len(header) < 32 or header[:4] not in (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83"):
        return None
    size = int(struct.unpack(">I", header[8:12])[0])
    return size if size >= 512 and size & (size - 1) == 0 else None


def _rebuild_from_wal(wal: Path, workdir: Path) -> Path | None:
    """A readable copy of a journal whose main file was lost but whose WAL holds every page.

    SQLite takes page 1 and all others from the WAL; the fresh main file only supplies a header
    that says "WAL mode" with the WAL's page size.
    """
    page_size = _wal_page_size(wal)
    if page_size is None:
        return None
    rebuilt = workdir / "rebuilt.sqlite"
    db = sqlite3.connect(rebuilt, isolation_level=None)
    db.execute(f"PRAGMA page_size={page_size}")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE placeholder (x)")
    db.close()
    shutil.copyfile(wal, side_file(rebuilt, "-wal"))
    return rebuilt


def _recover(path: Path, problem: str) -> tuple[sqlite3.Connection, RecoveryReport]:
    try:
        moved = move_aside(path)
    except OSError as error:
        raise unwritable(error, path, "move the damaged journal aside") from None
    report = RecoveryReport(moved, problem)
    backup = newest_intact(path)
    try:
        db = connect(path)
        if backup is not None:
            source = sqlite3.connect(journal_uri(backup, mode="ro"), uri=True)
            try:
                source.backup(db)
            finally:
                source.close()
            report.backup = backup
        initialise(db)
    except sqlite3.Error as error:
        raise unwritable(error, path, "write the recovered journal") from None
    with tempfile.TemporaryDirectory(prefix="companion-recover-") as workdir:
        damaged: Path | None = moved if moved.exists() and moved.stat().st_size else None
        moved_wal = side_file(moved, "-wal")
        if damaged is None and moved_wal.exists():
            damaged = _rebuild_from_wal(moved_wal, Path(workdir))
        if damaged is not None:
            try:
                copy_games(damaged, db, report)
            except sqlite3.DatabaseError as error:
                log.warning("nothing more could be read from %s (%s)", moved, error)
    if report.games == 0:
        report.games, report.actions_saved = _counts(db)
        report.actions_found = max(report.actions_found, report.actions_saved)
    log.warning("%s", report.line())
    for game_id, why in sorted(report.cut.items()):
        log.warning("game %d was cut short in recovery: %s", game_id, why)
    return db, report


def _counts(db: sqlite3.Connection) -> tuple[int, int]:
    games = int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    actions = int(db.execute("SELECT COUNT(*) FROM entries WHERE kind = 'action'").fetchone()[0])
    return games, actions
