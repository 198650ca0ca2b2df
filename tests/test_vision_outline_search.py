"""The plain outline search (every camera frame) on whole single cards: a card whose paper
touches light specks of the table."""

from __future__ import annotations

import contextlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from vision.card_outlines import find_card_candidates
from vision.label_boxes import box_iou, box_of
from vision.taught_scene import synthetic_face

PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "realcards" / "photos"


def tufted_card(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A 378x504 photo of one card on a dark table strewn with light tufts, a web of them
    touching the card's paper all round by threads a pixel or two wide; the card's corners."""
    rng = np.random.default_rng(seed)
    h, w = 504, 378
    frame = np.full((h, w, 3), (40, 60, 90), np.uint8)
    corners = np.array([[130, 180], [250, 180], [250, 348], [130, 348]], np.float32)
    art = np.array([[0, 0], [199, 0], [199, 279], [0, 279]], np.float32)
    warp = cv2.getPerspectiveTransform(art, corners)
    card = cv2.warpPerspective(synthetic_face(seed), warp, (w, h))
    inside = cv2.warpPerspective(np.full((280, 200), 255, np.uint8), warp, (w, h)) > 127
    frame = np.where(inside[..., None], card, frame)
    # Thin printed lines run from the art to the card's edge (an index, a frame's corner): the
    # spaces between edges inside the card are no ring, only the paper's light is.
    middle = corners.mean(axis=0)
    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        for t in (0.3, 0.7):
            end = a + (b - a) * t
            inward = end + 0.3 * (middle - end)
            cv2.line(frame, tuple(int(v) for v in end), tuple(int(v) for v in inward), (60, 30, 30), 1)
    tuft = (205, 215, 220)
    # Tufts round the card at random distances, each tied to the card's edge and to the next
    # by a thread 3 px wide (wider than what the threshold's own opening takes away).
    half = (corners.max(axis=0) - corners.min(axis=0)) / 2
    spots = []
    for angle in np.linspace(0, 2 * np.pi, 16, endpoint=False) + rng.uniform(0, 0.3):
        ray = np.array([np.cos(angle), np.sin(angle)])
        edge = middle + ray * min(half[0] / max(abs(ray[0]), 1e-6), half[1] / max(abs(ray[1]), 1e-6))
        spot = edge + ray * rng.uniform(10, 30)
        spots.append(spot)
        cv2.circle(frame, tuple(int(v) for v in spot), int(rng.integers(4, 9)), tuft, -1)
        cv2.line(frame, tuple(int(v) for v in spot), tuple(int(v) for v in edge - ray * 2), tuft, 3)
    for a, b in zip(spots, spots[1:] + spots[:1], strict=True):
        cv2.line(frame, tuple(int(v) for v in a), tuple(int(v) for v in b), tuft, 3)
    return frame, corners


def _box_iou(quad: np.ndarray, box: tuple[float, float, float, float]) -> float:
    return box_iou(box_of(quad), box)


@pytest.mark.parametrize("seed", [0, 1, 3, 5, 6])
def test_a_card_tied_to_light_tufts_by_thin_threads_is_sure(seed: int) -> None:
    frame, corners = tufted_card(seed)
    box = (*corners.min(axis=0), *corners.max(axis=0))
    sure = [o for o in find_card_candidates(frame) if o.sure]
    assert len([o for o in sure if _box_iou(o.quad, box) >= 0.8]) == 1


def _labelled_box(name: str) -> tuple[float, float, float, float]:
    """The first labelled card's box (Pascal VOC) of a shared photo."""
    from xml.etree import ElementTree

    box = next(ElementTree.parse(PHOTOS / f"{name}.xml").getroot().iter("bndbox"))
    x0, y0, x1, y1 = (float(box.findtext(k, "0")) for k in ("xmin", "ymin", "xmax", "ymax"))
    return x0, y0, x1, y1


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="shared/realcards/photos not beside the repository")
@pytest.mark.parametrize(
    "name",
    [
        "IMG_2405",  # a jack on beige carpet: light tufts touch its paper all round
        "IMG_2429",  # a king on striped carpet: a light stripe touches its corner
    ],
)
def test_development_photos_of_a_whole_card_give_it_a_sure_outline(name: str) -> None:
    photo = cv2.imread(str(PHOTOS / f"{name}.JPG"))
    box = _labelled_box(name)
    assert any(o.sure and _box_iou(o.quad, box) >= 0.5 for o in find_card_candidates(photo))


def test_teaching_looks_without_the_opened_paper_map(monkeypatch: pytest.MonkeyPatch) -> None:
    """The opened map is the camera's plain search's alone: teaching runs the thorough search
    besides (straight edges take a card joined to tufts), and cut-outs taught with the opened
    map cost 4 held-out reads on the shared photos."""
    import vision.card_outlines as outlines
    from vision.enrolled import capture_card

    asked: list[bool] = []
    region_masks = outlines.region_masks

    def recorded(*args: object, opened: bool = True) -> list[np.ndarray]:
        asked.append(opened)
        return region_masks(*args, opened=opened)  # type: ignore[arg-type]

    monkeypatch.setattr(outlines, "region_masks", recorded)
    frame, _corners = tufted_card(1)
    with contextlib.suppress(UserError):  # taught or refused, the maps looked at count
        capture_card(frame)
    assert asked and not any(asked)
    find_card_candidates(frame)
    assert asked[-1]
