"""Taught faces that share their art (a cherry two and a cherry three, as the games' cards of one
symbol and another number are) are told apart by their corner index when the features cannot.

The feature stage lines each taught picture up on the card; two faces of one art line up alike,
so the features alone leave the card unnamed. Their corner index, which the features place on
the card, names the one it shows (:meth:`vision.enrolled.EnrolledDeck.identify`); a sibling
never taught (the four of that art) shows neither and stays unnamed.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.deck_styles import FACE_H, FACE_W, corner_mask, deck_faces, render_face
from vision.face_match import rectify

#: The card in the test frame: about 150 px wide (the feature stage's scale), turned a little.
QUAD = np.float32([[70, 40], [222, 56], [204, 266], [50, 248]])


def _laid(face: np.ndarray, seed: int) -> np.ndarray:
    """``face`` laid at ``QUAD`` on a mottled brown table, with sensor noise."""
    rng = np.random.default_rng(seed)
    table = cv2.GaussianBlur(rng.normal(0, 25, (300, 280, 3)).astype(np.float32), (0, 0), 3)
    table += np.float32([60, 90, 130])
    source = np.float32([[0, 0], [FACE_W - 1, 0], [FACE_W - 1, FACE_H - 1], [0, FACE_H - 1]])
    to_frame = cv2.getPerspectiveTransform(source, QUAD)
    card = cv2.warpPerspective(face.astype(np.float32), to_frame, (280, 300), flags=cv2.INTER_AREA)
    cover = cv2.warpPerspective(corner_mask(), to_frame, (280, 300), flags=cv2.INTER_LINEAR)[..., None]
    frame = card * cover + table * (1 - cover) + rng.normal(0, 3, (300, 280, 3))
    return np.clip(frame, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("style", ["full_bleed", "bordered"])
def test_faces_of_one_art_are_named_by_their_corner_index(tmp_path: Path, style: str) -> None:
    from vision.enrolled import EnrolledDeck

    faces = {face.number: render_face(face) for face in deck_faces(style)}
    deck = EnrolledDeck("bandit", tmp_path)
    # Cherry art numbered 2 and 3, taught as two faces; the bell so that not every face is a cherry.
    for seed, (face_id, number) in enumerate((("cherry", 2), ("plum", 3), ("bell", 5))):
        deck.keep(face_id, rectify(_laid(faces[number], seed=10 + seed), QUAD, (200, 280)))
    deck = EnrolledDeck("bandit", tmp_path)
    for number, named in ((2, "cherry"), (3, "plum"), (4, None), (5, "bell")):
        image = _laid(faces[number], seed=1)
        # The thumbnails cannot tell the cherries apart: their art is nearly all of the card.
        if number in (2, 3):
            assert deck.matcher.match(rectify(image, QUAD)).card_id is None
        assert deck.identify(image, QUAD).card_id == named, number


def test_the_face_search_leaves_faces_of_one_art_to_the_corner_index(tmp_path: Path) -> None:
    # A card found by its face (no outline of its own: under another card, fanned) goes the same
    # way: the search finds the cherry art with both faces lining up alike, and the card is
    # vouched for only as the face whose index it shows; the never-taught 4 as neither.
    from vision.enrolled import EnrolledDeck
    from vision.face_search import FaceSearch

    faces = {face.number: render_face(face) for face in deck_faces("full_bleed")}
    deck = EnrolledDeck("bandit", tmp_path)
    for seed, (face_id, number) in enumerate((("cherry", 2), ("plum", 3), ("bell", 5))):
        deck.keep(face_id, rectify(_laid(faces[number], seed=10 + seed), QUAD, (200, 280)))
    deck = EnrolledDeck("bandit", tmp_path)
    for number, named in ((2, "cherry"), (3, "plum"), (4, None)):
        image = _laid(faces[number], seed=1)
        (found,) = FaceSearch(deck.features).search(image)
        assert set(found.shared) == {"cherry", "plum"}, number
        vouched = [found.card_id] if deck.vouches(image, found, []) else []
        assert vouched == ([named] if named else []), number
