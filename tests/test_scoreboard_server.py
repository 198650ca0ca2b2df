"""The scoreboard over a journal the daemon writes: the right scores, live updates, the nights and
their downloads, the symbol art; read-only, 4xx for anything else, and it keeps serving."""

from __future__ import annotations

import csv
import io
import json
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from companion.engine import Action, GameConfig, replay
from companion.journal import Journal
from companion.scoreboard import art
from companion.scoreboard.server import ScoreboardServer
from tests.scoreboard_helpers import game_actions, get, get_json, record_game, running

SEATS = ["Ann", "Bob", "Cy"]


def wait_for_state(server: ScoreboardServer, ok: Any, seconds: float = 60.0) -> dict[str, Any]:
    """The first snapshot that satisfies ``ok`` (waits on the board's change signal)."""
    deadline = time.monotonic() + seconds
    version, data = server.board.snapshot()
    while not ok(state := json.loads(data)):
        assert time.monotonic() < deadline, f"the scoreboard never showed it; last state: {state}"
        version, data = server.board.wait(version, 1.0)
    return state


@pytest.fixture()
def journal(tmp_path: Path) -> Journal:
    j = Journal.open(tmp_path / "journal.sqlite")
    yield j
    j.close()


def test_the_live_game_shows_the_replayed_scores_whose_turn_and_the_engine_lines(journal: Journal) -> None:
    config, actions, _ = game_actions("pay-line", 3, seed=4)
    half = len(actions) // 2
    game_id = record_game(journal, "pay-line", SEATS, seed=4, upto=half)
    before = replay(GameConfig.from_dict(config), actions[: half - 1])
    last_line = before.game.describe(before.state, Action.parse(actions[half - 1]))
    match = replay(GameConfig.from_dict(config), actions[:half])
    with running(journal.path) as server:
        live = wait_for_state(server, lambda s: s["live"] is not None)["live"]
    assert live["id"] == game_id and live["title"] == "Pay Line" and not live["over"]
    assert [p["name"] for p in live["players"]] == SEATS
    assert [p["score"] for p in live["players"]] == list(match.game.scores(match.state))
    assert live["bank"] == f"Bank {match.state.bank}"
    assert live["actions"] == half and len(live["lines"]) == 8
    # the newest line is the engine's own description of the last action, with the seats' names
    for seat, name in enumerate(SEATS, 1):
        last_line = last_line.replace(f"player {seat}", name)
    assert live["lines"][-1].startswith(last_line)
    turn = match.game.current_player(match.state)
    if turn is not None:
        assert live["turn"] == SEATS[turn] and [p["turn"] for p in live["players"]].count(True) == 1


def test_a_new_action_reaches_a_connected_page_without_a_reload(journal: Journal) -> None:
    config, actions, _ = game_actions("bandit", 2, seed=2)
    game_id = record_game(journal, "bandit", ["Ann", "Bob"], seed=2, upto=5)
    with running(journal.path) as server:
        conn = socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=60)
        conn.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        stream = conn.makefile("rb")
        assert stream.readline().startswith(b"HTTP/1.0 200")

        def next_state() -> dict[str, Any]:
            while True:
                line = stream.readline()
                assert line, "the live feed closed"
                if line.startswith(b"data: "):
                    return json.loads(line[6:])

        assert next_state()["live"]["actions"] == 5
        journal.record_action(game_id, actions[5])
        while (state := next_state())["live"]["actions"] == 5:
            pass
        assert state["live"]["actions"] == 6
        conn.close()


def test_tonight_lists_every_game_with_standings_and_downloads_it(journal: Journal) -> None:
    first = record_game(journal, "pay-line", SEATS, seed=1)
    record_game(journal, "bandit", ["Ann", "Bob"], seed=3)
    with running(journal.path) as server:
        state = wait_for_state(server, lambda s: s["night"] and len(s["night"]["games"]) == 2)
        night = state["night"]
        records = journal.games()
        assert [g["id"] for g in night["games"]] == [r.id for r in records]
        assert [g["scores"] for g in night["games"]] == [r.result["scores"] for r in records]
        standings = {s["name"]: s for s in night["standings"]}
        assert standings["Ann"]["played"] == 2 and standings["Cy"]["played"] == 1
        assert sum(s["wins"] for s in night["standings"]) == pytest.approx(2.0)
        assert night["id"] == first

        status, headers, body = get(server, f"/nights/{first}.csv")
        assert status == 200 and headers["Content-Type"].startswith("text/csv")
        assert "attachment" in headers["Content-Disposition"]
        rows = list(csv.DictReader(io.StringIO(body.decode())))
        assert len(rows) == 5 and {r["player"] for r in rows} == {"Ann", "Bob", "Cy"}
        assert [int(r["score"]) for r in rows[:3]] == records[0].result["scores"]
        as_json = get_json(server, f"/nights/{first}.json")
        assert as_json["games"] == night["games"] and as_json["standings"] == night["standings"]
        assert get_json(server, "/nights.json")[0]["id"] == first


def test_new_night_starts_an_empty_night_and_the_old_one_becomes_a_past_night(journal: Journal) -> None:
    first = record_game(journal, "pay-line", SEATS, seed=1)
    journal.start_night()
    with running(journal.path) as server:
        state = wait_for_state(server, lambda s: s["nights"] == 2)
        assert state["night"]["games"] == [] and state["live"] is None
        second = record_game(journal, "bandit", ["Ann", "Bob"], seed=3)
        state = wait_for_state(server, lambda s: s["night"]["games"] and s["night"]["id"] == second)
        assert state["live"]["id"] == second
        assert [n["id"] for n in get_json(server, "/nights.json")] == [second, first]


def test_the_page_its_art_and_its_weight(journal: Journal) -> None:
    record_game(journal, "bandit", ["Ann", "Bob"], seed=3)
    sheet = art.load()
    assert sheet.png, "the symbol art was not drawn"
    with running(journal.path, sheet) as server:
        status, headers, page = get(server, "/")
        assert status == 200 and b"/app.js" in page
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert b"http" not in page.replace(b"http-equiv", b""), "the page must load nothing from elsewhere"
        manifest = get_json(server, "/art.json")
        from companion.art import symbol_color, symbol_ids

        assert [s["id"] for s in manifest["bandit"]["symbols"]] == symbol_ids("bandit")
        assert manifest["bandit"]["symbols"][0]["color"] == "#{:02x}{:02x}{:02x}".format(
            *symbol_color("bandit", "cherry"))
        status, headers, png = get(server, "/art/bandit/cherry.png")
        assert status == 200 and headers["Content-Type"] == "image/png" and png.startswith(b"\x89PNG")
        weight = sum(len(get(server, p)[2]) for p in ("/", "/app.js", "/style.css", "/art.json"))
        weight += sum(len(get(server, f"/art/bandit/{s}.png")[2]) for s in symbol_ids("bandit"))
        assert weight < 150_000


@pytest.mark.parametrize(("method", "path", "code"), [
    ("POST", "/", 405), ("PUT", "/nights/1.json", 405), ("DELETE", "/", 405), ("BREW", "/", 405),
    ("GET", "/?night=1", 400), ("GET", "/../../etc/passwd", 404), ("GET", "/nights/abc.csv", 404),
    ("GET", "/nights/99.csv", 404), ("GET", "/art/bandit/../x.png", 404), ("GET", "/state.json#x", 400),
])
def test_anything_but_a_known_get_is_a_4xx(journal: Journal, method: str, path: str, code: int) -> None:
    with running(journal.path) as server:
        assert get(server, path, method)[0] == code
        assert get(server, "/state.json")[0] == 200


def test_malformed_and_abandoned_requests_do_not_stop_the_server(journal: Journal) -> None:
    record_game(journal, "bandit", ["Ann", "Bob"], seed=3)
    with running(journal.path) as server:
        port = server.server_address[1]
        for raw in (b"GARBAGE\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"\x16\x03\x01\x02\x00",
                    b"GET /" + b"a" * 70000 + b" HTTP/1.0\r\n\r\n"):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
                conn.sendall(raw)
                conn.shutdown(socket.SHUT_WR)
                reply = conn.makefile("rb").readline()
            assert reply == b"" or b" 4" in reply[:13], (raw[:20], reply)
        half = socket.create_connection(("127.0.0.1", port), timeout=30)  # never finishes its request
        half.sendall(b"GET / HTT")
        assert get(server, "/state.json")[0] == 200
        half.close()


def test_the_journal_is_opened_read_only_and_never_written(journal: Journal, tmp_path: Path) -> None:
    record_game(journal, "bandit", ["Ann", "Bob"], seed=3)
    journal.close()
    main = tmp_path / "journal.sqlite"
    before = main.read_bytes()
    with running(main) as server:
        wait_for_state(server, lambda s: s["night"] is not None)
        db = server.board._journal.connection  # noqa: SLF001 (the test looks at the open itself)
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            db.execute("INSERT INTO nights (started_at) VALUES (1)")
    assert main.read_bytes() == before


def test_no_journal_yet_is_said_on_the_page_and_picked_up_when_it_appears(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with running(path) as server:
        state = wait_for_state(server, lambda s: s["problem"])
        assert "no journal" in state["problem"]
        with Journal.open(path) as journal:
            record_game(journal, "bandit", ["Ann", "Bob"], seed=3)
            state = wait_for_state(server, lambda s: s["night"] is not None)
        assert state["problem"] == "" and state["night"]["games"][0]["players"] == ["Ann", "Bob"]


def test_a_reader_stuck_mid_read_never_blocks_the_daemons_writes(journal: Journal) -> None:
    """A frozen scoreboard holding a read transaction open: the daemon writes on (WAL)."""
    from companion.journal import open_readonly

    config, actions, _ = game_actions("bandit", 2, seed=5)
    game_id = journal.start_game(config, seats=["Ann", "Bob"], mode="cabinet")
    with open_readonly(journal.path) as reader:
        reader.connection.execute("BEGIN")
        assert reader.games()[0].actions == 0  # the reader's snapshot is now pinned
        for action in actions:
            journal.record_action(game_id, action)
        journal.finish_game(game_id, {"scores": [1, 2], "winners": [1]})
        assert reader.games()[0].actions == 0  # it still sees its old snapshot, and blocked nobody
        reader.connection.execute("COMMIT")
        assert reader.games()[0].actions == len(actions)


def test_the_live_game_starts_over_when_its_entries_were_rewritten(journal: Journal) -> None:
    """Journal recovery may rebuild a game's entries: the replay follows the new log, not the old."""
    from companion.journal.live import LiveGame

    config, actions, _ = game_actions("bandit", 2, seed=6)
    game_id = record_game(journal, "bandit", ["Ann", "Bob"], seed=6, upto=20)
    live = LiveGame()
    assert live.update(journal.connection, journal.game(game_id))["actions"] == 20
    journal.connection.execute("DELETE FROM entries WHERE game_id = ? AND seq > 10", (game_id,))
    assert live.update(journal.connection, journal.game(game_id))["actions"] == 10
    for action in actions[10:15]:
        journal.record_action(game_id, action)
    view = live.update(journal.connection, journal.game(game_id))
    match = replay(GameConfig.from_dict(config), actions[:15])
    assert view["actions"] == 15
    assert [p["score"] for p in view["players"]] == list(match.game.scores(match.state))


def test_the_live_game_starts_over_for_another_journals_game_of_the_same_id(
    journal: Journal, tmp_path: Path
) -> None:
    """A journal moved aside and started anew numbers its games from 1 again: game 1 of the new
    journal is another game, replayed from its start (it was once replayed from where the old
    one stopped, which failed and then stopped the scoreboard's watcher)."""
    from companion.journal.live import LiveGame

    record_game(journal, "pay-line", SEATS, seed=1, upto=20)
    live = LiveGame()
    assert live.update(journal.connection, journal.game(1))["actions"] == 20
    config, actions, _ = game_actions("bandit", 2, seed=2)
    assert len(actions) > 20
    with Journal.open(tmp_path / "anew" / "journal.sqlite") as fresh:
        assert record_game(fresh, "bandit", ["Dee", "Eve"], seed=2) == 1
        view = live.update(fresh.connection, fresh.game(1))
    match = replay(GameConfig.from_dict(config), actions)
    assert (view["game"], view["actions"], view["error"]) == ("bandit", len(actions), "")
    assert [p["score"] for p in view["players"]] == list(match.game.scores(match.state))


def test_an_unexpected_error_in_one_look_is_shown_and_the_watcher_keeps_watching(
    journal: Journal, monkeypatch: Any
) -> None:
    """A fault while reading the journal (here: the live game's replay raising) once ended the
    watcher thread, and the page never changed again: it is shown as the problem, and the next
    look that works puts the page right."""
    from companion.journal.live import LiveGame

    record_game(journal, "pay-line", SEATS, seed=1)
    with running(journal.path) as server:
        wait_for_state(server, lambda s: s["night"] and len(s["night"]["games"]) == 1)
        update = LiveGame.update
        monkeypatch.setattr(LiveGame, "update", lambda *args: 1 / 0)
        record_game(journal, "bandit", ["Dee", "Eve"], seed=2)
        state = wait_for_state(server, lambda s: s["problem"])
        assert "ZeroDivisionError" in state["problem"] and "keeps trying" in state["problem"]
        monkeypatch.setattr(LiveGame, "update", update)
        state = wait_for_state(server, lambda s: not s["problem"] and len(s["night"]["games"]) == 2)
        assert state["live"]["game"] == "bandit"


def test_a_journal_moved_aside_and_started_anew_is_followed(journal: Journal, monkeypatch: Any) -> None:
    """The daemon moves a damaged journal aside and starts a new one at the same path."""
    from companion.scoreboard import board

    monkeypatch.setattr(board, "REOPEN_S", 0.0)
    record_game(journal, "pay-line", SEATS, seed=1)
    with running(journal.path) as server:
        wait_for_state(server, lambda s: s["night"] and len(s["night"]["games"]) == 1)
        journal.close()
        journal.path.rename(journal.path.with_name("journal.sqlite.corrupt-1"))
        for suffix in ("-wal", "-shm"):
            side = journal.path.with_name(journal.path.name + suffix)
            if side.exists():
                side.rename(side.with_name("moved" + suffix))
        with Journal.open(journal.path) as fresh:
            record_game(fresh, "bandit", ["Dee", "Eve"], seed=2)
            record_game(fresh, "bandit", ["Dee", "Eve"], seed=3)
            state = wait_for_state(server, lambda s: s["night"] and len(s["night"]["games"]) == 2)
    assert state["night"]["games"][0]["players"] == ["Dee", "Eve"]
