"""The shared rules engine: pure Python, no I/O, no pygame, no cv2.

One protocol (:class:`Game`) for five games; states are plain dataclasses with exact JSON;
actions are small values with a text form; chance is explicit (:class:`ChancePoint`) and
answered by a seeded, scripted or reported resolver; :class:`Match` keeps the log that
replays a game exactly.
"""

from companion.engine.actions import REVEAL, Action
from companion.engine.bots import Bot, HeuristicBot, RandomBot, make_bot
from companion.engine.chance import (
    ChancePoint,
    ReportedResolver,
    Resolver,
    ScriptedResolver,
    SeededResolver,
)
from companion.engine.errors import (
    ConfigError,
    EngineError,
    GameOverError,
    IllegalActionError,
    ImpossibleOutcomeError,
    InvalidSituationError,
    ReplayError,
    UndoError,
    UnknownGameError,
)
from companion.engine.events import (
    CardTaken,
    ChanceResolved,
    CoinsPaid,
    Event,
    GameEnded,
    JackpotHit,
    RoundEnded,
    TurnEnded,
    TurnStarted,
)
from companion.engine.game import CardFace, Game, GameConfig, GameResult
from companion.engine.match import Match, load_log, replay
from companion.engine.registry import all_games, get_game, make_game, register

__all__ = [
    "REVEAL", "Action", "Bot", "CardFace", "CardTaken", "ChancePoint", "ChanceResolved",
    "CoinsPaid", "ConfigError", "EngineError", "Event", "Game", "GameConfig", "GameEnded",
    "GameOverError", "GameResult", "HeuristicBot", "IllegalActionError",
    "ImpossibleOutcomeError", "InvalidSituationError", "JackpotHit", "Match", "RandomBot",
    "ReplayError", "ReportedResolver", "Resolver", "RoundEnded", "ScriptedResolver",
    "SeededResolver", "TurnEnded", "TurnStarted", "UndoError", "UnknownGameError",
    "all_games", "get_game", "load_log", "make_bot", "make_game", "register", "replay",
]
