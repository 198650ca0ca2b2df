"""Every example in the project's docstrings runs as written (the hardware package has its own)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion
import vision

#: modules that run something when imported (the ``python -m companion`` entry point)
NOT_IMPORTABLE = {"companion.__main__"}


def _modules() -> list[str]:
    names = []
    for package in (companion, vision):
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            if info.name not in NOT_IMPORTABLE:
                names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) in {name} fail"
