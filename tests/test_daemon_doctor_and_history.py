"""`companion doctor`, `history` and `export` through the real CLI: plain words, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine import load_log
from companion.journal import Journal
from tests.journal_faults import journal_games, scribble

CONFIG = {"game": "bandit", "players": 2, "variants": [], "seed": 3, "options": {}}


def test_doctor_reports_a_broken_config_and_keeps_checking(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    bad = tmp_path / "config.toml"
    bad.write_text("[screen]\nrotation = 45\n")
    code = main(["doctor", "--config", str(bad)])
    out = capsys.readouterr()
    assert code == 1
    assert "[FAIL] config:" in out.out and "screen.rotation" in out.out
    assert "[ ok ] state directory" in out.out
    for name in ("camera", "gpio", "display", "audio", "taught cards"):
        assert f"] {name}:" in out.out
    assert "Traceback" not in out.out + out.err
    # the rest is checked with the defaults, and says so (it used to say "no config file")
    assert "no config file" not in out.out
    assert out.out.count("(built-in defaults; the config has a mistake)") == 6


def test_doctor_passes_with_the_simulated_camera(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    good = tmp_path / "config.toml"
    good.write_text('[camera]\nsource = "sim"\n')
    code = main(["doctor", "--config", str(good)])
    out = capsys.readouterr().out
    assert "[ ok ] camera: simulated table" in out
    assert "[FAIL]" not in out and code == 0


def test_doctor_fails_on_a_journal_path_that_is_not_a_journal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    (tmp_path / "journal.sqlite").write_bytes(b"garbage" * 100)
    main(["doctor", "--config", str(tmp_path / "none.toml")])
    out = capsys.readouterr().out
    assert "[FAIL] state directory" in out and "not an SQLite database" in out
    assert (tmp_path / "journal.sqlite").read_bytes() == b"garbage" * 100  # the doctor changes nothing


def test_doctor_warns_about_a_damaged_journal_and_says_it_will_be_recovered(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    journal_games(tmp_path / "journal.sqlite", [20, 20])
    scribble(tmp_path / "journal.sqlite", 2 * 4096, 16)
    damaged = (tmp_path / "journal.sqlite").read_bytes()
    main(["doctor", "--config", str(tmp_path / "none.toml")])
    out = capsys.readouterr().out
    assert "[warn] state directory" in out and "damaged" in out and "recovers its games" in out
    assert (tmp_path / "journal.sqlite").read_bytes() == damaged


def test_history_lists_players_result_and_duration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.sqlite"
    with Journal.open(path) as journal:
        done = journal.start_game(CONFIG, ["Ann", "Bob"], "cabinet")
        journal.record_action(done, "reveal cherry")
        journal.finish_game(done, {"scores": [15, 10], "winners": [0]})
        journal.start_game(CONFIG, ["Cy", "Di"], "table")
    assert main(["history", "--journal", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "Ann, Bob" in lines[0] and "Ann 15, Bob 10: Ann wins" in lines[0] and " s " in lines[0]
    assert "Cy, Di" in lines[1] and "playing (0 actions)" in lines[1]
    assert main(["history", "--journal", str(path), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0]["result"]["winners"] == [0] and rows[1]["status"] == "playing"


def test_export_prints_json_that_load_log_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.sqlite"
    with Journal.open(path) as journal:
        gid = journal.start_game(CONFIG, ["Ann", "Bob"], "cabinet")
        for action in ("reveal cherry", "reveal plum"):
            journal.record_action(gid, action)
    assert main(["export", str(gid), "--journal", str(path)]) == 0
    config, actions = load_log(capsys.readouterr().out)
    assert config.game == "bandit" and config.seed == 3
    assert [str(a) for a in actions] == ["reveal cherry", "reveal plum"]


def test_export_of_an_unknown_game_is_one_line_and_exit_2(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    Journal.open(tmp_path / "j.sqlite").close()
    assert main(["export", "9", "--journal", str(tmp_path / "j.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no game 9" in err


def test_history_never_moves_or_creates_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photos = tmp_path / "photos.db"
    photos.write_bytes(b"not a journal" * 100)
    assert main(["history", "--journal", str(photos)]) == 2
    assert "not a usable companion journal" in capsys.readouterr().err
    assert photos.read_bytes() == b"not a journal" * 100 and len(list(tmp_path.iterdir())) == 1
    assert main(["history", "--journal", str(tmp_path / "none.sqlite")]) == 2
    assert "no journal at" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()


@pytest.mark.parametrize(("on_pi", "status"), [(False, "warning"), (True, "failed")])
def test_a_missing_sound_card_fails_only_on_the_pi(monkeypatch: pytest.MonkeyPatch, on_pi: bool,
                                                   status: str) -> None:
    from companion.config import Config
    from companion.doctor import check_audio

    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")  # SDL's mixer cannot open any output
    check = check_audio(Config(), on_pi=on_pi)
    assert check.status == status
    assert "no sound output" in check.found


def test_simulate_refuses_zero_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "bandit", "--players", "0", "--games", "1"]) == 2
    assert "companion: Bandit is for 2 players, not 0" in capsys.readouterr().err  # not "2-2"
    assert main(["simulate", "thanks-a-lottery", "--players", "7", "--games", "1"]) == 2
    assert "companion: Thanks a Lottery is for 2-6 players, not 7" in capsys.readouterr().err
