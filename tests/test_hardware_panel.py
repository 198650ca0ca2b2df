"""The panel on gpiozero's mock pins: pins driven low and high become clean events; lamps follow."""

from __future__ import annotations

import queue
import warnings
from collections.abc import Iterator

import pytest
from gpiozero import LED, Button, Device
from gpiozero.exc import BadPinFactory, PinFactoryFallback
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.config import PanelConfig
from hardware.errors import PanelUnavailableError
from hardware.events import InputEvent
from hardware.panel import ControlPanel, ensure_lgpio_workdir

CONFIG = PanelConfig()


class FakeClock:
    """Monotonic seconds that only move when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    previous, Device.pin_factory = Device.pin_factory, factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def events() -> list[InputEvent]:
    return []


@pytest.fixture
def panel(factory: MockFactory, clock: FakeClock, events: list[InputEvent]) -> Iterator[ControlPanel]:
    with ControlPanel(CONFIG, events.append, clock=clock, background=False) as panel:
        yield panel


def kinds(events: list[InputEvent]) -> list[str]:
    return [str(event) for event in events]


def press(factory: MockFactory, pin: int | None) -> None:
    assert pin is not None
    factory.pin(pin).drive_low()  # buttons close to ground


def let_go(factory: MockFactory, pin: int | None) -> None:
    assert pin is not None
    factory.pin(pin).drive_high()


def lamp_lit(factory: MockFactory, control: str) -> float:
    pin = CONFIG.lamp_pin(control)
    assert pin is not None
    return float(factory.pin(pin).state)


def test_pressing_and_releasing_a_button(panel: ControlPanel, factory: MockFactory, clock: FakeClock,
                                         events: list[InputEvent]) -> None:
    press(factory, CONFIG.hold1)
    assert panel.is_down("hold1")
    clock.advance(0.3)
    let_go(factory, CONFIG.hold1)
    assert kinds(events) == ["hold1 press", "hold1 release"]
    assert events[0].at == 1000.0 and events[1].at == 1000.3


def test_a_burst_of_bouncing_edges_is_one_press(panel: ControlPanel, factory: MockFactory, clock: FakeClock,
                                               events: list[InputEvent]) -> None:
    for _ in range(5):
        press(factory, CONFIG.collect)
        clock.advance(0.002)
        let_go(factory, CONFIG.collect)
        clock.advance(0.002)
    press(factory, CONFIG.collect)
    clock.advance(0.1)
    panel.tick()
    assert kinds(events) == ["collect press"]
    assert panel.is_down("collect")


def test_a_bouncing_lever_is_one_pull(panel: ControlPanel, factory: MockFactory, clock: FakeClock,
                                      events: list[InputEvent]) -> None:
    for gap in (0.0, 0.01, 0.04, 0.08, 0.03):
        clock.advance(gap)
        press(factory, CONFIG.lever)
        clock.advance(0.005)
        let_go(factory, CONFIG.lever)
    press(factory, CONFIG.lever)
    clock.advance(0.6)
    let_go(factory, CONFIG.lever)
    clock.advance(0.01)
    press(factory, CONFIG.lever)  # spring-back chatter
    clock.advance(0.01)
    let_go(factory, CONFIG.lever)
    clock.advance(0.5)
    panel.tick()
    assert kinds(events) == ["lever pull", "lever release"]


def test_holding_start_gives_one_long_press(panel: ControlPanel, factory: MockFactory, clock: FakeClock,
                                            events: list[InputEvent]) -> None:
    press(factory, CONFIG.start)
    for _ in range(40):
        clock.advance(0.1)
        panel.tick()
    let_go(factory, CONFIG.start)
    assert kinds(events) == ["start press", "start long_press", "start release"]


def test_a_stuck_button_is_reported_once_and_ignored_until_released(
    panel: ControlPanel, factory: MockFactory, clock: FakeClock, events: list[InputEvent]
) -> None:
    press(factory, CONFIG.hold2)
    for _ in range(250):
        clock.advance(0.1)
        panel.tick()
    assert kinds(events) == ["hold2 press", "hold2 stuck"]
    let_go(factory, CONFIG.hold2)
    clock.advance(1)
    press(factory, CONFIG.hold2)
    assert kinds(events) == ["hold2 press", "hold2 stuck", "hold2 release", "hold2 press"]


class WeldedShutPin(MockPWMPin):
    """A switch welded shut: the pin reads low whatever pull-up the button sets."""

    def _set_pull(self, value: str) -> None:
        self._pull = value
        self._change_state(False)


def test_an_edge_the_driver_dropped_is_caught_by_the_next_tick(
    panel: ControlPanel, factory: MockFactory, clock: FakeClock, events: list[InputEvent]
) -> None:
    press(factory, CONFIG.hold1)
    clock.advance(0.2)
    pin = factory.pin(CONFIG.hold1)
    pin.edges = "none"  # the release happens, but no callback reports it
    let_go(factory, CONFIG.hold1)
    pin.edges = "both"
    assert kinds(events) == ["hold1 press"]
    panel.tick()
    assert kinds(events) == ["hold1 press", "hold1 release"]


def test_a_button_held_when_the_panel_opens_is_reported_stuck_not_pressed(
    factory: MockFactory, clock: FakeClock, events: list[InputEvent]
) -> None:
    factory.pin(CONFIG.back, pin_class=WeldedShutPin)
    with ControlPanel(CONFIG, events.append, clock=clock, background=False) as panel:
        clock.advance(11)
        panel.tick()
        assert kinds(events) == ["back stuck"]


def test_lamps_follow_set_lamps(panel: ControlPanel, factory: MockFactory) -> None:
    assert all(lamp_lit(factory, c) == 0 for c in panel.lamps)
    panel.set_lamps({"hold1": "on", "collect": "on", "lever": "on"})  # the lever has no lamp
    assert lamp_lit(factory, "hold1") == 1 and lamp_lit(factory, "collect") == 1
    assert lamp_lit(factory, "hold2") == 0 and lamp_lit(factory, "start") == 0
    panel.set_lamps({"collect": "on"})
    assert lamp_lit(factory, "hold1") == 0 and lamp_lit(factory, "collect") == 1
    assert panel.lamp_states == dict.fromkeys(["hold1", "hold2", "hold3", "start"], "off") | {"collect": "on"}


def test_blinking_lamps_light_at_once_and_blink_in_step(panel: ControlPanel, factory: MockFactory,
                                                        clock: FakeClock) -> None:
    panel.set_lamps({"start": "blink", "hold3": "blink", "collect": "on"})
    seen = []
    for _ in range(8):
        seen.append((lamp_lit(factory, "start"), lamp_lit(factory, "hold3"), lamp_lit(factory, "collect")))
        clock.advance(CONFIG.blink_period / 4)
        panel.tick()
    assert seen[0] == (1, 1, 1)
    assert {start for start, _hold3, _collect in seen} == {0, 1}
    assert all(start == hold3 and collect == 1 for start, hold3, collect in seen)


def test_attract_chases_one_lamp_at_a_time_and_stopping_restores_the_step(
    panel: ControlPanel, factory: MockFactory, clock: FakeClock
) -> None:
    panel.set_lamps({"collect": "on"})
    panel.attract(True)
    lit_in_turn = []
    for _ in range(len(panel.lamps)):
        lit = [c for c in panel.lamps if lamp_lit(factory, c)]
        assert len(lit) == 1
        lit_in_turn.append(lit[0])
        clock.advance(CONFIG.attract_step)
        panel.tick()
    assert lit_in_turn == list(panel.lamps)
    panel.attract(False)
    assert [c for c in panel.lamps if lamp_lit(factory, c)] == ["collect"]


def test_dimmed_lamps_leave_a_trail_behind_the_chase(factory: MockFactory, clock: FakeClock) -> None:
    config = PanelConfig(lamp_dimming=True)
    with ControlPanel(config, lambda event: None, clock=clock, background=False) as panel:
        panel.attract(True)
        clock.advance(config.attract_step)
        panel.tick()
        assert lamp_lit(factory, "hold1") == pytest.approx(0.25)
        assert lamp_lit(factory, "hold2") == 1.0
        panel.attract(False)
        panel.set_lamps({"start": "on"})
        assert lamp_lit(factory, "start") == 1.0 and lamp_lit(factory, "hold2") == 0.0


def test_active_low_lamps_pull_their_pin_low_when_lit(factory: MockFactory, clock: FakeClock) -> None:
    config = PanelConfig(lamps_active_high=False)
    with ControlPanel(config, lambda event: None, clock=clock, background=False) as panel:
        panel.set_lamps({"hold1": "on"})
        assert lamp_lit(factory, "hold1") == 0 and lamp_lit(factory, "hold2") == 1


def test_set_lamps_refuses_unknown_controls_and_states(panel: ControlPanel) -> None:
    with pytest.raises(ValueError, match="unknown control 'hold4'"):
        panel.set_lamps({"hold4": "on"})
    with pytest.raises(ValueError, match="states are off, on, blink"):
        panel.set_lamps({"hold1": "flash"})


def test_close_releases_every_pin_and_is_idempotent(factory: MockFactory, clock: FakeClock,
                                                    events: list[InputEvent]) -> None:
    panel = ControlPanel(CONFIG, events.append, clock=clock, background=False)
    panel.set_lamps({"hold1": "on"})
    panel.close()
    panel.close()
    assert panel.closed
    for key, pin in CONFIG.pins():
        device = LED(pin) if key.endswith("_lamp") else Button(pin)
        device.close()
    assert lamp_lit(factory, "hold1") == 0
    with ControlPanel(CONFIG, events.append, clock=clock, background=False):
        press(factory, CONFIG.hold1)
    assert kinds(events) == ["hold1 press"]


def test_a_pin_already_in_use_is_a_clear_error_and_nothing_stays_open(factory: MockFactory) -> None:
    squatter = Button(CONFIG.start)
    with pytest.raises(PanelUnavailableError, match=r"cannot open GPIO16 \(pin 36\) for start"):
        ControlPanel(CONFIG, lambda event: None, background=False)
    squatter.close()
    Button(CONFIG.lever).close()  # the lever opened before start failed, and was released again


def test_a_pin_driver_error_of_its_own_type_is_still_one_clear_line(
    factory: MockFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    class DriverError(Exception):
        """Like lgpio.error, which is no gpiozero exception."""

    def busy(*args: object, **kwargs: object) -> None:
        raise DriverError("GPIO busy")

    monkeypatch.setattr("gpiozero.Button", busy)
    with pytest.raises(PanelUnavailableError, match=r"cannot open GPIO4 \(pin 7\) for lever: GPIO busy"):
        ControlPanel(CONFIG, lambda event: None, background=False)


def test_dimmed_lamps_on_pins_without_pwm_are_a_clear_error() -> None:
    plain = MockFactory()  # MockPin: no PWM
    with pytest.raises(PanelUnavailableError, match=r"cannot open GPIO22 \(pin 15\) for hold1_lamp"):
        ControlPanel(PanelConfig(lamp_dimming=True), lambda event: None, pin_factory=plain, background=False)
    Button(CONFIG.lever, pin_factory=plain).close()  # the switches opened first were released
    plain.reset()


def test_pin_factory_argument_overrides_the_default(clock: FakeClock) -> None:
    own = MockFactory()
    events: list[InputEvent] = []
    with ControlPanel(PanelConfig(), events.append, pin_factory=own, clock=clock, background=False) as panel:
        own.pin(CONFIG.hold3).drive_low()
        assert panel.buttons["hold3"].pin_factory is own
    assert kinds(events) == ["hold3 press"]
    own.reset()


def test_no_gpio_at_all_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_factory() -> None:
        warnings.warn(PinFactoryFallback("Falling back from lgpio: No module named 'lgpio'"), stacklevel=1)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    with pytest.raises(PanelUnavailableError, match="no GPIO pins here .lgpio: No module named 'lgpio'"):
        ControlPanel(CONFIG, lambda event: None, background=False)


def test_a_panel_with_nothing_wired_needs_no_gpio(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_factory() -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    nothing = PanelConfig.from_mapping({key: "none" for key, _pin in CONFIG.pins()})
    with ControlPanel(nothing, lambda event: None, background=False) as panel:
        panel.set_lamps({"hold1": "on"})
        assert panel.buttons == {} and panel.lamps == {}


def test_without_a_sink_events_wait_in_a_queue(factory: MockFactory) -> None:
    with ControlPanel(CONFIG, background=False) as panel:
        press(factory, CONFIG.back)
        assert panel.events.get_nowait().kind == "press"


def test_the_background_ticker_reports_a_long_press_and_stops_on_close(factory: MockFactory) -> None:
    config = PanelConfig(lockout=0.01, lever_lockout=0.01, long_press=0.05, stuck_after=60)
    received: queue.Queue[InputEvent] = queue.Queue()
    panel = ControlPanel(config, received.put)
    try:
        press(factory, config.start)
        assert received.get(timeout=5).kind == "press"
        assert received.get(timeout=5).kind == "long_press"
    finally:
        panel.close()
    assert panel._ticker is not None and not panel._ticker.is_alive()


def test_lgpio_gets_a_writable_directory_when_the_working_directory_is_not(tmp_path: object) -> None:
    environ: dict[str, str] = {"RUNTIME_DIRECTORY": "/run/companion"}
    assert ensure_lgpio_workdir(environ, writable=lambda path: False) == "/run/companion"
    assert environ["LG_WD"] == "/run/companion"
    assert ensure_lgpio_workdir({}, writable=lambda path: True) is None
    kept = {"LG_WD": "/var/tmp"}
    assert ensure_lgpio_workdir(kept, writable=lambda path: False) is None and kept["LG_WD"] == "/var/tmp"
