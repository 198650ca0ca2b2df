"""``companion run``: the companion itself (what systemd starts on the Pi).

Off the Pi it plays on the simulated table: simulated camera frames of the printable cards with
a simulated dealer, keyboard controls, a window when there is a display and headless otherwise.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import Any

from companion.config import SYSTEM_CONFIG, ConfigFileError, load_config
from companion.errors import UserError


def register(subparsers: Any) -> None:
    """Add ``run``."""
    parser = subparsers.add_parser("run", help="run the companion (screen, buttons, camera, journal)")
    parser.add_argument("--config", help="configuration file (default /etc/jackpot-companion/config.toml)")
    parser.add_argument("--keyboard", action="store_true", help="keyboard instead of the GPIO buttons")
    parser.add_argument("--headless", action="store_true", help="no window (SDL dummy video and audio)")
    parser.add_argument("--game", help="start this game at once (e.g. bandit, pay-line)")
    parser.add_argument("--players", type=int, help="number of players for --game")
    parser.add_argument("--variant", action="append", metavar="V",
                        help="switch a variant on (repeatable; default: the config's [game] variants)")
    parser.add_argument("--mode", choices=("table", "cabinet"), help="table: camera reads; cabinet: Pi deals")
    parser.add_argument("--seed", type=int, help="seed of the game (default: the clock)")
    parser.add_argument("--journal", help="journal file (default: the state directory's)")
    parser.add_argument("--camera", help="camera source: picamera, usb:..., file:..., sim")
    parser.add_argument("--new", action="store_true",
                        help="end the unfinished game (kept in the history as ended) and start anew")
    dev = parser.add_argument_group("testing and demos")
    dev.add_argument("--autoplay", type=int, metavar="SEED", help="a bot presses the buttons")
    dev.add_argument("--fast", action="store_true", help="draw frames without pacing to the screen clock")
    dev.add_argument("--seconds", type=float, help="stop after this many seconds")
    dev.add_argument("--frames", type=int, help="stop after this many frames")
    dev.add_argument("--exit-when-over", action="store_true", help="stop when the game is over")
    dev.add_argument("--transcript", action="store_true", help="print each action once it is on screen")
    parser.set_defaults(func=run)


def build_options(args: argparse.Namespace) -> Any:
    """Turn the command line and the config into :class:`RunOptions` (and a dealer off the Pi)."""
    import dataclasses

    from companion.config import check_camera_source
    from companion.daemon.app import RunOptions
    from companion.daemon.starting import check_start
    from hardware.board import on_raspberry_pi

    config = load_config(args.config)
    on_pi = on_raspberry_pi()
    if args.camera is not None:
        check_camera_source(args.camera)
    camera = args.camera or (config.camera.source if (on_pi or args.config or config.source) else "sim")
    variants = checked_variants(args.variant, args.game)
    if args.game is not None:  # checked before anything opens, let alone the journal
        check_start(args.game, args.mode or config.game.mode,
                    config.game.players if args.players is None else args.players,
                    variants if variants is not None else config.game.variants_for(args.game))
    config = dataclasses.replace(config, camera=dataclasses.replace(config.camera, source=camera))
    headless = args.headless or (not on_pi and not os.environ.get("DISPLAY")
                                 and not os.environ.get("WAYLAND_DISPLAY")
                                 and os.environ.get("SDL_VIDEODRIVER") in (None, "", "kmsdrm"))
    options = RunOptions(
        config=config, keyboard=args.keyboard or not on_pi, headless=headless, game=args.game,
        players=args.players, mode=args.mode, seed=args.seed,
        variants=variants, new=args.new, announce=lambda line: print(line, flush=True),
        journal_path=Path(args.journal) if args.journal else None, fast=args.fast,
        autoplay=args.autoplay, seconds=args.seconds, frames=args.frames,
        exit_when_over=args.exit_when_over,
        transcript=(lambda line: print(line, flush=True)) if args.transcript or headless else None,
    )
    if camera == "sim":
        attach_simulated_table(options, args.seed or 0)
    return options


def checked_variants(variants: list[str] | None, game_id: str | None) -> tuple[str, ...] | None:
    """The ``--variant`` list, checked against the game (or any game when none is given)."""
    if variants is None:
        return None
    from companion.config import known_variants
    from companion.engine import get_game

    known = dict(get_game(game_id).variants) if game_id else known_variants()
    for variant in variants:
        if variant not in known:
            where = get_game(game_id).title if game_id else "any game"
            listed = ", ".join(known) or "none"
            raise UserError(f"'{variant}' is not a variant of {where} (variants: {listed})")
    return tuple(variants)


def attach_simulated_table(options: Any, seed: int, taught: dict[str, Any] | None = None) -> None:
    """Give the daemon a simulated table as its camera and a simulated dealer at it (laying a
    taught deck's pictures for the games in ``taught``)."""
    from companion.simtable.dealer import SimDealer, SimulatedCamera

    camera = SimulatedCamera(seed, taught)
    options.camera_factory = camera
    options.dealer = SimDealer(camera, seed=seed)


def run(args: argparse.Namespace) -> int:
    """Run until stopped; SIGTERM (systemctl stop) ends the loop cleanly."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import logging

    from companion.daemon.app import Daemon

    # Under systemd stderr goes to the journal: `journalctl -u jackpot-companion`.
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")

    try:
        options = build_options(args)
    except ConfigFileError as error:
        return _config_error(args, error)
    if options.headless and args.autoplay is None and args.game is None:
        print("no display: running headless (the transcript follows); `companion demo` plays a game",
              file=sys.stderr)
    daemon = Daemon(options)

    def stop(signum: int, frame: Any) -> None:
        daemon.running = False

    signal.signal(signal.SIGTERM, stop)
    daemon.start()
    return daemon.run()


def _config_error(args: argparse.Namespace, error: ConfigFileError) -> int:
    """Under systemd, show the mistake on the screen until the file is fixed; else the one line."""
    from companion.daemon.startup_error import show_until_fixed, under_systemd

    if not under_systemd() or args.headless:
        raise error
    path = Path(args.config) if args.config else SYSTEM_CONFIG
    try:
        return show_until_fixed(str(error), path)
    except UserError:
        raise error from None  # no screen to show it on: the log line is all there is
