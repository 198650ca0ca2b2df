"""Component data files: one TOML file per game, next to its module.

Counts that no rulebook gives are assumed defaults; the TOML file says so, and a player who
owns the printed game can pass their own table instead (``GameConfig.options['components']``).
Loading package data is the only file access in the engine; it is read-only and cached.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_components(game_id: str) -> dict[str, Any]:
    """The parsed ``<game module>.toml`` for ``game_id`` (e.g. ``pay-line`` -> ``pay_line.toml``)."""
    name = game_id.replace("-", "_") + ".toml"
    text = resources.files("companion.engine.games").joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)
