"""Debounce, long press and stuck detection: the one place where raw edges become clean events.

Arcade switches bounce for a few milliseconds; a lever's microswitch longer. We act on the
*leading* edge (a press is reported the moment the contact first closes, with no added delay)
and then ignore the switch for a lockout time. Anything that changed during the lockout is
settled when it ends, so a tap shorter than the lockout still gets its release. This is what
arcade builders ask for (gpiozero's ``bounce_time`` on lgpio waits for the level to be stable,
which adds delay and drops short taps), so the panel never sets ``bounce_time``.

Each control is a small state machine::

    up --edge down, lockout over--> down   (press, or pull for the lever)
    down --held long_press--> down         (long_press, once, for start)
    down --held stuck_after--> stuck       (stuck, once; edges ignored)
    down/stuck --edge up, lockout over--> up (release)

Time comes from the caller (``now``, monotonic seconds), so tests drive it without sleeping.

>>> events = InputFilter(PanelConfig())
>>> events.edge("hold1", True, now=0.0)
[InputEvent(control='hold1', kind='press', at=0.0)]
>>> events.edge("hold1", False, now=0.005)   # contact bounce inside the lockout
[]
>>> events.edge("hold1", True, now=0.008)
[]
>>> events.edge("hold1", False, now=0.2)
[InputEvent(control='hold1', kind='release', at=0.2)]
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from hardware.config import PanelConfig
from hardware.events import CONTROLS, LONG_PRESS, PRESS, PULL, RELEASE, STUCK, InputEvent

_NEVER = float("-inf")


class ControlState:
    """One control's debounced state: act on the leading edge, then lock out.

    Not thread-safe on its own; :class:`InputFilter` serialises access.
    """

    def __init__(
        self,
        control: str,
        *,
        press_kind: str,
        lockout: float,
        long_press: float | None,
        stuck_after: float,
        down: bool = False,
        now: float = 0.0,
    ) -> None:
        self.control = control
        self.press_kind = press_kind
        self.lockout = lockout
        self.long_press = long_press
        self.stuck_after = stuck_after
        self.raw = down
        self.down = down
        self.stuck = False
        # A control already down when we start was never announced: it reports stuck (a wiring
        # or switch fault) but no press, no long press and no release.
        self.announced = False
        self.long_reported = False
        self.changed_at = _NEVER
        self.down_since = now

    def edge(self, down: bool, now: float) -> list[InputEvent]:
        """The switch changed to ``down`` (True = closed) at ``now``."""
        self.raw = down
        return self._settle(now)

    def tick(self, now: float) -> list[InputEvent]:
        """Time passed: settle a change held back by the lockout, report long presses and stuck."""
        events = self._settle(now)
        if not self.down or self.stuck:
            return events
        held = now - self.down_since
        if held >= self.stuck_after:
            self.stuck = True
            events.append(InputEvent(self.control, STUCK, now))
        elif (
            self.long_press is not None
            and self.announced
            and not self.long_reported
            and held >= self.long_press
        ):
            self.long_reported = True
            events.append(InputEvent(self.control, LONG_PRESS, now))
        return events

    def _settle(self, now: float) -> list[InputEvent]:
        if self.raw == self.down or now - self.changed_at < self.lockout:
            return []
        self.down = self.raw
        self.changed_at = now
        if self.down:
            self.down_since = now
            self.announced = True
            self.long_reported = False
            self.stuck = False
            return [InputEvent(self.control, self.press_kind, now)]
        announced, self.announced, self.stuck = self.announced, False, False
        return [InputEvent(self.control, RELEASE, now)] if announced else []


class InputFilter:
    """Every control's :class:`ControlState`, behind one lock (edges come from GPIO threads).

    ``edge`` is called for each raw switch change and ``tick`` regularly (every 20 ms or so)
    so that long presses, stuck controls and held-back changes are reported without an edge.
    """

    def __init__(
        self,
        config: PanelConfig,
        *,
        controls: Iterable[str] = CONTROLS,
        initially_down: Iterable[str] = (),
        now: float = 0.0,
    ) -> None:
        held = set(initially_down)
        self._lock = threading.Lock()
        self._states: dict[str, ControlState] = {}
        for control in controls:
            is_lever = control == "lever"
            self._states[control] = ControlState(
                control,
                press_kind=PULL if is_lever else PRESS,
                lockout=config.lever_lockout if is_lever else config.lockout,
                long_press=config.long_press if control in config.long_press_controls else None,
                stuck_after=config.stuck_after,
                down=control in held,
                now=now,
            )

    @property
    def controls(self) -> tuple[str, ...]:
        """The controls this filter watches."""
        return tuple(self._states)

    def edge(self, control: str, down: bool, now: float) -> list[InputEvent]:
        """A raw switch change; returns the clean events it causes (often none)."""
        with self._lock:
            return self._states[control].edge(down, now)

    def tick(self, now: float) -> list[InputEvent]:
        """Let time pass for every control; returns the events that time causes."""
        with self._lock:
            events: list[InputEvent] = []
            for state in self._states.values():
                events.extend(state.tick(now))
            return events

    def is_down(self, control: str) -> bool:
        """Whether a control is (debounced) down right now."""
        with self._lock:
            return self._states[control].down

    def is_stuck(self, control: str) -> bool:
        """Whether a control has been reported stuck and not released since."""
        with self._lock:
            return self._states[control].stuck
