"""Benchmarks for ``companion bench NAME``.

Each module here exposes ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> Iterable[dict]``; every dict is printed as one JSON line. Benchmarks measure;
tests never assert on time.
"""

import os


def child_env() -> dict[str, str]:
    """The environment for a companion a benchmark starts as a child process: SDL's dummy
    drivers (no screen or sound card needed) and unbuffered output (lines arrive as printed)."""
    return {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
