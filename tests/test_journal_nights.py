"""Nights: "New night" and the 6-hour rule split the journal's games; standings and downloads."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from companion.journal import Journal, open_readonly
from companion.journal.queries import NIGHT_GAP_S, group_nights, night_starts
from companion.journal.reading import GameRecord


def rec(game_id: int, start: float, seats: list[str], scores: list[int], winners: list[int],
        status: str = "finished", length: float = 600.0) -> GameRecord:
    result: dict[str, Any] = {"scores": scores, "winners": winners}
    return GameRecord(game_id, {"game": "bandit"}, seats, "table", start,
                      None if status == "playing" else start + length, status, result, 10)


def test_games_closer_than_six_hours_are_one_night_and_a_longer_gap_starts_another() -> None:
    games = [rec(1, 0, ["A", "B"], [1, 2], [1]), rec(2, 600 + NIGHT_GAP_S - 1, ["A", "B"], [3, 0], [0]),
             rec(3, 1200 + 2 * NIGHT_GAP_S, ["A", "B"], [0, 0], [0, 1])]
    assert [n.game_ids for n in group_nights(games, [])] == [[1, 2], [3]]


def test_new_night_splits_even_a_short_gap_and_counts_from_the_next_game_when_pressed_mid_game() -> None:
    games = [rec(1, 0, ["A"], [1], [0]), rec(2, 1000, ["A"], [1], [0]), rec(3, 2000, ["A"], [1], [0])]
    assert [n.game_ids for n in group_nights(games, [900])] == [[1], [2, 3]]
    assert [n.game_ids for n in group_nights(games, [1500])] == [[1, 2], [3]]  # during game 2
    nights = group_nights(games, [5000])
    assert [n.game_ids for n in nights] == [[1, 2, 3], []] and nights[-1].started_at == 5000


def test_standings_count_wins_shared_wins_as_shares_and_skip_abandoned_games() -> None:
    night = group_nights([
        rec(1, 0, ["Ann", "Bob"], [10, 4], [0]),
        rec(2, 700, ["Ann", "Bob", "Cy"], [5, 5, 1], [0, 1]),
        rec(3, 1400, ["Bob", "Cy"], [99, 0], [0], status="abandoned"),
        rec(4, 2100, ["Cy", "Bob"], [7, 2], [0], status="playing"),
    ], [])[0]
    table = {s.name: s for s in night.standings()}
    assert (table["Ann"].wins, table["Ann"].played, table["Ann"].points) == (1.5, 2, 15)
    assert (table["Bob"].wins, table["Bob"].played, table["Bob"].points) == (0.5, 3, 11)
    assert (table["Cy"].wins, table["Cy"].played) == (0.0, 2)  # a game still played wins nothing yet
    assert [s.name for s in night.standings()] == ["Ann", "Bob", "Cy"]


def test_the_csv_has_one_row_per_player_per_game() -> None:
    night = group_nights([rec(1, 0, ["Ann", "Bob"], [10, 4], [0]), rec(2, 700, ["Bob"], [3], [0])], [])[0]
    rows = list(csv.DictReader(io.StringIO(night.to_csv())))
    assert [(r["game_id"], r["player"], r["score"], r["winner"]) for r in rows] == [
        ("1", "Ann", "10", "yes"), ("1", "Bob", "4", ""), ("2", "Bob", "3", "yes")]


def test_start_night_is_journalled_and_read_back_read_only(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal.open(path) as journal:
        first = journal.start_night()
        second = journal.start_night()
    with open_readonly(path) as reader:
        assert night_starts(reader.connection) == [first, second]


def test_a_journal_from_before_nights_has_no_marks(tmp_path: Path) -> None:
    import sqlite3

    db = sqlite3.connect(tmp_path / "old.sqlite")
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    assert night_starts(db) == []


def test_history_lists_nights_and_prints_one_as_csv_or_json(tmp_path: Path, capsys: Any) -> None:
    import json

    from companion.cli import main
    from tests.scoreboard_helpers import record_game

    path = tmp_path / "journal.sqlite"
    with Journal.open(path) as journal:
        first = record_game(journal, "bandit", ["Ann", "Bob"], seed=3)
        journal.start_night()
        second = record_game(journal, "pay-line", ["Ann", "Bob", "Cy"], seed=1)
        scores = journal.game(second).result["scores"]  # type: ignore[index]
    assert main(["history", "--journal", str(path), "--nights"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [int(line.split()[0]) for line in lines] == [first, second]
    assert main(["history", "--journal", str(path), "--night", str(second)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [int(r["score"]) for r in rows] == scores and [r["player"] for r in rows] == ["Ann", "Bob", "Cy"]
    assert main(["history", "--journal", str(path), "--night", str(first), "--json"]) == 0
    assert [g["id"] for g in json.loads(capsys.readouterr().out)["games"]] == [first]
    assert main(["history", "--journal", str(path), "--night", "99"]) == 2
    assert "no night 99" in capsys.readouterr().err
