"""No traceback and no kilobyte-long error line from hostile ``adjudicate`` situations (all five
games) or malformed action text in ``companion replay`` and ``Session.apply``.

The fuzzing itself is in ``tests/fuzz_adjudicate.py``; here it runs in this process and, because
the locale decides how Python's stdin decodes bytes, in a fresh interpreter under C.UTF-8 and
under en_GB.UTF-8 (the Pi's own locale, built with ``localedef`` when the machine lacks it).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz_adjudicate import fuzz_actions, fuzz_adjudicate, run_cli
from tests.test_fuzz_inputs import _locale_env

ROOT = Path(__file__).resolve().parent.parent


def test_hostile_situations_get_a_ruling_or_one_short_line() -> None:
    cases, failures = fuzz_adjudicate(seed=14, count=200)
    assert cases > 1700
    assert failures == []


def test_malformed_actions_in_replay_and_session_apply_are_refused_in_one_line(tmp_path: Path) -> None:
    """``claim``, ``claim x`` and a bare ``reveal`` reached ``describe`` before the rules checked
    them (an IndexError); a refused action must leave the session's game and journal as they were."""
    cases, failures = fuzz_actions(seed=14, count=60, workdir=tmp_path)
    assert cases > 300
    assert failures == []


@pytest.mark.parametrize(("game", "data", "message"), [
    ("bandit", b"[" * 60_000, "nested too deeply"),
    ("thanks-a-lottery", b'{"round": ' + b"9" * 5000 + b"}", "a number too long"),
    ("thanks-a-lottery", '{"block": ["²", 2, 3]}'.encode(), "unknown card '²'"),
    ("mega-jackpot", b'{"discards": ["\xff"]}', "not UTF-8 text"),
    ("pay-line", b'{"dice": ["' + b"x" * 70_000 + b'"]}', "over 64 KB"),
])
def test_the_issues_crash_classes_are_one_line(game: str, data: bytes, message: str) -> None:
    code, out, err = run_cli(["adjudicate", game], data)
    assert (code, out) == (2, "") and message in err and len(err) < 300


@pytest.mark.parametrize("locale_name", ["C.UTF-8", "en_GB.UTF-8"])
def test_the_fuzz_holds_under_the_pis_locales(locale_name: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "tests.fuzz_adjudicate", "7", "40", "8"], cwd=ROOT,
                          env=_locale_env(locale_name, tmp_path), capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1].endswith("failures 0"), done.stdout[-3000:]
