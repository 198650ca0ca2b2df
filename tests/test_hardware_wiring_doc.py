"""hardware/WIRING.md stays true: its wiring table is the PanelConfig defaults and the key map."""

from __future__ import annotations

import re
from pathlib import Path

from hardware.config import PanelConfig
from hardware.events import CONTROLS
from hardware.header import nearest_ground, physical_pin
from hardware.keyboard import keys_for

WIRING = Path(__file__).resolve().parent.parent / "hardware" / "WIRING.md"


def wiring_rows() -> dict[str, list[str]]:
    rows = {}
    for line in WIRING.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells and cells[0] in CONTROLS:
            rows[cells[0]] = cells
    return rows


def test_wiring_table_lists_every_control_with_the_default_pins() -> None:
    config = PanelConfig()
    rows = wiring_rows()
    assert list(rows) == list(CONTROLS)
    for control, (_name, switch, switch_pin, ground, lamp, lamp_pin, keys) in rows.items():
        bcm = config.button_pin(control)
        assert bcm is not None
        assert switch == f"GPIO{bcm}"
        assert int(switch_pin) == physical_pin(bcm)
        assert int(ground) == nearest_ground(physical_pin(bcm))
        lamp_bcm = config.lamp_pin(control)
        if lamp_bcm is None:
            assert (lamp, lamp_pin) == ("none", "-")
        else:
            assert lamp == f"GPIO{lamp_bcm}" and int(lamp_pin) == physical_pin(lamp_bcm)
        for key in re.split(r",\s*", re.sub(r"\s*\(.*?\)", "", keys)):
            assert key in keys_for(control), f"{control}: {key!r} is not in the keyboard map"


#: Linux input codes (linux/input-event-codes.h) -> the key's name in the keyboard map.
LINUX_KEYS = {
    57: "Space", 28: "Return", 2: "1", 3: "2", 4: "3", 46: "c", 6: "5", 31: "s", 48: "b", 14: "Backspace",
}


def test_wiring_has_a_diagram_and_a_parts_list() -> None:
    text = WIRING.read_text()
    for needed in ("## Diagram", "## Parts list", "ULN2803", "microswitch", "30 mm arcade push button"):
        assert needed in text


def test_gpio_key_overlay_lines_send_the_keys_the_stand_in_maps_to_the_same_control() -> None:
    config = PanelConfig()
    overlays = re.findall(r"dtoverlay=gpio-key,gpio=(\d+),keycode=(\d+),label=(\w+)", WIRING.read_text())
    assert sorted(label for _gpio, _code, label in overlays) == sorted(CONTROLS)
    for gpio, code, label in overlays:
        assert int(gpio) == config.button_pin(label)
        assert LINUX_KEYS[int(code)] in keys_for(label)
