"""The engine's command line: games, simulate, replay, adjudicate, bench engine."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine import GameConfig, Match, SeededResolver


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str,
        stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_every_registered_game_with_players_and_variants(capsys, monkeypatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "games", "--json")
    games = {g["id"]: g for g in map(json.loads, out.splitlines())}
    assert code == 0
    assert games["bandit"]["min_players"] == 2 and "bad-luck" in games["bandit"]["variants"]


def test_adjudicate_prints_one_json_ruling(capsys, monkeypatch) -> None:
    situation = {"grid": [["seven", "any", "seven"], [None, None, None], ["plum", "bell", "bar"]]}
    code, out, err = run(capsys, monkeypatch, "adjudicate", "bandit", stdin=json.dumps(situation))
    assert code == 0 and err == ""
    assert json.loads(out) == {"winning_rows": [0], "points": 100,
                               "rows": [{"row": 0, "symbol": "seven", "points": 100}]}


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (("adjudicate", "bandit"), "{not json", "not valid JSON"),
        (("adjudicate", "bandit"), "[1, 2]", "JSON object"),
        (("adjudicate", "bandit"), '{"grid": [["lemon", "bell", "bell"], [], []]}', "lemon"),
        (("adjudicate", "roulette"), "{}", "unknown game 'roulette'"),
    ],
)
def test_adjudicate_bad_input_is_one_line_and_exit_2(capsys, monkeypatch, argv, stdin, message) -> None:
    code, out, err = run(capsys, monkeypatch, *argv, stdin=stdin)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_simulate_summarizes_win_rates_turns_jackpots_and_scores(capsys, monkeypatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "simulate", "bandit", "--games", "12", "--bot", "random",
                       "--seed", "3", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["games"] == 12
    assert sum(summary["win_rate_by_seat"]) == pytest.approx(1.0)
    assert summary["mean_turns"] == 2.0  # a Bandit match is two games, one per seat
    assert summary["scores"]["max"] >= summary["scores"]["median"] >= summary["scores"]["min"]
    again = run(capsys, monkeypatch, "simulate", "bandit", "--games", "12", "--bot", "random",
                "--seed", "3", "--json")[1]
    assert json.loads(again) == summary, "the same seed gives the same summary"


def test_simulate_rejects_a_player_count_the_game_does_not_have(capsys, monkeypatch) -> None:
    code, _, err = run(capsys, monkeypatch, "simulate", "bandit", "--players", "5")
    assert code == 2 and "Bandit is for 2 players, not 5" in err


def test_replay_prints_a_transcript_of_an_exported_game(tmp_path: Path, capsys, monkeypatch) -> None:
    match = Match.new(GameConfig("bandit", 2, seed=9))
    for card in ["bell", "bell", "bell"] + ["cherry", "plum", "seven"] * 2:
        match.apply(f"reveal {card}")
    match.apply("claim 0")
    match.resolve_all(SeededResolver(1))
    log = tmp_path / "game.json"
    log.write_text(json.dumps(match.to_dict()))
    code, out, _ = run(capsys, monkeypatch, "replay", str(log))
    assert code == 0
    assert "player 1 claims row 1" in out and "JACKPOT bell for player 1: 50" in out
    assert "Scores so far" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("nonsense", "not JSON"),
        ('{"config": {"game": "bandit", "players": 2}}', "'config' and 'actions'"),
        ('{"config": {"game": "bandit", "players": 2}, "actions": ["claim 0"]}', "action 1"),
        ('{"config": {"game": "bandit", "players": 9}, "actions": []}', "players"),
    ],
)
def test_replay_of_a_broken_log_is_one_clear_line(tmp_path, capsys, monkeypatch, content, message) -> None:
    log = tmp_path / "bad.json"
    log.write_text(content)
    code, _, err = run(capsys, monkeypatch, "replay", str(log))
    assert code == 2 and message in err and "Traceback" not in err


def test_replay_of_a_missing_file_says_what_to_do(capsys, monkeypatch) -> None:
    code, _, err = run(capsys, monkeypatch, "replay", "/nonexistent/game.json")
    assert code == 2 and "companion export" in err


def test_bench_engine_prints_one_json_line_per_game(capsys, monkeypatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "bench", "engine", "--seconds", "0.05", "--game", "bandit",
                       "--openspiel", "/nonexistent/python")
    figure, reference = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and figure["game"] == "bandit" and figure["games"] >= 1
    assert figure["actions_per_cpu_second"] > 0 and figure["checked_actions_per_cpu_second"] > 0
    assert reference["reference"] == "openspiel" and reference["openspiel"] is None
    assert "/nonexistent/python" in reference["why"] and "vs_openspiel" not in figure


def test_bench_engine_compares_with_openspiel_run_before_and_after_the_games(
        capsys, monkeypatch, tmp_path: Path) -> None:
    """A stand-in for an interpreter with OpenSpiel: 1,000 actions/s the first time, 3,000 the
    second; the games are compared with the mean of the two."""
    calls = tmp_path / "calls"
    fake = tmp_path / "python"
    fake.write_text(
        "#!/bin/sh\n"
        f"echo x >> {calls}\n"
        f"rate=$([ $(wc -l < {calls}) -eq 1 ] && echo 1000 || echo 3000)\n"
        'echo "{\\"game\\": \\"python_liars_poker\\", \\"games\\": 2, \\"actions\\": 50, '
        '\\"actions_per_cpu_second\\": $rate, \\"python\\": \\"3.11\\"}"\n')
    fake.chmod(0o755)
    code, out, _ = run(capsys, monkeypatch, "bench", "engine", "--seconds", "0.05", "--game", "bandit",
                       "--openspiel", str(fake))
    figure, reference = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and reference["runs"] == [1000, 3000] and reference["actions_per_cpu_second"] == 2000
    assert reference["games"] == 4 and reference["actions"] == 100
    assert figure["vs_openspiel"] == round(figure["actions_per_cpu_second"] / 2000, 2)
