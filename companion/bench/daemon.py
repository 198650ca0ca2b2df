"""``companion bench daemon``: how quickly the companion answers, starts, and how much memory it holds.

Figures (one JSON line each):

- ``button_to_screen_ms``: a gpiozero mock pin is pressed on another thread (as the GPIO
  callback thread does on a Pi) while the real loop runs paced at 60 fps; the latency is from
  the press to the end of the first frame whose view shows its effect (a held column). Median
  and p95.
- ``camera_frame_to_observation_ms``: Bandit in table mode on the simulated table: from the
  moment a frame was captured (when the simulated table had rendered it: its rendering is not
  the companion's time) to the moment the flow saw the observation it produced (vision on the
  camera thread + the queue). A card to the screen, as a player sees it: ``bench latency``.
- ``cold_start_to_first_frame_s``: a fresh ``companion run`` process to its first drawn frame.
- ``resident_memory_mb``: peak resident memory of a ``companion run`` process playing Bandit in
  table mode (camera thread and vision included) with a file camera (a picture of the table, as
  a real camera: the figure that matters on a Pi) and with the simulated table, and in cabinet
  mode.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

NAME = "daemon"
HELP = "button-to-screen and camera-to-observation latency, cold start, memory"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: how many presses, how long the camera run lasts."""
    parser.add_argument("--presses", type=int, default=40, help="button presses to time (default 40)")
    parser.add_argument("--camera-seconds", type=float, default=8.0, help="seconds of table play to time")
    parser.add_argument("--seed", type=int, default=1)


def _stats(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"samples": 0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"samples": len(values), "median": round(statistics.median(values), 2), "p95": round(p95, 2),
            "max": round(ordered[-1], 2)}


def _env() -> dict[str, str]:
    return {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}


def button_to_screen(presses: int, seed: int) -> dict[str, Any]:
    """Press a mock pin at random moments while the paced loop runs; time to the changed frame."""
    return {"figure": "button_to_screen_ms", "fps": 60, **_stats(press_latencies(presses, seed))}


def press_latencies(presses: int, seed: int) -> list[float]:
    """Milliseconds from each mock-pin press to the end of the first frame that shows it."""
    import pygame
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    from companion.daemon.app import Daemon, RunOptions
    from hardware.events import PULL, InputEvent

    factory = MockFactory()
    with tempfile.TemporaryDirectory() as tmp:
        daemon = Daemon(RunOptions(headless=True, game="bandit", mode="cabinet", seed=seed,
                                   journal_path=Path(tmp) / "j.sqlite", pin_factory=factory))
        daemon.start()
        daemon.dispatch(InputEvent("lever", PULL, time.monotonic()))
        for _ in range(15):
            daemon.step()
        pin = factory.pin(daemon.panel.config.hold1)
        pressed: list[float] = []
        changes: list[float] = []
        done = threading.Event()
        rng = random.Random(seed)

        def presser() -> None:
            for _ in range(presses):
                time.sleep(rng.uniform(0.08, 0.2))
                pressed.append(time.monotonic())
                pin.drive_low()
                time.sleep(0.05)
                pin.drive_high()
            time.sleep(0.1)
            done.set()

        thread = threading.Thread(target=presser, daemon=True)
        clock = pygame.time.Clock()
        last = None
        thread.start()
        while not done.is_set():
            daemon.step()
            view = daemon.view
            held = getattr(getattr(view, "reels", None), "held", None)
            if last is not None and held != last:
                changes.append(daemon.last_drawn_at)
            last = held
            clock.tick(60)
        thread.join()
        daemon.close()
    latencies = []
    for t0 in pressed:
        after = [t for t in changes if t >= t0]
        if after:
            latencies.append((after[0] - t0) * 1000)
    return latencies


def camera_to_observation(seconds: float, seed: int) -> list[dict[str, Any]]:
    """Bandit table mode on the simulated table: frame capture to the flow seeing it."""
    from companion.cli.commands.run import attach_simulated_table
    from companion.daemon.app import Daemon, RunOptions

    with tempfile.TemporaryDirectory() as tmp:
        options = RunOptions(headless=True, game="bandit", mode="table", seed=seed, autoplay=seed,
                             journal_path=Path(tmp) / "j.sqlite", seconds=seconds, use_gpio=False)
        attach_simulated_table(options, seed)
        daemon = Daemon(options)
        daemon.start()
        daemon.run()
        total = [(handled - captured) * 1000 for captured, handled in daemon.vision_latency]
        reveals = daemon.flow.session.version if daemon.flow is not None else 0
    if not total:
        return [{"figure": "camera_frame_to_observation_ms", "error": "no observation reached the flow: "
                 + daemon.camera_message}]
    return [{"figure": "camera_frame_to_observation_ms", "seconds": seconds, "observations": len(total),
             "reveals": reveals, **_stats(total)}]


def cold_start(seed: int) -> dict[str, Any]:
    """Spawn ``companion run`` and time it to the first frame it draws."""
    with tempfile.TemporaryDirectory() as tmp:
        started = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--headless", "--game", "bandit", "--mode", "cabinet",
             "--seed", str(seed), "--frames", "2", "--transcript", "--keyboard", "--journal",
             str(Path(tmp) / "j.sqlite")],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=_env())
        first = None
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("first frame") and first is None:
                first = time.monotonic() - started
        process.wait(timeout=60)
    return {"figure": "cold_start_to_first_frame_s", "value": round(first, 3) if first else None}


def resident_memory(mode: str, seconds: float, seed: int, camera: str = "sim") -> dict[str, Any]:
    """Peak resident memory of a ``companion run`` process playing for ``seconds``.

    ``camera`` ``file``: a picture of the simulated table saved as a PNG, read as a real camera's
    frames are (without the simulator's own memory in the process); ``sim``: the simulated table.
    """
    with tempfile.TemporaryDirectory() as tmp:
        spec = "sim"
        if camera == "file":
            spec = f"file:{_table_picture(Path(tmp), seed)}"
        process = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--headless", "--game", "bandit", "--mode", mode,
             "--seed", str(seed), "--autoplay", str(seed), "--seconds", str(seconds), "--keyboard",
             "--camera", spec, "--journal", str(Path(tmp) / "j.sqlite")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env())
        peak = 0
        while process.poll() is None:
            try:
                status = Path(f"/proc/{process.pid}/status").read_text()
            except OSError:
                break
            for line in status.splitlines():
                if line.startswith("VmRSS:"):
                    peak = max(peak, int(line.split()[1]))
            time.sleep(0.1)
        process.wait(timeout=60)
    figure = {"figure": "resident_memory_mb", "mode": mode, "peak": round(peak / 1024, 1)}
    return {**figure, "camera": camera} if mode == "table" else figure


def _table_picture(folder: Path, seed: int) -> Path:
    """A 1280x720 picture of Bandit's mat with a dealt row, as a file camera's source."""
    import cv2

    from vision.simulated import SimulatedTable

    table = SimulatedTable("bandit", seed=seed)
    for zone, card in (("r0c0", "cherry"), ("r0c1", "bell"), ("r0c2", "plum")):
        table.place(zone, card)
    path = folder / "table.png"
    cv2.imwrite(str(path), table.frame())
    return path


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """Every figure, one dict each."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    yield button_to_screen(args.presses, args.seed)
    yield from camera_to_observation(args.camera_seconds, args.seed)
    yield cold_start(args.seed)
    yield resident_memory("table", args.camera_seconds, args.seed, camera="file")
    yield resident_memory("table", args.camera_seconds, args.seed)
    yield resident_memory("cabinet", 4.0, args.seed)
