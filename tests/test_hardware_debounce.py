"""The debounce layer alone: leading edge, lockout, the lever's one pull, long press and stuck."""

from __future__ import annotations

from hardware.config import PanelConfig
from hardware.debounce import InputFilter

CONFIG = PanelConfig(lockout=0.03, lever_lockout=0.2, long_press=1.5, stuck_after=10.0)


def kinds(events: list) -> list[str]:
    return [f"{event.control} {event.kind}" for event in events]


def test_press_is_reported_on_the_leading_edge_with_its_time() -> None:
    events = InputFilter(CONFIG).edge("hold2", True, now=5.0)
    assert kinds(events) == ["hold2 press"]
    assert events[0].at == 5.0


def test_bounce_burst_on_press_and_release_gives_one_press_and_one_release() -> None:
    filt = InputFilter(CONFIG)
    seen = []
    for at, down in [(0.0, True), (0.002, False), (0.004, True), (0.009, False), (0.012, True)]:
        seen += filt.edge("collect", down, at)
    for at, down in [(0.5, False), (0.503, True), (0.506, False)]:
        seen += filt.edge("collect", down, at)
    seen += filt.tick(0.6)
    assert kinds(seen) == ["collect press", "collect release"]


def test_tap_shorter_than_the_lockout_still_gets_its_release_when_the_lockout_ends() -> None:
    filt = InputFilter(CONFIG)
    assert kinds(filt.edge("back", True, 1.0)) == ["back press"]
    assert filt.edge("back", False, 1.01) == []
    assert filt.tick(1.02) == []
    assert kinds(filt.tick(1.04)) == ["back release"]
    assert not filt.is_down("back")


def test_bouncing_lever_is_one_pull() -> None:
    filt = InputFilter(CONFIG)
    seen = []
    # The microswitch chatters at the bottom of the stroke and again as the spring returns it.
    for at, down in [(0.0, True), (0.01, False), (0.05, True), (0.12, False), (0.15, True)]:
        seen += filt.edge("lever", down, at)
    for at, down in [(0.9, False), (0.95, True), (1.0, False)]:
        seen += filt.edge("lever", down, at)
    seen += filt.tick(1.5)
    assert kinds(seen) == ["lever pull", "lever release"]


def test_two_real_pulls_are_two_pulls() -> None:
    filt = InputFilter(CONFIG)
    seen = filt.edge("lever", True, 0.0) + filt.edge("lever", False, 0.6)
    seen += filt.edge("lever", True, 1.4) + filt.edge("lever", False, 2.0)
    assert kinds(seen) == ["lever pull", "lever release", "lever pull", "lever release"]


def test_long_press_of_start_is_reported_once() -> None:
    filt = InputFilter(CONFIG)
    seen = filt.edge("start", True, 0.0)
    for step in range(1, 40):
        seen += filt.tick(step * 0.1)
    seen += filt.edge("start", False, 4.0)
    assert kinds(seen) == ["start press", "start long_press", "start release"]
    assert seen[1].at >= 1.5


def test_short_press_of_start_has_no_long_press() -> None:
    filt = InputFilter(CONFIG)
    seen = filt.edge("start", True, 0.0) + filt.tick(1.0) + filt.edge("start", False, 1.2) + filt.tick(3.0)
    assert kinds(seen) == ["start press", "start release"]


def test_only_long_press_controls_long_press() -> None:
    filt = InputFilter(CONFIG)
    seen = filt.edge("hold1", True, 0.0) + filt.tick(2.0) + filt.tick(3.0)
    assert kinds(seen) == ["hold1 press"]


def test_stuck_button_is_reported_once_and_ignored_until_released() -> None:
    filt = InputFilter(CONFIG)
    seen = filt.edge("hold3", True, 0.0)
    for step in range(1, 300):
        seen += filt.tick(step * 0.1)
    assert kinds(seen) == ["hold3 press", "hold3 stuck"]
    assert filt.is_stuck("hold3")
    seen += filt.edge("hold3", False, 31.0)
    assert kinds(seen)[-1] == "hold3 release"
    assert not filt.is_stuck("hold3")
    assert kinds(filt.edge("hold3", True, 32.0)) == ["hold3 press"]


def test_stuck_start_reports_stuck_after_its_long_press() -> None:
    filt = InputFilter(CONFIG)
    seen = filt.edge("start", True, 0.0) + filt.tick(2.0) + filt.tick(11.0) + filt.tick(20.0)
    assert kinds(seen) == ["start press", "start long_press", "start stuck"]


def test_control_held_when_the_panel_starts_reports_stuck_but_no_press_or_release() -> None:
    filt = InputFilter(CONFIG, initially_down=["collect"], now=100.0)
    seen = filt.tick(105.0) + filt.tick(111.0)
    assert kinds(seen) == ["collect stuck"]
    assert filt.edge("collect", False, 112.0) == []
    assert kinds(filt.edge("collect", True, 113.0)) == ["collect press"]


def test_controls_are_independent() -> None:
    filt = InputFilter(CONFIG)
    seen = filt.edge("hold1", True, 0.0) + filt.edge("hold2", True, 0.001) + filt.edge("hold1", False, 0.002)
    seen += filt.tick(0.05)
    assert kinds(seen) == ["hold1 press", "hold2 press", "hold1 release"]
