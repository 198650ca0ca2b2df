"""Game flows: one small state machine per game and mode (see :mod:`companion.flows.base`).

>>> [(f.game_id, f.modes) for f in FLOWS.values()][0]
('bandit', ('table', 'cabinet'))
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from companion.errors import UserError
from companion.flows.base import Flow
from companion.session import Session

#: modules here that are not one game's flow (the lobby imports FLOWS itself)
_NOT_GAME_FLOWS = {"base", "lobby"}


def _discover() -> dict[str, type[Flow]]:
    """Every Flow subclass with a ``game_id`` in this package's modules, by game id.

    Discovery (as for games and CLI commands) means adding a game's flow is adding a module.
    """
    found: dict[str, type[Flow]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name in _NOT_GAME_FLOWS:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Flow) and cls.game_id and cls.__module__ == module.__name__:
                found[cls.game_id] = cls
    return dict(sorted(found.items()))


FLOWS: dict[str, type[Flow]] = _discover()


def make_flow(session: Session) -> Flow:
    """The flow for the session's game and mode; raises :class:`UserError` when there is none."""
    flow = FLOWS.get(session.config.game)
    if flow is None:
        raise UserError(f"no flow for '{session.config.game}' yet (flows: {', '.join(FLOWS)})")
    if session.mode not in flow.modes:
        raise UserError(f"{session.config.game} plays in {' or '.join(flow.modes)} mode, not {session.mode}")
    return flow(session)
