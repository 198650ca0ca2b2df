"""The one event type the control panel (or its keyboard stand-in) gives the daemon.

>>> InputEvent("lever", PULL, at=12.5)
InputEvent(control='lever', kind='pull', at=12.5)
"""

from __future__ import annotations

from dataclasses import dataclass

#: Every control on the panel, in the order they sit on a typical panel (left to right).
CONTROLS: tuple[str, ...] = ("lever", "hold1", "hold2", "hold3", "collect", "start", "back")

#: A button went down (acted on at the leading edge, after debouncing).
PRESS = "press"
#: A button (or the lever) came back up; always follows a ``press``, ``pull`` or ``stuck``.
RELEASE = "release"
#: ``start`` held past the long-press time; reported once per press (the menu).
LONG_PRESS = "long_press"
#: A control held down past the stuck time; reported once, then ignored until released.
STUCK = "stuck"
#: The lever's one clean pull (the lever never reports ``press``).
PULL = "pull"

KINDS: tuple[str, ...] = (PRESS, RELEASE, LONG_PRESS, STUCK, PULL)


@dataclass(frozen=True)
class InputEvent:
    """Something a player did with a control.

    ``control`` is one of :data:`CONTROLS`, ``kind`` one of :data:`KINDS` and ``at`` the
    monotonic time in seconds (the panel's clock) when it happened.

    A daemon that needs both a click and a long press on ``start`` acts on ``start``'s
    ``release`` when no ``long_press`` came since its ``press``.
    """

    control: str
    kind: str
    at: float

    def __str__(self) -> str:
        return f"{self.control} {self.kind}"
