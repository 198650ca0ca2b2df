"""Which GPIO pin each control and lamp uses, and the panel's timings.

Pins are BCM numbers. The defaults keep off I2C (GPIO2/3), SPI0 (GPIO7-11), an I2S sound card
(GPIO18-21), the HAT EEPROM (GPIO0/1) and the pins SPI display HATs use (GPIO17, 24, 25); the
wiring is drawn in ``hardware/WIRING.md``.

The daemon's config file feeds :meth:`PanelConfig.from_mapping` from its ``[pins]`` table::

    [pins]
    lever = 4
    hold1 = 5
    hold1_lamp = 22
    back_lamp = "none"      # not wired
    lockout = 0.03          # timings are accepted here too (seconds)

>>> PanelConfig.from_mapping({"lever": 17}).lever
17
>>> PanelConfig(hold1=5, hold2=5)
Traceback (most recent call last):
  ...
hardware.errors.PanelConfigError: pins: hold2 uses GPIO5, already used by hold1; give each control its own pin
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from hardware.errors import PanelConfigError
from hardware.events import CONTROLS
from hardware.header import PHYSICAL_PIN, RESERVED_PINS

_NOT_WIRED = ("none", "off", "")


@dataclass(frozen=True)
class PanelConfig:
    """The panel's wiring (BCM pin per control, ``<control>_lamp`` per lamp; None = not wired)
    and its timings in seconds.

    * ``lockout``: after a button changes, further edges are ignored this long (debounce).
    * ``lever_lockout``: the same for the lever, whose microswitch bounces longer.
    * ``long_press``: how long ``start`` (or any of ``long_press_controls``) is held for a
      ``long_press``.
    * ``stuck_after``: a control held this long is reported ``stuck`` once, then ignored.
    * ``buttons_pull_up``: buttons close to ground (the usual arcade wiring, internal pull-up).
    * ``lamps_active_high``: a high pin lights the lamp (through a transistor driver).
    * ``lamp_dimming``: drive lamps with PWM (``PWMLED``) for a softer attract chase.
    * ``allow_pins``: reserved pins this cabinet does not need (GPIO18-21 without a DAC).
    """

    lever: int | None = 4
    hold1: int | None = 5
    hold2: int | None = 6
    hold3: int | None = 13
    collect: int | None = 26
    start: int | None = 16
    back: int | None = 12
    lever_lamp: int | None = None
    hold1_lamp: int | None = 22
    hold2_lamp: int | None = 23
    hold3_lamp: int | None = 27
    collect_lamp: int | None = 14
    start_lamp: int | None = 15
    back_lamp: int | None = None
    lockout: float = 0.03
    lever_lockout: float = 0.2
    long_press: float = 1.5
    stuck_after: float = 10.0
    long_press_controls: tuple[str, ...] = ("start",)
    buttons_pull_up: bool = True
    lamps_active_high: bool = True
    lamp_dimming: bool = False
    blink_period: float = 0.8
    attract_step: float = 0.15
    allow_pins: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        self.validate()

    def button_pin(self, control: str) -> int | None:
        """The BCM pin of a control's switch (None when not wired)."""
        pin: int | None = getattr(self, _check_control(control))
        return pin

    def lamp_pin(self, control: str) -> int | None:
        """The BCM pin of a control's lamp (None when it has none)."""
        pin: int | None = getattr(self, f"{_check_control(control)}_lamp")
        return pin

    def pins(self) -> Iterator[tuple[str, int]]:
        """Every wired pin as ``(key, bcm)``: the switches first, then the lamps."""
        for key in _PIN_KEYS:
            pin = getattr(self, key)
            if pin is not None:
                yield key, pin

    def validate(self) -> None:
        """Raise :class:`PanelConfigError` (one line, naming the key) if the config cannot work."""
        allowed = set(self.allow_pins)
        for pin in self.allow_pins:
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in PHYSICAL_PIN:
                raise PanelConfigError(f"pins: allow_pins lists {_excerpt(pin)}, not a header GPIO (0-27)")
        used: dict[int, str] = {}
        for key in _PIN_KEYS:
            pin = getattr(self, key)
            if pin is None:
                continue
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in PHYSICAL_PIN:
                raise PanelConfigError(
                    f"pins: {key} = {_excerpt(pin)} is not a header GPIO; use a BCM number 4-27 or \"none\""
                )
            if pin in RESERVED_PINS and pin not in allowed:
                raise PanelConfigError(
                    f"pins: {key} uses GPIO{pin}, kept for {RESERVED_PINS[pin]}; pick another pin "
                    f"or add {pin} to allow_pins"
                )
            if pin in used:
                raise PanelConfigError(
                    f"pins: {key} uses GPIO{pin}, already used by {used[pin]}; "
                    "give each control its own pin"
                )
            used[pin] = key
        for key, most in _SECONDS_LIMITS.items():
            value = getattr(self, key)
            # NaN compares false with everything: without isfinite it passed every check below
            # and a NaN lockout turned one bouncy lever pull into several spins.
            if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
                    or not 0 <= value <= most):
                raise PanelConfigError(
                    f"pins: {key} = {_excerpt(value)} must be a number of seconds from 0 to {most:g}"
                )
        for key in ("blink_period", "attract_step"):
            if getattr(self, key) <= 0:
                raise PanelConfigError(f"pins: {key} must be more than 0 seconds")
        if self.long_press <= max(self.lockout, self.lever_lockout):
            raise PanelConfigError("pins: long_press must be longer than lockout and lever_lockout")
        if self.stuck_after <= self.long_press:
            raise PanelConfigError("pins: stuck_after must be longer than long_press")
        for control in self.long_press_controls:
            if control not in CONTROLS:
                raise PanelConfigError(
                    f"pins: long_press_controls names {_excerpt(control)}; controls are {', '.join(CONTROLS)}"
                )

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> PanelConfig:
        """Build a config from a ``[pins]`` table; missing keys keep their defaults.

        Raises :class:`PanelConfigError` (a ``UserError``) naming the bad key.
        """
        if not isinstance(mapping, Mapping):
            raise PanelConfigError(f"pins: expected a table of key = value, got {type(mapping).__name__}")
        known = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, raw in mapping.items():
            if key not in known:
                raise PanelConfigError(
                    f"pins: unknown key {_excerpt(key)}; known keys are {', '.join(known)}"
                )
            values[key] = _coerce(key, raw)
        return cls(**values)

    def to_mapping(self) -> dict[str, Any]:
        """The config as a ``[pins]`` table (``"none"`` for pins that are not wired)."""
        table: dict[str, Any] = {}
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if item.name in _PIN_KEYS and value is None:
                value = "none"
            elif isinstance(value, tuple):
                value = list(value)
            table[item.name] = value
        return table


_PIN_KEYS: tuple[str, ...] = CONTROLS + tuple(f"{control}_lamp" for control in CONTROLS)
#: Each timing key and the most seconds that still makes sense for it (a lockout of an hour is a typo).
_SECONDS_LIMITS: dict[str, float] = {
    "lockout": 1.0, "lever_lockout": 2.0, "long_press": 10.0, "stuck_after": 600.0,
    "blink_period": 10.0, "attract_step": 10.0,
}
_SECONDS_KEYS = tuple(_SECONDS_LIMITS)
_FLAG_KEYS = ("buttons_pull_up", "lamps_active_high", "lamp_dimming")
#: Longest excerpt of a bad value an error message quotes (a 100 KB value must not be echoed).
_EXCERPT = 40


def _excerpt(value: Any) -> str:
    """``repr(value)``, cut to a short excerpt so an error line stays one readable line."""
    text = repr(value)
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 3] + "..."


def _check_control(control: str) -> str:
    if control not in CONTROLS:
        raise KeyError(f"unknown control {control!r}; controls are {', '.join(CONTROLS)}")
    return control


def _coerce(key: str, raw: Any) -> Any:
    """Turn one TOML value into the field's type, or say which key is wrong and how."""
    if key in _PIN_KEYS:
        if raw is None or raw is False or (isinstance(raw, str) and raw.strip().lower() in _NOT_WIRED):
            return None
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        text = raw.strip().upper().removeprefix("GPIO").removeprefix("BCM") if isinstance(raw, str) else ""
        # isdigit() alone accepts "²" (a digit to Unicode, not to int()): ASCII digits only.
        if not (text.isascii() and text.isdigit() and len(text) <= 3):
            raise PanelConfigError(
                f"pins: {key} = {_excerpt(raw)} is not a BCM pin number (e.g. 17) or \"none\""
            )
        return int(text)
    if key in _SECONDS_KEYS:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise PanelConfigError(f"pins: {key} = {_excerpt(raw)} must be a number of seconds")
        return float(raw)
    if key in _FLAG_KEYS:
        if not isinstance(raw, bool):
            raise PanelConfigError(f"pins: {key} = {_excerpt(raw)} must be true or false")
        return raw
    if key == "long_press_controls":
        if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
            raise PanelConfigError(f"pins: {key} must be a list of control names, e.g. [\"start\"]")
        return tuple(raw)
    if key == "allow_pins":
        if not isinstance(raw, list) or not all(
            isinstance(item, int) and not isinstance(item, bool) for item in raw
        ):
            raise PanelConfigError(f"pins: {key} must be a list of BCM numbers, e.g. [18, 19]")
        return tuple(raw)
    return raw
