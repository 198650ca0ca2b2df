"""The journal keeps every action and observation, survives reopening, never overwrites a
file that is not its own, and turns a full disk into a retryable pause."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.journal import Journal, JournalError, JournalFullError, default_journal_path, state_dir
from companion.journal.readonly import APPLICATION_ID

CONFIG = {"game": "bandit", "players": 2, "variants": [], "seed": 7, "options": {}}


def test_actions_are_committed_and_read_back_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal.open(path) as journal:
        gid = journal.start_game(CONFIG, ["Ann", "Bob"], "cabinet")
        journal.record_action(gid, "reveal cherry")
        journal.record_observation(gid, {"zone": "r0c0", "card": "cherry", "confidence": 0.97})
        journal.record_action(gid, "spin 0")
    # A second connection (as after a power cut) sees everything that was committed.
    with Journal.open(path) as again:
        assert again.moved_aside is None
        assert again.actions(gid) == ["reveal cherry", "spin 0"]
        kinds = [kind for _, kind, _, _ in again.entries(gid)]
        assert kinds == ["action", "observation", "action"]
        record = again.unfinished()
        assert record is not None and record.id == gid
        assert record.seats == ["Ann", "Bob"] and record.mode == "cabinet" and record.actions == 2


def test_the_journal_uses_wal_and_full_sync(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite") as journal:
        assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_finished_game_is_no_longer_resumed(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite") as journal:
        first = journal.start_game(CONFIG, ["Ann", "Bob"], "table")
        journal.finish_game(first, {"scores": [5, 0], "winners": [0]})
        assert journal.unfinished() is None
        second = journal.start_game(CONFIG, ["Ann", "Bob"], "table")
        unfinished = journal.unfinished()
        assert unfinished is not None and unfinished.id == second
        finished = journal.game(first)
        assert finished.status == "finished" and finished.result == {"scores": [5, 0], "winners": [0]}
        assert finished.ended_at is not None and finished.duration >= 0


def test_export_has_the_match_to_dict_shape(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite") as journal:
        gid = journal.start_game(CONFIG, ["Ann", "Bob"], "cabinet")
        journal.record_action(gid, "reveal bar")
        data = journal.export(gid)
    assert data["schema"] == 1 and data["config"] == CONFIG and data["actions"] == ["reveal bar"]
    assert data["journal"]["seats"] == ["Ann", "Bob"]


def test_an_unknown_game_id_is_a_clear_error(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite")
    with pytest.raises(JournalError, match="companion history"):
        journal.game(42)
    journal.close()


def test_a_text_file_at_the_journal_path_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    garbage = b"this is not a database" * 300
    path.write_bytes(garbage)
    with pytest.raises(JournalError, match="not a companion journal"):
        Journal.open(path)
    assert path.read_bytes() == garbage
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.sqlite"]


def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    foreign = sqlite3.connect(path)
    foreign.execute("CREATE TABLE photos (name TEXT)")
    foreign.execute("INSERT INTO photos VALUES ('holiday.jpg')")
    foreign.commit()
    foreign.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="another program"):
        Journal.open(path)
    assert path.read_bytes() == before
    assert not list(tmp_path.glob("*corrupt*"))
    kept = sqlite3.connect(path)
    assert kept.execute("SELECT name FROM photos").fetchall() == [("holiday.jpg",)]
    assert kept.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID
    kept.close()


def test_a_full_disk_raises_a_retryable_error_and_loses_nothing(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite") as journal:
        gid = journal.start_game(CONFIG, ["Ann", "Bob"], "cabinet")
        journal.record_action(gid, "reveal cherry")
        pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
        journal._db.execute(f"PRAGMA max_page_count={pages}")  # the "disk" is now full
        with pytest.raises(JournalFullError, match="paused"):
            for _ in range(200):
                journal.record_observation(gid, "x" * 2000)
        journal._db.execute("PRAGMA max_page_count=1000000")  # space freed
        journal.record_action(gid, "spin")
        assert journal.actions(gid) == ["reveal cherry", "spin"]


def test_state_dir_prefers_systemds_state_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}/a:{tmp_path}/b")
    assert state_dir() == tmp_path / "a"
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert default_journal_path() == tmp_path / "xdg" / "jackpot-companion" / "journal.sqlite"


def test_an_unwritable_directory_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(JournalError, match="writable"):
        Journal.open(blocker / "sub" / "j.sqlite")
