"""Hostile situations for ``companion adjudicate`` (all five games) and malformed action text
for ``companion replay`` and ``Session.apply`` (used by test_fuzz_adjudicate.py).

Run as a script (``python -m tests.fuzz_adjudicate SEED COUNT``) it fuzzes in this process and
prints one line per failure, then ``cases N failures M``; the test runs it under C.UTF-8 and
en_GB.UTF-8, because the locale decides how Python's stdin decodes bytes. Stdin is fed the
way the interpreter sets it up under the running locale (its encoding and error handler).

A failure is: a traceback (any exception other than the one-line user errors), an exit code
other than 0 or 2, a ruling that is not one JSON object, or an error line longer than
:data:`tests.fuzz_inputs.LONGEST_LINE`.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.fuzz_inputs import LONGEST_LINE, check

#: Values that broke, or might break, a ruling: wrong types, odd text, huge or deep values.
HOSTILE: list[Any] = [
    None, True, False, 0, -1, 1, 2, 3, 7, 20, 99, 10**30, 1.5, -0.0, 1e308, "", " ", "²", "١٢", "3²",
    "½", "wild", "any", "blank", "bar", "apple", "apple@", "@", "@apple-cherry", "apple@apple-cherry",
    "genie@carpet-genie", "carpet-genie", "start-1", "start-9", "int-grapes-2", "exp-jackpot-payout-grapes",
    "coinless-wild", "none", "all", "\u202e", "\x00", "a\nb", "x" * 20_000, "é" * 3000, [], {}, [[]],
    [None] * 3, ["apple"] * 3, [[None] * 3] * 3, list(range(50)), {"symbols": ["grapes"], "coins": 1},
    {"id": "int-grapes-2"}, {"symbols": [], "coins": None},
]


def examples() -> dict[str, list[dict[str, Any]]]:
    """The valid situations of docs/adjudicate.md, by game: the seeds of every mutation."""
    from tests.test_adjudicate_docs import examples as doc_examples

    by_game: dict[str, list[dict[str, Any]]] = {}
    for game, stdin, _ in doc_examples():
        by_game.setdefault(game, []).append(json.loads(stdin))
    return by_game


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.copy(value)
    out[path[0]] = _set(value[path[0]], path[1:], new)
    return out


def mutate(situation: dict[str, Any], rng: random.Random) -> Any:
    """One hostile variant: a value replaced, a key dropped, misspelt or added, a list cut or
    grown, absurd nesting, or the whole thing replaced."""
    roll = rng.random()
    paths = list(_paths(situation))
    if roll < 0.5:
        return _set(situation, rng.choice(paths[1:]), rng.choice(HOSTILE))
    if roll < 0.6 and situation:
        key = rng.choice(list(situation))
        out = dict(situation)
        value = out.pop(key)
        if rng.random() < 0.5:
            out[key[:-1] if len(key) > 1 else key + "x"] = value  # misspelt
        return out
    if roll < 0.7:
        return {**situation, rng.choice(["colour", "lucky_card", "grid ", "x" * 5000, "variants"]):
                rng.choice(HOSTILE)}
    if roll < 0.8:
        path = rng.choice(paths)
        target = situation
        for step in path:
            target = target[step]
        if isinstance(target, list):
            cut = rng.randint(0, len(target))
            grown = target * rng.randint(2, 30) if rng.random() < 0.5 else target[:cut]
            return _set(situation, path, grown)
        return _set(situation, path, [target])
    if roll < 0.9:
        deep: Any = rng.choice(HOSTILE[:5])
        for _ in range(rng.choice([50, 900, 3000])):
            deep = [deep] if rng.random() < 0.7 else {"k": deep}
        return _set(situation, rng.choice(paths), deep)
    return rng.choice(HOSTILE)


def encode(value: Any, rng: random.Random) -> bytes:
    """The situation as stdin bytes, sometimes broken: bad UTF-8, cut short, huge numbers."""
    try:
        text = json.dumps(value, ensure_ascii=rng.random() < 0.5)
    except (ValueError, RecursionError):
        text = "[" * 5000
    data = text.encode("utf-8", "surrogatepass")
    roll = rng.random()
    if roll < 0.08:
        at = rng.randint(0, len(data))
        data = data[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"]) + data[at:]
    elif roll < 0.12:
        data = data[: rng.randint(0, len(data))]
    elif roll < 0.16:
        data = data.replace(b"3", b"3" + b"9" * 5000, 1)
    elif roll < 0.18:
        data = b"[" * 100_000
    return data


def run_cli(argv: list[str], stdin: bytes) -> tuple[int, str, str]:
    """``companion ARGV`` in this process with ``stdin`` decoded as this locale's stdin is."""
    from companion.cli import main

    template = sys.__stdin__
    encoding = getattr(template, "encoding", None) or "utf-8"
    errors = getattr(template, "errors", None) or "strict"
    fake = io.TextIOWrapper(io.BytesIO(stdin), encoding=encoding, errors=errors)
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = fake
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 2
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def _expect_clean(code: int, out: str, err: str, ruling: bool) -> None:
    """Raise unless the CLI ended with a ruling (0) or one short error line (2)."""
    if code not in (0, 2):
        raise RuntimeError(f"exit {code}; stderr {err[:200]!r}")
    lines = err.splitlines()
    if "Traceback" in err or len(lines) > 1 or any(len(line) > LONGEST_LINE for line in lines):
        raise RuntimeError(f"stderr of {len(err)} characters: {err[:200]!r}")
    if code == 2 and not lines:
        raise RuntimeError("exit 2 without a message")
    if code == 0 and ruling and not isinstance(json.loads(out), dict):
        raise RuntimeError(f"not one JSON object: {out[:80]!r}")


def fuzz_adjudicate(seed: int, count: int) -> tuple[int, list[str]]:
    """``count`` hostile situations per game through the CLI, and each straight to the game."""
    from companion.engine import get_game

    rng = random.Random(seed)
    failures: list[str] = []
    cases = 0
    for game, seeds in sorted(examples().items()):
        for index in range(count):
            situation = mutate(rng.choice(seeds), rng)
            data = encode(situation, rng)
            label = f"adjudicate {game} #{index} {data[:60]!r}"
            argv = ["adjudicate", game]
            check(label, lambda data=data, argv=argv: _expect_clean(*run_cli(argv, data), True), failures)
            if isinstance(situation, dict):
                check(f"{label} (in-process)", lambda s=situation, g=game: _ruling(get_game(g).adjudicate(s)),
                      failures)
                cases += 1
            cases += 1
    return cases, failures


def _ruling(ruling: Any) -> None:
    json.dumps(ruling)  # a ruling is plain JSON


#: Malformed or misplaced action text; the first ones broke ``describe`` before the rules saw them.
BAD_ACTIONS = [
    "claim", "claim x", "reveal", "reveal  ", "spin x", "spin 1 0", "spin 0 1 2", "spin 0 0", "claim -1",
    "claim 99", "play", "play 4 3 wild=2", "play x", "play wild=", "add", "replace", "flip", "flip 0",
    "flip 9 9", "pay", "pay x 0", "take", "take ²", "reroll", "reroll 9", "double 1", "walk 1", "stop 1",
    "cash x", "attempt", "attempt 9", "reveal bar bar", "reveal " + "x" * 5000, "x" * 5000, "²",
    "reveal ²", "123", "improve", "score", "discard -1",
]


def _logs(seed: int) -> dict[str, tuple[Any, list[str]]]:
    """One finished game per game, seeded: (config, action texts)."""
    from companion.engine import GameConfig, all_games
    from companion.engine.bots import RandomBot
    from companion.engine.simulate import play_game

    logs = {}
    for game_id, game_cls in sorted(all_games().items()):
        config = GameConfig(game_id, max(2, game_cls.min_players), seed=seed)
        played = play_game(config, [RandomBot()])
        logs[game_id] = (config, [str(a) for a in played.match.log])
    return logs


def fuzz_actions(seed: int, count: int, workdir: Path) -> tuple[int, list[str]]:
    """Malformed actions at ``count`` random points of each game, through ``companion replay``;
    and through ``Session.apply`` along one journalled game per game, which must refuse each
    and leave the game and the journal as they were."""
    rng = random.Random(seed)
    failures: list[str] = []
    cases = 0
    for game_id, (config, actions) in _logs(seed).items():
        # mostly where a player decides: describe() broke there, chance points refuse anything
        decisions = [at for at, text in enumerate(actions) if not text.startswith("reveal")]
        points = sorted(rng.choice(decisions) if rng.random() < 0.8 else rng.randrange(len(actions))
                        for _ in range(count))
        trials = [(at, rng.choice(BAD_ACTIONS)) for at in points]
        for at, bad in trials:
            log = {"schema": 1, "config": config.to_dict(), "actions": [*actions[:at], bad]}
            data = json.dumps(log).encode()
            check(f"replay {game_id} at {at} {bad[:30]!r}",
                  lambda data=data: _expect_clean(*run_cli(["replay", "-"], data), False), failures)
        cases += len(trials)
        label, path = f"Session.apply {game_id}", workdir / f"{game_id}.sqlite"
        cases += len(trials)
        check(label, lambda config=config, actions=actions, trials=trials, path=path, label=label:
              _session_trials(config, actions, trials, path, failures, label), failures)
    return cases, failures


def _session_trials(config: Any, actions: list[str], trials: list[tuple[int, str]], path: Path,
                    failures: list[str], label: str) -> None:
    """Play the game through a journalled session, trying each bad action at its point."""
    from companion.engine import Action, EngineError
    from companion.journal import Journal
    from companion.session import Session

    with Journal.open(path) as journal:
        session = Session.start(journal, config, ["A", "B", "C", "D"][: config.players], "cabinet")
        for at, text in enumerate(actions):
            for _, bad in (trial for trial in trials if trial[0] == at):
                try:
                    if Action.parse(bad) in session.match.legal_actions():
                        continue  # legal here: not a bad action at this point
                except EngineError:
                    pass
                before = session.match.game.encode_state(session.match.state)

                def attempt(bad: str = bad, before: str = before, at: int = at) -> None:
                    try:
                        session.apply(bad)
                    except EngineError:
                        changed = session.match.game.encode_state(session.match.state) != before
                        if changed or session.version != at:
                            raise RuntimeError("a refused action changed the game or its log") from None
                        raise
                    raise RuntimeError(f"accepted {bad!r}, which legal_actions() does not list")

                check(f"{label} at {at} {bad[:30]!r}", attempt, failures)
            session.apply(text)
        if journal.unfinished() is not None:
            raise RuntimeError("the journalled game did not finish")


def main(argv: list[str]) -> int:
    """``SEED COUNT [ACTIONS]``: fuzz here (COUNT situations per game, ACTIONS bad actions per
    game, default COUNT / 2), print failures and a summary line."""
    seed, count = int(argv[0]), int(argv[1])
    per_game = int(argv[2]) if len(argv) > 2 else count // 2
    cases, failures = fuzz_adjudicate(seed, count)
    with tempfile.TemporaryDirectory() as tmp:
        more, action_failures = fuzz_actions(seed, per_game, Path(tmp))
    for line in failures + action_failures:
        print(line)
    print(f"cases {cases + more} failures {len(failures) + len(action_failures)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

