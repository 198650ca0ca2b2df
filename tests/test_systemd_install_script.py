"""The Pi installer is valid shell and agrees with the unit on where things live."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "install-pi.sh"
UNIT = ROOT / "systemd" / "jackpot-companion.service"


def test_the_installer_is_valid_bash() -> None:
    done = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_shellcheck_finds_nothing_when_it_is_installed() -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    done = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_the_unit_starts_the_venv_the_installer_makes() -> None:
    script = SCRIPT.read_text()
    prefix = re.search(r'PREFIX="\$\{PREFIX:-([^}]+)\}"', script)
    assert prefix is not None
    exec_start = next(line for line in UNIT.read_text().splitlines() if line.startswith("ExecStart="))
    assert exec_start == f"ExecStart={prefix[1]}/venv/bin/companion run"
    assert "--system-site-packages" in script
    assert "import numpy, cv2, picamera2" in script  # the NumPy ABI check of PLATFORM.md


def test_the_installer_does_not_overwrite_an_existing_config() -> None:
    script = SCRIPT.read_text()
    assert 'if [ ! -f "$CONFIG_DIR/config.toml" ]' in script
