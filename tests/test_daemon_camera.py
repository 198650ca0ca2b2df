"""The camera thread: observations by queue, a lost camera reported and picked up again."""

from __future__ import annotations

import queue
import time
from dataclasses import dataclass
from typing import Any

from companion.daemon.camera import CameraStatus, CameraWorker, Confirmer, VisionUpdate, ZoneReading


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

    def read(self, frame: Any, work: Any = None) -> Any:
        return frame


@dataclass(frozen=True)
class Obs:
    zone: str
    status: str
    card_id: str | None


class CountingTracker:
    def __init__(self, game_id: str, window: int) -> None:
        self.count = 0

    def update(self, reading: Any, game: str | None = None) -> dict[str, Any]:
        self.count += 1
        return {"r0c0": Obs("r0c0", "stable", f"{reading}{self.count}")}


def collect(q: queue.Queue[object], wanted: int) -> list[object]:
    out: list[object] = []
    while len(out) < wanted:
        out.append(q.get(timeout=300))
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
    worker = CameraWorker(factory, "bandit", q.put, max_fps=0, backoff=(0.01, 0.05), confirm=1,
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
    assert updates[0].observations["r0c0"] == ZoneReading("r0c0", "changed", "frame1")
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
    first = q.get(timeout=300)
    deadline = time.monotonic() + 300  # a give-up guard only: a loaded machine is slow
    while len(calls) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    worker.stop()
    assert len(calls) >= 3
    assert isinstance(first, CameraStatus) and not first.ok and "picamera2" in first.message
    assert q.empty()  # not repeated while it stays down


def test_a_card_counts_only_after_several_agreeing_frames_in_a_row() -> None:
    confirmer = Confirmer(3)
    seen = [Obs("r0c0", "changed", "bar"), Obs("r0c0", "stable", "bar"), Obs("r0c0", "unsure", None),
            Obs("r0c0", "stable", "bar"), Obs("r0c0", "stable", "bar"), Obs("r0c0", "stable", "bar"),
            Obs("r0c0", "stable", "bar")]
    statuses = [confirmer.update({"r0c0": obs})["r0c0"].status for obs in seen]
    assert statuses == ["settling", "settling", "unsure", "settling", "settling", "changed", "stable"]


def test_a_damaged_taught_picture_is_left_out_and_named_not_a_camera_lost(
    tmp_path: Any, monkeypatch: Any
) -> None:
    # One damaged picture (copied in by hand, a failing card) used to stop the reader from
    # loading at all: "camera not available" and no card read, printed ones included.
    import cv2

    from vision.taught_scene import synthetic_face

    store = tmp_path / "enrolled" / "bandit"
    (store / "cherry").mkdir(parents=True)
    (store / "plum").mkdir(parents=True)
    assert cv2.imwrite(str(store / "cherry" / "1.png"), synthetic_face(10))
    (store / "plum" / "1.png").write_bytes(b"cut short")
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    q: queue.Queue[object] = queue.Queue()
    worker = CameraWorker(
        lambda: FlakySource(0), "bandit", q.put, backoff=(0.01, 0.02), tracker=CountingTracker
    )
    worker.start()
    try:
        first = q.get(timeout=300)
    finally:
        worker.stop()
    assert isinstance(first, CameraStatus) and first.ok, first
    assert "teach Plum again" in first.message
