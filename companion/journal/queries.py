"""Game nights from the journal: which games belong together, who won, the night's standings,
and a night as CSV or JSON. Read-only: every function here only runs SELECTs.

A *night* is what the host started with "New night" in the companion's menu (a row in the
``nights`` table); without one, games closer than :data:`NIGHT_GAP_S` (6 hours) to the game
before them belong to the same night. The scoreboard, ``companion history`` and ``export`` read
nights through here.

>>> g = lambda i, t: GameRecord(i, {"game": "bandit"}, ["Ann", "Bob"], "cabinet", t, t + 60,
...                             "finished", {"scores": [3, 5], "winners": [1]}, 9)
>>> [n.game_ids for n in group_nights([g(1, 0), g(2, 600), g(3, 30000)], [])]
[[1, 2], [3]]
>>> [n.game_ids for n in group_nights([g(1, 0), g(2, 600)], [300.0])]
[[1], [2]]
"""

from __future__ import annotations

import csv
import io
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.journal.reading import GameRecord, JournalError, JournalReader

#: Games further apart than this (from the end of one to the start of the next) start a new night.
NIGHT_GAP_S = 6 * 3600.0

#: Readable names of the five games (the engine's titles, without importing the engine here).
GAME_TITLES = {
    "bandit": "Bandit",
    "pay-line": "Pay Line",
    "mega-jackpot": "Mega Jackpot",
    "thanks-a-lottery": "Thanks a Lottery",
    "jackpot-payout": "Jackpot Payout",
}


@dataclass(frozen=True)
class GameSummary:
    """One game as a night lists it: who played, the scores (so far), the winners by name."""

    id: int
    game: str
    title: str
    mode: str
    players: list[str]
    status: str
    scores: list[int]
    winners: list[str]
    started_at: float
    ended_at: float | None
    duration_s: float

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the scoreboard's and the download's)."""
        return {
            "id": self.id, "game": self.game, "title": self.title, "mode": self.mode,
            "players": self.players, "status": self.status, "scores": self.scores,
            "winners": self.winners, "started_at": self.started_at, "ended_at": self.ended_at,
            "duration_s": round(self.duration_s, 1),
        }


@dataclass(frozen=True)
class Standing:
    """A player's night: games played, wins (a shared win counts as a share), points, best score."""

    name: str
    played: int = 0
    wins: float = 0.0
    points: int = 0
    best: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"name": self.name, "played": self.played, "wins": round(self.wins, 3),
                "points": self.points, "best": self.best}


@dataclass
class Night:
    """Games that belong together; ``id`` is the first game's id (0 for a night with no game yet)."""

    started_at: float
    games: list[GameSummary] = field(default_factory=list)

    @property
    def id(self) -> int:
        """The night's id in URLs and downloads: its first game's id."""
        return self.games[0].id if self.games else 0

    @property
    def game_ids(self) -> list[int]:
        """The ids of its games, in order."""
        return [g.id for g in self.games]

    @property
    def ended_at(self) -> float:
        """When its last game ended (or now, while one is played)."""
        if not self.games:
            return self.started_at
        last = self.games[-1]
        return last.ended_at if last.ended_at is not None else time.time()

    def standings(self) -> list[Standing]:
        """Every player of the night, most wins first, then most points."""
        table: dict[str, Standing] = {}
        for game in self.games:
            if game.status in ("abandoned", "ended"):  # not played to the end: no standing
                continue
            for name, score in zip(game.players, game.scores, strict=False):
                s = table.get(name, Standing(name))
                share = 1 / len(game.winners) if name in game.winners and game.status == "finished" else 0.0
                table[name] = Standing(name, s.played + 1, s.wins + share, s.points + score,
                                       max(s.best, score))
        return sorted(table.values(), key=lambda s: (-s.wins, -s.points, s.name))

    def to_dict(self) -> dict[str, Any]:
        """The night as JSON: its games and its standings."""
        return {"id": self.id, "started_at": self.started_at, "ended_at": self.ended_at,
                "games": [g.to_dict() for g in self.games],
                "standings": [s.to_dict() for s in self.standings()]}

    def to_csv(self) -> str:
        """One row per player per game (spreadsheet-friendly), times in local ISO form."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["game_id", "game", "started", "duration_s", "status", "seat", "player", "score",
                         "winner"])
        for g in self.games:
            started = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(g.started_at))
            for seat, name in enumerate(g.players):
                score = g.scores[seat] if seat < len(g.scores) else ""
                writer.writerow([g.id, g.title, started, round(g.duration_s), g.status, seat + 1, name, score,
                                 "yes" if name in g.winners and g.status == "finished" else ""])
        return out.getvalue()


def seat_name(seats: Sequence[str], index: int) -> str:
    """The seat's name, or ``Player N`` when the journal has none for it."""
    return seats[index] if 0 <= index < len(seats) else f"Player {index + 1}"


def summarize(record: GameRecord, live_scores: Sequence[int] | None = None) -> GameSummary:
    """A journal game as a night lists it; ``live_scores`` stand in for a game still being played."""
    result = record.result or {}
    scores = [int(s) for s in result.get("scores", live_scores or [])]
    players = [seat_name(record.seats, i) for i in range(max(len(record.seats), len(scores)))]
    winners = [seat_name(record.seats, int(w)) for w in result.get("winners", [])]
    return GameSummary(record.id, record.game, GAME_TITLES.get(record.game, record.game), record.mode,
                       players, record.status, scores, winners, record.started_at, record.ended_at,
                       record.duration)


def night_starts(db: sqlite3.Connection) -> list[float]:
    """When the host pressed "New night" (oldest first); none in a journal from before nights."""
    try:
        rows = db.execute("SELECT started_at FROM nights ORDER BY started_at").fetchall()
    except sqlite3.OperationalError:  # a journal written before the nights table existed
        return []
    return [float(at) for (at,) in rows]


def night_is_new(db: sqlite3.Connection) -> bool:
    """Whether the host's latest "New night" came after the start of every game: the next game
    is the first of that night (what the menu shows before the first game of a night)."""
    marks = night_starts(db)
    if not marks:
        return False
    (latest_game,) = db.execute("SELECT MAX(started_at) FROM games").fetchone()
    return latest_game is None or marks[-1] > float(latest_game)


def group_nights(records: Sequence[GameRecord], starts: Sequence[float],
                 live_scores: dict[int, list[int]] | None = None) -> list[Night]:
    """Split games (oldest first) into nights at each "New night" and at each gap of 6 hours.

    A "New night" pressed after the last game opens an empty night: it is the current one.
    """
    nights: list[Night] = []
    marks = sorted(starts)
    previous_start: float | None = None
    previous_end: float | None = None
    for record in records:
        # a mark counts from the first game started after it (pressed mid-game: the next game)
        began_night = any((previous_start is None or previous_start < m) and m <= record.started_at
                          for m in marks)
        gap = previous_end is not None and record.started_at - previous_end >= NIGHT_GAP_S
        if not nights or began_night or gap:
            nights.append(Night(record.started_at))
        nights[-1].games.append(summarize(record, (live_scores or {}).get(record.id)))
        previous_start, previous_end = record.started_at, record.ended_at or record.started_at
    if marks and (previous_start is None or marks[-1] > previous_start):
        nights.append(Night(marks[-1]))
    return nights


def read_nights(reader: JournalReader) -> list[Night]:
    """Every night of the journal, oldest first (one read transaction)."""
    return group_nights(reader.games(), night_starts(reader.connection))


def find_night(nights: Sequence[Night], night_id: int) -> Night:
    """The night with this id (its first game's id); a one-line error naming the known ones."""
    for night in nights:
        if night.games and night.id == night_id:
            return night
    known = ", ".join(str(n.id) for n in nights if n.games) or "none yet"
    raise JournalError(f"no night {night_id} in the journal (nights: {known}); "
                       "`companion history --nights` lists them")
