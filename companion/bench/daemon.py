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
- ``table_game_cpu_share``: a whole Bandit game in table mode with the camera at 30 fps (the
  simulated table rendered and dealt outside the count): the daemon's share of one core; with
  ``table_game_vision_ms``, what vision costs per frame in the daemon during that game.
- ``cold_start_to_first_frame_s``: a fresh ``companion run`` process to its first drawn frame,
  wall clock and CPU (``cpu_s``: interpreter start and imports included), in cabinet mode and in
  table mode with a file camera.
- ``resident_memory_mb``: peak resident memory of a ``companion run`` process playing Bandit in
  table mode (camera thread and vision included) with a file camera (a picture of the table, as
  a real camera: the figure that matters on a Pi) and with the simulated table, and in cabinet
  mode.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.bench import child_env, headless_here

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


class PacedTable:
    """The simulated table delivered as a camera delivers: ``read`` waits for the next tick of
    ``fps`` (a ``paced`` source, read as fast as it delivers), stamps the frame at capture, and
    adds the CPU its own rendering took to ``rendering`` (the simulator's time, not the daemon's).
    Everything else (``place``, ``cards``, ...) is the table's, for the dealer."""

    paced = True

    def __init__(self, table: Any, fps: float, rendering: list[float]) -> None:
        self.table = table
        self.rendering = rendering
        self.captured_at = 0.0
        self._period = 1.0 / fps
        self._next = time.monotonic()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)

    def read(self) -> Any:
        """The next frame, no sooner than the camera's next tick."""
        now = time.monotonic()
        if self._next > now:
            time.sleep(self._next - now)
        self._next = max(self._next + self._period, time.monotonic() - self._period)
        cpu = time.thread_time()
        frame = self.table.read()
        self.rendering.append(time.thread_time() - cpu)
        self.captured_at = time.monotonic()
        return frame


def table_game_cpu(seed: int, fps: float = 30.0, limit: float = 600.0) -> list[dict[str, Any]]:
    """A whole Bandit game in table mode, the camera at ``fps``: the daemon's share of one core,
    and vision's CPU per frame as the daemon's camera thread spends it.

    The simulated table is rendered inside the camera's ``read`` and the simulated dealer plays
    inside the main loop: both are timed (thread CPU) and taken off the process's CPU, so the
    share is the companion's own (screen at 60 fps, camera thread, flow, journal, sound; the
    autoplay bot at the buttons stays in: it is a few calls per frame).
    """
    from companion.daemon.app import Daemon, RunOptions
    from companion.daemon.camera import VisionUpdate
    from companion.simtable.dealer import SimDealer, SimulatedCamera

    rendering: list[float] = []
    dealing: list[float] = []
    vision: list[float] = []

    class Camera(SimulatedCamera):
        def __call__(self, game_id: str) -> Any:
            if game_id not in self.tables:
                from vision.simulated import SimulatedTable

                self.tables[game_id] = PacedTable(SimulatedTable(game_id, seed=self.seed), fps, rendering)
            return self.tables[game_id]

    class TimedDealer(SimDealer):
        def update(self, daemon: Any, now: float) -> None:
            started = time.thread_time()
            try:
                super().update(daemon, now)
            finally:
                dealing.append(time.thread_time() - started)

    with tempfile.TemporaryDirectory() as tmp:
        camera = Camera(seed)
        options = RunOptions(headless=True, game="bandit", mode="table", seed=seed, autoplay=seed,
                             journal_path=Path(tmp) / "j.sqlite", seconds=limit, use_gpio=False,
                             exit_when_over=True, camera_factory=camera,
                             dealer=TimedDealer(camera, seed=seed))
        cpu_at, wall_at = time.process_time(), time.monotonic()
        daemon = Daemon(options)
        daemon.start()
        dispatch = daemon.dispatch

        def timed_dispatch(item: object) -> None:
            if isinstance(item, VisionUpdate) and item.mat_found:
                vision.append(item.vision_cpu * 1000)
            dispatch(item)

        daemon.dispatch = timed_dispatch  # type: ignore[method-assign]
        daemon.run()
        cpu, wall = time.process_time() - cpu_at, time.monotonic() - wall_at
        flow = daemon.flow
        over = bool(flow is not None and flow.over)
        cards = flow.session.version if flow is not None else 0
        drawn = daemon.frames
    own = cpu - sum(rendering) - sum(dealing)
    seen = sum(vision) / 1000
    # A loaded machine delivers fewer frames than asked (both clocks wait on the wall): the share
    # at the rates asked for, from the CPU per camera frame and per screen frame actually spent.
    nominal = seen / max(1, len(vision)) * fps + (own - seen) / max(1, drawn) * 60
    return [
        {"figure": "table_game_cpu_share", "game": "bandit", "camera_fps": fps, "game_over": over,
         "wall_s": round(wall, 1), "camera_frames": len(rendering), "screen_frames": drawn,
         "engine_actions": cards, "percent_of_one_core": round(100 * own / max(1e-9, wall), 1),
         "percent_at_full_rates": round(100 * nominal, 1),
         "simulator_excluded_s": round(sum(rendering) + sum(dealing), 1),
         "how": "process CPU minus the simulated table's rendering and dealer (thread CPU), over wall "
                "time, for one whole game with the camera at its rate and the screen at 60 fps; "
                "at_full_rates: vision CPU per frame x camera fps + the rest per screen frame x 60"},
        {"figure": "table_game_vision_ms", **_stats(vision),
         "how": "CPU of the camera thread's reader + tracker per 1280x720 frame, during that game"},
    ]


def cold_start(seed: int, mode: str = "cabinet", camera: str = "") -> dict[str, Any]:
    """Spawn ``companion run`` and time it to the first frame it draws: wall clock, and the CPU
    the process spent by then (interpreter start and imports included), as the daemon reports it.
    ``camera``: a ``--camera`` spec for table mode (``file:`` a picture, as a real camera)."""
    with tempfile.TemporaryDirectory() as tmp:
        extra = ["--camera", camera] if camera else []
        if camera == "file":
            extra = ["--camera", f"file:{_table_picture(Path(tmp), seed)}"]
        started = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--headless", "--game", "bandit", "--mode", mode,
             "--seed", str(seed), "--frames", "2", "--transcript", "--keyboard", "--journal",
             str(Path(tmp) / "j.sqlite"), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=child_env())
        first = cpu = None
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("first frame") and first is None:
                first = time.monotonic() - started
                found = re.search(r"\(([0-9.]+) s CPU\)", line)
                cpu = float(found.group(1)) if found else None
        process.wait(timeout=60)
    figure = {"figure": "cold_start_to_first_frame_s", "mode": mode,
              "value": round(first, 3) if first else None, "cpu_s": cpu}
    return {**figure, "camera": camera} if mode == "table" else figure


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
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=child_env())
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
    headless_here()
    yield button_to_screen(args.presses, args.seed)
    yield from camera_to_observation(args.camera_seconds, args.seed)
    yield from table_game_cpu(args.seed)
    yield cold_start(args.seed)
    yield cold_start(args.seed, "table", camera="file")
    yield resident_memory("table", args.camera_seconds, args.seed, camera="file")
    yield resident_memory("table", args.camera_seconds, args.seed)
    yield resident_memory("cabinet", 4.0, args.seed)
