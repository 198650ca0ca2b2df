"""The keyboard stand-in speaks the panel's language: same controls, same kinds, same debounce."""

from __future__ import annotations

import pygame
import pytest

import hardware.keyboard as keyboard_module
from hardware.config import PanelConfig
from hardware.events import CONTROLS
from hardware.keyboard import KEY_MAP, KeyboardControls, keys_for


class FakeClock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def down(key: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key)


def up(key: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYUP, key=key)


def kinds(events: list) -> list[str]:
    return [str(event) for event in events]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def keys(clock: FakeClock) -> KeyboardControls:
    return KeyboardControls(clock=clock)


@pytest.mark.parametrize(
    ("key", "control"),
    [
        (pygame.K_1, "hold1"), (pygame.K_2, "hold2"), (pygame.K_3, "hold3"), (pygame.K_c, "collect"),
        (pygame.K_s, "start"), (pygame.K_b, "back"), (pygame.K_BACKSPACE, "back"), (pygame.K_ESCAPE, "back"),
    ],
)
def test_each_button_key_presses_and_releases_its_control(
    keys: KeyboardControls, clock: FakeClock, key: int, control: str
) -> None:
    pressed = keys.translate(down(key))
    clock.now += 0.5
    released = keys.translate(up(key))
    assert kinds(pressed + released) == [f"{control} press", f"{control} release"]
    assert pressed[0].at == 50.0 and released[0].at == 50.5


@pytest.mark.parametrize("key", [pygame.K_SPACE, pygame.K_RETURN])
def test_space_or_return_pulls_the_lever(keys: KeyboardControls, clock: FakeClock, key: int) -> None:
    events = keys.translate(down(key))
    clock.now += 0.5
    events += keys.translate(up(key))
    assert kinds(events) == ["lever pull", "lever release"]


@pytest.mark.parametrize(
    ("key", "control"),
    [
        (pygame.K_LCTRL, "hold1"), (pygame.K_LALT, "hold2"), (pygame.K_LSHIFT, "hold3"),
        (pygame.K_5, "collect"), (pygame.K_DOWN, "lever"), (pygame.K_UP, "start"),
        (pygame.K_LEFT, "back"), (pygame.K_RIGHT, "collect"),
    ],
)
def test_an_arcade_encoders_default_keys_drive_the_controls(
    keys: KeyboardControls, key: int, control: str
) -> None:
    assert [event.control for event in keys.translate(down(key))] == [control]


def test_holding_s_is_a_long_press_of_start(keys: KeyboardControls, clock: FakeClock) -> None:
    events = keys.translate(down(pygame.K_s))
    for _ in range(20):
        clock.now += 0.1
        events += keys.tick()
    events += keys.translate(up(pygame.K_s))
    assert kinds(events) == ["start press", "start long_press", "start release"]


def test_a_key_held_down_too_long_is_stuck_once(keys: KeyboardControls, clock: FakeClock) -> None:
    events = keys.translate(down(pygame.K_2))
    for _ in range(30):
        clock.now += 1
        events += keys.tick()
    assert kinds(events) == ["hold2 press", "hold2 stuck"]


def test_key_repeat_and_a_second_key_for_the_same_control_do_not_press_twice(
    keys: KeyboardControls, clock: FakeClock
) -> None:
    events = keys.translate(down(pygame.K_SPACE))
    events += keys.translate(down(pygame.K_SPACE))  # key repeat
    events += keys.translate(down(pygame.K_RETURN))
    clock.now += 1
    events += keys.translate(up(pygame.K_SPACE))
    assert kinds(events) == ["lever pull"]
    events += keys.translate(up(pygame.K_RETURN))
    assert kinds(events) == ["lever pull", "lever release"]


def test_unmapped_keys_and_other_events_are_ignored(keys: KeyboardControls) -> None:
    assert keys.translate(down(pygame.K_z)) == []
    assert keys.translate(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(0, 0))) == []


def test_losing_focus_lets_go_of_held_keys(keys: KeyboardControls, clock: FakeClock) -> None:
    keys.translate(down(pygame.K_3))
    clock.now += 1
    events = keys.translate(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    assert kinds(events) == ["hold3 release"]


def test_keyboard_uses_the_panel_timings(clock: FakeClock) -> None:
    keys = KeyboardControls(PanelConfig(long_press=0.5, stuck_after=2.0), clock=clock)
    keys.translate(down(pygame.K_s))
    clock.now += 0.6
    assert kinds(keys.tick()) == ["start long_press"]


def test_every_control_has_keys_and_every_key_name_exists_in_pygame() -> None:
    assert all(keys_for(control) for control in CONTROLS)
    for _control, constant, _label in KEY_MAP:
        assert isinstance(getattr(pygame, constant), int)


def test_the_module_docstring_documents_every_key() -> None:
    doc = keyboard_module.__doc__ or ""
    for control in CONTROLS:
        assert control in doc
    for label in ("Space", "Return", "Left Ctrl", "Left Alt", "Left Shift", "Backspace", "Escape"):
        assert label in doc


def test_a_key_map_naming_an_unknown_control_is_refused() -> None:
    with pytest.raises(ValueError, match="key map names 'coin'"):
        KeyboardControls(key_map=[("coin", "K_5", "5")])
