"""Fault injection through the daemon (the path a user takes): a journal that cannot be written
pauses at boot and mid-game with the reason on screen and in the log, and resumes exactly; a full
disk exactly at the final result; a game whose log no longer replays after an update."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.daemon import app as app_module
from companion.daemon.app import Daemon, RunOptions
from companion.engine import GameConfig
from companion.journal import Journal, JournalFullError, JournalReadOnlyError, open_readonly
from companion.journal.backup import backups
from companion.screen.views import MessageView, TableView
from companion.session import UNREPLAYABLE, Session
from tests.journal_faults import finished_game

pytestmark = pytest.mark.slow


def _daemon(path: Path, **options: Any) -> Daemon:
    daemon = Daemon(RunOptions(headless=True, fast=True, journal_path=path, seed=3, game="bandit",
                               mode="cabinet", use_gpio=False, **options))
    daemon.start()
    return daemon


def _played_then_stopped(path: Path, frames: int = 60) -> int:
    daemon = _daemon(path, autoplay=1)
    for _ in range(frames):
        daemon.step()
    version = daemon.flow.session.version  # type: ignore[union-attr]
    daemon.close()
    return version


@pytest.mark.parametrize("error", [JournalFullError, JournalReadOnlyError])
def test_a_journal_that_cannot_be_written_at_boot_pauses_on_screen_and_resumes_exactly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        error: type[JournalFullError]) -> None:
    path = tmp_path / "journal.sqlite"
    kept = _played_then_stopped(path)
    assert kept > 0
    real_open = Journal.open
    refusals = [error("cannot open the journal: refused (test)")] * 3

    def open_when_writable(*args: Any) -> Journal:
        if refusals:
            raise refusals.pop()
        return real_open(*args)

    monkeypatch.setattr(app_module.Journal, "open", open_when_writable)
    with caplog.at_level(logging.WARNING):
        daemon = _daemon(path)
    try:
        now = time.monotonic()
        daemon.step(now=now)
        assert isinstance(daemon.view, MessageView) and daemon.view.lines == (error.screen,)
        assert sum("game paused" in r.getMessage() for r in caplog.records) == 1  # logged once
        for n in range(1, 4):  # retried every two seconds until the disk takes writes
            daemon.step(now=max(now, time.monotonic()) + 2.5 * n)
        assert daemon.paused is None and daemon.flow is not None
        assert daemon.flow.session.resumed and daemon.flow.session.version == kept
        assert not list(tmp_path.glob("*corrupt*"))
    finally:
        daemon.close()


def test_a_full_disk_exactly_at_the_final_result_is_written_once_there_is_room(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "journal.sqlite"
    daemon = _daemon(path, autoplay=1)
    try:
        journal = daemon.journal
        assert journal is not None
        real_finish = journal.finish_game
        full = [JournalFullError("cannot write the journal: the disk is full (test)")] * 2

        def finish(*args: Any, **kwargs: Any) -> None:
            if full:
                raise full.pop()
            real_finish(*args, **kwargs)

        monkeypatch.setattr(journal, "finish_game", finish)
        now = time.monotonic()
        while daemon.paused is None:
            now += 0.05
            daemon.step(now=now)
            assert daemon.frames < 40000, "the game did not end"
        session = daemon.flow.session  # type: ignore[union-attr]
        # The last action and the result are one commit: both were refused, the match is as on disk.
        assert daemon.paused == JournalFullError.screen and not session.match.is_over
        with open_readonly(path) as reader:
            assert reader.game(session.game_id).status == "playing"
            assert reader.game(session.game_id).actions == session.version
        while not session.match.is_over:
            now = max(now, time.monotonic()) + 2.5
            daemon.step(now=now)
            assert daemon.frames < 40000
        assert daemon.paused is None and not full
        with open_readonly(path) as reader:
            record = reader.game(session.game_id)
            assert record.status == "finished" and record.actions == session.version
            assert record.result is not None and record.result["scores"] == list(session.match.game.result(
                session.match.state).scores)
        # The end of the game is a quiet moment: checkpointed, and a backup of it is kept.
        kept = backups(path)
        assert kept and kept[-1].name.endswith(f"-game{session.game_id}.sqlite")
        copy = sqlite3.connect(kept[-1])
        status = copy.execute("SELECT status FROM games WHERE id = ?", (session.game_id,)).fetchone()
        assert status == ("finished",)
        copy.close()
    finally:
        daemon.close()


def test_a_result_refused_outside_a_transaction_is_kept_pending_and_retried(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    config, moves = finished_game()
    with Journal.open(path) as journal:
        session = Session.start(journal, GameConfig.from_dict(config), ["Ann", "Bob"], "cabinet")
        for move in moves[:-1]:
            session.apply(move)
        real_finish = journal.finish_game

        def full(*args: Any, **kwargs: Any) -> None:
            raise JournalFullError("cannot write the journal: the disk is full (test)")

        journal.finish_game = full  # type: ignore[method-assign]
        session.apply(moves[-1])  # the last action is on disk; its result is not
        assert session.match.is_over and session.result_pending is not None
        assert isinstance(session.result_error, JournalFullError)
        assert journal.game(session.game_id).status == "playing"
        assert not session.save_result()
        journal.finish_game = real_finish  # type: ignore[method-assign]
        assert session.save_result() and session.result_pending is None
        assert journal.game(session.game_id).status == "finished"
        assert len(journal.actions(session.game_id)) == len(moves)


def test_a_power_cut_before_the_result_was_written_is_finished_at_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    config, moves = finished_game()
    with Journal.open(path) as journal:
        session = Session.start(journal, GameConfig.from_dict(config), ["Ann", "Bob"], "cabinet")
        for move in moves:
            session.apply(move)
        assert session.match.is_over and journal.game(session.game_id).status == "finished"
        # Rewind the result as if the plug was pulled between the last action and the result.
        journal._db.execute("UPDATE games SET status = 'playing', result = NULL, ended_at = NULL")
        actions = session.version
    with Journal.open(path) as journal:
        resumed = Session.resume(journal)
        assert resumed is not None and resumed.result_pending is None
        record = journal.game(resumed.game_id)
        assert record.status == "finished" and record.actions == actions


def test_an_update_that_no_longer_replays_a_game_keeps_its_last_known_scores(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"
    daemon = _daemon(path, autoplay=1)
    now = time.monotonic()
    while daemon.journal is None or daemon.journal.last_scores(1) is None or \
            daemon.journal.last_scores(1)[0] < 6:  # type: ignore[index]
        now += 0.05
        daemon.step(now=now)
        assert daemon.frames < 40000
    daemon.close()
    with open_readonly(path) as reader:
        scores_at, scores = reader.last_scores(1)  # type: ignore[misc]
        actions = reader.actions(1)
    # "The update": the game's rules changed, so its logged actions are no longer legal.
    db = sqlite3.connect(path)
    db.execute("UPDATE entries SET text = 'spin 9 9 9' WHERE game_id = 1 AND kind = 'action' AND seq = "
               "(SELECT MIN(seq) FROM entries WHERE game_id = 1 AND kind = 'action')")
    db.commit()
    db.close()
    with caplog.at_level(logging.INFO):
        daemon = _daemon(path)
    daemon.close()
    reasons = [r.getMessage() for r in caplog.records if "cannot be resumed" in r.getMessage()]
    assert len(reasons) == 1 and "spin 9 9 9" in reasons[0]  # the reason is logged
    assert main(["history", "--journal", str(path)]) == 0
    listed = capsys.readouterr().out
    assert "cannot be resumed, its log no longer replays: last known scores" in listed
    shown = listed.split("last known scores", 1)[1].split(";", 1)[0]
    assert [int(part.rsplit(" ", 1)[1]) for part in shown.split(",")] == scores
    assert main(["end", "1", "--journal", str(path)]) == 0
    with open_readonly(path) as reader:
        record = reader.game(1)
        assert record.status == "ended" and record.result is not None
        assert record.result["scores"] == scores and record.result["scores_at"] == scores_at
        assert "spin 9 9 9" in record.result["reason"]
    capsys.readouterr()
    assert main(["history", "--journal", str(path)]) == 0
    assert "ended: last known scores" in capsys.readouterr().out
    assert main(["export", "1", "--journal", str(path)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert len(exported["actions"]) == len(actions)


def test_session_resume_closes_an_unreplayable_game_with_its_last_known_scores(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    config, moves = finished_game()
    with Journal.open(path) as journal:
        session = Session.start(journal, GameConfig.from_dict(config), ["Ann", "Bob"], "cabinet")
        for move in moves[:-1]:
            session.apply(move)
        noted = journal.last_scores(session.game_id)
        assert noted is not None
        journal._db.execute("UPDATE games SET config = replace(config, '\"players\": 2', '\"players\": 1')")
        assert Session.resume(journal) is None
        record = journal.game(session.game_id)
        assert record.status == UNREPLAYABLE and record.result is not None
        assert record.result["scores"] == noted[1] and record.result["actions"] == len(moves) - 1


def test_a_readonly_card_mid_game_pauses_and_resumes_exactly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """ext4's errors=remount-ro under a playing daemon: SQLite's READONLY error at the write seam
    and a read-only file system in statvfs (a remount cannot be forced under open files here)."""
    from companion.journal import opening

    path = tmp_path / "journal.sqlite"
    daemon = _daemon(path, autoplay=1)
    try:
        now = time.monotonic()
        for _ in range(30):
            now += 0.05
            daemon.step(now=now)
        journal = daemon.journal
        assert journal is not None
        real_db, real_statvfs = journal._db, os.statvfs
        refused = sqlite3.OperationalError("attempt to write a readonly database")
        refused.sqlite_errorcode = sqlite3.SQLITE_READONLY  # type: ignore[attr-defined]

        class ReadOnlyCard:
            in_transaction = property(lambda self: real_db.in_transaction)

            def execute(self, sql: str, *args: Any) -> Any:
                if sql.startswith(("BEGIN", "PRAGMA wal_checkpoint")):
                    raise refused
                return real_db.execute(sql, *args)

        class Mount:
            def __init__(self, real: Any) -> None:
                self.f_flag = real.f_flag | os.ST_RDONLY
                self.f_bavail, self.f_bfree = real.f_bavail, real.f_bfree

        journal._db = ReadOnlyCard()  # type: ignore[assignment]
        monkeypatch.setattr(opening.os, "statvfs", lambda p: Mount(real_statvfs(p)))
        with caplog.at_level(logging.WARNING):
            while daemon.paused is None:
                now += 0.05
                daemon.step(now=now)
                assert daemon.frames < 5000
        shown = daemon.flow.session.version  # type: ignore[union-attr]
        assert daemon.paused == JournalReadOnlyError.screen
        assert isinstance(daemon.view, TableView) and daemon.view.alert == JournalReadOnlyError.screen
        assert any("read-only" in r.getMessage() for r in caplog.records)
        with open_readonly(path) as reader:  # history and export still read the card
            assert len(reader.actions(1)) == shown
        journal._db = real_db  # the card is writable again
        monkeypatch.undo()
        for _ in range(40):
            now = max(now, time.monotonic()) + 2.5
            daemon.step(now=now)
        assert daemon.paused is None and daemon.flow.session.version > shown  # type: ignore[union-attr]
        final = daemon.flow.session.version  # type: ignore[union-attr]
    finally:
        daemon.close()
    with open_readonly(path) as reader:
        assert len(reader.actions(1)) == final
