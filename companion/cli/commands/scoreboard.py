"""``companion scoreboard``: the night's scores on every phone at the table (a read-only web page).

Its own process (``systemd/jackpot-scoreboard.service``): it reads the journal read-only and
never imports the daemon, so the companion plays on when the scoreboard is stopped or crashed.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from companion.errors import UserError


def register(subparsers: Any) -> None:
    """Add ``scoreboard``."""
    parser = subparsers.add_parser("scoreboard",
                                   help="serve the night's scores to phones on the LAN (read-only)")
    parser.add_argument("--config", help="configuration file ([scoreboard] and [journal])")
    parser.add_argument("--journal", help="journal file (default: the state directory's)")
    parser.add_argument("--host", help="address to listen on (default: [scoreboard] host, 0.0.0.0)")
    parser.add_argument("--port", type=int, help="port (default: [scoreboard] port, 8080)")
    parser.add_argument("--check-enabled", action="store_true",
                        help="only say whether [scoreboard] enabled is true (exit 0) or not (exit 1); "
                             "the service's start condition")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    from companion.config import load_config
    from companion.journal import default_journal_path

    config = load_config(args.config)
    if args.check_enabled:
        if config.scoreboard.enabled:
            return 0
        print("the scoreboard is off: set enabled = true under [scoreboard] in "
              f"{config.source or '/etc/jackpot-companion/config.toml'} to serve it", file=sys.stderr)
        return 1
    host = args.host or config.scoreboard.host
    port = config.scoreboard.port if args.port is None else args.port
    if not 0 < port < 65536:
        raise UserError(f"--port must be between 1 and 65535, not {port}")
    journal = Path(args.journal) if args.journal else (config.journal_path or default_journal_path())
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from companion.scoreboard.address import addresses
    from companion.scoreboard.server import make_server

    try:
        server = make_server(journal, host, port)
    except OSError as error:
        raise UserError(f"cannot listen on {host}:{port} ({error.strerror or error}); "
                        "choose another --port or [scoreboard] port") from None
    print(f"scoreboard: {journal} served on {server.url()}", flush=True)
    for url in addresses(port, host):
        print(f"  open {url}", flush=True)
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        server.board.stop()
    return 0
