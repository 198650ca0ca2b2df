"""The one TOML config loader: defaults, the file search order, and one-line errors naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import Config, ConfigFileError, load_config, parse_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_anywhere_gives_the_defaults(tmp_path: Path) -> None:
    config = load_config(None, system_path=tmp_path / "absent.toml")
    assert config == Config()
    assert config.screen.width == 800 and config.screen.height == 480
    assert config.panel().lever is not None  # the panel's own default wiring


def test_the_system_file_is_used_when_no_path_is_given(tmp_path: Path) -> None:
    system = write(tmp_path, '[game]\ndefault = "pay-line"\nplayers = 4\n')
    config = load_config(None, system_path=system)
    assert config.game.default == "pay-line" and config.game.players == 4
    assert config.source == system


def test_an_explicit_path_wins_over_the_system_file(tmp_path: Path) -> None:
    system = write(tmp_path, '[game]\ndefault = "pay-line"\n')
    mine = tmp_path / "mine.toml"
    mine.write_text('[screen]\nrotation = 90\n[audio]\ndevice = "hw:CARD=Headphones"\nvolume = 0.5\n')
    config = load_config(mine, system_path=system)
    assert config.game.default == "bandit"
    assert config.screen.rotation == 90
    assert config.audio.device == "hw:CARD=Headphones" and config.audio.volume == 0.5


def test_a_full_file_sets_every_section(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[game]
default = "bandit"
players = 2
mode = "cabinet"
seats = ["Ann", "Bob"]
[screen]
width = 1024
height = 600
rotation = 180
fullscreen = false
[camera]
source = "usb:/dev/v4l/by-id/usb-cam"
stable_frames = 7
min_confidence = 0.9
[pins]
lever = 17
start_lamp = "none"
[journal]
path = "/tmp/j.sqlite"
""",
    )
    config = load_config(path)
    assert config.game.mode == "cabinet"
    assert config.game.seat_names(3) == ["Ann", "Bob", "Player 3"]
    assert config.screen.fullscreen is False
    assert config.camera.source.startswith("usb:") and config.camera.stable_frames == 7
    panel = config.panel()
    assert panel.lever == 17 and panel.start_lamp is None
    assert config.journal_path == Path("/tmp/j.sqlite")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("[screen]\nrotation = 45\n", "screen.rotation"),
        ("[screen]\nwidth = \"wide\"\n", "screen.width"),
        ("[game]\nplayers = 0\n", "game.players"),
        ("[game]\ndefault = \"poker\"\n", "game.default"),
        ("[game]\nmode = \"arcade\"\n", "game.mode"),
        ("[audio]\nvolume = 3\n", "audio.volume"),
        ("[camera]\nsource = \"webcam\"\n", "camera.source"),
        ("[pins]\nlever = 3\n", "pins: lever"),
        ("[pins]\nlever = 40\n", "pins: lever"),
        ("[pins]\nturbo = 4\n", "'turbo'"),
        ("[pins]\nlever = 22\n", "GPIO22, already used by lever"),
        ("[pins]\nlockout = \"fast\"\n", "pins: lockout"),
        ("[sreen]\nwidth = 1\n", "[sreen]"),
        ("screen = 3\n", "[screen]"),
        ("[game]\nseats = \"Ann\"\n", "game.seats"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_key(tmp_path: Path, text: str, names: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigFileError) as caught:
        load_config(path)
    message = str(caught.value)
    assert names in message
    assert "\n" not in message
    assert str(path) in message


def test_broken_toml_is_reported_with_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[screen\nwidth = 800\n")
    with pytest.raises(ConfigFileError, match="not valid TOML"):
        load_config(path)


def test_a_missing_explicit_file_is_an_error_not_the_defaults(tmp_path: Path) -> None:
    with pytest.raises(ConfigFileError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml")


def test_an_unreadable_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "dir.toml"
    path.mkdir()
    with pytest.raises(ConfigFileError, match="cannot read"):
        load_config(path)


def test_parse_config_accepts_a_plain_mapping() -> None:
    config = parse_config({"camera": {"source": "sim"}})
    assert config.camera.source == "sim"


def test_the_shipped_example_file_is_valid_and_equals_the_defaults() -> None:
    example = Path(__file__).resolve().parent.parent / "systemd" / "config.example.toml"
    config = load_config(example)
    assert config.game == Config().game and config.screen == Config().screen
    assert config.panel() == Config().panel()


@pytest.mark.parametrize(
    ("pins", "names"),
    [
        ('lever = "²"', "not a BCM pin number"),
        ("long_press_controls = 5", "list of control names"),
        ("long_press_controls = true", "list of control names"),
        ("allow_pins = 18.0", "list of BCM numbers"),
        ("allow_pins = [99]", "not a header GPIO"),
        ("lever_lockout = nan", "lever_lockout = nan"),
        ("lockout = inf", "lockout = inf"),
        ("stuck_after = 1e9", "from 0 to 600"),
    ],
)
def test_bad_pins_values_are_one_line_naming_the_key(tmp_path: Path, pins: str, names: str) -> None:
    with pytest.raises(ConfigFileError, match=names):
        load_config(write(tmp_path, f"[pins]\n{pins}\n"))


def test_a_huge_seat_name_is_refused_with_a_short_excerpt(tmp_path: Path) -> None:
    path = write(tmp_path, f'[game]\nseats = ["Ann", "{"x" * 100_000}"]\n')
    with pytest.raises(ConfigFileError, match=r"game.seats \(seat 2\) is 100000 characters long") as caught:
        load_config(path)
    assert len(str(caught.value)) < 200


def test_a_fifo_as_the_config_is_refused_without_opening_it(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)  # opening it for reading would block until a writer came
    with pytest.raises(ConfigFileError, match="not a regular file"):
        load_config(fifo)
