"""The keyboard stand-in: key presses become the same :class:`InputEvent` s as the GPIO panel.

Off the Pi (or with ``--keyboard``) the keyboard drives the game, and so does a USB arcade
encoder that shows up as a keyboard (I-PAC style encoders send MAME's default keys) or pins
turned into keys by the kernel's ``gpio-key`` overlay. Key map (pygame key names):

=========  ========================================  ==================================
control    keyboard                                  arcade encoder (MAME defaults)
=========  ========================================  ==================================
lever      Space, Return, keypad Enter               button 3 (Space), joystick down
hold1      1, keypad 1                               button 1 (Left Ctrl), 1P start (1)
hold2      2, keypad 2                               button 2 (Left Alt)
hold3      3, keypad 3                               button 4 (Left Shift)
collect    c                                         button 7 (c), coin (5), joystick right
start      s (hold it for ``long_press``)            joystick up
back       b, Backspace, Escape                      joystick left
=========  ========================================  ==================================

Keys go through the same debounce, long press and stuck logic as the pins
(:class:`~hardware.debounce.InputFilter`), so holding ``s`` gives ``start long_press``. Call
:meth:`KeyboardControls.tick` every frame so time-based events arrive without a key event.
pygame is imported only when the first event is translated (no display is needed for that).

>>> import pygame
>>> keys = KeyboardControls(clock=lambda: 5.0)
>>> keys.translate(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
[InputEvent(control='lever', kind='pull', at=5.0)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from hardware.config import PanelConfig
from hardware.debounce import InputFilter
from hardware.events import CONTROLS, InputEvent

#: (control, pygame key constant, what to press): the keyboard and arcade encoder key map.
KEY_MAP: tuple[tuple[str, str, str], ...] = (
    ("lever", "K_SPACE", "Space"),
    ("lever", "K_RETURN", "Return"),
    ("lever", "K_KP_ENTER", "keypad Enter"),
    ("lever", "K_DOWN", "Down arrow"),
    ("hold1", "K_1", "1"),
    ("hold1", "K_KP1", "keypad 1"),
    ("hold1", "K_LCTRL", "Left Ctrl"),
    ("hold2", "K_2", "2"),
    ("hold2", "K_KP2", "keypad 2"),
    ("hold2", "K_LALT", "Left Alt"),
    ("hold3", "K_3", "3"),
    ("hold3", "K_KP3", "keypad 3"),
    ("hold3", "K_LSHIFT", "Left Shift"),
    ("collect", "K_c", "c"),
    ("collect", "K_5", "5"),
    ("collect", "K_RIGHT", "Right arrow"),
    ("start", "K_s", "s"),
    ("start", "K_UP", "Up arrow"),
    ("back", "K_b", "b"),
    ("back", "K_BACKSPACE", "Backspace"),
    ("back", "K_ESCAPE", "Escape"),
    ("back", "K_LEFT", "Left arrow"),
)


def keys_for(control: str) -> list[str]:
    """What to press for a control, e.g. ``keys_for("lever") -> ["Space", "Return", ...]``."""
    return [label for owner, _constant, label in KEY_MAP if owner == control]


class KeyboardControls:
    """Turns pygame ``KEYDOWN`` / ``KEYUP`` events into control-panel events.

    ``config`` supplies the timings (its pins are ignored); ``clock`` returns monotonic seconds;
    ``key_map`` replaces :data:`KEY_MAP` (same shape) for an encoder with other keys. Several
    keys may drive one control: it is down while any of them is held. Key repeat is ignored.
    """

    def __init__(
        self,
        config: PanelConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        key_map: Iterable[tuple[str, str, str]] = KEY_MAP,
    ) -> None:
        self.config = config if config is not None else PanelConfig()
        self._clock = clock
        self._key_map = tuple(key_map)
        for control, _constant, _label in self._key_map:
            if control not in CONTROLS:
                raise ValueError(f"key map names {control!r}; controls are {', '.join(CONTROLS)}")
        self._filter = InputFilter(self.config, now=clock())
        self._codes: dict[int, str] | None = None
        self._held: dict[str, set[int]] = {control: set() for control in CONTROLS}

    def translate(self, event: Any) -> list[InputEvent]:
        """The events one pygame event causes (an empty list for anything that is not ours).

        Losing the window's focus lets go of every held key: the window never sees their
        ``KEYUP`` and they would otherwise end up reported stuck.
        """
        import pygame

        codes = self._key_codes()
        now = self._clock()
        if event.type == pygame.WINDOWFOCUSLOST:
            return self.release_all(now)
        if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return []
        control = codes.get(event.key)
        if control is None:
            return []
        held = self._held[control]
        was_down = bool(held)
        if event.type == pygame.KEYDOWN:
            held.add(event.key)
        else:
            held.discard(event.key)
        if bool(held) == was_down:
            return []
        return self._filter.edge(control, bool(held), now)

    def tick(self) -> list[InputEvent]:
        """Let time pass: long presses, stuck keys, and releases held back by the lockout."""
        return self._filter.tick(self._clock())

    def release_all(self, now: float | None = None) -> list[InputEvent]:
        """Let go of every held key (the window lost focus, or the stand-in is being stopped)."""
        at = self._clock() if now is None else now
        events: list[InputEvent] = []
        for control, held in self._held.items():
            if held:
                held.clear()
                events.extend(self._filter.edge(control, False, at))
        return events

    def _key_codes(self) -> dict[int, str]:
        if self._codes is None:
            import pygame

            codes: dict[int, str] = {}
            for control, constant, _label in self._key_map:
                code = getattr(pygame, constant, None)
                if code is None:
                    raise ValueError(f"key map: pygame has no key {constant!r} (for {control})")
                codes[code] = control
            self._codes = codes
        return self._codes
