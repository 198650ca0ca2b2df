"""The registry of games by id.

Each rules module in :mod:`companion.engine.games` ends with ``@register`` on its game class;
:func:`all_games` imports every module in that package once, so adding a game is adding a
module, never editing a list.

>>> get_game("bandit").title
'Bandit'
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from typing import Any, TypeVar

from companion.engine.errors import UnknownGameError
from companion.engine.game import Game, GameConfig

_GAMES: dict[str, type[Game[Any]]] = {}
_loaded = False
G = TypeVar("G", bound=type[Game[Any]])


def register(cls: G) -> G:
    """Class decorator: make ``cls`` available under ``cls.id``."""
    if cls.id in _GAMES and _GAMES[cls.id] is not cls:
        raise ValueError(f"two games registered as '{cls.id}'")
    _GAMES[cls.id] = cls
    return cls


def _load() -> None:
    global _loaded
    if _loaded:
        return
    from companion.engine import games

    for info in pkgutil.iter_modules(games.__path__):
        importlib.import_module(f"{games.__name__}.{info.name}")
    _loaded = True


def _load_one(game_id: str) -> None:
    """Import the rules module named after ``game_id``, if there is one."""
    name = game_id.replace("-", "_")
    if not name.isidentifier():
        return
    from companion.engine import games

    if importlib.util.find_spec(f"{games.__name__}.{name}") is not None:
        importlib.import_module(f"{games.__name__}.{name}")


def all_games() -> dict[str, type[Game[Any]]]:
    """Every registered game class by id, sorted by id."""
    _load()
    return dict(sorted(_GAMES.items()))


def get_game(game_id: str) -> type[Game[Any]]:
    """The game class for ``game_id``; raises :class:`UnknownGameError` with the known ids.

    Its own module is imported first (``pay-line`` is ``games/pay_line``): a command about one
    game loads only that game; any other id loads them all to find it or name them.
    """
    if game_id not in _GAMES:
        _load_one(game_id)
    if game_id in _GAMES:
        return _GAMES[game_id]
    games = all_games()
    if game_id not in games:
        raise UnknownGameError(f"unknown game '{game_id}' (games: {', '.join(games)})")
    return games[game_id]


def make_game(config: GameConfig) -> Game[Any]:
    """Instantiate the rules for ``config``."""
    return get_game(config.game)(config)
