"""``companion doctor``: checks camera, GPIO, display, audio, state directory and configuration."""

from __future__ import annotations

import argparse
from typing import Any

from companion.doctor import FAIL, run_checks


def register(subparsers: Any) -> None:
    """Add ``doctor``."""
    parser = subparsers.add_parser("doctor", help="check camera, GPIO, display, audio, state dir, config")
    parser.add_argument("--config", help="configuration file (default /etc/jackpot-companion/config.toml)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print one line per check; exit 1 if any check failed."""
    failed = 0
    for check in run_checks(args.config):
        print(check.line(), flush=True)
        failed += check.status == FAIL
    print("all good" if not failed else f"{failed} problem(s): fix the lines marked FAIL and run me again")
    return 1 if failed else 0
