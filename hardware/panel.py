"""The arcade control panel on GPIO: gpiozero buttons in, clean events out, lamps lit on request.

gpiozero is imported only when a panel is built, and the pin factory is gpiozero's usual choice
(lgpio on a Pi 5, ``GPIOZERO_PIN_FACTORY`` overrides it) unless ``pin_factory=`` is given.
With real pins gpiozero calls us from its own threads; with ``MockFactory`` it calls us in the
thread that drives the pin. Either way the only thing a callback does is debounce and hand the
event to ``sink`` (the daemon passes ``queue.Queue.put``), so the main loop reads them safely.

A background ticker (one thread, every 20 ms) lets time pass for long presses, stuck buttons and
the lockout, re-reads the switches in case the driver dropped an edge, and animates the lamps
(blink, attract chase). Tests pass ``background=False`` and
a fake ``clock``, and call :meth:`ControlPanel.tick` themselves.

>>> from gpiozero.pins.mock import MockFactory
>>> factory = MockFactory()
>>> events = []
>>> with ControlPanel(sink=events.append, pin_factory=factory, background=False) as panel:
...     factory.pin(panel.config.collect).drive_low()
...     panel.set_lamps({"collect": "on"})
...     factory.pin(panel.config.collect_lamp).state
True
>>> [str(event) for event in events]
['collect press']
"""

from __future__ import annotations

import os
import queue
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Mapping, MutableMapping
from functools import partial
from types import TracebackType
from typing import Any

from hardware.config import PanelConfig
from hardware.debounce import InputFilter
from hardware.errors import PanelUnavailableError
from hardware.events import CONTROLS, InputEvent
from hardware.header import describe_pin
from hardware.lamps import LampPattern

Clock = Callable[[], float]
Sink = Callable[[InputEvent], None]

#: How often the background ticker runs (seconds): fast enough for a crisp 20 Hz lamp chase.
TICK_INTERVAL = 0.02


class ControlPanel:
    """The lever, hold buttons, ``collect``, ``start`` and ``back``, with a lamp in each button.

    ``config`` gives the pins (:class:`PanelConfig` defaults if None). Each clean
    :class:`InputEvent` goes to ``sink``; without one they collect in :attr:`events`, a
    ``queue.Queue``. ``pin_factory`` overrides gpiozero's choice (``MockFactory()`` in tests;
    ``MockFactory(pin_class=MockPWMPin)`` with ``lamp_dimming``). ``clock`` returns monotonic
    seconds. ``background=False`` leaves out the ticker thread: call :meth:`tick` yourself.

    The panel is a context manager and :meth:`close` is idempotent; closing releases every pin.
    """

    def __init__(
        self,
        config: PanelConfig | None = None,
        sink: Sink | None = None,
        pin_factory: Any = None,
        *,
        clock: Clock = time.monotonic,
        background: bool = True,
    ) -> None:
        self.config = config if config is not None else PanelConfig()
        self.events: queue.Queue[InputEvent] = queue.Queue()
        self._sink: Sink = sink if sink is not None else self.events.put
        self._clock = clock
        self._closed = False
        self._input_lock = threading.RLock()
        self._lamp_lock = threading.RLock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self.buttons: dict[str, Any] = {}
        self.lamps: dict[str, Any] = {}
        self._written: dict[str, float] = {}
        try:
            self._open_devices(pin_factory)
        except BaseException:
            self.close()
            raise
        now = clock()
        initially_down = [control for control, button in self.buttons.items() if button.is_pressed]
        self._filter = InputFilter(self.config, controls=self.buttons, initially_down=initially_down, now=now)
        self._pattern = LampPattern(
            self.lamps, blink_period=self.config.blink_period, attract_step=self.config.attract_step
        )
        for control, button in self.buttons.items():
            # gpiozero calls these on every edge; bounce_time stays None: we debounce ourselves.
            button.when_pressed = partial(self._edge, control, True)
            button.when_released = partial(self._edge, control, False)
        self._refresh_lamps(now)
        if background:
            self._ticker = threading.Thread(target=self._run_ticker, name="control-panel", daemon=True)
            self._ticker.start()

    # -- inputs -------------------------------------------------------------------------------

    def tick(self) -> None:
        """Let time pass: report long presses, stuck controls and held-back changes; animate lamps."""
        if self._closed:
            return
        now = self._clock()
        with self._input_lock:
            if self._closed:
                return
            # Re-read every switch: an edge the GPIO driver dropped (it happens in a burst of
            # bounces) would otherwise leave a control down forever and later report it stuck.
            for control, button in self.buttons.items():
                self._emit(self._filter.edge(control, bool(button.is_pressed), now))
            self._emit(self._filter.tick(now))
        self._refresh_lamps(now)

    def is_down(self, control: str) -> bool:
        """Whether a control is held down right now (debounced); False if it is not wired."""
        return control in self.buttons and self._filter.is_down(control)

    def _edge(self, control: str, down: bool) -> None:
        if self._closed:
            return
        with self._input_lock:
            self._emit(self._filter.edge(control, down, self._clock()))

    def _emit(self, events: list[InputEvent]) -> None:
        # Called with the input lock held so events from the GPIO and ticker threads keep their order.
        for event in events:
            self._sink(event)

    # -- lamps --------------------------------------------------------------------------------

    def set_lamps(self, mapping: Mapping[str, str]) -> None:
        """Light the lamps for the current step: ``{"lever": "blink", "collect": "on"}``.

        States are ``off``, ``on`` and ``blink``; lamps not named go off, controls without a
        lamp are ignored. While :meth:`attract` runs, the new states show when it stops.
        """
        now = self._clock()
        with self._lamp_lock:
            self._pattern.set(mapping, now)
        self._refresh_lamps(now)

    @property
    def lamp_states(self) -> dict[str, str]:
        """The state last asked of each wired lamp."""
        with self._lamp_lock:
            return self._pattern.states

    def attract(self, enabled: bool) -> None:
        """Run (True) or stop (False) the attract chase across all lamps."""
        now = self._clock()
        with self._lamp_lock:
            self._pattern.attract(enabled, now)
        self._refresh_lamps(now)

    def _refresh_lamps(self, now: float) -> None:
        with self._lamp_lock:
            if self._closed:
                return
            for control, level in self._pattern.levels(now).items():
                if self._written.get(control) == level:
                    continue
                lamp = self.lamps[control]
                lamp.value = level if self.config.lamp_dimming else level >= 0.5
                self._written[control] = level

    # -- lifecycle ----------------------------------------------------------------------------

    def _open_devices(self, pin_factory: Any) -> None:
        from gpiozero import LED, PWMLED, Button  # type: ignore[import-untyped]

        if pin_factory is None and any(self.config.pins()):
            _ensure_default_pin_factory()
        lamp_class = PWMLED if self.config.lamp_dimming else LED
        for control in CONTROLS:
            pin = self.config.button_pin(control)
            if pin is not None:
                # bounce_time=None: gpiozero's own debounce would delay presses; ours is in debounce.py.
                self.buttons[control] = _open(
                    control,
                    pin,
                    Button,
                    pin,
                    pull_up=self.config.buttons_pull_up,
                    bounce_time=None,
                    pin_factory=pin_factory,
                )
        for control in CONTROLS:
            pin = self.config.lamp_pin(control)
            if pin is not None:
                self.lamps[control] = _open(
                    f"{control}_lamp",
                    pin,
                    lamp_class,
                    pin,
                    active_high=self.config.lamps_active_high,
                    pin_factory=pin_factory,
                )

    def _run_ticker(self) -> None:
        while not self._stop.wait(TICK_INTERVAL):
            self.tick()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    def close(self) -> None:
        """Turn the lamps off and release every pin. Safe to call more than once."""
        if self._closed:
            return
        self._stop.set()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join()
        with self._input_lock, self._lamp_lock:
            # From here on, late callbacks from GPIO threads return without touching anything.
            self._closed = True
        for button in self.buttons.values():
            button.close()
        for lamp in self.lamps.values():
            lamp.off()
            lamp.close()

    def __enter__(self) -> ControlPanel:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{len(self.buttons)} controls, {len(self.lamps)} lamps"
        return f"<ControlPanel {state}>"


def _open(key: str, pin: int, device_class: Any, *args: Any, **kwargs: Any) -> Any:
    """Make one gpiozero device, turning its errors into one line that names the key and pin."""
    try:
        return device_class(*args, **kwargs)
    except Exception as error:
        # Pin drivers raise their own types (lgpio.error "GPIO busy", PermissionError, gpiozero's
        # errors); at this boundary every one of them means "this pin cannot be used here".
        raise PanelUnavailableError(
            f"cannot open {describe_pin(pin)} for {key}: {error or type(error).__name__}; "
            "check the [pins] config, that no other program uses the pin, and GPIO permissions"
        ) from error


def _ensure_default_pin_factory() -> None:
    """Let gpiozero pick its pin factory now, so a Pi-less machine gets one clear error.

    gpiozero warns once per factory it falls back from; on success those warnings are passed on
    (a fallback must not be silent), on failure they become the error's explanation.
    """
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory  # type: ignore[import-untyped]

    if Device.pin_factory is not None:
        return
    ensure_lgpio_workdir(os.environ)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except BadPinFactory as error:
            reasons = "; ".join(str(w.message).removeprefix("Falling back from ") for w in caught)
            raise PanelUnavailableError(
                f"no GPIO pins here ({reasons or error}); off the Pi use the keyboard stand-in "
                "or set GPIOZERO_PIN_FACTORY=mock"
            ) from error
    for warning in caught:
        warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)


def ensure_lgpio_workdir(
    environ: MutableMapping[str, str], writable: Callable[[str], bool] | None = None
) -> str | None:
    """Point ``LG_WD`` at a writable directory when the working directory is not one.

    lgpio creates its notification pipes in the working directory; under systemd that is ``/``
    and every pin fails to open (gpiozero #1106). Returns the directory chosen, or None when
    nothing needed changing. Must run before gpiozero loads lgpio.
    """
    if environ.get("LG_WD"):
        return None
    can_write = writable or (lambda path: os.access(path, os.W_OK))
    if can_write(os.getcwd()):
        return None
    runtime = environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    directory = runtime or environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    environ["LG_WD"] = directory
    return directory
