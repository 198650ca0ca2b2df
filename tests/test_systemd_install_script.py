"""The Pi installer is valid shell and agrees with the unit on where things live."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "install-pi.sh"
UNIT = ROOT / "systemd" / "jackpot-companion.service"
CONSTRAINTS = ROOT / "systemd" / "constraints.txt"


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
    assert "import numpy, cv2, picamera2" in script  # the NumPy ABI check of docs/platform.md


def test_the_installer_does_not_overwrite_an_existing_config() -> None:
    script = SCRIPT.read_text()
    assert 'if [ ! -f "$CONFIG_DIR/config.toml" ]' in script


def _keyboard_check() -> str:
    script = SCRIPT.read_text()
    start = script.index("<<'PY'\n") + len("<<'PY'\n")
    return script[start:script.index("\nPY\n", start)]


@pytest.mark.parametrize(("pins", "gets_input"), [
    ("", False),                                                     # GPIO buttons: no keyboards
    ('[pins]\nlever = "none"\nhold1 = "none"\n', True),              # gpio-key overlay / USB encoder
    ("[pins]\nlever = 'banana'\n", False),                           # broken config: nothing extra
])
def test_the_input_group_is_given_only_where_the_buttons_come_through_dev_input(
        tmp_path: Path, pins: str, gets_input: bool) -> None:
    config = tmp_path / "config.toml"
    config.write_text(pins)
    done = subprocess.run([sys.executable, "-", str(config)], input=_keyboard_check(), text=True,
                          capture_output=True, timeout=60)
    assert done.returncode == (0 if gets_input else 1), done.stderr
    assert "Traceback" not in done.stderr


def test_the_code_is_owned_by_root_and_installed_from_the_pinned_wheels() -> None:
    script = SCRIPT.read_text()
    assert "rsync -a --delete --chown=root:root --chmod=Dgo-w,Fgo-w" in script
    assert 'export PIP_CONSTRAINT="$CONSTRAINTS"' in script
    assert 'pip_install --only-binary=:all: -r "$CONSTRAINTS"' in script
    assert "--upgrade" not in script  # nothing unpinned
    assert "input" not in re.search(r"for group in ([^;]+);", script)[1]  # type: ignore[index]


def _pins() -> dict[str, str]:
    pins = {}
    for line in CONSTRAINTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[canonical(name)] = version
    return pins


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_dependency_is_pinned_and_ci_tests_the_pinned_versions() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = _pins()
    for requirement in project["dependencies"]:
        name = canonical(re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0])
        assert name in pins, f"{name} is a dependency but has no exact version in systemd/constraints.txt"
    for name, version in pins.items():
        if name in ("pip", "setuptools"):
            continue  # tools, not what the companion imports
        tested = metadata.version(name)
        assert tested == version, f"the tests ran {name} {tested}, the Pi gets {version}"


def test_the_installer_shares_the_taught_card_store_where_the_companion_looks_for_it() -> None:
    from vision import taught_store

    script = SCRIPT.read_text()
    state = re.search(r"^STATE_DIR=(\S+)$", script, re.M)
    assert state is not None and Path(state[1]) == taught_store.SERVICE_STATE_DIR
    unit = UNIT.read_text()
    assert f"StateDirectory={taught_store.SERVICE_STATE_DIR.name}" in unit
    assert re.search(r'SERVICE_USER="\$\{SERVICE_USER:-' + taught_store.SERVICE_GROUP + r'\}"', script)
    assert 'install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 2770 "$STATE_DIR/enrolled"' in script
    assert 'usermod -aG "$SERVICE_USER" "$SUDO_USER"' in script
