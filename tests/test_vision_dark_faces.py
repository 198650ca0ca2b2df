"""Faces printed light on a dark ground (a dark deck), compared by their print over the ground.

A glossy coat's reflection adds light to a card; on white paper a little, on a dark face three
times its ground, and a thumbnail of brightness over the light level keeps it as a bright patch
(:mod:`vision.face_match`). A taught picture of light print on a dark ground is compared by its
print over the ground beneath, so the patch is gone; a deck on paper is compared as before.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck_styles import deck_faces, render_face
from vision.face_match import FaceMatcher, dark_ground


def _picture(face: np.ndarray) -> np.ndarray:
    return cv2.resize(np.ascontiguousarray(face), (200, 280), interpolation=cv2.INTER_AREA)


def _glossy(picture: np.ndarray, strength: float) -> np.ndarray:
    """``picture`` under a lamp's soft reflection left of its middle (light added, up to
    ``strength`` of the way to white), as :func:`vision.photo_tables.lay_cards` lays it."""
    blob = np.zeros(picture.shape[:2], np.float32)
    cv2.circle(blob, (70, 110), 60, 1.0, -1)
    blob = cv2.GaussianBlur(blob, (0, 0), 30) * strength
    lit = picture.astype(np.float32) + (255.0 - picture) * blob[:, :, None]
    return np.clip(lit, 0, 255).astype(np.uint8)


def test_only_light_print_on_a_dark_ground_is_a_dark_face() -> None:
    assert all(dark_ground(_picture(render_face(f))) for f in deck_faces("dark"))
    # Full-bleed art (a colour field with light discs) and a bordered white face are not.
    assert not any(dark_ground(_picture(render_face(f))) for f in deck_faces("full_bleed"))
    assert not any(dark_ground(_picture(render_face(f))) for f in deck_faces("bordered"))
    # Nor white paper in deep shade (a light level multiplies print and paper alike).
    paper = np.full((280, 200, 3), 235, np.uint8)
    cv2.putText(paper, "K", (20, 50), cv2.FONT_HERSHEY_DUPLEX, 1.2, (30, 30, 30), 2)
    assert not dark_ground((paper * 0.3).astype(np.uint8))


def test_a_dark_face_under_a_glossy_reflection_is_named() -> None:
    faces = deck_faces("dark")
    matcher = FaceMatcher()
    for face in faces[1:5]:  # plum, bell, seven, bar
        matcher.add(str(face.card_id), _picture(render_face(face)))
    bell = render_face(faces[2])
    # Compared by brightness over the light level, the reflection's patch fails a block (0.73,
    # at most 0.65 is taken); by the print over the ground, 0.46.
    assert matcher.match(_glossy(_picture(bell), 0.4)).card_id == "bell"
    # A never-taught face under the same light stays unnamed.
    assert matcher.match(_glossy(_picture(render_face(faces[6])), 0.4)).card_id is None


def test_a_dark_face_whose_art_another_face_shares_is_left_to_the_later_stages() -> None:
    """Cherry two and cherry three (taught as cherry and plum): a plum taught from a picture cut
    4 % into its card (an outline a little off) correlates 0.86 with a plum card, the cherry
    0.99: by the margin alone the thumbnails named the plum card cherry. A second face that
    correlates 0.8 or more shares the art: the thumbnails name nothing, the features and the
    corner index decide."""
    faces = deck_faces("dark")
    plum = _picture(render_face(faces[1]))
    h, w = plum.shape[:2]
    matcher = FaceMatcher()
    matcher.add("cherry", _picture(render_face(faces[0])))
    matcher.add("plum", cv2.resize(plum[int(0.04 * h) :, int(0.04 * w) :], (w, h)))
    matcher.add("bell", _picture(render_face(faces[2])))
    seen = matcher.match(plum)
    assert seen.best_id == "cherry" and seen.runner_up >= 0.8
    assert seen.card_id is None
    # A face no other shares art with is still named at once.
    assert matcher.match(_picture(render_face(faces[2]))).card_id == "bell"
