"""Hostile inputs for the config loader and the CLI's output paths (used by test_fuzz_inputs.py).

Run as a script (``python -m tests.fuzz_inputs SEED COUNT``) it fuzzes in this process and prints
one line per failure, then ``cases N failures M``; the test runs it under several locales, since
the locale decides how Python decodes file names and text.

A failure is: a traceback (any exception other than the one-line user errors), an error line
longer than :data:`LONGEST_LINE` (a message must quote a short excerpt, never the input), or a
case that takes longer than :data:`HANG_SECONDS` of CPU time (a hang; generous on purpose).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

LONGEST_LINE = 400
HANG_SECONDS = 20.0

#: Values that broke, or might break, a loader: wrong types, odd text, non-finite numbers.
HOSTILE_VALUES = [
    '"²"', '"١٢"', '""', '" "', '"none"', '"GPIO17"', '"BCM 4"', '"17.0"', "17.0", "18.0", "-1",
    "0", "1", "27", "28", "9223372036854775807", "-9223372036854775808", "nan", "inf", "-inf",
    "+nan", "1e308", "true", "false", "[]", "[1]", "[18.0]", '["start"]', '["x"]', "[[1]]",
    '[true]', "{}", '{a = 1}', '"\\u0000"', '"a\\nb"', '"\\u202e"', '"' + "x" * 100_000 + '"',
    "[" + ", ".join(['"y"'] * 2000) + "]", "1979-05-27T07:32:00Z", "0x10", "0o7", '"sim"',
    '"file:"', '"usb:"', '"file:/nonexistent/frames"', '"' + "é" * 5000 + '"',
]

SECTIONS = {
    "game": ["default", "players", "mode", "seats", "variants", "unknown"],
    "screen": ["width", "height", "rotation", "fullscreen"],
    "camera": ["source", "stable_frames", "min_confidence"],
    "audio": ["device", "volume"],
    "pins": ["lever", "hold1", "start_lamp", "lockout", "lever_lockout", "long_press", "stuck_after",
             "long_press_controls", "allow_pins", "lamp_dimming", "blink_period", "attract_step", "nope"],
    "journal": ["path"],
}


def config_texts(rng: random.Random, count: int) -> Iterator[str]:
    """``count`` config files: one to three hostile keys each, sometimes broken TOML."""
    for _ in range(count):
        lines = []
        for _ in range(rng.randint(1, 3)):
            section = rng.choice(list(SECTIONS))
            lines.append(f"[{section}]\n{rng.choice(SECTIONS[section])} = {rng.choice(HOSTILE_VALUES)}\n")
        text = "".join(lines)
        roll = rng.random()
        if roll < 0.05:
            text = "x = " + "[" * 3000 + "]" * 3000
        elif roll < 0.1:
            text = text[: rng.randint(0, len(text))]
        elif roll < 0.15:
            text = "[game]\nseats = [" + ", ".join(f'"{"n" * rng.randint(1, 60)}"' for _ in range(8)) + "]\n"
        yield text


def check(label: str, act: Callable[[], object], failures: list[str]) -> None:
    """Run ``act``; record a traceback, an overlong message or a hang as a failure."""
    from companion.engine.errors import EngineError
    from companion.errors import UserError

    started = time.process_time()
    try:
        act()
    except (UserError, EngineError) as error:
        message = str(error)
        if "\n" in message or len(message) > LONGEST_LINE:
            failures.append(f"{label}: message of {len(message)} characters: {message[:80]!r}")
    except BaseException as error:  # noqa: BLE001 - anything else reaching a user is a bug
        failures.append(f"{label}: {type(error).__name__}: {str(error)[:120]}")
    spent = time.process_time() - started
    if spent > HANG_SECONDS:
        failures.append(f"{label}: took {spent:.0f} s of CPU")


def fuzz_config(seed: int, count: int, workdir: Path) -> tuple[int, list[str]]:
    """Load ``count`` hostile files (and the special ones); returns (cases, failures)."""
    from companion.config import load_config
    from companion.doctor import check_config

    rng = random.Random(seed)
    failures: list[str] = []
    cases = 0
    path = workdir / "config.toml"
    for index, text in enumerate(config_texts(rng, count)):
        path.write_text(text, encoding="utf-8")
        check(f"config #{index} {text[:60]!r}", lambda: load_config(path), failures)
        check(f"doctor config #{index}", lambda: _doctor_line(check_config(str(path))[0].line()), failures)
        cases += 2
    special = _special_files(workdir)
    for name, file in special.items():
        check(f"config {name}", lambda file=file: load_config(file), failures)
        cases += 1
    return cases, failures


def _doctor_line(line: str) -> None:
    from companion.errors import UserError

    if len(line) > LONGEST_LINE + 200:
        raise UserError("x" * (LONGEST_LINE + 1))  # recorded as an overlong message


def _special_files(workdir: Path) -> dict[str, str]:
    fifo = workdir / "fifo.toml"
    if not fifo.exists():
        os.mkfifo(fifo)
    (workdir / "folder.toml").mkdir(exist_ok=True)
    (workdir / "latin1.toml").write_bytes(b'[game]\nseats = ["Ren\xe9e"]\n')
    (workdir / "big.toml").write_bytes(b"# " + b"x" * (1 << 20) + b"\n")
    return {
        "fifo": str(fifo), "folder": str(workdir / "folder.toml"), "latin-1": str(workdir / "latin1.toml"),
        "one megabyte": str(workdir / "big.toml"), "missing": str(workdir / "absent.toml"),
        "/dev/null": "/dev/null", "/dev/zero": "/dev/zero", "long name": str(workdir / ("n" * 5000)),
        "nul": "a\0b.toml", "undecodable": os.fsdecode(b"caf\xe9.toml"),
    }


def fuzz_paths(workdir: Path) -> tuple[int, list[str]]:
    """Every output path command with folders, files, missing folders and odd names."""
    from companion.cli import main

    failures: list[str] = []
    existing = workdir / "existing.txt"
    existing.write_text("keep me\n")
    folder = workdir / "out"
    folder.mkdir(exist_ok=True)
    journal = _journal(workdir)
    odd = [str(workdir / "missing" / "x.pdf"), str(existing / "x.pdf"), str(workdir / ("n" * 300)),
           str(workdir / ("n" * 5000) / "x"), "/proc/x.pdf", "", os.fsdecode(b"caf\xe9/x.pdf")]
    cases = 0
    for target in odd + [str(folder), str(existing)]:
        file = target if target != str(existing) else str(folder)  # overwriting a file is allowed
        into = target if target != str(folder) else str(existing)
        for argv in (["cards", "print", "bandit", "--out", file], ["cards", "mat", "bandit", "--out", file],
                     ["cards", "images", "bandit", "--out", into],
                     ["export", "1", "--journal", str(journal), "-o", file]):
            check(f"companion {' '.join(a[:40] for a in argv)}", lambda argv=argv: _cli(main, argv), failures)
            cases += 1
    if existing.read_text() != "keep me\n":
        failures.append("cards images overwrote an existing file")
    return cases, failures


def _cli(main: Callable[[list[str]], int], argv: list[str]) -> None:
    from companion.errors import UserError

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse's usage errors
            code = stop.code if isinstance(stop.code, int) else 2
    text = err.getvalue()
    if "Traceback" in text or any(len(line) > LONGEST_LINE for line in text.splitlines()):
        raise RuntimeError(f"stderr: {text[:200]!r}")
    if code == 0 and argv[0] != "cards":
        return
    if code not in (0, 2):
        raise UserError(f"exit code {code}")


def _journal(workdir: Path) -> Path:
    from companion.engine import GameConfig
    from companion.journal import Journal

    path = workdir / "journal.sqlite"
    if not path.exists():
        with Journal.open(path) as journal:
            game_id = journal.start_game(GameConfig("bandit", 2, seed=1).to_dict(), ["A", "B"], "cabinet")
            journal.record_action(game_id, "reveal cherry")
    return path


def main(argv: list[str]) -> int:
    """``SEED COUNT``: fuzz here, print failures and a summary line."""
    seed, count = int(argv[0]), int(argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        cases, failures = fuzz_config(seed, count, Path(tmp))
        more, path_failures = fuzz_paths(Path(tmp))
    for line in failures + path_failures:
        print(line)
    print(f"cases {cases + more} failures {len(failures) + len(path_failures)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
