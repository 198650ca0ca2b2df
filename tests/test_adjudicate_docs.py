"""docs/adjudicate.md: every example runs as written, and the contract holds for every game."""

from __future__ import annotations

import io
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine import InvalidSituationError, all_games, get_game

DOC = Path(__file__).resolve().parents[1] / "docs" / "adjudicate.md"
COMMAND = re.compile(r"^\$ echo '(?P<json>.*)' \| companion adjudicate (?P<game>[a-z-]+)$")


def examples() -> list[tuple[str, str, str]]:
    """(game, stdin, the output lines) for each ``$ echo ... | companion adjudicate`` line."""
    found: list[tuple[str, str, str]] = []
    lines = DOC.read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines):
        if line.startswith("$ "):
            match = COMMAND.match(line)
            assert match, f"docs/adjudicate.md: not an 'echo ... | companion adjudicate' line: {line}"
            assert shlex.split(line[2:].split(" | ")[0])[1] == match["json"]  # one quoted argument
            found.append((match["game"], match["json"], lines[index + 1]))
    return found


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str,
            data: bytes) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="strict"))
    code = main(["adjudicate", game])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_doc_has_an_example_for_every_game() -> None:
    assert {game for game, _, _ in examples()} == set(all_games())


@pytest.mark.parametrize(("game", "stdin", "expected"), examples())
def test_every_doc_example_prints_what_the_doc_shows(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str, stdin: str,
        expected: str) -> None:
    code, out, err = run_cli(monkeypatch, capsys, game, stdin.encode() + b"\n")
    if expected.startswith("companion: "):
        assert (code, out, err) == (2, "", expected + "\n")
    else:
        assert (code, err) == (0, "") and json.loads(out) == json.loads(expected) and out == expected + "\n"


def _valid(game: str) -> dict:
    return json.loads(next(stdin for g, stdin, out in examples() if g == game and out.startswith("{")))


@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_game_refuses_an_unknown_key_naming_it(game: str) -> None:
    with pytest.raises(InvalidSituationError, match="does not know the key 'colour'"):
        get_game(game).adjudicate({**_valid(game), "colour": "red"})


@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_game_takes_its_variants_and_refuses_others(game: str) -> None:
    situation = _valid(game)
    with pytest.raises(InvalidSituationError, match="has no variant 'turbo'"):
        get_game(game).adjudicate({**situation, "variants": ["turbo"]})
    get_game(game).adjudicate(situation)  # the example itself is fine
