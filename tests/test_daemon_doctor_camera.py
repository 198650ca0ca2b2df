"""Doctor checks the camera that `companion run` would really use."""

from __future__ import annotations

from pathlib import Path

from companion.config import Config, parse_config
from companion.doctor import FAIL, OK, check_camera


def test_off_the_pi_without_a_config_the_simulated_table_is_checked() -> None:
    check = check_camera(Config(), on_pi=False)
    assert check.status == OK and "simulated table" in check.found


def test_on_the_pi_the_configured_pi_camera_is_checked_and_its_fix_named() -> None:
    check = check_camera(Config(), on_pi=True)  # no picamera2 on a test machine
    assert check.status == FAIL and "picamera2" in check.found and "python3-picamera2" in check.fix


def test_a_config_file_is_taken_at_its_word_off_the_pi(tmp_path: Path) -> None:
    config = parse_config({"camera": {"source": f"file:{tmp_path / 'missing.png'}"}}, tmp_path / "c.toml")
    check = check_camera(config, on_pi=False)
    assert check.status == FAIL and "does not exist" in check.found
