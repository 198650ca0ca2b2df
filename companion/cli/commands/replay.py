"""``companion replay FILE``: replay a saved game log and print a readable transcript."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.engine import Match, load_log
from companion.engine.errors import IllegalActionError, ReplayError
from companion.engine.events import event_note
from companion.errors import UserError


def register(subparsers: Any) -> None:
    """Add the ``replay`` command."""
    parser = subparsers.add_parser("replay", help="replay a saved game log (from export) as a transcript")
    parser.add_argument("file", help="the game log JSON ('-' for stdin)")
    parser.add_argument("--json", action="store_true", help="print each step and its events as JSON")
    parser.set_defaults(func=run)


def read_text(path: str) -> str:
    """The file's text, or stdin for ``-``; a missing file is a user error."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot read {path}: {error.strerror}; pass a log written by "
                        "'companion export ID'") from None


def transcript(config_and_actions: tuple[Any, list[Any]], as_json: bool = False) -> list[str]:
    """The lines of a replayed game: one per action, plus jackpots, round ends and the result."""
    config, actions = config_and_actions
    match = Match.new(config)
    game = match.game
    lines = [f"{game.title}: {config.players} players, seed {config.seed}"
             + (f", variants {', '.join(config.variants)}" if config.variants else "")]
    for index, action in enumerate(actions, 1):
        try:
            text, events = match.apply_described(action)
        except IllegalActionError as error:
            raise ReplayError(f"action {index} ('{action.brief}') does not replay: {error}") from None
        if as_json:
            lines.append(json.dumps({"step": index, "action": str(action), "text": text,
                                     "events": [e.to_dict() for e in events]}))
        else:
            lines.append(f"{index:4}. {text}")
            lines += [f"      {note}" for e in events if (note := event_note(e))]
    result = game.result(match.state)
    state = "final" if match.is_over else "so far (the game was not finished)"
    scores = ", ".join(f"player {seat + 1}: {score}" for seat, score in enumerate(result.scores))
    winners = " and ".join(f"player {w + 1}" for w in result.winners)
    lines.append(json.dumps({"result": list(result.scores), "winners": list(result.winners),
                             "over": match.is_over}) if as_json
                 else f"Scores {state}: {scores}. {'Winner' if match.is_over else 'Leading'}: {winners}")
    return lines


def run(args: argparse.Namespace) -> int:
    """Replay and print."""
    for line in transcript(load_log(read_text(args.file)), as_json=args.json):
        print(line)
    return 0
