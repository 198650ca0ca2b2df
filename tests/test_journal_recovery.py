"""Only a journal SQLite reports damaged is moved aside, and its games come back as far as they
replay (from the newest backup too); one daemon per journal; checkpoints make the main file the
whole journal; backups are consistent copies."""

from __future__ import annotations

import logging
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.engine import GameConfig, replay
from companion.journal import Journal, JournalBusyError, open_readonly
from companion.journal.backup import KEEP, backups, is_intact
from companion.journal.readonly import side_file
from tests.journal_faults import journal_games, played, scribble


def _actions_per_game(path: Path) -> dict[int, int]:
    with open_readonly(path) as journal:
        return {record.id: record.actions for record in journal.games()}


def test_a_damaged_page_moves_the_file_aside_and_saves_what_replays(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "journal.sqlite"
    journal_games(path, [40, 40, 40])
    scribble(path, -4096, 16)  # the last page: the last game's later entries
    damaged = path.read_bytes()
    with caplog.at_level(logging.WARNING), Journal.open(path) as journal:
        report = journal.recovery
        assert report is not None and report.backup is None
        assert report.moved_to.read_bytes() == damaged  # kept as it was, never overwritten
        kept = {r.id: r.actions for r in journal.games()}
        # Each game replays as far as it was kept, and the line says how many actions were saved.
        for record in journal.games():
            replay(GameConfig.from_dict(record.config), journal.actions(record.id))
    assert report.actions_saved == sum(kept.values())
    assert 0 < report.actions_saved < 120
    lines = [r.getMessage() for r in caplog.records if "was damaged" in r.getMessage()]
    assert len(lines) == 1 and f"saved {report.actions_saved} actions in 3 games" in lines[0]


def test_a_damaged_journal_with_a_backup_resumes_from_the_backup(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal_games(path, [30, 30])
    with Journal.open(path) as journal:
        assert journal.automatic_backup("g2") is not None
    scribble(path, 4096, 16)  # the games table: nothing can be read back from the file itself
    with Journal.open(path) as journal:
        assert journal.recovery is not None and journal.recovery.backup is not None
        assert {r.id: r.actions for r in journal.games()} == {1: 30, 2: 30}
        assert "from backup" in journal.recovery.line()


def test_an_emptied_main_file_is_rebuilt_from_its_wal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    config, actions = played(25)
    writer = Journal.open(path)
    gid = writer.start_game(config, ["Ann", "Bob"], "cabinet")
    for action in actions:
        writer.record_action(gid, action)
    # A power cut leaves main + WAL; then the main file is emptied (a bad copy, a bad card).
    card = tmp_path / "card"
    card.mkdir()
    shutil.copyfile(side_file(path, "-wal"), side_file(card / "journal.sqlite", "-wal"))
    (card / "journal.sqlite").write_bytes(b"")
    writer.close()
    with Journal.open(card / "journal.sqlite") as journal:
        assert journal.recovery is not None
        assert journal.actions(gid) == actions  # SQLite alone would have dropped the WAL


def test_a_healthy_journal_is_never_moved(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal_games(path, [10])
    with Journal.open(path) as journal:
        assert journal.recovery is None
    assert not list(tmp_path.glob("*corrupt*"))


def test_a_second_daemon_is_refused_with_one_line_and_the_first_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    config, actions = played(10)
    first = Journal.open(path)
    gid = first.start_game(config, ["Ann", "Bob"], "cabinet")
    with pytest.raises(JournalBusyError, match=r"another companion \(pid \d+\)") as caught:
        Journal.open(path)
    assert "\n" not in str(caught.value)
    for action in actions:
        first.record_action(gid, action)
    first.close()
    with Journal.open(path) as again:  # the lock went with the first daemon
        replay(GameConfig.from_dict(again.game(gid).config), again.actions(gid))
        assert len(again.actions(gid)) == 10


def test_a_checkpoint_leaves_the_whole_journal_in_the_main_file(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    config, actions = played(30)
    with Journal.open(path) as journal:
        gid = journal.start_game(config, ["Ann", "Bob"], "cabinet")
        for action in actions:
            journal.record_action(gid, action)
        assert side_file(path, "-wal").stat().st_size > 0
        assert journal.checkpoint()
        assert side_file(path, "-wal").stat().st_size == 0
        copy = tmp_path / "copied-by-hand.sqlite"
        shutil.copyfile(path, copy)  # what a person copies: the main file only
    db = sqlite3.connect(copy)
    assert db.execute("SELECT COUNT(*) FROM entries WHERE kind = 'action'").fetchone()[0] == 30
    db.close()


def test_backups_are_consistent_and_only_the_newest_few_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    config, actions = played(12)
    with Journal.open(path) as journal:
        gid = journal.start_game(config, ["Ann", "Bob"], "cabinet")
        made = []
        for n, action in enumerate(actions):
            journal.record_action(gid, action)  # still in the WAL: the backup must include it
            made.append(journal.automatic_backup(f"t{n}"))
    kept = backups(path)
    assert len(kept) == KEEP and kept == made[-KEEP:]
    newest = kept[-1]
    assert is_intact(newest) and not side_file(newest, "-wal").exists()
    db = sqlite3.connect(newest)
    assert db.execute("SELECT COUNT(*) FROM entries WHERE kind = 'action'").fetchone()[0] == 12
    db.close()
