"""Open the journal read-only: what ``history``, ``export`` and the scoreboard read through.

It never changes the journal, and it still reads one on a read-only SD card (ext4's
``errors=remount-ro``) or in a directory it cannot write. SQLite's rules for a WAL database
(https://sqlite.org/wal.html#readonly) decide how:

1. ``mode=ro``: the normal case, also while the daemon writes. It needs the ``-shm`` file to
   exist or be creatable, so on a read-only card it works only when the daemon stopped without
   a clean close (``-wal`` and ``-shm`` still there).
2. After a clean close there is no ``-wal``: the main file is the whole journal and
   ``immutable=1`` reads it without any side file.
3. A ``-wal`` with data but no usable ``-shm`` (read-only card, ``-shm`` lost): ``immutable=1``
   would silently skip the WAL, so the main file and its WAL are copied to a temporary
   directory and the copy is read; every committed action is seen.

The ``file:`` URI is built with :meth:`pathlib.Path.as_uri`, which percent-quotes ``#``, ``?``
and ``%`` in the path (an unquoted URI opens another file or none).

>>> import tempfile, pathlib
>>> from companion.journal import Journal
>>> path = pathlib.Path(tempfile.mkdtemp()) / "odd #1 ?%25.sqlite"
>>> Journal.open(path).close()
>>> with open_readonly(path) as journal:
...     journal.games()
[]
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from companion.journal.reading import JournalError, JournalReader

#: Marks the file as ours (``PRAGMA application_id``): "JPCJ".
APPLICATION_ID = 0x4A50434A
#: The newest journal schema this companion reads and writes (``PRAGMA user_version``).
SCHEMA = 1
#: The first 16 bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"


def journal_uri(path: Path, **params: str) -> str:
    """A ``file:`` URI that SQLite resolves to exactly ``path``, with query ``params``.

    >>> journal_uri(Path("/srv/a #b?%25.sqlite"), mode="ro")
    'file:///srv/a%20%23b%3F%2525.sqlite?mode=ro'
    """
    uri = Path(path).absolute().as_uri()
    return f"{uri}?{urlencode(params)}" if params else uri


def side_file(path: Path, suffix: str) -> Path:
    """The journal's ``-wal`` or ``-shm`` companion file."""
    return path.with_name(path.name + suffix)


class ReadOnlyJournal(JournalReader):
    """A journal opened by :func:`open_readonly`; :attr:`how` says which way it was read."""

    def __init__(self, connection: sqlite3.Connection, path: Path, how: str,
                 snapshot: tempfile.TemporaryDirectory[str] | None = None) -> None:
        super().__init__(connection, path)
        #: ``"ro"`` (normal), ``"immutable"`` or ``"snapshot"`` (read-only card, see the module doc).
        self.how = how
        self._snapshot = snapshot

    def __exit__(self, *exc: object) -> None:
        """Close; a read that SQLite refused inside the ``with`` (damage past the first page, a
        card read error) becomes the one-line :class:`JournalError` instead of a traceback."""
        self.close()
        error = exc[1] if len(exc) > 1 else None
        if isinstance(error, sqlite3.Error):
            raise unreadable(self.path, error) from None

    def close(self) -> None:
        """Close the database and drop the temporary copy, if one was made."""
        super().close()
        if self._snapshot is not None:
            self._snapshot.cleanup()
            self._snapshot = None


def unreadable(path: Path, error: sqlite3.Error) -> JournalError:
    """The one-line error for a read SQLite refused: damage (``companion run`` recovers) or the disk."""
    code = (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF
    damage = (0, sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)  # 0: a plain DatabaseError
    if isinstance(error, sqlite3.DatabaseError) and code in damage:
        return JournalError(f"the journal {path} is damaged ({error}); `companion run` recovers what it "
                            "can and keeps the damaged file")
    return JournalError(f"cannot read the journal {path} ({error}); check the disk")


def check_journal_file(path: Path) -> None:
    """Raise a one-line :class:`JournalError` unless ``path`` is a readable SQLite file.

    Catches a missing file, a directory, a file we may not read, an empty file and a text (or
    any non-SQLite) file before SQLite sees them; nothing is changed.
    """
    if not path.exists():
        raise JournalError(f"no journal at {path} yet; `companion run` keeps one there")
    if path.is_dir():
        raise JournalError(f"the journal path {path} is a directory; set [journal] path to a file "
                           f"such as {path / 'journal.sqlite'}")
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except PermissionError:
        raise JournalError(f"cannot read the journal {path}: permission denied; run as the service "
                           "user (sudo -u jackpot) or fix the file's owner") from None
    except OSError as error:
        raise JournalError(f"cannot read the journal {path} ({error.strerror}); check the disk") from None
    if not header:
        raise JournalError(f"the journal {path} is empty; it holds no games")
    if header != SQLITE_HEADER:
        raise JournalError(f"{path} is not a usable companion journal: it is not an SQLite "
                           "database; check [journal] path")


def identity_problem(db: sqlite3.Connection) -> str | None:
    """Why the open database is not a journal this companion reads, or None when it is."""
    app = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    return identity_of(int(app), int(version))


def identity_of(app: int, version: int) -> str | None:
    """Why a database with this ``application_id`` and ``user_version`` is not ours to use."""
    if app != APPLICATION_ID:
        return "it belongs to another program"
    if version > SCHEMA:
        return f"it was written by a newer companion (schema {version}); update the companion"
    return None


def _cannot_open(error: sqlite3.OperationalError) -> bool:
    """SQLite could not open (or may not write) a side file: the read-only-directory case."""
    code = (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF
    return code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY)


def connect_readonly(path: Path) -> tuple[sqlite3.Connection, str, tempfile.TemporaryDirectory[str] | None]:
    """A read-only connection to ``path`` by the first rule of the module doc that works."""
    try:
        db = sqlite3.connect(journal_uri(path, mode="ro"), uri=True, timeout=5.0, check_same_thread=False)
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # opens the WAL and -shm
        except BaseException:
            db.close()
            raise
        return db, "ro", None
    except sqlite3.OperationalError as error:
        if not _cannot_open(error):
            raise
    wal = side_file(path, "-wal")
    if not (wal.exists() and wal.stat().st_size > 0):
        db = sqlite3.connect(journal_uri(path, mode="ro", immutable="1"), uri=True, check_same_thread=False)
        return db, "immutable", None
    snapshot = tempfile.TemporaryDirectory(prefix="companion-journal-")
    copy = Path(snapshot.name) / path.name
    try:
        shutil.copyfile(path, copy)
        shutil.copyfile(wal, side_file(copy, "-wal"))
        db = sqlite3.connect(journal_uri(copy, mode="ro"), uri=True, check_same_thread=False)
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except BaseException:
        snapshot.cleanup()
        raise
    return db, "snapshot", snapshot


def open_readonly(path: Path) -> ReadOnlyJournal:
    """Open the journal at ``path`` for reading only; a one-line :class:`JournalError` if it can't be.

    Never creates, changes or moves anything (a missing journal is an error, not a new file).
    """
    path = Path(path)
    check_journal_file(path)
    try:
        db, how, snapshot = connect_readonly(path)
    except (sqlite3.Error, OSError) as error:
        raise JournalError(f"cannot read the journal {path} ({error}); check the disk") from None
    journal = ReadOnlyJournal(db, path, how, snapshot)
    try:
        problem = identity_problem(db)
    except sqlite3.DatabaseError as error:
        journal.close()
        raise unreadable(path, error) from None
    if problem:
        journal.close()
        raise JournalError(f"{path} is not a usable companion journal: {problem}")
    return journal
