"""The engine's error tree: every error is a ``ValueError`` whose message a player can read.

>>> issubclass(ImpossibleOutcomeError, IllegalActionError)
True
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on purpose."""


class IllegalActionError(EngineError):
    """The action is not allowed now; the state is unchanged.

    The message says why in table words, e.g. "you can only claim a row that won on a spin".
    """


class ImpossibleOutcomeError(IllegalActionError):
    """A reported reveal cannot happen with what is left (a fourth ``bar`` is a misread)."""


class GameOverError(IllegalActionError):
    """The game has ended; no further action applies."""


class InvalidSituationError(EngineError):
    """An ``adjudicate`` situation is malformed or impossible; the message names the bad value."""


class ConfigError(EngineError):
    """A game configuration is invalid (unknown game, player count, variant or option)."""


class UnknownGameError(ConfigError):
    """No game is registered under that id."""


class UndoError(EngineError):
    """Undo would reach back past a reveal, or there is nothing to undo."""


class ReplayError(EngineError):
    """A saved game log is malformed or does not replay."""
