"""Taught faces: taught once under one light, read under another on any table, never guessed."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from vision.enrolled import EnrolledDeck, capture_card
from vision.reader import CardReader
from vision.simulated import SimulatedTable
from vision.taught_scene import lay_out, scene_style, synthetic_face
from vision.taught_store import default_store

GAME = "bandit"
IDS = ["cherry", "plum", "bell", "seven"]


def teaching_photo(face: np.ndarray, seed: int) -> np.ndarray:
    """One card alone on a wood table, warm light, nearly straight on: a whole photo."""
    style = scene_style(seed, "wood", card_px=150, tilt=8)
    return lay_out([face], seed, style=style).frame()


def taught_deck(folder: Path) -> tuple[EnrolledDeck, dict[str, np.ndarray]]:
    faces = {card_id: synthetic_face(10 + i) for i, card_id in enumerate(IDS)}
    deck = EnrolledDeck(GAME, folder)
    for i, (card_id, face) in enumerate(faces.items()):
        deck.enroll(card_id, teaching_photo(face, 200 + i))
    return deck, faces


@pytest.mark.parametrize("table", ["cloth", "felt", "light"])
def test_taught_faces_are_read_on_other_tables_and_an_untaught_face_is_unidentified(
    tmp_path: Path, table: str
) -> None:
    _deck, faces = taught_deck(tmp_path)
    reader = CardReader(GAME, use_mat=False, enrolled=EnrolledDeck(GAME, tmp_path))  # from disk
    stranger = synthetic_face(99)
    arts = [*faces.values(), stranger]
    scene = lay_out(arts, 300, style=scene_style(300, table, card_px=120, tilt=20))
    reading = reader.read(scene.frame())
    by_place = {}
    for placed in scene.all_placed():
        centre = placed.corners.mean(axis=0)
        near = [c for c in reading.cards if np.linalg.norm(np.mean(c.corners, axis=0) - centre) < 30]
        by_place[placed.printed.card_id] = [c.card_id for c in near]
    expected = {"art0": ["cherry"], "art1": ["plum"], "art2": ["bell"], "art3": ["seven"], "art4": [None]}
    assert by_place == expected
    named = [c for c in reading.cards if c.card_id]
    assert all(c.confidence >= 0.8 and c.symbols == (c.card_id,) for c in named)
    assert next(c for c in reading.cards if c.card_id is None).confidence == 0.0


def test_a_look_alike_of_a_taught_face_is_unidentified(tmp_path: Path) -> None:
    deck, faces = taught_deck(tmp_path)
    twin = synthetic_face(10, changed=True)  # cherry's face with another middle
    scene = lay_out([twin, faces["plum"]], 400, style=scene_style(400, "wood"))
    reading = CardReader(GAME, use_mat=False, enrolled=deck).read(scene.frame())
    assert sorted(str(c.card_id) for c in reading.cards) == ["None", "plum"]


def test_a_card_lying_still_is_not_identified_again(tmp_path: Path) -> None:
    deck, faces = taught_deck(tmp_path)
    scene = lay_out(list(faces.values())[:3], 500, style=scene_style(500, "felt"))
    reader = CardReader(GAME, use_mat=False, enrolled=deck)
    first = reader.read(scene.frame())
    assert reader.taught is not None and reader.taught.identified == 3
    again = reader.read(scene.frame())  # fresh sensor noise, nothing moved
    assert [c.card_id for c in again.cards] == [c.card_id for c in first.cards]
    frame = scene.frame()
    cv2.circle(frame, (60, 660), 30, (255, 255, 255), -1)  # something moves elsewhere
    moved = reader.read(frame)
    assert sorted(map(str, (c.card_id for c in moved.cards))) == ["bell", "cherry", "plum"]
    assert reader.taught.identified == 3 and reader.taught.reused == 3


def test_capture_refuses_a_photo_with_no_card_or_two(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no card found"):
        capture_card(np.full((720, 1280, 3), 90, np.uint8))
    two = lay_out([synthetic_face(1), synthetic_face(2)], 600, style=scene_style(600, "wood")).frame()
    with pytest.raises(UserError, match="2 card-shaped outlines"):
        capture_card(two)
    one = capture_card(teaching_photo(synthetic_face(3), 601))
    assert one.cutout.shape == (280, 200, 3)  # colour, upright, for the teach screen


@pytest.mark.parametrize("seed", [701, 703])
def test_a_card_beside_a_postcard_is_taught_and_two_cards_are_not(seed: int) -> None:
    """A written-on postcard (light paper with an even border, but longer than a card) lying
    beside the card is clearly not a second card: the card is taught, not refused. Two cards
    are still refused."""
    photo = teaching_photo(synthetic_face(seed), seed)
    card = capture_card(photo).quad
    x0 = 60 if card[:, 0].mean() > photo.shape[1] / 2 else photo.shape[1] - 360
    cv2.rectangle(photo, (x0, 200), (x0 + 300, 360), (225, 232, 236), -1)
    for line in range(5):
        cv2.line(photo, (x0 + 40, 240 + 18 * line), (x0 + 250, 240 + 18 * line), (60, 50, 40), 2)
    assert np.abs(capture_card(photo).quad - card).max() < 2
    faces = [synthetic_face(seed), synthetic_face(seed + 1)]
    two = lay_out(faces, seed, style=scene_style(seed, "wood")).frame()
    with pytest.raises(UserError, match="card-shaped outline"):
        capture_card(two)


@pytest.mark.parametrize("seed", [812, 813])
def test_two_cards_edge_to_edge_are_not_taught_as_one(seed: int) -> None:
    """Two cards side by side, a thin strip of table between them, have nearly a card's shape
    together: the outline round both must not be taught as one card."""
    style = scene_style(seed, "wood", card_px=150, tilt=8)
    scene = SimulatedTable("bandit", seed=seed, mat=False, style=style)
    x, y = scene.centre
    scene.place_art(synthetic_face(seed), (x - 20, y), 0.0, label="left")
    scene.place_art(synthetic_face(seed + 1), (x + 45, y + 10), 0.0, label="right")
    with pytest.raises(UserError, match="card"):
        capture_card(scene.frame())


@pytest.mark.parametrize("seed", [820, 821])
def test_a_card_half_over_another_is_not_taught_as_one(seed: int) -> None:
    """A card lying half over another the same way round: the outline round both is squarer
    than any card, however tilted, and must not be taught as one card."""
    style = scene_style(seed, "wood", card_px=150, tilt=8)
    scene = SimulatedTable("bandit", seed=seed, mat=False, style=style)
    x, y = scene.centre
    scene.place_art(synthetic_face(seed + 1), (x + 30, y + 8), 0.0, label="under")
    scene.place_art(synthetic_face(seed), (x - 10, y), 0.0, label="top")
    with pytest.raises(UserError, match="shape"):
        capture_card(scene.frame())


def test_a_whole_photo_teaches_the_card_not_the_table(tmp_path: Path) -> None:
    face = synthetic_face(5)
    cutout = capture_card(teaching_photo(face, 700)).cutout
    upright = min((cutout, cutout[::-1, ::-1]), key=lambda c: float(np.abs(c.astype(int) - face).mean()))
    assert float(np.abs(upright.astype(int) - face).mean()) < 25  # the card, not wood around it


def test_forget_one_face_or_all(tmp_path: Path) -> None:
    deck, _faces = taught_deck(tmp_path)
    assert deck.forget("plum") == 1
    assert sorted(EnrolledDeck(GAME, tmp_path).pictures()) == ["bell", "cherry", "seven"]
    assert deck.forget() == 3
    assert EnrolledDeck(GAME, tmp_path).pictures() == {}


def test_a_damaged_taught_picture_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / GAME / "cherry").mkdir(parents=True)
    (tmp_path / GAME / "cherry" / "1.png").write_bytes(b"garbage")
    with pytest.raises(UserError, match="teach that card again"):
        EnrolledDeck(GAME, tmp_path)


def test_a_damaged_picture_can_be_left_out_and_the_rest_of_the_deck_read(tmp_path: Path) -> None:
    EnrolledDeck(GAME, tmp_path).keep("cherry", synthetic_face(10))
    (tmp_path / GAME / "plum").mkdir(parents=True)
    (tmp_path / GAME / "plum" / "1.png").write_bytes(b"garbage")
    deck = EnrolledDeck(GAME, tmp_path, skip_damaged=True)
    assert deck.references == ["cherry"] and deck.damaged == [tmp_path / GAME / "plum" / "1.png"]
    reader = CardReader(GAME, use_mat=False, enrolled=deck)
    assert reader.damaged_pictures == deck.damaged
    # Set aside, kept: the next load does not stumble on it, and the face can be taught again.
    assert (tmp_path / GAME / "plum" / "1.png.damaged").read_bytes() == b"garbage"
    again = EnrolledDeck(GAME, tmp_path)
    assert again.damaged == [] and again.keep("plum", synthetic_face(11)).name == "1.png"


def test_a_picture_cut_short_while_taught_is_not_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A plug pulled (or the card filling up) while a face is taught: the deck must still load
    # afterwards, so nothing cut short may be left where pictures are read from.
    deck = EnrolledDeck(GAME, tmp_path)
    face = synthetic_face(10)

    def cut_short(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("vision.enrolled.os.fsync", cut_short)
    with pytest.raises(UserError, match="No space left on device"):
        deck.keep("cherry", face)
    monkeypatch.undo()
    assert [p.name for p in (tmp_path / GAME / "cherry").iterdir()] == []
    assert EnrolledDeck(GAME, tmp_path).pictures() == {}
    kept = deck.keep("cherry", face)
    assert kept.name == "1.png" and EnrolledDeck(GAME, tmp_path).references == ["cherry"]


def test_the_store_follows_systemd_then_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "svc"))
    assert default_store() == tmp_path / "svc" / "enrolled"
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert default_store() == tmp_path / "xdg" / "jackpot-companion" / "enrolled"


def test_a_look_alike_correlating_well_is_refused_by_the_blocks() -> None:
    from vision.face_match import ACCEPT_SCORE, MAX_BLOCK, FaceMatcher

    matcher = FaceMatcher()
    matcher.add("cherry", synthetic_face(10))
    matcher.add("plum", synthetic_face(11))
    twin = matcher.match(synthetic_face(10, changed=True))
    assert twin.best_id == "cherry" and twin.score >= ACCEPT_SCORE - 0.03  # alike overall ...
    assert twin.block > MAX_BLOCK
    assert twin.card_id is None and twin.confidence == 0.0  # ... but one block differs
    assert matcher.match(synthetic_face(10)).card_id == "cherry"
