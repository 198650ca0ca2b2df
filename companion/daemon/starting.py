"""Starting, resuming and ending games: every check made before the journal hears of a game.

Why a module of its own: a start that failed after its game was journalled left an unfinished
game that every later start tried (and failed) to resume: one bad ``run --game pay-line --mode
table`` bricked the companion. So a start is checked completely first (:func:`check_start`), a
game that can no longer be resumed never blocks a new one (:func:`resume`), and the table can
always end the unfinished game (:func:`end_game`: menu, ``companion end``, ``run --new``); an
ended game stays in the history as ``ended``.

>>> check_start("pay-line", "table", 2)
Traceback (most recent call last):
  ...
companion.errors.UserError: Pay Line plays in cabinet mode, not table; start it with --mode cabinet
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from companion.engine import GameConfig, Match, get_game, replay
from companion.engine.errors import EngineError
from companion.errors import UserError
from companion.flows import FLOWS
from companion.journal import GameRecord, Journal
from companion.session import Session, last_known_result

log = logging.getLogger(__name__)

#: How to start anew, for the lines that say a game was resumed instead.
START_ANEW = "`companion run --new` (or End this game in the menu)"


def check_start(game_id: str, mode: str, players: int, variants: tuple[str, ...] = ()) -> None:
    """Raise :class:`UserError` (one line, what to do) unless this game can be started and played."""
    if game_id not in FLOWS:
        raise UserError(f"there is no game '{game_id[:40]}' (games: {', '.join(FLOWS)})")
    game = get_game(game_id)
    modes = FLOWS[game_id].modes
    if mode not in modes:
        raise UserError(f"{game.title} plays in {' or '.join(modes)} mode, not {mode[:20]}; "
                        f"start it with --mode {modes[0]}")
    if (problem := game.players_problem(players)) is not None:
        raise UserError(problem)
    for variant in variants:
        if variant not in dict(game.variants):
            listed = ", ".join(dict(game.variants)) or "none"
            raise UserError(f"'{variant[:40]}' is not a variant of {game.title} (variants: {listed})")
    try:
        Match.new(GameConfig(game_id, players, variants, seed=0))  # the engine's own checks
    except EngineError as error:
        raise UserError(str(error)) from None


def describe(record: GameRecord) -> str:
    """``game 3 (Mega Jackpot, 4 players, table mode)``; a game id no longer known is shown as is."""
    try:
        title = get_game(record.game).title
    except EngineError:
        title = record.game
    players = len(record.seats)
    return f"game {record.id} ({title}, {players} player{'s' if players != 1 else ''}, {record.mode} mode)"


@dataclass(frozen=True)
class Resumed:
    """What :func:`resume` found: the session to go on with, or why the unfinished game cannot go on."""

    session: Session | None
    #: one line for stdout, the log and the screen (empty when there was nothing to resume)
    message: str = ""


def resume(journal: Journal) -> Resumed:
    """Rebuild the unfinished game, if any, checking it as a new start is checked.

    A game that cannot go on (its game, mode or a variant no longer exists; its log no longer
    replays) is left as it is in the journal and reported in one line that offers to end it:
    it never stops a new game from starting.
    """
    record = journal.unfinished()
    if record is None:
        return Resumed(None)
    try:
        check_start(record.game, record.mode, len(record.seats), tuple(record.config.get("variants", ())))
        session = Session.resume(journal, record, close_broken=False)
    except (UserError, ValueError) as error:
        reason = str(error)[:200]
        return Resumed(None, f"{describe(record)} cannot be resumed ({reason}); "
                             f"`companion end {record.id}` ends it (it stays in the history)")
    if session is None:
        return Resumed(None)
    return Resumed(session, f"resuming {describe(record)} at action {session.version}; "
                            f"to start anew: {START_ANEW}")


def differs(record: GameRecord, game: str | None, mode: str | None, players: int | None) -> list[str]:
    """What a ``run --game/--mode/--players`` asked for that the resumed game is not."""
    wanted = [("game", game, record.game), ("mode", mode, record.mode),
              ("players", players, len(record.seats))]
    return [f"--{name} {asked}" for name, asked, actual in wanted if asked is not None and asked != actual]


def end_game(journal: Journal, game_id: int | None = None) -> GameRecord:
    """End ``game_id`` (default: the unfinished game); keeps the scores when its log replays."""
    record = journal.game(game_id) if game_id is not None else journal.unfinished()
    if record is None:
        raise UserError("no game is being played; `companion history` lists the games")
    if record.status != "playing":
        raise UserError(f"{describe(record)} is already {record.status}; only a game being played can end")
    try:
        match = replay(GameConfig.from_dict(record.config), journal.actions(record.id))
        scored = match.game.result(match.state)
        result = {"scores": list(scored.scores), "winners": []}
    except (UserError, ValueError) as error:
        # A game that no longer replays (an update) ends with the scores last noted in play.
        result = last_known_result(journal, record, str(error))
        log.warning("%s no longer replays (%s); ended with its last known scores %s",
                    describe(record), error, result["scores"])
    journal.end_game(record.id, result)
    return journal.game(record.id)


@dataclass
class Opening:
    """How the daemon opens: the game to go on with, the lines to say, the note to show."""

    session: Session | None = None
    lines: list[str] = field(default_factory=list)
    note: str = ""
    #: the note goes once the game moves past this action (-1: once a game starts)
    note_until: int = -1


def opening(journal: Journal, new: bool, game: str | None, mode: str | None, players: int | None) -> Opening:
    """End the unfinished game if ``new``, else resume it, saying what was not started instead."""
    out = Opening()
    if new and journal.unfinished() is not None:
        out.lines.append(f"ended {describe(end_game(journal))}; starting anew")
    found = resume(journal)
    if found.message:
        out.lines.append(found.message)
    if found.session is None:
        if found.message:  # a game that cannot go on: the attract screen offers to end it
            out.note = found.message.split(" (", 1)[0] + ": `companion end` ends it"
        return out
    record = journal.game(found.session.game_id)
    asked = differs(record, game, mode, players)
    if asked:
        out.lines.append(f"not starting {' '.join(asked)}: {describe(record)} is unfinished; "
                         f"`companion run --new {' '.join(asked)}` ends it and starts anew")
    out.session = found.session
    out.note = f"resumed at action {found.session.version}; menu: End this game starts anew"
    out.note_until = found.session.version
    return out
