"""Getting the games back out of a journal that SQLite reports damaged.

Only :func:`integrity_problem` decides that a journal is damaged: ``PRAGMA integrity_check`` (or
SQLite refusing the file with ``SQLITE_CORRUPT``/``SQLITE_NOTADB`` although it starts like an
SQLite file). Everything else (permissions, a full or read-only disk, a path that is not a
journal) is an error that touches nothing; see :mod:`.store`.

The damaged file is moved aside, the newest intact automatic backup (if any) becomes the new
journal, and every game is then copied from the damaged file as far as it can be read *and* its
actions still replay; a game the backup has more of is left as the backup has it. The result is
one :class:`RecoveryReport`, whose :meth:`~RecoveryReport.line` the daemon logs and shows.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.journal.readonly import journal_uri

_GAME_COLUMNS = "id, config, seats, mode, started_at, ended_at, status, result"


@dataclass
class RecoveryReport:
    """What recovery found and kept."""

    moved_to: Path
    problem: str
    backup: Path | None = None
    games: int = 0
    actions_saved: int = 0
    actions_found: int = 0
    #: game id -> why its log stops early (unreadable rows, or an action that does not replay)
    cut: dict[int, str] = field(default_factory=dict)

    def line(self) -> str:
        """The one line for the log and the screen."""
        source = "from the damaged file"
        if self.backup:
            source = f"from backup {self.backup.name} and the damaged file"
        return (f"the journal was damaged ({self.problem.splitlines()[0]}); kept it as {self.moved_to.name} "
                f"and saved {self.actions_saved} actions in {self.games} games {source} "
                f"({self.actions_found} actions could still be read)")


def integrity_problem(db: sqlite3.Connection) -> str | None:
    """SQLite's own verdict on the open database: None when ``integrity_check`` says ok."""
    try:
        rows = [str(row[0]) for row in db.execute("PRAGMA integrity_check(5)")]
    except sqlite3.DatabaseError as error:
        return str(error)
    return None if rows == ["ok"] else "; ".join(rows)


def _readable(db: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """The rows SQLite can hand out before it hits damage (possibly none)."""
    rows: list[tuple[Any, ...]] = []
    try:
        for row in db.execute(sql, tuple(params)):
            rows.append(tuple(row))
    except sqlite3.DatabaseError:
        pass
    return rows


def _game_ids(db: sqlite3.Connection) -> list[int]:
    ids = {int(r[0]) for r in _readable(db, "SELECT id FROM games")}
    ids |= {int(r[0]) for r in _readable(db, "SELECT DISTINCT game_id FROM entries NOT INDEXED")}
    return sorted(ids)


def _entries(db: sqlite3.Connection, game_id: int) -> list[tuple[int, str, str, float]]:
    """The game's entries 1..k in order, up to the first one that cannot be read."""
    columns = "SELECT seq, kind, text, at FROM entries"
    by_index = _readable(db, f"{columns} WHERE game_id = ? ORDER BY seq", (game_id,))
    by_scan = _readable(db, f"{columns} NOT INDEXED WHERE game_id = ?", (game_id,))
    rows = {int(r[0]): r for r in by_scan} | {int(r[0]): r for r in by_index}
    kept: list[tuple[int, str, str, float]] = []
    for seq in range(1, len(rows) + 2):
        row = rows.get(seq)
        if row is None:
            break  # a gap: what follows may depend on the lost entry
        kept.append((seq, str(row[1]), str(row[2]), float(row[3])))
    return kept


def replayable_prefix(config: dict[str, Any], actions: Iterable[str]) -> tuple[int, str | None]:
    """How many of ``actions`` replay under today's rules, and why the next one does not."""
    from companion.engine import GameConfig
    from companion.engine.match import replay_steps

    count = 0
    try:
        for _ in replay_steps(GameConfig.from_dict(config), actions):
            count += 1
    except ValueError as error:  # ReplayError, a config the engine no longer accepts
        return count, str(error)
    return count, None


def copy_games(damaged: Path, target: sqlite3.Connection, report: RecoveryReport) -> None:
    """Copy each game of ``damaged`` into ``target`` as far as it reads and replays."""
    source = sqlite3.connect(journal_uri(damaged, mode="ro"), uri=True)
    try:
        for game_id in _game_ids(source):
            _copy_game(source, target, game_id, report)
        _copy_other_tables(source, target)
    finally:
        source.close()


def _copy_game(source: sqlite3.Connection, target: sqlite3.Connection, game_id: int,
               report: RecoveryReport) -> None:
    found = _readable(
        source, "SELECT COUNT(*) FROM entries NOT INDEXED WHERE game_id = ? AND kind = 'action'", (game_id,)
    )
    entries = _entries(source, game_id)
    game = _readable(source, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
    actions_found = max(int(found[0][0]) if found else 0, sum(1 for e in entries if e[1] == "action"))
    have = target.execute("SELECT COUNT(*) FROM entries WHERE game_id = ? AND kind = 'action'", (game_id,))
    in_backup = int(have.fetchone()[0])
    report.actions_found += max(actions_found, in_backup)
    report.games += 1
    if not game:
        report.cut[game_id] = "its game record is unreadable"
        report.actions_saved += in_backup
        return
    config = json.loads(game[0][1])
    good, why = replayable_prefix(config, [text for _, kind, text, _ in entries if kind == "action"])
    if good <= in_backup:
        report.actions_saved += in_backup
        if in_backup < actions_found:
            report.cut[game_id] = why or "entries after the backup are unreadable"
        return
    kept: list[tuple[int, str, str, float]] = []
    actions = 0
    for entry in entries:
        if entry[1] == "action":
            if actions == good:
                break
            actions += 1
        kept.append(entry)
    if good < actions_found or why is not None:
        # The game keeps its status: a game being played resumes after its last good action,
        # a finished one keeps the result it was given.
        report.cut[game_id] = why or "the rest of its log is unreadable"
    row = list(game[0])
    target.execute("BEGIN IMMEDIATE")
    target.execute("DELETE FROM entries WHERE game_id = ?", (game_id,))
    target.execute("DELETE FROM games WHERE id = ?", (game_id,))
    target.execute(f"INSERT INTO games ({_GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
    target.executemany("INSERT INTO entries (game_id, seq, kind, text, at) VALUES (?, ?, ?, ?, ?)",
                       [(game_id, *entry) for entry in kept])
    target.execute("COMMIT")
    report.actions_saved += good


def _copy_other_tables(source: sqlite3.Connection, target: sqlite3.Connection) -> None:
    """Rows of the journal's other tables (e.g. the scoreboard's) that are readable and new."""
    names = {r[0] for r in _readable(target, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    for name in sorted(names - {"games", "entries"} - {n for n in names if n.startswith("sqlite_")}):
        rows = _readable(source, f'SELECT * FROM "{name}"')
        if rows:
            marks = ", ".join("?" * len(rows[0]))
            target.execute("BEGIN IMMEDIATE")
            try:
                target.executemany(f'INSERT OR IGNORE INTO "{name}" VALUES ({marks})', rows)
                target.execute("COMMIT")
            except sqlite3.DatabaseError:
                target.execute("ROLLBACK")
