"""SQLite journal of games: configuration, every action, every observation, the result.

Why SQLite in WAL mode with ``synchronous=FULL``: a Pi's SD card and pulled plugs are the
classic failure (docs/platform.md); a committed transaction survives power loss, and a half-written
one is rolled back on the next open. Each ``record_*`` call is its own committed transaction,
and the daemon calls it before the screen shows the result; inside :meth:`Journal.transaction`
(one camera update: what was seen and the reveals it made) the writes commit together, once.

Only a journal SQLite itself reports damaged is moved aside (``journal.sqlite.corrupt-STAMP``),
and its games are recovered as far as they replay (:mod:`.recovery`); anything else that is
wrong is a one-line error that changes nothing, and a disk that cannot be written (full,
read-only) is a retryable :class:`JournalUnwritableError` (:mod:`.opening`).

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

import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from companion.journal.backup import automatic_backup
from companion.journal.backup import backup as backup_to
from companion.journal.lock import JournalBusyError, JournalLock
from companion.journal.opening import (
    JournalFullError,
    JournalReadOnlyError,
    JournalUnwritableError,
    check_target,
    open_checked,
    unwritable,
)
from companion.journal.reading import GameRecord, JournalError, JournalReader
from companion.journal.readonly import ReadOnlyJournal, open_readonly
from companion.journal.recovery import RecoveryReport, integrity_problem

__all__ = [
    "GameRecord", "Journal", "JournalBusyError", "JournalError", "JournalFullError", "JournalReadOnlyError",
    "JournalUnwritableError", "default_journal_path", "open_for_cli", "state_dir",
]

FILE_NAME = "journal.sqlite"
log = logging.getLogger(__name__)


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


class Journal(JournalReader):
    """The open journal. Use :meth:`open`; every write is committed before it returns."""

    def __init__(self, connection: sqlite3.Connection, path: Path, recovery: RecoveryReport | None = None,
                 lock: JournalLock | None = None) -> None:
        super().__init__(connection, path)
        #: What recovery of a damaged journal found and kept (None: the journal was healthy).
        self.recovery = recovery
        self._lock = lock
        #: inside :meth:`transaction`: writes join one transaction, committed when it ends
        self._batched = False
        #: quiet-moment work asked for inside :meth:`transaction`, done once it has committed
        self._after_commit: dict[str, Any] = {}

    @property
    def moved_aside(self) -> Path | None:
        """Where a damaged journal was moved on open (None if nothing was moved)."""
        return self.recovery.moved_to if self.recovery else None

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | None = None) -> Journal:
        """Open (or create) the journal at ``path`` (default :func:`default_journal_path`) for writing.

        Takes the journal's lock (:class:`~.lock.JournalBusyError` if another daemon has it),
        refuses what is not a journal and pauses on what cannot be written (:mod:`.opening`),
        and recovers a journal SQLite reports damaged (:attr:`recovery`). Readers that must not
        change anything use :func:`~.readonly.open_readonly` instead.
        """
        path = Path(path) if path else default_journal_path()
        check_target(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = JournalLock.acquire(path)
        except OSError as error:
            # the lock file is the first write: a journal already there is opened, not created
            doing = "open the journal" if path.exists() else "create the journal"
            raise unwritable(error, path, doing) from None
        try:
            db, report = open_checked(path)
        except BaseException:
            lock.release()
            raise
        return cls(db, path, report, lock)

    @staticmethod
    def _problem(path: Path) -> str | None:
        """Why ``path`` is not a usable, intact journal of ours (None when it is); changes nothing."""
        try:
            with open_readonly(path) as journal:
                return integrity_problem(journal.connection)
        except JournalError as error:
            return str(error)

    def close(self) -> None:
        """Close the database and let go of the lock (idempotent)."""
        super().close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing: one committed transaction each -------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Every write inside is one transaction, committed (once) when the block ends.

        Why: a camera update that reveals several cards was two commits per card, each a
        synchronous flush (slow on an SD card). The transaction begins at the first write, so a
        block that writes nothing costs nothing. On any error inside nothing of it is kept (the
        caller puts its own state back: :meth:`~companion.session.Session.transaction`); a
        nested block joins the outer one.
        """
        if self._batched:
            yield
            return
        self._batched = True
        try:
            yield
            if self._db.in_transaction:
                self._db.execute("COMMIT")
        except BaseException as error:
            self._after_commit.clear()
            with contextlib.suppress(sqlite3.Error):
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise unwritable(error, self.path) from None
            raise
        finally:
            self._batched = False
        later, self._after_commit = self._after_commit, {}
        for work in later.values():
            work()

    @property
    def batched(self) -> bool:
        """True inside :meth:`transaction` (writes are not committed yet)."""
        return self._batched

    def _write(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
        if self._batched:
            try:
                if not self._db.in_transaction:
                    self._db.execute("BEGIN IMMEDIATE")
                return self._db.execute(sql, params)
            except sqlite3.Error as error:
                raise unwritable(error, self.path) from None
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
        except sqlite3.Error as error:
            raise unwritable(error, self.path) from None

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

    def record_scores(self, game_id: int, version: int, scores: list[int]) -> int:
        """Note the scores after action ``version`` (end of a turn): what ``history`` still shows
        if a later update can no longer replay the game's log."""
        return self._append(game_id, "scores", json.dumps({"version": version, "scores": list(scores)}))

    def finish_game(self, game_id: int, result: Mapping[str, Any], status: str = "finished") -> None:
        """Mark a game finished (or ``abandoned``, ``ended``) with its result."""
        self._write(
            "UPDATE games SET ended_at = ?, status = ?, result = ? WHERE id = ?",
            (time.time(), status, json.dumps(dict(result), sort_keys=True), game_id),
        )

    def end_game(self, game_id: int, result: Mapping[str, Any] | None = None) -> None:
        """The table ended an unfinished game (menu, ``companion end``, ``run --new``): it stays in
        the history as ``ended``, with the scores it had if they are known; nothing is deleted.

        Raises :class:`JournalError` when there is no such game or it is no longer being played.
        """
        cursor = self._write(
            "UPDATE games SET ended_at = ?, status = 'ended', result = ? WHERE id = ? AND status = 'playing'",
            (time.time(), None if result is None else json.dumps(dict(result), sort_keys=True), game_id),
        )
        if cursor.rowcount == 0:
            record = self.game(game_id)  # raises for an unknown id
            raise JournalError(f"game {game_id} is already {record.status}; only a game being played can end")


    def start_night(self, at: float | None = None) -> float:
        """The host's "New night": games started from ``at`` (default: now) on are a new night
        (see :mod:`.queries`); the menu passes the current game's start to make it the first."""
        at = time.time() if at is None else at
        self._write("INSERT INTO nights (started_at) VALUES (?)", (at,))
        return at

    # --- quiet moments: checkpoint and backup ------------------------------------------------

    def checkpoint(self) -> bool:
        """Copy the WAL into the main file and empty it, so the main file alone is the journal.

        Called at quiet moments (end of a turn, end of a game). SQLite makes it safe against a
        power cut at any point; a failure (full disk) changes nothing and is only logged, since
        every action is already committed in the WAL. True when the WAL was emptied. Inside
        :meth:`transaction` it waits for the commit (a checkpoint cannot copy what is not written).
        """
        if self._batched:
            self._after_commit.setdefault("checkpoint", self.checkpoint)
            return False
        try:
            busy, _, _ = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error as error:
            log.warning("journal checkpoint skipped: %s", unwritable(error, self.path, "checkpoint"))
            return False
        return int(busy) == 0

    def backup(self, target: Path) -> Path:
        """A consistent copy of the whole journal at ``target`` (SQLite's online backup)."""
        try:
            return backup_to(self._db, target)
        except (sqlite3.Error, OSError) as error:
            raise unwritable(error, target, "write the backup") from None

    def automatic_backup(self, label: str) -> Path | None:
        """The end-of-game copy in ``backups/`` (the newest few are kept); None (logged) on failure.

        Inside :meth:`transaction` it is made once the block has committed (None here)."""
        if self._batched:
            self._after_commit.setdefault(f"backup {label}", lambda: self.automatic_backup(label))
            return None
        try:
            return automatic_backup(self._db, self.path, label)
        except (sqlite3.Error, OSError) as error:
            log.warning("automatic backup skipped: %s", unwritable(error, self.path, "back up"))
            return None


def open_for_cli(config_path: str | None, journal_path: str | None) -> ReadOnlyJournal:
    """The journal a CLI reads, opened read-only (:mod:`.readonly`): ``--journal``, else the
    config's ``[journal] path``, else the default. Never changes anything on disk."""
    if journal_path:
        return open_readonly(Path(journal_path))
    from companion.config import load_config

    config = load_config(config_path)
    return open_readonly(config.journal_path or default_journal_path())
