"""``companion bench NAME``: measurements printed as one JSON line per figure."""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
from typing import Any

from companion import bench


def register(subparsers: Any) -> None:
    """Add ``bench`` with one sub-command per module in :mod:`companion.bench`."""
    parser = subparsers.add_parser("bench", help="measure speed and accuracy (JSON lines)")
    inner = parser.add_subparsers(dest="bench", metavar="NAME", required=True)
    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{bench.__name__}.{info.name}")
        sub = inner.add_parser(module.NAME, help=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(func=_runner(module))


def _runner(module: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        for figure in module.run(args):
            print(json.dumps(figure, sort_keys=True), flush=True)
        return 0

    return run
