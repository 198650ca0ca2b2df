"""No traceback, no hang, no kilobyte-long error line from hostile config files or output paths.

The fuzzing itself is in ``tests/fuzz_inputs.py``; here it runs in this process and, because the
locale decides how Python decodes names and text, in a fresh interpreter under C.UTF-8 and under
en_GB.UTF-8 (the Pi's own locale, built with ``localedef`` when the machine lacks it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz_inputs import fuzz_config, fuzz_paths

ROOT = Path(__file__).resolve().parent.parent


def test_hostile_config_files_are_one_short_line_each(tmp_path: Path) -> None:
    cases, failures = fuzz_config(seed=14, count=300, workdir=tmp_path)
    assert cases > 600
    assert failures == []


def test_bad_output_paths_are_one_line_and_keep_existing_files(tmp_path: Path) -> None:
    cases, failures = fuzz_paths(tmp_path)
    assert cases >= 30
    assert failures == []


def _locale_env(name: str, tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "LC_ALL": name, "LANG": name}
    env.pop("PYTHONUTF8", None)
    if name.startswith("en_GB") and shutil.which("localedef"):
        # Most CI machines only carry C.UTF-8; build the Pi's locale so it is really in effect.
        target = tmp_path / "locales"
        target.mkdir()
        built = subprocess.run(["localedef", "-i", "en_GB", "-f", "UTF-8", str(target / name)],
                               capture_output=True, check=False)
        if built.returncode == 0:
            env["LOCPATH"] = str(target)
    return env


@pytest.mark.parametrize("locale_name", ["C.UTF-8", "en_GB.UTF-8"])
def test_the_fuzz_holds_under_the_pis_locales(locale_name: str, tmp_path: Path) -> None:
    # A generous limit: it only catches a hang (a FIFO read as the config blocked forever).
    done = subprocess.run([sys.executable, "-m", "tests.fuzz_inputs", "7", "150"], cwd=ROOT,
                          env=_locale_env(locale_name, tmp_path), capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1].endswith("failures 0"), done.stdout[-3000:]
