"""The daemon's camera thread reads the faces a group taught, beside printed marker cards."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import pytest

from companion.daemon.camera import CameraWorker, VisionUpdate
from vision.enrolled import EnrolledDeck
from vision.simulated import SimulatedTable
from vision.taught_scene import scene_style, synthetic_face


def _read_until(table: SimulatedTable, zones: set[str]) -> dict[str, str | None]:
    """The card id the daemon's camera thread last named in each zone of ``table``, read until
    every one of ``zones`` has been named."""
    updates: queue.Queue[object] = queue.Queue()
    worker = CameraWorker(lambda: table, "bandit", updates.put, max_fps=0, confirm=1)
    worker.start()
    seen: dict[str, str | None] = {}
    deadline = time.monotonic() + 600  # a give-up guard only
    try:
        while time.monotonic() < deadline and not all(seen.get(zone) for zone in zones):
            item = updates.get(timeout=300)
            if isinstance(item, VisionUpdate):
                for zone, observation in item.observations.items():
                    if observation.card_id:
                        seen[zone] = observation.card_id
    finally:
        worker.stop()
    return seen


def test_the_camera_thread_reads_taught_cards_into_zones_beside_printed_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))  # the daemon's default store
    # Cards with a coloured ground: the simulated table draws no shadow, so a white card on the
    # white mat would have no edge at all (a real one casts a thin shadow).
    cream, blue = (150, 205, 235), (215, 170, 120)
    deck = EnrolledDeck("bandit", tmp_path / "enrolled")
    deck.keep("cherry", synthetic_face(1, paper=cream))
    deck.keep("bell", synthetic_face(2, paper=blue))
    table = SimulatedTable("bandit", seed=31, style=scene_style(31, "wood", card_px=120, tilt=10))
    assert table.layout is not None
    spot = table.layout.zone("r1c1")
    table.place_art(synthetic_face(1, paper=cream), (spot.x + spot.w / 2, spot.y + spot.h / 2), 4.0)
    table.place("r0c1", "plum")  # a printed marker card on the same mat
    seen = _read_until(table, {"r1c1", "r0c1"})
    assert seen.get("r1c1") == "cherry" and seen.get("r0c1") == "plum"
    assert set(seen) == {"r1c1", "r0c1"}


def test_the_camera_thread_tells_faces_of_one_art_apart_by_their_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A deck printing one symbol's art with two numbers (a cherry two and a cherry three, as
    # Jackpot Payout's grapes worth 2 and 3 coins), both taught: laid on the mat, each is read
    # as its own face in its zone (the features line both pictures up alike; the corner index
    # tells them apart, vision.face_features' ``shared``).
    import cv2

    from vision.deck_styles import FACE_H, FACE_W, deck_faces, render_face

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    art = {face.number: render_face(face) for face in deck_faces("full_bleed")}
    assert art[2].shape[:2] == (FACE_H, FACE_W)
    deck = EnrolledDeck("bandit", tmp_path / "enrolled")
    deck.keep("cherry", cv2.resize(art[2], (200, 280), interpolation=cv2.INTER_AREA))
    deck.keep("plum", cv2.resize(art[3], (200, 280), interpolation=cv2.INTER_AREA))
    table = SimulatedTable("bandit", seed=32, style=scene_style(32, "wood", card_px=130, tilt=8))
    assert table.layout is not None
    for zone, number, turn in (("r1c1", 3, 3.0), ("r1c2", 2, -5.0)):
        spot = table.layout.zone(zone)
        table.place_art(art[number], (spot.x + spot.w / 2, spot.y + spot.h / 2), turn)
    seen = _read_until(table, {"r1c1", "r1c2"})
    assert seen == {"r1c1": "plum", "r1c2": "cherry"}
