"""Queries over an open journal connection, shared by the writer (:class:`~.store.Journal`) and
the read-only open (:func:`~.readonly.open_readonly`) that ``history``, ``export`` and the
scoreboard use. Nothing here writes."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import UserError


class JournalError(UserError):
    """The journal cannot be used (no such game, unwritable directory); the message says what to do."""


@dataclass(frozen=True)
class GameRecord:
    """One game as the journal knows it."""

    id: int
    config: dict[str, Any]
    seats: list[str]
    mode: str
    started_at: float
    ended_at: float | None
    status: str
    result: dict[str, Any] | None
    actions: int

    @property
    def game(self) -> str:
        """The game id, e.g. ``bandit``."""
        return str(self.config.get("game", "?"))

    @property
    def duration(self) -> float:
        """Seconds from start to end (or to now for an unfinished game)."""
        return (self.ended_at or time.time()) - self.started_at


class JournalReader:
    """Read access to a journal's games and entries over one SQLite connection."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        #: The journal file this reader was opened on.
        self.path = path

    @property
    def connection(self) -> sqlite3.Connection:
        """The SQLite connection, for queries of your own (read-only for a read-only open)."""
        return self._db

    def close(self) -> None:
        """Close the database (idempotent)."""
        with contextlib.suppress(sqlite3.Error):
            self._db.close()

    def __enter__(self) -> JournalReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def actions(self, game_id: int) -> list[str]:
        """The game's action log in order."""
        rows = self._db.execute(
            "SELECT text FROM entries WHERE game_id = ? AND kind = 'action' ORDER BY seq", (game_id,)
        )
        return [text for (text,) in rows]

    def last_scores(self, game_id: int) -> tuple[int, list[int]] | None:
        """The last scores noted during play (action count, scores), or None if none were."""
        row = self._db.execute(
            "SELECT text FROM entries WHERE game_id = ? AND kind = 'scores' ORDER BY seq DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        return int(data["version"]), [int(s) for s in data["scores"]]

    def entries(self, game_id: int) -> list[tuple[int, str, str, float]]:
        """Every entry (seq, kind, text, at) of the game in order."""
        rows = self._db.execute(
            "SELECT seq, kind, text, at FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [(int(s), str(k), str(t), float(a)) for s, k, t, a in rows]

    def game(self, game_id: int) -> GameRecord:
        """One game; raises :class:`JournalError` if there is no such game."""
        records = self._records("WHERE g.id = ?", (game_id,))
        if not records:
            raise JournalError(f"no game {game_id} in the journal; `companion history` lists them")
        return records[0]

    def games(self) -> list[GameRecord]:
        """Every game, oldest first."""
        return self._records("", ())

    def unfinished(self) -> GameRecord | None:
        """The most recent game still being played (the one to resume), if any."""
        records = self._records("WHERE g.status = 'playing'", ())
        return records[-1] if records else None

    def _records(self, where: str, params: tuple[Any, ...]) -> list[GameRecord]:
        rows = self._db.execute(
            "SELECT g.id, g.config, g.seats, g.mode, g.started_at, g.ended_at, g.status, g.result, "
            "(SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id AND e.kind = 'action') "
            f"FROM games g {where} ORDER BY g.id",
            params,
        )
        return [
            GameRecord(
                int(i), json.loads(c), json.loads(s), str(m), float(st), None if en is None else float(en),
                str(status), None if r is None else json.loads(r), int(n),
            )
            for i, c, s, m, st, en, status, r, n in rows
        ]

    def export(self, game_id: int) -> dict[str, Any]:
        """The game as ``Match.to_dict()`` JSON (``companion replay`` reads it) plus journal extras."""
        from companion.engine.game import SCHEMA_VERSION

        record = self.game(game_id)
        observations = [
            {"seq": seq, "at": at, "text": text}
            for seq, kind, text, at in self.entries(game_id)
            if kind == "observation"
        ]
        return {
            "schema": SCHEMA_VERSION,
            "config": record.config,
            "actions": self.actions(game_id),
            "journal": {
                "id": record.id,
                "seats": record.seats,
                "mode": record.mode,
                "started_at": record.started_at,
                "ended_at": record.ended_at,
                "status": record.status,
                "result": record.result,
                "observations": observations,
            },
        }
