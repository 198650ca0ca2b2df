"""The camera thread: observations by queue, a lost camera reported and picked up again."""

from __future__ import annotations

import queue
import time
from dataclasses import dataclass
from typing import Any

from companion.daemon.camera import CameraStatus, CameraWorker, VisionUpdate


@dataclass
class FlakySource:
    """Gives ``frames`` frames, then None (the cable came loose)."""

    frames: int

    def read(self) -> Any:
        if self.frames <= 0:
            return None
        self.frames -= 1
        return "frame"

    def close(self) -> None:
        pass


class EchoReader:
    def __init__(self, game_id: str) -> None:
        self.game_id = game_id

    def read(self, frame: Any) -> Any:
        return frame


class CountingTracker:
    def __init__(self, window: int) -> None:
        self.count = 0

    def update(self, reading: Any) -> dict[str, Any]:
        self.count += 1
        return {"r0c0": (reading, self.count)}


def collect(q: queue.Queue[object], wanted: int) -> list[object]:
    out: list[object] = []
    while len(out) < wanted:
        out.append(q.get(timeout=10))
    return out


def test_frames_become_observations_and_a_lost_camera_reconnects() -> None:
    opened: list[FlakySource] = []

    def factory() -> FlakySource:
        if len(opened) == 1:
            opened.append(FlakySource(0))
            raise OSError("no camera on the bus")  # the second attempt fails: backoff, retry
        source = FlakySource(2)
        opened.append(source)
        return source

    q: queue.Queue[object] = queue.Queue()
    worker = CameraWorker(factory, "bandit", q.put, max_fps=0, backoff=(0.01, 0.05),
                          reader=EchoReader, tracker=CountingTracker)
    worker.start()
    try:
        items = collect(q, 7)
    finally:
        worker.stop()
    kinds = [type(item).__name__ for item in items]
    assert kinds[:5] == ["CameraStatus", "VisionUpdate", "VisionUpdate", "CameraStatus", "CameraStatus"]
    statuses = [item for item in items if isinstance(item, CameraStatus)]
    assert [s.ok for s in statuses[:3]] == [True, False, True]
    assert "lost" in statuses[1].message
    updates = [item for item in items if isinstance(item, VisionUpdate)]
    assert updates[0].observations["r0c0"] == ("frame", 1)
    assert updates[0].read_at >= updates[0].frame_at


def test_a_camera_that_never_opens_is_reported_once_and_retried() -> None:
    calls = []

    def factory() -> FlakySource:
        calls.append(1)
        raise RuntimeError("picamera2 is not installed")

    q: queue.Queue[object] = queue.Queue()
    worker = CameraWorker(factory, "bandit", q.put, backoff=(0.01, 0.02), reader=EchoReader,
                          tracker=CountingTracker)
    worker.start()
    first = q.get(timeout=10)
    deadline = time.monotonic() + 10
    while len(calls) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    worker.stop()
    assert len(calls) >= 3
    assert isinstance(first, CameraStatus) and not first.ok and "picamera2" in first.message
    assert q.empty()  # not repeated while it stays down
