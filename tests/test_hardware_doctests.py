"""The examples in the hardware modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "name",
    ["hardware.events", "hardware.header", "hardware.config", "hardware.debounce", "hardware.lamps",
     "hardware.panel", "hardware.keyboard"],
)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_importing_hardware_loads_neither_gpiozero_nor_pygame() -> None:
    code = (
        "import sys, hardware, hardware.panel, hardware.keyboard; "
        "print('gpiozero' in sys.modules, 'pygame' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
