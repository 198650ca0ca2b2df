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


def headless_here() -> None:
    """Run this process's companion headless: SDL's dummy drivers (no screen or sound card
    needed), no pygame banner, and SIGTERM left to end the process (SDL otherwise turns it into
    a quit event that a benchmark's loop never reads, and ``kill`` does not stop the bench)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
