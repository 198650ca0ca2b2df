"""Which board this is: the daemon, ``doctor`` and ``run`` pick real or simulated devices by it."""

from __future__ import annotations

from pathlib import Path


def on_raspberry_pi() -> bool:
    """True on a Raspberry Pi (its device tree says so)."""
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False
