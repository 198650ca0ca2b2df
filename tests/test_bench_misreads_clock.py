"""``bench misreads``' players count their patience in camera frames, not in wall seconds, so a
loaded machine (fewer frames a second) does not make them re-place cards sooner."""

from __future__ import annotations

from typing import Any

from companion.bench.misreads import CAMERA_FPS, FrameClockDealer, RoughTable


class Dealer:
    def __init__(self) -> None:
        self.times: list[float] = []

    def update(self, daemon: Any, now: float) -> None:
        self.times.append(now)


class Camera:
    def __init__(self) -> None:
        self.tables: dict[str, Any] = {}


def test_the_dealer_is_told_the_time_the_camera_frames_make() -> None:
    dealer, camera = Dealer(), Camera()
    clocked = FrameClockDealer(dealer, camera, "bandit")
    clocked.update(None, 1000.0)  # the camera has not opened the table yet
    table = camera.tables["bandit"] = RoughTable("bandit", seed=1)
    for _ in range(3):
        table.read()
    clocked.update(None, 5000.0)  # however much wall time went by
    assert dealer.times == [0.0, 3 / CAMERA_FPS]
