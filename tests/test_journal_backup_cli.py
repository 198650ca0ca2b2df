"""``companion backup``: a consistent copy while the daemon writes, one line on every mistake."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import Journal
from companion.journal.readonly import side_file
from tests.journal_faults import played


def _actions_in(copy: Path) -> int:
    db = sqlite3.connect(copy)
    try:
        return int(db.execute("SELECT COUNT(*) FROM entries WHERE kind = 'action'").fetchone()[0])
    finally:
        db.close()


def test_backup_copies_what_is_still_in_the_wal_while_the_daemon_writes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"
    config, actions = played(20)
    daemon = Journal.open(path)  # holds the lock and the WAL, as the running daemon does
    gid = daemon.start_game(config, ["Ann", "Bob"], "cabinet")
    for action in actions:
        daemon.record_action(gid, action)
    assert side_file(path, "-wal").stat().st_size > 0
    copy = tmp_path / "usb" / "night.sqlite"
    assert main(["backup", str(copy), "--journal", str(path)]) == 0
    assert f"backed up 1 game (20 actions) to {copy}" in capsys.readouterr().out
    assert _actions_in(copy) == 20 and not side_file(copy, "-wal").exists()
    daemon.record_action(gid, "x")  # the daemon goes on writing
    daemon.close()


def test_backup_without_a_file_goes_beside_the_journal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"
    Journal.open(path).close()
    assert main(["backup", "--journal", str(path)]) == 0
    made = list((tmp_path / "backups").glob("journal-*-manual.sqlite"))
    assert len(made) == 1 and str(made[0]) in capsys.readouterr().out


@pytest.mark.parametrize("case", ["missing", "itself", "text"])
def test_backup_mistakes_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    path = tmp_path / "journal.sqlite"
    if case != "missing":
        Journal.open(path).close()
    if case == "text":
        path.write_text("not a journal")
    target = path if case == "itself" else tmp_path / "copy.sqlite"
    assert main(["backup", str(target), "--journal", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "copy.sqlite").exists()


@pytest.mark.parametrize("there", ["notes", "other-database"])
def test_backup_never_overwrites_a_file_that_is_not_a_journal_copy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], there: str) -> None:
    path = tmp_path / "journal.sqlite"
    Journal.open(path).close()
    target = tmp_path / "night.sqlite"
    if there == "notes":
        target.write_text("my notes of the night\n")
    else:
        db = sqlite3.connect(target)
        db.execute("CREATE TABLE photos (name TEXT)")
        db.commit()
        db.close()
    before = target.read_bytes()
    assert main(["backup", str(target), "--journal", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a journal copy" in err
    assert target.read_bytes() == before


def test_backup_replaces_an_earlier_copy_of_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    config, actions = played(5)
    with Journal.open(path) as journal:
        gid = journal.start_game(config, ["Ann", "Bob"], "cabinet")
        journal.record_action(gid, actions[0])
    copy = tmp_path / "night.sqlite"
    assert main(["backup", str(copy), "--journal", str(path)]) == 0
    with Journal.open(path) as journal:
        journal.record_action(gid, actions[1])
    assert main(["backup", str(copy), "--journal", str(path)]) == 0  # last week's copy: replaced
    assert _actions_in(copy) == 2
