"""What the scoreboard shows, kept up to date from the journal by one watcher thread.

One thread looks at the journal four times a second (``PRAGMA data_version`` tells it whether
another connection committed since, at the cost of one read); when something changed it builds
one snapshot (the live game and tonight) as JSON bytes and wakes every page waiting for it.
However many phones are connected, the journal is read once per change, and each read is a
short read transaction, so the daemon's writes never wait for the scoreboard (WAL readers do not
block writers).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from companion.journal.live import LiveGame
from companion.journal.queries import Night, group_nights, night_starts
from companion.journal.reading import JournalError
from companion.journal.readonly import ReadOnlyJournal, open_readonly

log = logging.getLogger(__name__)

#: Seconds between looks at the journal (the page is updated within this of a write).
POLL_S = 0.25
#: A journal opened without the daemon's side files is reopened this often (the daemon may start).
REOPEN_S = 5.0


class Board:
    """The scoreboard's view of one journal: a snapshot, and a way to wait for the next one."""

    def __init__(self, path: Path, poll_s: float = POLL_S) -> None:
        self.path = path
        self.poll_s = poll_s
        self._journal: ReadOnlyJournal | None = None
        self._opened_at = 0.0
        self._inode = 0
        self._data_version: int | None = None
        self._db_lock = threading.Lock()
        self._changed = threading.Condition()
        self._version = 0
        self._snapshot = b"{}"
        self._nights: list[Night] = []
        self._live = LiveGame()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="journal-watcher", daemon=True)
        self.problem = "starting"
        self._refresh()

    # --- the watcher ------------------------------------------------------------------------

    def start(self) -> None:
        """Start watching the journal."""
        self._thread.start()

    def stop(self) -> None:
        """Stop watching and close the journal; waiting pages are woken."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        with self._changed:
            self._changed.notify_all()
        with self._db_lock:
            if self._journal is not None:
                self._journal.close()
                self._journal = None

    @property
    def stopping(self) -> bool:
        """True once :meth:`stop` was called."""
        return self._stop.is_set()

    def _watch(self) -> None:
        while not self._stop.wait(self.poll_s):
            try:
                self._refresh()
            except Exception as error:  # noqa: BLE001 - one bad look must not freeze the page all night
                kind = type(error).__name__
                problem = f"the scoreboard hit an error reading the journal ({kind}); it keeps trying"
                if problem != self.problem:
                    log.exception("%s", problem)  # the traceback once, not every look
                self._drop(problem)

    def _refresh(self) -> None:
        try:
            with self._db_lock:
                changed = self._look()
                if changed:
                    snapshot = self._build()
        except (sqlite3.Error, OSError, JournalError) as error:
            self._drop(f"the journal cannot be read right now ({error})")
            return
        if changed:
            self._publish(snapshot)

    def _look(self) -> bool:
        """Open the journal if needed; True when it changed since the last look."""
        now = time.monotonic()
        if self._journal is not None and now - self._opened_at > REOPEN_S and self._stale():
            self._journal.close()
            self._journal = None
        if self._journal is None:
            if not self.path.exists():
                if self.problem != "no journal":
                    self.problem = "no journal"
                    self._publish(self._build_empty(f"no journal at {self.path} yet: the companion "
                                                    "starts one with its first game"))
                return False
            self._inode = self.path.stat().st_ino
            self._journal = open_readonly(self.path)
            self._opened_at, self._data_version = now, None
        version = int(self._journal.connection.execute("PRAGMA data_version").fetchone()[0])
        if version == self._data_version:
            return False
        self._data_version = version
        return True

    def _stale(self) -> bool:
        """Whether to open the journal again: a copy or an immutable read (a read-only card) sees
        no news, and a journal the daemon moved aside (damaged) is no longer the one at the path."""
        self._opened_at = time.monotonic()
        try:
            moved = self.path.stat().st_ino != self._inode
        except OSError:
            moved = True
        return moved or (self._journal is not None and self._journal.how != "ro")

    def _drop(self, problem: str) -> None:
        with self._db_lock:
            if self._journal is not None:
                self._journal.close()
                self._journal = None
        if problem != self.problem:
            log.warning("%s", problem)
            self.problem = problem
            self._publish(self._build_empty(problem))

    def _build(self) -> bytes:
        """Read the journal once (one read transaction) and build the snapshot."""
        assert self._journal is not None
        db = self._journal.connection
        db.execute("BEGIN")
        try:
            records = self._journal.games()
            starts = night_starts(db)
            playing = [r for r in records if r.status == "playing"]
            live_record = playing[-1] if playing else (records[-1] if records else None)
            live = self._live.update(db, live_record) if live_record is not None else None
        finally:
            db.execute("COMMIT")
        live_scores = {playing[-1].id: self._live.scores} if playing else {}
        self._nights = group_nights(records, starts, live_scores)
        tonight = self._nights[-1] if self._nights else None
        if live is not None and (tonight is None or live["id"] not in tonight.game_ids):
            live = None  # the last game belongs to an earlier night: tonight has not started yet
        self.problem = ""
        return _encode({"live": live, "night": tonight.to_dict() if tonight else None,
                        "nights": len(self._nights), "problem": ""})

    def _build_empty(self, problem: str) -> bytes:
        self._nights = []
        return _encode({"live": None, "night": None, "nights": 0, "problem": problem})

    def _publish(self, snapshot: bytes) -> None:
        with self._changed:
            self._version += 1
            self._snapshot = snapshot
            self._changed.notify_all()

    # --- what the pages read ----------------------------------------------------------------

    def snapshot(self) -> tuple[int, bytes]:
        """The current snapshot (JSON bytes) and its version number."""
        with self._changed:
            return self._version, self._snapshot

    def wait(self, seen: int, timeout: float) -> tuple[int, bytes]:
        """The first snapshot newer than version ``seen``, or the current one after ``timeout``."""
        with self._changed:
            self._changed.wait_for(lambda: self._version != seen or self._stop.is_set(), timeout)
            return self._version, self._snapshot

    def nights(self) -> list[dict[str, Any]]:
        """Every night, newest first, in brief: id, when, games, the leader."""
        with self._changed:
            nights = list(self._nights)
        out = []
        for night in reversed(nights):
            standings = night.standings()
            out.append({"id": night.id, "started_at": night.started_at, "ended_at": night.ended_at,
                        "games": len(night.games), "leader": standings[0].name if standings else None})
        return out

    def night(self, night_id: int) -> Night | None:
        """The night with this id (its first game's id), or None."""
        with self._changed:
            return next((n for n in self._nights if n.id == night_id and n.games), None)


def _encode(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()
