"""What each button lamp shows at a given moment: off, on, blinking, or the attract chase.

A pure pattern (no pins, no threads): the panel asks :meth:`LampPattern.levels` for every lamp's
brightness (0.0-1.0) and writes it to the LEDs. One pattern for all lamps keeps blinking lamps in
step with each other, which separate gpiozero ``blink()`` threads would not, and lets the attract
chase run across the whole panel.

>>> pattern = LampPattern(("hold1", "collect"), blink_period=1.0, attract_step=0.25)
>>> pattern.set({"hold1": "on", "collect": "blink"}, now=10.0)
>>> pattern.levels(10.0)
{'hold1': 1.0, 'collect': 1.0}
>>> pattern.levels(10.6)
{'hold1': 1.0, 'collect': 0.0}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from hardware.events import CONTROLS

OFF = "off"
ON = "on"
BLINK = "blink"
LAMP_STATES: tuple[str, ...] = (OFF, ON, BLINK)

#: Brightness of the lamp the attract chase just left (visible only with ``lamp_dimming``).
TRAIL_LEVEL = 0.25


class LampPattern:
    """The lamp states the game asked for, and the attract chase that overrides them when idle."""

    def __init__(self, lamps: Iterable[str], *, blink_period: float, attract_step: float) -> None:
        self.lamps: tuple[str, ...] = tuple(lamps)
        self.blink_period = blink_period
        self.attract_step = attract_step
        self._states: dict[str, str] = dict.fromkeys(self.lamps, OFF)
        self._blink_since = 0.0
        self._attract_since: float | None = None

    @property
    def states(self) -> dict[str, str]:
        """The state last asked for each lamp (``off`` / ``on`` / ``blink``)."""
        return dict(self._states)

    @property
    def attracting(self) -> bool:
        """Whether the attract chase is running."""
        return self._attract_since is not None

    def set(self, mapping: Mapping[str, str], now: float) -> None:
        """Show the current step: lamps named in ``mapping`` take its state, the others go off.

        Controls without a lamp are accepted and ignored (the daemon need not know the wiring);
        unknown controls or states raise ``ValueError``.
        """
        wanted: dict[str, str] = dict.fromkeys(self.lamps, OFF)
        for control, state in mapping.items():
            if control not in CONTROLS:
                known = ", ".join(CONTROLS)
                raise ValueError(f"set_lamps: unknown control {control!r}; controls are {known}")
            if state not in LAMP_STATES:
                raise ValueError(f"set_lamps: {control} = {state!r}; states are {', '.join(LAMP_STATES)}")
            if control in wanted:
                wanted[control] = state
        newly_blinking = any(
            state == BLINK and self._states[control] != BLINK for control, state in wanted.items()
        )
        if newly_blinking:
            # Restart the phase so the new lamp lights at once and all blinking lamps stay in step.
            self._blink_since = now
        self._states = wanted

    def attract(self, enabled: bool, now: float) -> None:
        """Start (or stop) the attract chase; stopping shows the last :meth:`set` states again."""
        if enabled and self._attract_since is None:
            self._attract_since = now
        elif not enabled:
            self._attract_since = None

    def levels(self, now: float) -> dict[str, float]:
        """Every lamp's brightness at ``now``, 0.0 (dark) to 1.0 (full)."""
        if self._attract_since is not None:
            return self._chase(now - self._attract_since)
        blink_lit = ((now - self._blink_since) % self.blink_period) < self.blink_period / 2
        levels: dict[str, float] = {}
        for control, state in self._states.items():
            lit = state == ON or (state == BLINK and blink_lit)
            levels[control] = 1.0 if lit else 0.0
        return levels

    def _chase(self, elapsed: float) -> dict[str, float]:
        """One lamp at a time, running along the panel and back, leaving a dim trail."""
        levels = dict.fromkeys(self.lamps, 0.0)
        count = len(self.lamps)
        if count == 0:
            return levels
        route = list(range(count)) + list(range(count - 2, 0, -1))
        # The epsilon keeps float noise (1000.15 - 1000.0 < 0.15) from holding a lamp one step late.
        step = int(max(elapsed, 0.0) / self.attract_step + 1e-6)
        here = route[step % len(route)]
        if step > 0 and count > 1:
            levels[self.lamps[route[(step - 1) % len(route)]]] = TRAIL_LEVEL
        levels[self.lamps[here]] = 1.0
        return levels
