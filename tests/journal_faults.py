"""Helpers for the journal's fault tests: real games to journal, and ways to damage the files."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from companion.engine import GameConfig, Match, SeededResolver
from companion.journal import Journal


def played(actions: int, seed: int = 7, game: str = "bandit",
           players: int = 2) -> tuple[dict[str, Any], list[str]]:
    """A config and the first ``actions`` actions of a seeded game (all of them replay)."""
    rng = random.Random(seed)
    for attempt in range(50):
        match = Match.new(GameConfig(game, players, seed=seed + attempt))
        while match.version < actions and not match.is_over:
            if match.chance_point is not None:
                match.resolve(SeededResolver(rng))
            else:
                match.apply(rng.choice(match.legal_actions()))
        if match.version == actions:
            return match.config.to_dict(), [str(a) for a in match.log]
    raise AssertionError(f"no {game} game of {actions} actions found")


def journal_games(path: Path, lengths: list[int], *, finish: bool = False) -> list[tuple[int, list[str]]]:
    """Journal one game per length (seats Ann and Bob); returns (game id, actions) of each."""
    made = []
    with Journal.open(path) as journal:
        for n, length in enumerate(lengths):
            config, actions = played(length, seed=100 + n)
            gid = journal.start_game(config, ["Ann", "Bob"], "cabinet")
            for action in actions:
                journal.record_action(gid, action)
            if finish:
                journal.finish_game(gid, {"scores": [1, 2], "winners": [1]})
            made.append((gid, actions))
    return made


def scribble(path: Path, offset: int, length: int = 64) -> None:
    """Overwrite ``length`` bytes at ``offset`` (negative: from the end) with junk, as a bad card does."""
    data = bytearray(path.read_bytes())
    start = offset if offset >= 0 else len(data) + offset
    data[start:start + length] = bytes((0xA5 ^ i) & 0xFF for i in range(length))
    path.write_bytes(bytes(data))


def finished_game(seed: int = 5, game: str = "bandit", players: int = 2) -> tuple[dict[str, Any], list[str]]:
    """A config and every action of a seeded game played to its end."""
    rng = random.Random(seed)
    match = Match.new(GameConfig(game, players, seed=seed))
    while not match.is_over:
        if match.chance_point is not None:
            match.resolve(SeededResolver(rng))
        else:
            match.apply(rng.choice(match.legal_actions()))
    return match.config.to_dict(), [str(a) for a in match.log]
