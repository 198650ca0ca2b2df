"""Publishers' cards: enrolled once under one light, recognised under another, never guessed."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from vision.enrolled import EnrolledDeck, default_store
from vision.reader import CardReader
from vision.simulated import SimulatedTable, Style

GAME = "thanks-a-lottery"


@pytest.fixture(autouse=True)
def _needs_game() -> None:
    from companion.engine import all_games

    if GAME not in all_games():
        pytest.skip(f"{GAME}: engine module not registered yet")


def publisher_art(index: int) -> np.ndarray:
    """Art unlike our printed cards: a coloured border, shapes, a title and rules text; no markers."""
    rng = np.random.default_rng(100 + index)
    w, h = 252, 352
    img = np.full((h, w, 3), rng.integers(150, 250, 3), np.uint8)
    cv2.rectangle(img, (10, 10), (w - 11, h - 11), [int(v) for v in rng.integers(0, 120, 3)], 6)
    for _ in range(14):
        colour = [int(v) for v in rng.integers(0, 255, 3)]
        kind = rng.integers(3)
        x, y = int(rng.integers(30, w - 30)), int(rng.integers(40, h - 40))
        if kind == 0:
            cv2.circle(img, (x, y), int(rng.integers(10, 45)), colour, -1, cv2.LINE_AA)
        elif kind == 1:
            cv2.rectangle(
                img, (x, y), (x + int(rng.integers(15, 60)), y + int(rng.integers(15, 60))), colour, -1
            )
        else:
            cv2.fillPoly(
                img, [rng.integers(20, [w - 20, h - 20], (5, 2)).astype(np.int32)], colour, cv2.LINE_AA
            )
    cv2.putText(img, f"CARD {index}", (30, 40), cv2.FONT_HERSHEY_DUPLEX, 0.9, (20, 20, 20), 2, cv2.LINE_AA)
    for line in range(3):
        cv2.putText(
            img,
            f"ability {index * 7 + line}",
            (24, h - 70 + 18 * line),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.5,
            (30, 30, 30),
            1,
            cv2.LINE_AA,
        )
    return img


def photo(art: np.ndarray, seed: int, enrolment: bool) -> np.ndarray:
    """Enrolment: warm light, straight on. Play: cold, dimmer, tilted, turned, blurred, noisier."""
    style = Style(
        card_px=140,
        tilt_deg=12 if enrolment else 25,
        tilt_axis=1.0 + seed,
        rotation=0.3 * seed + (0 if enrolment else 3.1),
        tint=(0.8, 0.95, 1.15) if enrolment else (1.12, 1.0, 0.82),
        brightness=1.0 if enrolment else 0.75,
        gradient=0.2,
        blur=0.0 if enrolment else 0.8,
        noise=2.0 if enrolment else 5.0,
        glare=0,
        shadows=0,
        hands=0,
        table="dark",
    )
    table = SimulatedTable(GAME, seed=seed, mat=False, style=style)
    table.place_art(art, table.centre, 0.0)
    return table.frame()


def test_enrolled_cards_are_recognised_under_other_light_and_a_stranger_is_unknown(tmp_path: Path) -> None:
    arts = {card_id: publisher_art(i) for i, card_id in enumerate(["1", "2", "3", "4", "5"])}
    deck = EnrolledDeck(GAME, tmp_path)
    for i, (card_id, art) in enumerate(arts.items()):
        deck.enroll(card_id, photo(art, i, enrolment=True))
    reader = CardReader(GAME, use_mat=False, enrolled=EnrolledDeck(GAME, tmp_path))  # reloaded from disk
    for i, (card_id, art) in enumerate(arts.items()):
        cards = reader.read(photo(art, 50 + i, enrolment=False)).cards
        assert [(c.card_id, c.symbols) for c in cards] == [(card_id, (card_id,))]
        assert cards[0].confidence > 0.5
    stranger = reader.read(photo(publisher_art(99), 77, enrolment=False)).cards
    assert [c.card_id for c in stranger] == [None]


def test_a_photo_without_a_card_cannot_be_enrolled(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no card found"):
        EnrolledDeck(GAME, tmp_path).enroll("1", np.full((720, 1280, 3), 40, np.uint8))


def test_a_damaged_enrolled_photo_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / GAME).mkdir()
    (tmp_path / GAME / "1.png").write_bytes(b"garbage")
    with pytest.raises(UserError, match="enrol that card again"):
        EnrolledDeck(GAME, tmp_path)


def test_the_store_follows_systemd_then_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "svc"))
    assert default_store() == tmp_path / "svc" / "enrolled"
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert default_store() == tmp_path / "xdg" / "jackpot-companion" / "enrolled"
