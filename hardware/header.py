"""The Raspberry Pi's 40-pin header: which physical pin carries which GPIO, and which pins to keep free.

The same on every 40-pin Pi (Zero to Pi 5). Numbers are BCM (``GPIO17``), physical pins are
counted on the header (pin 1 is 3V3, the corner nearest the SD card end; odd pins on the inner
row).

>>> physical_pin(17)
11
>>> nearest_ground(11)
9
"""

from __future__ import annotations

#: BCM GPIO number -> physical pin number on the 40-pin header.
PHYSICAL_PIN: dict[int, int] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23,
    12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40,
    22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}

#: Physical pins that are ground.
GROUND_PINS: tuple[int, ...] = (6, 9, 14, 20, 25, 30, 34, 39)

#: Pins that a panel must not use, and why. A config that names one is refused unless the
#: pin is listed in ``allow_pins`` (for example GPIO18-21 on a Pi without an I2S DAC).
RESERVED_PINS: dict[int, str] = {
    0: "the HAT ID EEPROM (ID_SD)",
    1: "the HAT ID EEPROM (ID_SC)",
    2: "I2C (SDA, fixed pull-up)",
    3: "I2C (SCL, fixed pull-up)",
    7: "SPI0 (CE1)",
    8: "SPI0 (CE0)",
    9: "SPI0 (MISO)",
    10: "SPI0 (MOSI)",
    11: "SPI0 (SCLK)",
    18: "an I2S sound card (BCLK)",
    19: "an I2S sound card (LRCLK)",
    20: "an I2S sound card (DIN)",
    21: "an I2S sound card (DOUT)",
}

#: Pins the defaults stay off although they are usable: SPI display HATs use 24/25 (DC and
#: reset) and 17 (touch interrupt); 14/15 are the serial console's UART.
AVOIDED_PINS: dict[int, str] = {
    14: "the serial console (UART TX); free when the console is off, as it is by default",
    15: "the serial console (UART RX); free when the console is off, as it is by default",
    17: "the touch interrupt of Waveshare-style SPI displays",
    24: "the data/command line of most SPI display HATs",
    25: "the reset line of most SPI display HATs",
}


def physical_pin(bcm: int) -> int:
    """The physical header pin that carries GPIO ``bcm``; ``KeyError`` if there is none."""
    return PHYSICAL_PIN[bcm]


def nearest_ground(physical: int) -> int:
    """The ground pin closest to a physical pin: fewest header rows away, same column first."""

    def distance(ground: int) -> tuple[int, int, int]:
        rows_apart = abs((ground - 1) // 2 - (physical - 1) // 2)
        other_column = int(ground % 2 != physical % 2)
        return rows_apart, other_column, ground

    return min(GROUND_PINS, key=distance)


def describe_pin(bcm: int) -> str:
    """``"GPIO17 (pin 11)"``: how a wirer finds a pin."""
    return f"GPIO{bcm} (pin {physical_pin(bcm)})"
