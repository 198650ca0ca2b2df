"""GPIO controls: buttons, lever and lamps (gpiozero), with a keyboard stand-in off the Pi.

Nothing here imports gpiozero or pygame until a panel is opened or a key is translated, so
importing :mod:`hardware` is cheap and works on any machine.

* :class:`~hardware.events.InputEvent`: the one event type (``lever pull``, ``start long_press``).
* :class:`~hardware.config.PanelConfig`: pins (BCM) and timings, fed from the ``[pins]`` table.
* :class:`~hardware.panel.ControlPanel`: the panel on GPIO; ``set_lamps``, ``attract``, ``close``.
* :class:`~hardware.keyboard.KeyboardControls`: the keyboard / arcade encoder stand-in.

Wiring, parts and the kernel ``gpio-key`` alternative: ``hardware/WIRING.md``.
"""

from hardware.config import PanelConfig
from hardware.events import CONTROLS, InputEvent
from hardware.keyboard import KeyboardControls
from hardware.panel import ControlPanel

__all__ = ["CONTROLS", "ControlPanel", "InputEvent", "KeyboardControls", "PanelConfig"]
