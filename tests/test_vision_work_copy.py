"""The camera's small copy of a frame (a Pi's lores stream) used by the outline search."""

from __future__ import annotations

import math
import queue
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.daemon.camera import CameraWorker
from vision.camera import HIGHLIGHT_CONSTRAINT, PiCameraSource
from vision.card_checks import iou
from vision.card_outlines import WORK_PIXELS, find_card_candidates, shrink, work_scale
from vision.simulated import SimulatedTable
from vision.taught_scene import lay_out, synthetic_face
from vision.work_copy import reduced, work_copy, work_size


def _table() -> np.ndarray:
    return lay_out([synthetic_face(seed) for seed in (1, 2, 3)], 41).frame()


def _own_copy(frame: np.ndarray) -> np.ndarray:
    return shrink(frame, math.sqrt(WORK_PIXELS / (frame.shape[0] * frame.shape[1])))


def test_the_searchs_own_copy_given_finds_the_same_outlines() -> None:
    frame = _table()
    alone, given = find_card_candidates(frame), find_card_candidates(frame, work=_own_copy(frame))
    assert len(alone) == len(given) == 3
    for a, b in zip(alone, given, strict=True):
        assert np.array_equal(a.quad, b.quad) and (a.sure, a.whole) == (b.sure, b.whole)


def test_the_copy_given_is_what_is_searched() -> None:
    frame = _table()
    blank = np.full_like(_own_copy(frame), 90)  # a copy of an empty table: nothing to find
    assert find_card_candidates(frame, work=blank) == []
    assert len(find_card_candidates(frame)) == 3


def test_a_cameras_copy_of_its_own_size_finds_the_cards_where_they_lie() -> None:
    frame = _table()
    work = reduced(frame)
    assert work.shape == (288, 512, 3)
    alone, given = find_card_candidates(frame), find_card_candidates(frame, work=work)
    assert len(given) == 3
    # Corners come back in the frame's pixels at the copy's own scale (0.4, not the search's).
    assert all(max(iou(a.quad, b.quad) for b in given) > 0.95 for a in alone)


@pytest.mark.parametrize("shape", [(288, 600, 3), (720, 1280, 3), (100, 178, 3)])
def test_a_copy_of_another_shape_or_size_is_not_used(shape: tuple[int, int, int]) -> None:
    assert work_scale(np.zeros(shape, np.uint8), (720, 1280, 3)) is None
    frame = _table()
    assert len(find_card_candidates(frame, work=np.full(shape, 90, np.uint8))) == 3


def test_work_sizes_suit_the_isp_and_the_search() -> None:
    for size in ((1280, 720), (1920, 1080), (640, 480)):
        w, h = work_size(size)
        assert w % 64 == 0 and h % 2 == 0
        assert work_scale(np.zeros((h, w), np.uint8), (size[1], size[0])) is not None


class _FakePicamera2:
    """picamera2's calls as the Pi camera source makes them; frames of one grey level, the
    lores stream a YUV420 (I420) buffer of a different one."""

    def __init__(self, lores: bool = True, controls: tuple[str, ...] = ("AeConstraintMode",)) -> None:
        self.config: dict[str, Any] = {}
        self.lores = lores
        self.camera_controls = {name: (0, 3, 0) for name in controls}
        self.controls: dict[str, Any] = {}
        self.started_with: dict[str, Any] | None = None

    def set_controls(self, controls: dict[str, Any]) -> None:
        unknown = set(controls) - set(self.camera_controls)
        if unknown:
            raise RuntimeError(f"Control {unknown.pop()} is not advertised by libcamera")
        self.controls.update(controls)

    def create_video_configuration(self, **config: Any) -> dict[str, Any]:
        if "lores" in config and not self.lores:
            raise RuntimeError("lores stream not supported")
        return config

    def capture_array(self) -> np.ndarray:
        w, h = self.config["main"]["size"]
        return np.full((h, w, 4), 60, np.uint8)

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        self.started_with = dict(self.controls)

    def capture_arrays(self, names: list[str]) -> tuple[list[np.ndarray], dict[str, Any]]:
        assert names == ["main", "lores"]
        w, h = self.config["main"]["size"]
        lw, lh = self.config["lores"]["size"]
        lores = np.full((lh * 3 // 2, lw), 128, np.uint8)
        lores[:lh] = 200  # Y; U and V neutral
        return [np.full((h, w, 4), 60, np.uint8), lores], {}

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_the_pi_camera_delivers_its_lores_stream_as_the_work_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    camera = _FakePicamera2()
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=lambda: camera))
    monkeypatch.setitem(sys.modules, "libcamera", None)  # no libcamera: the default colour space
    source = PiCameraSource()
    assert camera.config["lores"] == {"size": (512, 288), "format": "YUV420"}
    frame = source.read()
    assert frame is not None and frame.shape == (720, 1280, 3)
    work = work_copy(source)
    assert work is not None and work.shape == (288, 512, 3)
    # Limited-range Y 200 with neutral U, V: grey (200 - 16) * 255 / 219 = 214.
    assert np.abs(work.astype(int) - 214).max() <= 2


def test_the_simulated_camera_makes_its_work_copy_itself() -> None:
    table = SimulatedTable("bandit", seed=3)
    frame = table.read()
    work = work_copy(table)
    assert frame is not None and work is not None
    assert np.array_equal(work, reduced(frame))
    table.close()
    assert table.read() is None and work_copy(table) is None


class _Source:
    def __init__(self) -> None:
        self.work: np.ndarray | None = None

    def read(self) -> Any:
        self.work = np.zeros((2, 2, 3), np.uint8)
        return "frame"

    def close(self) -> None:
        pass


class _Reader:
    given: list[Any] = []

    def __init__(self, game_id: str) -> None:
        pass

    def read(self, frame: Any, work: Any = None) -> Any:
        _Reader.given.append(work)
        return frame


class _Tracker:
    def __init__(self, game_id: str, window: int) -> None:
        pass

    def update(self, reading: Any, game: str | None = None) -> dict[str, Any]:
        return {}


def test_the_camera_thread_hands_the_reader_the_sources_work_copy() -> None:
    q: queue.Queue[object] = queue.Queue()
    worker = CameraWorker(_Source, "bandit", q.put, max_fps=0, confirm=1, reader=_Reader, tracker=_Tracker)
    worker.start()
    try:
        while not _Reader.given:
            q.get(timeout=60)
    finally:
        worker.stop()
    assert isinstance(_Reader.given[0], np.ndarray) and _Reader.given[0].shape == (2, 2, 3)


def test_outlines_are_placed_on_the_grey_the_caller_made_once() -> None:
    import cv2

    from vision.card_checks import refine_many_in_frame

    frame = _table()
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    quads = [o.quad + 2.0 for o in find_card_candidates(frame)]  # a little off: to be placed
    alone = refine_many_in_frame(frame, quads, 0.025)
    given = refine_many_in_frame(frame, quads, 0.025, grey=grey)
    assert all(np.array_equal(a, b) for a, b in zip(alone, given, strict=True))
    # The grey given is what is looked at (an empty table's: the sides find no edge to move to).
    blank = refine_many_in_frame(frame, quads, 0.025, grey=np.full_like(grey, 90))
    assert all(np.allclose(q, b) for q, b in zip(quads, blank, strict=True))
    assert not all(np.allclose(q, a) for q, a in zip(quads, alone, strict=True))


def test_the_reader_searches_the_copy_it_is_handed(tmp_path: Path) -> None:
    from vision.enrolled import EnrolledDeck
    from vision.reader import CardReader

    deck = EnrolledDeck("bandit", tmp_path)
    deck.keep("cherry", synthetic_face(1))
    frame = _table()
    blank = np.full_like(_own_copy(frame), 90)
    assert CardReader("bandit", use_mat=False, enrolled=deck).read(frame).cards
    assert CardReader("bandit", use_mat=False, enrolled=deck).read(frame, blank).cards == []


def test_a_pi_camera_without_a_lores_stream_still_gives_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """An older camera stack refusing the second stream: the frame alone, the reader reduces it."""
    camera = _FakePicamera2(lores=False)
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=lambda: camera))
    monkeypatch.setitem(sys.modules, "libcamera", None)
    source = PiCameraSource()
    assert "lores" not in camera.config
    frame = source.read()
    assert frame is not None and frame.shape == (720, 1280, 3) and work_copy(source) is None


@pytest.mark.parametrize("lores", [True, False])
def test_the_pi_camera_exposes_so_that_white_cards_do_not_clip(
    monkeypatch: pytest.MonkeyPatch, lores: bool
) -> None:
    """The cards' paper is the brightest thing on the table: the camera starts with libcamera's
    highlight constraint (ConstraintHighlight), with or without the lores stream."""
    camera = _FakePicamera2(lores=lores)
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=lambda: camera))
    monkeypatch.setitem(sys.modules, "libcamera", None)
    PiCameraSource()
    assert camera.started_with == {"AeConstraintMode": HIGHLIGHT_CONSTRAINT} and HIGHLIGHT_CONSTRAINT == 1


class _RefusingPicamera2(_FakePicamera2):
    """A camera stack that advertises the exposure control but refuses the value."""

    def set_controls(self, controls: dict[str, Any]) -> None:
        raise RuntimeError("value out of range")


@pytest.mark.parametrize("offers", [False, True])
def test_a_pi_camera_without_the_exposure_control_still_opens(
    monkeypatch: pytest.MonkeyPatch, offers: bool
) -> None:
    """A camera stack that does not offer AeConstraintMode, or refuses it, keeps its default
    exposure and gives frames: the control is a help, never a reason the camera cannot open."""
    camera = _RefusingPicamera2() if offers else _FakePicamera2(controls=())
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=lambda: camera))
    monkeypatch.setitem(sys.modules, "libcamera", None)
    source = PiCameraSource()
    assert camera.started_with == {}
    frame = source.read()
    assert frame is not None and frame.shape == (720, 1280, 3)
