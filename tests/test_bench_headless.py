"""A benchmark that runs the companion in its own process still stops on SIGTERM (``kill PID``):
SDL would otherwise turn the signal into a quit event that the benchmark's loop never reads."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

SCRIPT = """
import os, signal, time
from companion.bench import headless_here
headless_here()
import pygame
pygame.display.init()
pygame.display.set_mode((16, 16))
os.kill(os.getpid(), signal.SIGTERM)
time.sleep(10)
print("still running")
"""


def test_a_headless_benchmark_process_ends_on_sigterm() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SDL_NO_SIGNAL_HANDLERS"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                          timeout=120)
    assert "still running" not in done.stdout
    assert done.returncode == -signal.SIGTERM
