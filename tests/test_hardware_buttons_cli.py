"""`companion buttons`: the wiring view shows every press as it happens and lights each lamp."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from gpiozero import Device
from gpiozero.exc import BadPinFactory

from companion.cli import main
from companion.cli.commands.buttons import _describe
from hardware.config import PanelConfig
from hardware.events import InputEvent

FAST = """
[pins]
long_press = 0.3
stuck_after = 5.0
back_lamp = 24
"""


@pytest.fixture
def fast_config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(FAST)
    return path


def event_lines(output: str) -> list[str]:
    """The live lines, without their timestamps: 'hold1 press GPIO5 (pin 29)'."""
    lines = []
    for line in output.splitlines():
        head, _, rest = line.strip().partition(" ")
        if head.replace(".", "").isdigit():
            lines.append(" ".join(rest.split()))
    return lines


def test_mock_self_test_shows_every_control_once_and_each_lamp(
    fast_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["buttons", "--mock", "--config", str(fast_config), "--lamp-step", "0.2"]) == 0
    output = capsys.readouterr().out
    assert event_lines(output) == [
        "lever pull GPIO4 (pin 7) the lever",
        "lever release GPIO4 (pin 7)",
        "hold1 press GPIO5 (pin 29)",
        "hold1 release GPIO5 (pin 29)",
        "hold2 press GPIO6 (pin 31)",
        "hold2 release GPIO6 (pin 31)",
        "hold3 press GPIO13 (pin 33)",
        "hold3 release GPIO13 (pin 33)",
        "collect press GPIO26 (pin 37)",
        "collect release GPIO26 (pin 37)",
        "start press GPIO16 (pin 36)",
        "start long_press GPIO16 (pin 36)",
        "start release GPIO16 (pin 36)",
        "back press GPIO12 (pin 32)",
        "back release GPIO12 (pin 32)",
    ]
    assert "lamp    hold1    on  GPIO22 (pin 15)" in output
    assert "lamp    back     on  GPIO24 (pin 18)" in output  # the config's extra lamp joins the round
    assert "hold1    GPIO5 (pin 29), ground 30" in output
    assert output.rstrip().endswith("mock self-test finished")


def test_keyboard_view_prints_key_presses_as_panel_events(capsys: pytest.CaptureFixture[str]) -> None:
    pygame.display.init()
    for event in (
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN),
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2),
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE),
        pygame.event.Event(pygame.QUIT),
    ):
        pygame.event.post(event)
    assert main(["buttons", "--keyboard", "--seconds", "10"]) == 0
    output = capsys.readouterr().out
    assert event_lines(output) == ["lever pull the lever", "hold2 press", "back press"]
    assert "start    s, Up arrow" in output


def test_without_gpio_it_says_what_to_do_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_factory() -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    assert main(["buttons", "--seconds", "1"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert "no GPIO pins here" in error and "--keyboard" in error


def test_a_broken_pins_table_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[pins]\nhold1 = 9\n")
    assert main(["buttons", "--mock", "--config", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "hold1" in error and "SPI0" in error


def test_seconds_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["buttons", "--mock", "--seconds", "0"]) == 2
    assert "--seconds" in capsys.readouterr().err


def test_a_stuck_line_tells_the_wirer_what_to_check() -> None:
    line = _describe(InputEvent("collect", "stuck", 12.5), 2.5, PanelConfig())
    assert " ".join(line.split()) == (
        "10.000 collect stuck GPIO26 (pin 37) held down for 10 s: "
        "is the switch jammed, or wired normally-closed?"
    )


def test_keyboard_view_without_a_display_says_how_to_get_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_video(*args: object, **kwargs: object) -> None:
        raise pygame.error("x11 not available")

    monkeypatch.setattr(pygame.display, "set_mode", no_video)
    assert main(["buttons", "--keyboard", "--seconds", "1"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "x11 not available" in error and "kmsdrm" in error


def test_a_busy_pin_suggests_stopping_the_service(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def busy(*args: object, **kwargs: object) -> None:
        raise RuntimeError("GPIO busy")

    monkeypatch.setattr("gpiozero.Button", busy)
    assert main(["buttons", "--mock"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "GPIO busy" in error and "systemctl stop jackpot-companion" in error
