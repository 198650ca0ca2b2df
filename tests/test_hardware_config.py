"""PanelConfig: default pins stay clear of the buses, and a broken [pins] table gets one clear line."""

from __future__ import annotations

import pytest

from companion.errors import UserError
from hardware.config import PanelConfig
from hardware.errors import PanelConfigError
from hardware.events import CONTROLS
from hardware.header import AVOIDED_PINS, RESERVED_PINS, nearest_ground, physical_pin


def test_default_pins_avoid_i2c_spi_i2s_and_display_hat_pins() -> None:
    used = [pin for _key, pin in PanelConfig().pins()]
    assert len(used) == len(set(used))
    for pin in used:
        assert pin not in RESERVED_PINS
        assert pin not in (17, 24, 25)
    assert not set(used) & {2, 3, 7, 8, 9, 10, 11, 18, 19, 20, 21}


def test_every_control_has_a_default_switch_and_every_button_but_back_a_lamp() -> None:
    config = PanelConfig()
    assert all(config.button_pin(control) is not None for control in CONTROLS)
    lit = [c for c in CONTROLS if config.lamp_pin(c) is not None]
    assert lit == ["hold1", "hold2", "hold3", "collect", "start"]


def test_duplicate_pin_names_the_second_key() -> None:
    with pytest.raises(PanelConfigError, match="hold2 uses GPIO5, already used by hold1"):
        PanelConfig(hold2=5)


def test_a_lamp_may_not_share_a_button_pin() -> None:
    with pytest.raises(PanelConfigError, match="collect_lamp uses GPIO4, already used by lever"):
        PanelConfig.from_mapping({"collect_lamp": 4})


@pytest.mark.parametrize(("pin", "why"), [(2, "I2C"), (9, "SPI0"), (19, "I2S"), (0, "EEPROM")])
def test_reserved_pins_are_refused_with_the_reason(pin: int, why: str) -> None:
    with pytest.raises(PanelConfigError, match=f"start uses GPIO{pin}, kept for .*{why}"):
        PanelConfig.from_mapping({"start": pin})


def test_a_reserved_pin_is_accepted_when_allowed() -> None:
    config = PanelConfig.from_mapping({"back_lamp": 18, "allow_pins": [18]})
    assert config.lamp_pin("back") == 18


def test_from_mapping_errors_are_user_errors_naming_the_key() -> None:
    cases = {
        "hold3": "seven",
        "hold1_lamp": 99,
        "lockout": "fast",
        "lamp_dimming": "yes",
        "long_press_controls": "start",
    }
    for key, value in cases.items():
        with pytest.raises(UserError) as caught:
            PanelConfig.from_mapping({key: value})
        message = str(caught.value)
        assert key in message and "\n" not in message


def test_unknown_key_is_refused_and_the_known_keys_listed() -> None:
    with pytest.raises(PanelConfigError, match="unknown key 'leverr'.*lever"):
        PanelConfig.from_mapping({"leverr": 4})


def test_none_and_gpio_prefixed_names_are_understood() -> None:
    config = PanelConfig.from_mapping({"start_lamp": "none", "lever": "GPIO17", "hold1": "5"})
    assert config.lamp_pin("start") is None
    assert config.button_pin("lever") == 17
    assert config.button_pin("hold1") == 5


def test_timings_must_nest_lockout_inside_long_press_inside_stuck() -> None:
    with pytest.raises(PanelConfigError, match="stuck_after must be longer than long_press"):
        PanelConfig.from_mapping({"long_press": 3, "stuck_after": 2})
    with pytest.raises(PanelConfigError, match="long_press must be longer than lockout"):
        PanelConfig.from_mapping({"lever_lockout": 2.0, "long_press": 1.0})
    with pytest.raises(PanelConfigError, match="lockout"):
        PanelConfig.from_mapping({"lockout": -0.1})


def test_long_press_controls_must_be_controls() -> None:
    with pytest.raises(PanelConfigError, match="long_press_controls names 'menu'"):
        PanelConfig.from_mapping({"long_press_controls": ["menu"]})


def test_to_mapping_round_trips() -> None:
    config = PanelConfig.from_mapping({"back_lamp": 24, "lamp_dimming": True, "long_press": 2})
    assert PanelConfig.from_mapping(config.to_mapping()) == config


def test_header_knows_physical_pins_and_grounds() -> None:
    assert physical_pin(4) == 7
    assert physical_pin(26) == 37
    assert nearest_ground(7) == 9
    assert nearest_ground(37) == 39
    assert nearest_ground(29) == 30
    assert set(AVOIDED_PINS).isdisjoint(RESERVED_PINS)
