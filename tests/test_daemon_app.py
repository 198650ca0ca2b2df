"""The daemon's loop with the real screen (SDL dummy), gpiozero mock pins and a real journal."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.daemon.app import PAUSED_MESSAGE, Daemon, RunOptions
from companion.daemon.camera import CameraStatus
from companion.journal import Journal, JournalFullError, open_readonly
from companion.journal.queries import read_nights
from companion.screen.views import GameSelectView, MenuView, PlayersView, TableView
from hardware.events import LONG_PRESS, PRESS, RELEASE, InputEvent
from tests.journal_faults import journal_games, scribble


def make(tmp_path: Path, **options: Any) -> Daemon:
    daemon = Daemon(RunOptions(headless=True, fast=True, journal_path=tmp_path / "journal.sqlite", seed=3,
                               **options))
    daemon.start()
    return daemon


def click(daemon: Daemon, control: str) -> None:
    daemon.dispatch(InputEvent(control, PRESS, 0.0))
    daemon.dispatch(InputEvent(control, RELEASE, 0.0))


def tap_pin(factory: MockFactory, pin: int) -> None:
    """Press and release a button the way a hand does (longer than the panel's debounce lockout)."""
    factory.pin(pin).drive_low()
    time.sleep(0.05)
    factory.pin(pin).drive_high()
    time.sleep(0.05)


def test_game_select_and_players_from_the_panel_start_a_journaled_game(tmp_path: Path) -> None:
    factory = MockFactory()
    daemon = make(tmp_path, pin_factory=factory)
    try:
        panel = daemon.panel.config
        assert daemon.lobby.screen == "attract"
        click(daemon, "start")  # a short press of start opens game select
        daemon.step()
        assert isinstance(daemon.view, GameSelectView)
        titles = [option.title for option in daemon.view.options]
        target = titles.index("Pay Line (cabinet)")
        for _ in range((target - daemon.view.selected) % len(titles)):
            tap_pin(factory, panel.hold3)
            daemon.step()
        tap_pin(factory, panel.collect)
        daemon.step()
        assert isinstance(daemon.view, PlayersView) and daemon.view.game_id == "pay-line"
        tap_pin(factory, panel.hold3)
        daemon.step()
        assert daemon.view.count == 3
        tap_pin(factory, panel.collect)
        daemon.step()
        assert isinstance(daemon.view, TableView) and daemon.view.game_id == "pay-line"
        assert len(daemon.view.players) == 3
        # only the lever glows: the first roll
        assert factory.pin(panel.hold1_lamp).state == 0
        record = daemon.journal.unfinished()  # type: ignore[union-attr]
        assert record is not None and record.config["players"] == 3
    finally:
        daemon.close()


def test_a_pin_press_is_journaled_before_the_frame_that_shows_it(tmp_path: Path) -> None:
    factory = MockFactory()
    daemon = make(tmp_path, pin_factory=factory, game="bandit", mode="cabinet")
    try:
        daemon.dispatch(InputEvent("lever", "pull", 0.0))  # deal
        for _ in range(12):
            daemon.step()
        assert not daemon.flow.dealing()  # type: ignore[union-attr]
        tap_pin(factory, daemon.panel.config.hold2)
        daemon._pump()
        assert daemon.flow.held == {1}  # type: ignore[union-attr]
        daemon.step()
        assert isinstance(daemon.view, TableView) and daemon.view.reels is not None
        assert daemon.view.reels.held == (False, True, False)
        shown = daemon.flow.session.version  # type: ignore[union-attr]
        game_id = daemon.flow.session.game_id  # type: ignore[union-attr]
        with open_readonly(tmp_path / "journal.sqlite") as other:  # the daemon holds the writer's lock
            assert len(other.actions(game_id)) == shown  # every shown action is on disk already
    finally:
        daemon.close()


def test_a_restart_resumes_the_unfinished_game_and_says_so(tmp_path: Path) -> None:
    lines: list[str] = []
    first = make(tmp_path, game="bandit", mode="cabinet", autoplay=1)
    for _ in range(40):
        first.step()
    log = list(first.flow.match.log)  # type: ignore[union-attr]
    first.close()
    assert len(log) > 10
    second = make(tmp_path, transcript=lines.append)
    try:
        assert second.flow is not None and list(second.flow.match.log) == log
        second.step()
        assert isinstance(second.view, TableView) and "resumed" in second.view.status
        assert lines[0].startswith(f"resuming game 1 (Bandit, 2 players, cabinet mode) at action {len(log)}; "
                                   "to start anew: `companion run --new`")
    finally:
        second.close()


def test_a_full_disk_pauses_the_game_and_the_press_is_retried_once_there_is_room(tmp_path: Path) -> None:
    daemon = make(tmp_path, game="bandit", mode="cabinet")
    try:
        journal = daemon.journal
        assert journal is not None
        pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
        journal._db.execute(f"PRAGMA max_page_count={pages}")
        with pytest.raises(JournalFullError):  # fill the disk to the last page
            for _ in range(10000):
                journal.record_observation(daemon.flow.session.game_id, "x" * 2000)  # type: ignore[union-attr]
        daemon.dispatch(InputEvent("lever", "pull", 0.0))
        now = time.monotonic()
        daemon.step(now=now)
        assert daemon.paused == PAUSED_MESSAGE
        assert isinstance(daemon.view, TableView) and daemon.view.alert == PAUSED_MESSAGE
        assert daemon.flow.session.version == 0  # type: ignore[union-attr]
        journal._db.execute("PRAGMA max_page_count=1000000")
        daemon.step(now=now + 5.0)  # the retry after two seconds
        assert daemon.paused is None
        assert daemon.flow.session.version >= 1  # type: ignore[union-attr]
        assert journal.actions(daemon.flow.session.game_id)[0].startswith("reveal")  # type: ignore[union-attr]
    finally:
        daemon.close()


def test_a_corrupt_journal_is_kept_aside_and_the_screen_says_so(tmp_path: Path) -> None:
    journal_games(tmp_path / "journal.sqlite", [12, 12])
    scribble(tmp_path / "journal.sqlite", 4096, 16)  # a damaged page: SQLite reports it malformed
    daemon = make(tmp_path, game="bandit", mode="cabinet")
    try:
        daemon.step()
        assert isinstance(daemon.view, TableView) and "damaged journal kept as journal.sqlite.corrupt" in \
            daemon.view.status and "saved" in daemon.view.status
        assert list(tmp_path.glob("journal.sqlite.corrupt-*"))
    finally:
        daemon.close()


def test_a_lost_camera_is_shown_and_the_game_goes_on_by_buttons(tmp_path: Path) -> None:
    daemon = make(tmp_path, game="bandit", mode="table", camera_factory=_no_camera)
    try:
        daemon.dispatch(CameraStatus(False, "camera lost"))
        daemon.step()
        assert isinstance(daemon.view, TableView) and daemon.view.status == "camera lost: manual entry"
        click(daemon, "collect")  # confirm the first card entered by hand
        assert daemon.flow.session.version == 1  # type: ignore[union-attr]
    finally:
        daemon.close()


def _no_camera(game_id: str) -> Any:
    raise OSError("no camera")


def test_the_menu_ends_a_game_and_the_history_keeps_it_as_ended(tmp_path: Path) -> None:
    daemon = make(tmp_path, game="bandit", mode="cabinet")
    try:
        daemon.dispatch(InputEvent("start", PRESS, 0.0))
        daemon.dispatch(InputEvent("start", LONG_PRESS, 1.5))
        daemon.step()
        assert isinstance(daemon.view, MenuView)
        assert [item.label for item in daemon.view.items] == ["Resume", "Volume", "Rotation", "New night",
                                                              "End this game"]
        daemon.dispatch(InputEvent("hold3", PRESS, 2.0))  # Volume
        volume = daemon.sound.volume
        daemon.dispatch(InputEvent("lever", "pull", 2.1))
        assert daemon.sound.volume != volume
        daemon.dispatch(InputEvent("hold3", PRESS, 2.2))  # Rotation
        daemon.dispatch(InputEvent("collect", PRESS, 2.3))
        daemon.step()
        assert daemon.display.rotation == 90 and isinstance(daemon.view, MenuView)
        assert daemon.view.items[2].value == "90"
        daemon.dispatch(InputEvent("hold3", PRESS, 2.35))  # New night
        daemon.dispatch(InputEvent("lever", "pull", 2.36))
        daemon.step()
        assert isinstance(daemon.view, MenuView) and daemon.view.items[3].value == "from this game"
        daemon.dispatch(InputEvent("hold3", PRESS, 2.4))  # End this game
        daemon.dispatch(InputEvent("lever", "pull", 2.5))
        daemon.step()
        assert daemon.flow is None
        games = daemon.journal.games()  # type: ignore[union-attr]
        assert games[0].status == "ended"
        assert games[0].result is not None and games[0].result["winners"] == []
    finally:
        daemon.close()


def test_new_night_from_game_select_makes_the_next_game_the_first_of_tonight(tmp_path: Path) -> None:
    """The host starts a night where they look before its first game: the menu held on game select."""
    with Journal.open(tmp_path / "journal.sqlite") as journal:  # last night's game, an hour ago
        earlier = journal.start_game({"game": "bandit"}, ["Ann", "Bob"], "cabinet")
        journal.finish_game(earlier, {"scores": [3, 5], "winners": [1]})
    daemon = make(tmp_path)
    try:
        click(daemon, "start")  # attract -> game select
        daemon.dispatch(InputEvent("start", PRESS, 1.0))
        daemon.dispatch(InputEvent("start", LONG_PRESS, 2.5))
        daemon.step()
        assert isinstance(daemon.view, MenuView)
        labels = [item.label for item in daemon.view.items]
        assert "New night" in labels
        while daemon.view.items[daemon.view.selected].label != "New night":
            daemon.dispatch(InputEvent("hold3", PRESS, 3.0))
            daemon.step()
        daemon.dispatch(InputEvent("lever", "pull", 3.1))
        daemon.dispatch(InputEvent("lever", "pull", 3.2))  # pressed twice: still one new night
        daemon.step()
        assert daemon.view.items[labels.index("New night")].value == "from the next game"
        daemon.dispatch(InputEvent("back", PRESS, 3.3))
        daemon.step()
        assert isinstance(daemon.view, GameSelectView)
        for control in ("collect", "collect"):  # pick the highlighted game, start it
            click(daemon, control)
        assert daemon.flow is not None
        assert daemon.journal is not None
        nights = read_nights(daemon.journal)
        assert [night.game_ids for night in nights] == [[earlier], [daemon.flow.session.game_id]]
    finally:
        daemon.close()


def test_exit_when_over_stops_the_loop_once_the_final_scores_are_drawn(tmp_path: Path) -> None:
    """What `companion demo` and `run --exit-when-over` rely on (a misplaced line once kept every
    demo running after its game); ``frames`` is only a safety net, far beyond a whole game."""
    cap = 20_000
    daemon = make(tmp_path, game="bandit", mode="cabinet", autoplay=4, exit_when_over=True, frames=cap)
    daemon.run()
    assert daemon.flow is not None and daemon.flow.over
    assert daemon.frames < cap and not daemon.running


def test_ready_and_the_watchdog_come_from_the_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    address = str(tmp_path / "notify")
    receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    receiver.bind(address)
    receiver.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "3000000")
    daemon = make(tmp_path)
    try:
        assert receiver.recv(256).startswith(b"READY=1")
        daemon.step(now=100.0)
        assert receiver.recv(256) == b"WATCHDOG=1"
    finally:
        daemon.close()
        receiver.close()


class Recorder:
    def __init__(self) -> None:
        self.played: list[tuple[str, dict[str, Any]]] = []

    def play(self, name: str, **params: Any) -> bool:
        self.played.append((name, params))
        return True


def test_sounds_follow_the_journal_and_a_shake_carries_the_chip_count(tmp_path: Path) -> None:
    daemon = make(tmp_path, game="pay-line", mode="cabinet", players=2)
    recorder = Recorder()
    daemon.sound = recorder
    try:
        daemon.dispatch(InputEvent("hold3", PRESS, 0.0))
        daemon.dispatch(InputEvent("hold3", LONG_PRESS, 1.5))  # shake the red box
        daemon.dispatch(InputEvent("lever", "pull", 2.0))
        daemon.step()
        names = [name for name, _ in recorder.played]
        assert ("shake", {"chips": 16}) in recorder.played
        assert "lever" in names and "dice" in names
    finally:
        daemon.close()


def test_a_broken_config_stops_run_with_one_line_and_exit_2(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    bad = tmp_path / "config.toml"
    bad.write_text("[audio]\nvolume = 11\n")
    assert main(["run", "--config", str(bad), "--headless"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "audio.volume" in err


def test_without_the_mat_in_view_the_screen_asks_for_it_and_reads_nothing(tmp_path: Path) -> None:
    from companion.daemon.camera import VisionUpdate, ZoneReading
    from companion.daemon.frame_output import MAT_MESSAGE

    opening = threading.Event()

    def slow_camera(game_id: str) -> Any:
        opening.wait(10)  # still opening while the test runs
        raise OSError("gave up")

    daemon = make(tmp_path, game="bandit", mode="table", camera_factory=slow_camera)
    try:
        daemon.dispatch(CameraStatus(True, "camera ready"))
        seen = {"r0c0": ZoneReading("r0c0", "changed", "bar")}
        daemon.dispatch(VisionUpdate(seen, 0.0, 0.0, mat_found=False))
        daemon.step()
        assert isinstance(daemon.view, TableView) and daemon.view.alert == MAT_MESSAGE
        assert daemon.flow.session.version == 0  # type: ignore[union-attr]
        daemon.dispatch(VisionUpdate(seen, 0.0, 0.0, mat_found=True))
        assert [str(a) for a in daemon.flow.match.log] == ["reveal bar"]  # type: ignore[union-attr]
    finally:
        opening.set()
        daemon.close()


def test_a_game_chosen_while_the_disk_is_full_starts_once_there_is_room(tmp_path: Path) -> None:
    daemon = make(tmp_path)
    try:
        journal = daemon.journal
        assert journal is not None
        filler = journal.start_game({"game": "bandit", "players": 2}, ["A", "B"], "cabinet")
        journal.finish_game(filler, {"scores": [0, 0], "winners": [0, 1]})
        journal._db.execute(f"PRAGMA max_page_count={journal._db.execute('PRAGMA page_count').fetchone()[0]}")
        with pytest.raises(JournalFullError):
            for _ in range(10000):
                journal.record_observation(filler, "x" * 2000)
        with pytest.raises(JournalFullError):  # fill the games table's last page too
            for _ in range(10000):
                extra = journal.start_game({"game": "bandit", "players": 2}, ["x" * 300, "y"], "cabinet")
                journal.finish_game(extra, {})
        for _ in range(3):  # attract -> select -> players -> start
            daemon.dispatch(InputEvent("lever", "pull", 0.0))
        now = time.monotonic()
        daemon.step(now=now)
        assert daemon.paused == PAUSED_MESSAGE and daemon.flow is None
        journal._db.execute("PRAGMA max_page_count=1000000")
        daemon.step(now=now + 5.0)
        assert daemon.paused is None and daemon.flow is not None
        record = journal.unfinished()
        assert record is not None and record.id == daemon.flow.session.game_id
    finally:
        daemon.close()


def test_a_damaged_taught_picture_left_out_is_named_on_the_screen(tmp_path: Path) -> None:
    from companion.daemon.camera import ready_status

    class Reader:
        damaged_pictures = [tmp_path / "enrolled" / "bandit" / "plum" / "1.png"]

    daemon = make(tmp_path, game="bandit", mode="table", camera_factory=_no_camera)
    try:
        daemon.dispatch(ready_status(Reader()))
        daemon.step()
        assert isinstance(daemon.view, TableView)
        assert "damaged taught pictures set aside: teach Plum again" in daemon.view.status
    finally:
        daemon.close()
