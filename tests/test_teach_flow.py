"""The "Teach cards" state machine: catching a still card, keeping, retaking, skipping."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from companion.errors import UserError
from companion.flows.teach import CAUGHT, DONE, LOOKING, STEADY_FRAMES, MemoryStore, TeachFlow, TeachFrame
from hardware.events import PRESS, InputEvent

PREVIEW = np.zeros((270, 480, 3), np.uint8)


def faces() -> list[Any]:
    return [SimpleNamespace(face_id=face, name=face.capitalize(), symbols=(face,), back=())
            for face in ("cherry", "plum", "bell")]


def card_at(x: float, y: float, shade: int = 200) -> TeachFrame:
    quad = np.array([[x, y], [x + 63, y], [x + 63, y + 88], [x, y + 88]], np.float32)
    return TeachFrame(PREVIEW, quad, np.full((280, 200, 3), shade, np.uint8))


def empty(refusal: str = "") -> TeachFrame:
    return TeachFrame(PREVIEW, refusal=refusal)


TWO = "2 card-shaped outlines in view: show one card alone"


def press(flow: TeachFlow, control: str) -> None:
    flow.on_input(InputEvent(control, PRESS, 0.0))


def show(flow: TeachFlow, seen: TeachFrame, times: int = STEADY_FRAMES) -> None:
    for _ in range(times):
        flow.on_frame(seen)


def test_a_card_lying_still_is_caught_and_collect_files_it_under_the_face_asked_for() -> None:
    store = MemoryStore()
    flow = TeachFlow("bandit", "Bandit", faces(), store)
    show(flow, card_at(100, 50), STEADY_FRAMES - 1)
    assert flow.phase == LOOKING  # not yet still long enough
    flow.on_frame(card_at(101, 50))  # sensor jitter is still "lying still"
    assert flow.phase == CAUGHT and flow.view().cutout is not None
    assert "Cherry" in flow.prompt() and flow.cues == ["click"]
    press(flow, "collect")
    assert flow.cues == ["click", "coin"]
    assert [len(store.kept[face]) for face in store.kept] == [1]
    assert flow.face.name == "Plum" and flow.phase == LOOKING
    assert flow.view().face_name == "Plum" and flow.counts == {"cherry": 1}


def test_a_moving_card_is_not_caught_half_way() -> None:
    flow = TeachFlow("bandit", "Bandit", faces(), MemoryStore())
    for step in range(10):
        flow.on_frame(card_at(100 + 20 * step, 50))
    assert flow.phase == LOOKING


def test_the_card_just_kept_is_not_filed_again_under_the_next_face() -> None:
    store = MemoryStore()
    flow = TeachFlow("bandit", "Bandit", faces(), store)
    show(flow, card_at(100, 50))
    press(flow, "collect")
    show(flow, card_at(102, 51), 20)  # Cherry still lies there while Plum is asked for
    assert flow.phase == LOOKING and "plum" not in store.kept
    show(flow, empty(), 1)  # taken away
    show(flow, card_at(102, 51, shade=90))  # Plum laid in the same spot
    assert flow.phase == CAUGHT
    press(flow, "collect")
    assert sorted(store.kept) == ["cherry", "plum"]


def test_a_card_refused_beside_the_one_just_kept_does_not_free_the_kept_one() -> None:
    """Only a table with no card on it frees the card just kept: a refusal (the next card laid
    beside it, "2 card-shaped outlines") is a card in view, and the kept card, left alone
    again, must not be filed under the next face too."""
    store = MemoryStore()
    flow = TeachFlow("bandit", "Bandit", faces(), store)
    show(flow, card_at(100, 50))
    press(flow, "collect")
    show(flow, empty(TWO), 5)
    assert flow.prompt() == TWO
    show(flow, card_at(101, 50), 10)  # the second card taken away again: Cherry alone
    assert flow.phase == LOOKING and "plum" not in store.kept


def test_back_retakes_once_the_card_moved_and_two_cards_are_never_caught() -> None:
    store = MemoryStore()
    flow = TeachFlow("bandit", "Bandit", faces(), store)
    show(flow, card_at(100, 50))
    press(flow, "back")
    assert flow.phase == LOOKING and not store.kept
    show(flow, card_at(100, 50), 10)
    assert flow.phase == LOOKING  # the refused picture is not taken again as it was
    show(flow, empty(TWO), 10)
    assert flow.phase == LOOKING and flow.prompt() == TWO
    show(flow, card_at(160, 90))  # moved
    assert flow.phase == CAUGHT
    press(flow, "collect")
    assert len(store.kept["cherry"]) == 1


def test_hold_buttons_skip_go_back_and_find_the_next_untaught_face_and_a_face_is_taught_again() -> None:
    store = MemoryStore()
    flow = TeachFlow("bandit", "Bandit", faces(), store)
    press(flow, "hold3")
    assert flow.face.name == "Plum"
    press(flow, "hold1")
    press(flow, "hold1")
    assert flow.face.name == "Cherry"
    show(flow, card_at(100, 50))
    press(flow, "collect")
    press(flow, "hold1")  # Cherry again, the same card still lying there: the player chose it
    show(flow, card_at(100, 50))
    assert flow.phase == CAUGHT
    press(flow, "collect")
    assert len(store.kept["cherry"]) == 2
    assert flow.face.name == "Plum"
    press(flow, "hold3")
    press(flow, "hold2")  # from Bell: the next face without a picture is Plum
    assert flow.face.name == "Plum"


def test_after_the_last_face_a_summary_then_any_of_collect_or_back_leaves() -> None:
    flow = TeachFlow("bandit", "Bandit", faces(), MemoryStore())
    for _ in range(3):
        press(flow, "hold3")
    assert flow.phase == DONE and flow.view().phase == "done"
    assert flow.prompt().startswith("0 of 3 faces taught")
    press(flow, "hold1")
    assert flow.face.name == "Bell" and flow.phase == LOOKING
    press(flow, "back")  # BACK while looking leaves
    assert flow.finished


def test_a_look_alike_of_another_taught_face_is_said_on_the_screen() -> None:
    class Alike(MemoryStore):
        def look_alikes(self, face_id: str, cutout: Any) -> list[tuple[str, float]]:
            return [("cherry", 0.9)]

    flow = TeachFlow("bandit", "Bandit", faces(), Alike())
    press(flow, "hold3")
    show(flow, card_at(100, 50))
    assert "Cherry" in flow.view().alert and "Plum" in flow.view().alert


def test_a_store_that_cannot_write_says_so_and_keeps_the_picture_on_screen() -> None:
    class Full(MemoryStore):
        def keep(self, face_id: str, cutout: Any) -> Path:
            raise UserError("cannot write /x/1.png: check the store folder's permissions")

    flow = TeachFlow("bandit", "Bandit", faces(), Full())
    show(flow, card_at(100, 50))
    press(flow, "collect")
    assert flow.phase == CAUGHT and "cannot write" in flow.view().alert and flow.cues[-1] == "error"


def test_a_game_without_cards_cannot_be_taught() -> None:
    with pytest.raises(UserError, match="no cards"):
        TeachFlow("pay-line", "Pay Line", [], MemoryStore())


def test_a_frame_only_shown_changes_the_picture_and_nothing_else() -> None:
    """A frame the camera thread did not judge (the scene was changing) shows the camera's
    picture; the card counted as lying still, the card just kept and what the prompt said stand."""
    store = MemoryStore()
    flow = TeachFlow("bandit", "Bandit", faces(), store)
    show(flow, card_at(100, 50))
    press(flow, "collect")
    show(flow, empty(TWO), 1)
    moving = np.full((270, 480, 3), 77, np.uint8)
    flow.on_frame(TeachFrame(moving, judged=False))
    assert flow.view().preview is moving and flow.prompt() == TWO
    show(flow, card_at(101, 50), 5)  # Cherry, still blocked: the shown frame did not clear the table
    assert flow.phase == LOOKING and "plum" not in store.kept
    show(flow, empty(), 1)
    show(flow, card_at(160, 90), STEADY_FRAMES - 1)
    flow.on_frame(TeachFrame(moving, judged=False))  # a shadow passing: not "moved"
    flow.on_frame(card_at(160, 90))
    assert flow.phase == CAUGHT
