"""``companion demo``: a whole game through the full stack, with the transcript printed.

Simulated camera (frames of the printable cards on the mat), vision (reader, tracker), engine,
screen (drawn off screen), sound (silent driver unless one is set), journal (a temporary file
unless ``--journal``), a bot at the buttons and, in table mode, a simulated dealer at the table.
"""

from __future__ import annotations

import argparse
import os
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.errors import UserError


def register(subparsers: Any) -> None:
    """Add ``demo``."""
    parser = subparsers.add_parser("demo", help="play a whole game on the simulated table")
    parser.add_argument("--game", default="bandit", help="game id (default bandit; see companion games)")
    parser.add_argument("--mode", choices=("table", "cabinet"),
                        help="table (camera reads cards; Bandit's default) or cabinet (the Pi deals)")
    parser.add_argument("--players", type=int, help="number of players (default: the game's minimum)")
    parser.add_argument("--variant", action="append", metavar="V",
                        help="switch a variant on (repeatable; default: the config's [game] variants)")
    parser.add_argument("--seconds", type=float, help="stop after this many seconds even if the game goes on")
    parser.add_argument("--seed", type=int, default=1, help="seed of the game, the dealer and the bot")
    parser.add_argument("--config", help="configuration file (screen size, audio)")
    parser.add_argument("--journal", help="keep the journal here (default: a temporary file)")
    parser.add_argument("--window", action="store_true", help="show the screen in a window")
    parser.add_argument("--taught", action="store_true",
                        help="deal the game's taught cards (their stored pictures), not ours (table mode)")
    parser.add_argument("--paced", action="store_true",
                        help="run at the screen's 60 frames per second (always so in table mode, where the "
                             "camera thread needs the CPU the screen leaves)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play one game; print every action once it is on screen, then the result."""
    from companion.cli.commands.run import attach_simulated_table, checked_variants
    from companion.daemon.app import Daemon, RunOptions
    from companion.engine import get_game
    from companion.flows import FLOWS

    if args.game not in FLOWS:
        raise UserError(f"the demo plays {', '.join(FLOWS)}; not '{args.game}'")
    flow = FLOWS[args.game]
    mode = args.mode or flow.modes[0]
    if mode not in flow.modes:
        raise UserError(f"{args.game} plays in {' or '.join(flow.modes)} mode, not {mode}")
    game = get_game(args.game)
    players = game.min_players if args.players is None else args.players
    if (problem := game.players_problem(players)) is not None:
        raise UserError(problem)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if not args.window:
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    workdir = None if args.journal else tempfile.TemporaryDirectory(prefix="companion-demo-")
    journal = Path(args.journal) if args.journal else Path(workdir.name) / "journal.sqlite"  # type: ignore[union-attr]
    lines: list[str] = []

    def show(line: str) -> None:
        lines.append(line)
        print(line, flush=True)

    options = RunOptions(config=load_config(args.config), headless=not args.window, game=args.game, mode=mode,
                         players=players, seed=args.seed, journal_path=journal,
                         variants=checked_variants(args.variant, args.game),
                         fast=not args.paced and mode != "table",
                         autoplay=args.seed, seconds=args.seconds, exit_when_over=True, transcript=show,
                         keyboard=True, use_gpio=False)
    options.config = _with_camera(options.config, "sim")
    taught: dict[str, dict[str, list[Any]]] = {}
    if args.taught:
        if mode != "table":
            raise UserError("--taught deals cards on the table: use it in table mode")
        from vision.taught_art import taught_deck_or_refuse

        taught[args.game] = taught_deck_or_refuse(args.game, game.title)
    if mode == "table":
        attach_simulated_table(options, args.seed, taught)
    variants = f", variants {', '.join(args.variant)}" if args.variant else ""
    print(f"demo: {game.title}, {players} players, {mode} mode, seed {args.seed}{variants}", flush=True)
    if taught:
        pictures = {id(picture) for pictures in taught[args.game].values() for picture in pictures}
        print(f"demo: dealing the taught cards ({len(pictures)} pictures for {len(taught[args.game])} "
              "card ids; the others are our printed cards)", flush=True)
    started = time.monotonic()
    daemon = Daemon(options)
    stopped_by: list[int] = []

    def stop(signum: int, frame: Any) -> None:
        stopped_by.append(signum)
        daemon.running = False  # the loop ends after this frame; the journal is already written

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        daemon.start()
        daemon.run()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    final = daemon.flow
    elapsed = time.monotonic() - started
    if final is not None and final.over:
        result = final.match.game.result(final.match.state)
        scores = ", ".join(f"{name} {score}" for name, score in zip(final.session.seats, result.scores,
                                                                      strict=False))
        winners = " and ".join(final.session.seats[w] for w in result.winners)
        if not result.winners:  # solo Jackpot Payout: The House won
            print(f"result: {scores}; {result.details or 'The House wins'}")
        else:
            print(f"result: {scores}; {'winner' if len(result.winners) == 1 else 'shared by'} {winners}")
    elif stopped_by:
        print(f"stopped by {signal.Signals(stopped_by[0]).name} before the end of the game")
    elif args.seconds is not None and elapsed >= args.seconds:
        print(f"stopped before the end of the game (--seconds {args.seconds:g})")
    else:
        print("stopped before the end of the game (the window was closed)")
    # "[12] ..." is an action; "[74+3] ..." a table round's move, journalled as a note until the round ends
    actions = sum(1 for line in lines if line.startswith("[") and line.split("]", 1)[0][1:].isdigit())
    print(f"{daemon.frames} frames in {elapsed:.1f} s, {actions} actions shown")
    if mode == "table":
        print(_card_sources(journal), flush=True)
    if workdir is not None:
        workdir.cleanup()
    return 128 + stopped_by[0] if stopped_by else 0


def _card_sources(journal: Path) -> str:
    """How the game's cards came in, from the journal's observations: read by the camera, or
    entered by the buttons when it could not read them (with ``--taught``: how well the camera
    reads that deck through the whole stack)."""
    import json

    from companion.journal import JournalError, open_readonly

    counts = {"camera": 0, "buttons": 0}
    try:
        with open_readonly(journal) as reader:
            games = reader.games()
            entries = reader.entries(games[-1].id) if games else []
    except JournalError as error:
        return f"cards: not counted ({error})"
    for _seq, kind, text, _at in entries:
        if kind != "observation" or not text.startswith("{"):
            continue
        seen = json.loads(text)
        if "card" in seen and seen.get("source") in counts:
            counts[seen["source"]] += 1
    return f"cards: {counts['camera']} read by the camera, {counts['buttons']} entered by the buttons"


def _with_camera(config: Any, source: str) -> Any:
    import dataclasses

    return dataclasses.replace(config, camera=dataclasses.replace(config.camera, source=source))
