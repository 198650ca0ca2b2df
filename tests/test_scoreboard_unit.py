"""The scoreboard's unit: installed and enabled by the installer, off until the config turns it on,
hardened (no capabilities, read-only system and state directory, LAN-only IP access)."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import load_config

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "jackpot-scoreboard.service"
SCRIPT = ROOT / "scripts" / "install-pi.sh"


def _all(key: str) -> list[str]:
    return [line.split("=", 1)[1] for line in UNIT.read_text().splitlines() if line.startswith(f"{key}=")]


def _analyze(args: list[str], text: str, tmp_path: Path) -> str:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is missing (apt-get install systemd); the unit cannot be checked here")
    true = shutil.which("true") or "/bin/true"
    copy = tmp_path / UNIT.name
    copy.write_text(re.sub(r"^(ExecStart|ExecCondition)=.*$", rf"\1={true}", text, flags=re.M))
    done = subprocess.run([analyze, *args, str(copy)], capture_output=True, text=True, timeout=60)
    output = (done.stdout + done.stderr).strip()
    if "Failed to initialize manager" in output or "System has not been booted with systemd" in output:
        pytest.skip(f"systemd-analyze cannot run in this container: {output.splitlines()[0]}")
    return output


def test_systemd_analyze_verify_prints_nothing(tmp_path: Path) -> None:
    assert _analyze(["verify"], UNIT.read_text(), tmp_path) == ""


def test_the_exposure_is_low(tmp_path: Path) -> None:
    output = _analyze(["security", "--offline=true"], UNIT.read_text(), tmp_path)
    level = re.search(r"Overall exposure level for \S+: ([\d.]+)", output)
    if level is None:
        pytest.skip(f"this systemd-analyze has no offline security check: {output[:120]}")
    assert float(level[1]) <= 1.5, output


def test_it_runs_unprivileged_and_reads_the_state_directory_read_only() -> None:
    assert _all("User") == ["jackpot"] and _all("CapabilityBoundingSet") == [""]
    assert _all("ProtectSystem") == ["strict"] and _all("NoNewPrivileges") == ["yes"]
    assert not _all("StateDirectory"), "StateDirectory= would make the journal's directory writable"
    assert _all("ReadOnlyPaths") == ["-/var/lib/jackpot-companion"]
    assert "STATE_DIRECTORY=/var/lib/jackpot-companion" in _all("Environment")


def test_it_speaks_tcp_to_loopback_and_private_lans_only() -> None:
    assert set(_all("RestrictAddressFamilies")[0].split()) == {"AF_INET", "AF_INET6", "AF_UNIX"}
    assert _all("IPAddressDeny") == ["any"]
    allowed = set(_all("IPAddressAllow")[0].split())
    assert {"localhost", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"} <= allowed
    assert not allowed & {"any", "0.0.0.0/0", "::/0"}


def test_the_installer_installs_and_enables_it_with_the_same_paths() -> None:
    script = SCRIPT.read_text()
    prefix = re.search(r'PREFIX="\$\{PREFIX:-([^}]+)\}"', script)
    assert prefix is not None
    assert _all("ExecStart") == [f"{prefix[1]}/venv/bin/companion scoreboard"]
    assert _all("ExecCondition") == [f"{prefix[1]}/venv/bin/companion scoreboard --check-enabled"]
    assert "SCOREBOARD_UNIT=jackpot-scoreboard.service" in script
    assert 'systemctl enable "$UNIT_NAME" "$SCOREBOARD_UNIT"' in script


def test_it_is_off_in_the_example_config_and_one_key_turns_it_on(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    example = ROOT / "systemd" / "config.example.toml"
    assert load_config(example).scoreboard.enabled is False
    assert main(["scoreboard", "--config", str(example), "--check-enabled"]) == 1
    assert "enabled = true" in capsys.readouterr().err
    on = tmp_path / "config.toml"
    on.write_text(example.read_text().replace("enabled = false", "enabled = true"))
    assert main(["scoreboard", "--config", str(on), "--check-enabled"]) == 0
    config = load_config(on).scoreboard
    assert (config.host, config.port) == ("0.0.0.0", 8080)


def test_a_busy_port_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "companion", "scoreboard", "--journal",
                               str(tmp_path / "j.sqlite"), "--host", "127.0.0.1", "--port", str(port)],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "cannot listen on 127.0.0.1" in done.stderr and "Traceback" not in done.stderr
