"""The simulated table lays a group's taught deck (the stored pictures), and the demo deals it."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.errors import UserError
from vision.enrolled import EnrolledDeck
from vision.simulated import SimulatedTable
from vision.taught_art import taught_art

REALCARDS = Path(__file__).resolve().parent.parent.parent / "shared" / "realcards" / "photos"
#: The realcards README's mapping of the pinochle ranks onto Bandit's cards.
RANKS = {"nine": "cherry", "ten": "plum", "jack": "bell", "queen": "seven", "king": "bar", "ace": "any"}


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The taught-face store the daemon and the demo use (the state directory's)."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    return tmp_path / "state" / "enrolled"


def painted(colour: tuple[int, int, int]) -> np.ndarray:
    """A card picture of one colour with a dark cross (a face unlike any of ours)."""
    card = np.full((280, 200, 3), colour, np.uint8)
    cv2.line(card, (20, 20), (180, 260), (20, 20, 20), 12)
    cv2.line(card, (180, 20), (20, 260), (20, 20, 20), 12)
    return card


def inside(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The mean BGR colour of the frame inside a card's corners."""
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, corners.round().astype(np.int32), 255)
    return np.array(cv2.mean(frame, mask)[:3])


def test_a_taught_card_is_laid_with_its_picture_and_an_untaught_one_is_printed(store: Path) -> None:
    deck = EnrolledDeck("bandit", store)
    deck.keep("cherry", painted((230, 20, 230)))
    table = SimulatedTable("bandit", seed=4, taught=taught_art("bandit"))
    table.place("r0c0", "cherry")
    table.place("r0c1", "plum")
    frame = table.frame()
    cherry, plum = table.cards["r0c0"], table.cards["r0c1"]
    assert cherry.art is not None and plum.art is None
    b, g, r = inside(frame, cherry.corners)
    assert b > g + 40 and r > g + 40  # magenta: the taught picture, not our white card
    b, g, r = inside(frame, plum.corners)
    assert abs(b - r) < 40 and g > 60  # our printed card: light and neutral


def test_a_picture_taught_for_a_face_is_laid_for_every_card_id_it_stands_for(store: Path) -> None:
    from vision.teachable import teachable_faces

    face = next(f for f in teachable_faces("jackpot-payout") if len(f.card_ids) > 1)
    EnrolledDeck("jackpot-payout", store).keep(face.face_id, painted((30, 200, 30)))
    EnrolledDeck("jackpot-payout", store).keep(face.face_id, painted((200, 30, 30)))
    art = taught_art("jackpot-payout")
    assert set(art) == set(face.card_ids)
    assert all(len(pictures) == 2 for pictures in art.values())


def test_demo_taught_refuses_in_one_line_without_taught_cards_or_off_the_table(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--game", "bandit", "--taught"]) != 0
    error = capsys.readouterr().err.strip()
    assert "no taught Bandit cards" in error and "Teach cards" in error and "\n" not in error
    EnrolledDeck("bandit", store).keep("cherry", painted((230, 20, 230)))
    assert main(["demo", "--game", "bandit", "--taught", "--mode", "cabinet"]) != 0
    assert "table mode" in capsys.readouterr().err


def teach_real_deck(store: Path, per_rank: int) -> int:
    """Teach Bandit from whole single-card photos of the real deck; how many were kept."""
    from vision.image_files import read_image

    deck = EnrolledDeck("bandit", store)
    kept: dict[str, int] = {}
    for label in sorted(REALCARDS.glob("*.xml"), key=lambda p: int(p.stem.split("_")[1])):
        names = [o.findtext("name") or "" for o in ElementTree.parse(label).getroot().iter("object")]
        if len(names) != 1 or kept.get(names[0], 0) >= per_rank:
            continue
        try:
            deck.enroll(RANKS[names[0]], read_image(label.with_suffix(".JPG")))
        except UserError:
            continue  # a photo the outline search refuses: the next one of that rank
        kept[names[0]] = kept.get(names[0], 0) + 1
    return sum(kept.values())


needs_realcards = pytest.mark.skipif(not REALCARDS.is_dir(), reason="no ../shared/realcards beside the clone")


@needs_realcards
def test_demo_taught_deals_the_real_deck_through_the_whole_stack(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert teach_real_deck(store, per_rank=2) >= 10
    assert main(["demo", "--game", "bandit", "--taught", "--seconds", "6"]) == 0
    out = capsys.readouterr().out
    assert "demo: dealing the taught cards" in out and "pictures for 6 card ids" in out
    assert "dealer lays" in out  # the game went on with the taught deck on the table
    assert_cards_counted(out)


def assert_cards_counted(out: str) -> None:
    """The demo's last line says how each card dealt came in, as the journal has it: read by
    the camera or entered by the buttons, one or the other for every card laid."""
    import re

    counted = re.search(r"^cards: (\d+) read by the camera, (\d+) entered by the buttons$", out, re.M)
    assert counted is not None, out[-300:]
    laid = sum(1 for line in out.splitlines() if "dealer lays" in line)
    assert int(counted[1]) + int(counted[2]) == laid > 0


def test_the_demo_counts_the_cards_the_camera_read_and_those_entered_by_hand(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision.taught_scene import synthetic_face

    deck = EnrolledDeck("bandit", store)
    for index, face in enumerate(RANKS.values()):
        deck.keep(face, synthetic_face(30 + index))
    assert main(["demo", "--game", "bandit", "--taught", "--seconds", "6"]) == 0
    assert_cards_counted(capsys.readouterr().out)


@needs_realcards
def test_a_grid_of_real_taught_cards_on_the_mat_is_read_by_the_games_reader(store: Path) -> None:
    """27 real taught cards on our mat, about 90 px wide, blurred, tilted up to 28 degrees.
    Measured: 23 were read until each taught picture was also described softened (the camera
    is softer than the phone photos they were taught from); now 26, none wrongly."""
    import dataclasses

    from vision.identify import reader_for_game

    assert teach_real_deck(store, per_rank=2) >= 10
    dealt = ["cherry", "plum", "bell", "seven", "bar", "any", "cherry", "plum", "bell"]
    right = wrong = 0
    for seed in range(3):
        table = SimulatedTable("bandit", seed=seed, taught=taught_art("bandit"))
        # No hand over the grid: a card under a hand is never named (the tracker waits for the
        # hand to go). With the simulated camera's hands, 6 of these 27 cards could not be named
        # even from their true outlines; without them, all 27 are.
        table.style = dataclasses.replace(table.style, hands=0)
        for index, card in enumerate(dealt):
            table.place(f"r{index // 3}c{index % 3}", card)
        reading = reader_for_game("bandit").read(table.frame())
        read = {sighting.zone: sighting.card_id for sighting in reading.cards}
        for index, card in enumerate(dealt):
            got = read.get(f"r{index // 3}c{index % 3}")
            right += got == card
            wrong += got not in (None, card)
    assert wrong == 0 and right >= 0.9 * 3 * len(dealt)
