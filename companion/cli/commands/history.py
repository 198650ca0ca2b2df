"""``companion history``: past games from the journal with players, result and duration."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from companion.journal import GameRecord, open_for_cli


def register(subparsers: Any) -> None:
    """Add ``history``."""
    parser = subparsers.add_parser("history", help="list past games: players, result, duration")
    parser.add_argument("--config", help="configuration file (to find the journal)")
    parser.add_argument("--journal", help="journal file (default: the state directory's)")
    parser.add_argument("--json", action="store_true", help="one JSON object per game (or night)")
    parser.add_argument("--nights", action="store_true", help="one line per game night with its standings")
    parser.add_argument("--night", type=int, metavar="ID",
                        help="one night (ID from --nights) as CSV, a row per player per game (--json: JSON)")
    parser.set_defaults(func=run)


def _table(record: GameRecord, scores: list[int]) -> str:
    names = [record.seats[i] if i < len(record.seats) else f"Player {i + 1}" for i in range(len(scores))]
    return ", ".join(f"{name} {score}" for name, score in zip(names, scores, strict=False))


def describe_result(record: GameRecord, last_known: list[int] | None = None) -> str:
    """``Ann 120, Bob 85: Ann wins`` / ``shared by Ann and Bob`` / ``playing (12 actions)``.

    A game whose log no longer replays (an update) shows its last known scores: ``last_known``
    for one still being played, the kept result (which names the reason) for one closed.
    """
    if last_known is not None:
        return (f"cannot be resumed, its log no longer replays: last known scores "
                f"{_table(record, last_known) or '(none noted)'}; `companion end {record.id}` ends it")
    if record.result is None:
        return f"{record.status} ({record.actions} actions)"
    scores = list(record.result.get("scores", []))
    winners = list(record.result.get("winners", []))
    names = [record.seats[i] if i < len(record.seats) else f"Player {i + 1}" for i in range(len(scores))]
    table = _table(record, scores)
    if "reason" in record.result:
        return f"{record.status}: last known scores {table or '(none noted)'}, its log no longer replays"
    if record.status != "finished":
        return f"{record.status}: {table}"
    won = [names[w] for w in winners if w < len(names)]
    verdict = f"{won[0]} wins" if len(won) == 1 else "shared by " + " and ".join(won)
    return f"{table}: {verdict}"


def duration_text(seconds: float) -> str:
    """``12 min 5 s``."""
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def run(args: argparse.Namespace) -> int:
    """Print one line per game, oldest first."""
    if args.nights or args.night is not None:
        return _nights(args)
    with open_for_cli(args.config, args.journal) as journal:
        records = journal.games()
        stuck = {r.id: _last_known_if_stuck(journal, r) for r in records if r.status == "playing"}
    if args.json:
        for r in records:
            print(json.dumps({"id": r.id, "game": r.game, "mode": r.mode, "seats": r.seats,
                              "status": r.status, "result": r.result, "started_at": r.started_at,
                              "duration_s": round(r.duration, 1), "actions": r.actions}, sort_keys=True))
        return 0
    if not records:
        print("no games yet: `companion run` starts one")
        return 0
    for r in records:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.started_at))
        print(f"{r.id:>4}  {started}  {r.game:<16} {r.mode:<7}  {', '.join(r.seats):<24}  "
              f"{duration_text(r.duration):>12}  {describe_result(r, stuck.get(r.id))}")
    return 0


def _last_known_if_stuck(journal: Any, record: GameRecord) -> list[int] | None:
    """The last scores noted in play of a game being played whose log no longer replays, else None."""
    from companion.journal.recovery import replayable_prefix

    _, why = replayable_prefix(record.config, journal.actions(record.id))
    if why is None:
        return None
    known = journal.last_scores(record.id)
    return known[1] if known else []


def _nights(args: argparse.Namespace) -> int:
    """``--nights``: a line per night; ``--night ID``: that night as CSV or JSON."""
    from companion.journal.queries import find_night, read_nights

    with open_for_cli(args.config, args.journal) as journal:
        nights = read_nights(journal)
    if args.night is not None:
        night = find_night(nights, args.night)
        if args.json:
            print(json.dumps(night.to_dict(), sort_keys=True))
        else:
            print(night.to_csv(), end="")
        return 0
    if args.json:
        for night in nights:
            print(json.dumps(night.to_dict(), sort_keys=True))
        return 0
    if not nights:
        print("no games yet: `companion run` starts one")
    for night in nights:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(night.started_at))
        table = ", ".join(f"{s.name} {s.wins:g} win{'s' if s.wins != 1 else ''}" for s in night.standings())
        print(f"{night.id:>4}  {started}  {len(night.games):>2} game{'s' if len(night.games) != 1 else ' '}  "
              f"{table or 'no game yet'}")
    return 0
