"""SQLite journal of games: configuration, every action, every observation, the result.

Why SQLite in WAL mode with ``synchronous=FULL``: a Pi's SD card and pulled plugs are the
classic failure (PLATFORM.md); a committed transaction survives power loss, and a half-written
one is rolled back on the next open. Each ``record_*`` call is its own committed transaction,
and the daemon calls it before the screen shows the result.

A file that is not our journal (corrupt, or another program's database) is never overwritten:
it is renamed aside (``journal.sqlite.corrupt-20260101T120000``) and a fresh journal is created;
:attr:`Journal.moved_aside` says where it went so the screen and the log can tell the user.

>>> import tempfile, pathlib
>>> j = Journal.open(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite")
>>> gid = j.start_game({"game": "bandit", "players": 2, "variants": [], "seed": 1, "options": {}},
...                    seats=["Ann", "Bob"], mode="cabinet")
>>> j.record_action(gid, "reveal cherry")
1
>>> j.actions(gid)
['reveal cherry']
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.journal.reading import GameRecord as GameRecord  # re-exported: session imports it here
from companion.journal.reading import JournalError, JournalReader
from companion.journal.readonly import (
    APPLICATION_ID,
    SCHEMA,
    ReadOnlyJournal,
    identity_problem,
    journal_uri,
    open_readonly,
)

FILE_NAME = "journal.sqlite"

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


class JournalFullError(JournalError):
    """The disk is full: nothing was written; free space and the same write can be retried."""


def state_dir() -> Path:
    """systemd's ``$STATE_DIRECTORY`` (first entry), else ``$XDG_STATE_HOME`` or ~/.local/state."""
    systemd = os.environ.get("STATE_DIRECTORY")
    if systemd:
        return Path(systemd.split(":")[0])
    xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(xdg) / "jackpot-companion"


def default_journal_path() -> Path:
    """The journal file in :func:`state_dir`."""
    return state_dir() / FILE_NAME


def _is_full(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    return code == sqlite3.SQLITE_FULL or "disk is full" in str(error)


class Journal(JournalReader):
    """The open journal. Use :meth:`open`; every write is committed before it returns."""

    def __init__(self, connection: sqlite3.Connection, path: Path, moved_aside: Path | None) -> None:
        super().__init__(connection, path)
        #: Where a corrupt or foreign file was moved on open (None if nothing was moved).
        self.moved_aside = moved_aside

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | None = None) -> Journal:
        """Open (or create) the journal at ``path`` (default :func:`default_journal_path`).

        Readers that must not change anything use :func:`~.readonly.open_readonly` instead.
        """
        path = Path(path) if path else default_journal_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise JournalError(
                f"cannot create the journal directory {path.parent} ({error.strerror}); "
                "set [journal] path or STATE_DIRECTORY to a writable place"
            ) from None
        moved: Path | None = None
        if path.exists() and path.stat().st_size > 0:
            problem = cls._problem(path)
            if problem:
                moved = cls._move_aside(path, problem)
        try:
            db = cls._connect(path)
        except sqlite3.Error as error:
            raise JournalError(f"cannot open the journal {path} ({error}); check the disk") from None
        return cls(db, path, moved)

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves so each write is one transaction.
        db = sqlite3.connect(str(path), isolation_level=None, timeout=5.0, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        if db.execute("PRAGMA application_id").fetchone()[0] == 0:
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={SCHEMA}")
        db.executescript(_TABLES)
        return db

    @staticmethod
    def _problem(path: Path) -> str | None:
        """Why ``path`` is not a usable journal of ours, or None when it is."""
        try:
            db = sqlite3.connect(journal_uri(path, mode="ro"), uri=True)
            try:
                problem = identity_problem(db)
                check = db.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                db.close()
        except sqlite3.DatabaseError as error:
            return f"it is not a readable SQLite database ({error})"
        if problem:
            return problem
        if check != "ok":
            return f"it is damaged ({check})"
        return None

    @staticmethod
    def _move_aside(path: Path, problem: str) -> Path:
        stamp = time.strftime("%Y%m%dT%H%M%S")
        target = path.with_name(f"{path.name}.corrupt-{stamp}")
        n = 1
        while target.exists():
            target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
            n += 1
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
        path.rename(target)
        logging.getLogger(__name__).warning(
            "journal %s could not be used because %s; moved it to %s and started a new one",
            path, problem, target,
        )
        return target

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing: one committed transaction each -------------------------------------------

    def _write(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = self._db.execute(sql, params)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            return cursor
        except sqlite3.OperationalError as error:
            if _is_full(error):
                raise JournalFullError(
                    "the disk is full: the game is paused until there is space (nothing was lost)"
                ) from None
            raise JournalError(f"the journal could not be written ({error}); check the SD card") from None

    def start_game(self, config: Mapping[str, Any], seats: list[str], mode: str) -> int:
        """Record a new game (``GameConfig.to_dict()``); returns its id."""
        cursor = self._write(
            "INSERT INTO games (config, seats, mode, started_at) VALUES (?, ?, ?, ?)",
            (json.dumps(dict(config), sort_keys=True), json.dumps(seats), mode, time.time()),
        )
        assert cursor.lastrowid is not None
        return int(cursor.lastrowid)

    def _append(self, game_id: int, kind: str, text: str) -> int:
        seq = self._next_seq(game_id)
        self._write(
            "INSERT INTO entries (game_id, seq, kind, text, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, seq, kind, text, time.time()),
        )
        return seq

    def _next_seq(self, game_id: int) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?", (game_id,))
        return int(row.fetchone()[0]) + 1

    def record_action(self, game_id: int, action: str) -> int:
        """Append an engine action (text form); committed when this returns. Returns its seq."""
        return self._append(game_id, "action", action)

    def record_observation(self, game_id: int, observation: Mapping[str, Any] | str) -> int:
        """Append what the camera or a player reported (not replayed; kept for the record)."""
        text = observation if isinstance(observation, str) else json.dumps(dict(observation), sort_keys=True)
        return self._append(game_id, "observation", text)

    def finish_game(self, game_id: int, result: Mapping[str, Any], status: str = "finished") -> None:
        """Mark a game finished (or ``abandoned``) with its result."""
        self._write(
            "UPDATE games SET ended_at = ?, status = ?, result = ? WHERE id = ?",
            (time.time(), status, json.dumps(dict(result), sort_keys=True), game_id),
        )

    def start_night(self) -> float:
        """The host's "New night": games from now on are a new night (see :mod:`.queries`)."""
        now = time.time()
        self._write("INSERT INTO nights (started_at) VALUES (?)", (now,))
        return now


def open_for_cli(config_path: str | None, journal_path: str | None) -> ReadOnlyJournal:
    """The journal a CLI reads, opened read-only (:mod:`.readonly`): ``--journal``, else the
    config's ``[journal] path``, else the default. Never changes anything on disk."""
    if journal_path:
        return open_readonly(Path(journal_path))
    from companion.config import load_config

    config = load_config(config_path)
    return open_readonly(config.journal_path or default_journal_path())
