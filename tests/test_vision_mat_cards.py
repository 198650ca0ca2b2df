"""Cards in the zones of our mat, found by their known size where edges are faint."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.mat_cards as mat_cards
import vision.taught_reader as taught_reader
from vision.frame_blocks import small_copy
from vision.identify import reader_for_game
from vision.mat_cards import MatZones
from vision.mats import mat_layout
from vision.simulated import SimulatedTable
from vision.taught_scene import synthetic_face


def mat_scene(seed: int, cards: dict[str, str]) -> tuple[SimulatedTable, np.ndarray, np.ndarray]:
    """Our mat with a light taught card (a made-up face on cream paper) in each given zone; the
    table, the frame and the homography image -> mat mm."""
    cream = (215, 228, 236)
    art = {card_id: [synthetic_face(10 + i, paper=cream)] for i, card_id in enumerate(cards.values())}
    table = SimulatedTable("bandit", seed=seed, taught=art)
    for zone, card_id in cards.items():
        table.place(zone, card_id)
    frame = table.frame()
    return table, frame, homography(frame)


def homography(frame: np.ndarray) -> np.ndarray:
    """The homography image -> mat mm, from the mat's corner markers in ``frame``."""
    reader = reader_for_game("bandit")
    corners, ids = reader.find_markers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    to_mat = reader.mat_homography(corners, ids)
    assert to_mat is not None
    return to_mat


@pytest.mark.parametrize("seed", [0, 1])
def test_a_light_card_in_a_zone_is_found_where_it_lies(seed: int) -> None:
    table, frame, to_mat = mat_scene(seed, {"r0c0": "cherry", "r1c2": "plum"})
    found = MatZones(mat_layout("bandit")).find(frame, to_mat)
    # At most one per zone, never sure: a taught face must confirm each (a zone's printed label
    # is ink too, so an empty zone may give an outline that no face confirms).
    assert 2 <= len(found) <= 9 and not any(o.sure for o in found)
    for placed in (table.cards["r0c0"], table.cards["r1c2"]):
        size = float(np.linalg.norm(placed.corners[0] - placed.corners[2]))
        centre = placed.corners.mean(axis=0)
        assert min(float(np.linalg.norm(o.quad.mean(axis=0) - centre)) for o in found) < 0.15 * size


def test_a_zone_that_did_not_change_is_not_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    table, frame, to_mat = mat_scene(3, {"r0c1": "cherry"})
    zones = MatZones(mat_layout("bandit"))
    first = zones.find(frame, to_mat)
    searched = []
    real = mat_cards._card_in_zone
    monkeypatch.setattr(mat_cards, "_card_in_zone", lambda *a: searched.append(1) or real(*a))
    again = zones.find(table.frame(), to_mat)  # fresh sensor noise, nothing moved
    assert not searched and len(again) == len(first) >= 1


def test_a_zone_whose_blocks_did_not_change_is_not_even_cut_out_again() -> None:
    """With the frame's small copy, a zone whose blocks show what they showed at its last look
    keeps that answer without its picture being cut out (1.3 ms a zone); a card laid in one zone
    changes the blocks of that zone and its neighbours only, and is found there."""
    table, frame, to_mat = mat_scene(3, {"r0c1": "cherry"})
    zones = MatZones(mat_layout("bandit"))

    def small(picture: np.ndarray) -> np.ndarray:
        return small_copy(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY))

    first = zones.find(frame, to_mat, small=small(frame))
    singles = sum(1 for zone in mat_layout("bandit").zones if not zone.multi)
    assert zones.cut_out == singles
    still = table.frame()  # fresh sensor noise, nothing moved
    again = zones.find(still, to_mat, small=small(still))
    assert zones.cut_out == singles and [o.quad.tolist() for o in again] == [o.quad.tolist() for o in first]
    table.place("r2c2", "cherry")
    laid = table.frame()
    found = zones.find(laid, to_mat, small=small(laid))
    assert singles < zones.cut_out < 2 * singles  # the new card's zone and some beside it
    placed = table.cards["r2c2"].corners
    size = float(np.linalg.norm(placed[0] - placed[2]))
    assert min(float(np.linalg.norm(o.quad.mean(axis=0) - placed.mean(axis=0))) for o in found) < 0.15 * size


def test_zones_holding_cards_already_found_are_skipped() -> None:
    _table, frame, to_mat = mat_scene(4, {"r0c0": "cherry"})
    zones = MatZones(mat_layout("bandit"))
    everything = zones.find(frame, to_mat)
    taken = [o.quad for o in everything]
    assert everything and MatZones(mat_layout("bandit")).find(frame, to_mat, taken) == []


def zone_quad(to_mat: np.ndarray, corners_mm: list[tuple[float, float]]) -> np.ndarray:
    """Mat millimetres to frame pixels."""
    from vision.layout import transform

    return transform(np.linalg.inv(to_mat), np.array(corners_mm, np.float32))


def test_an_outline_along_a_zones_printed_frame_is_the_frame_not_a_card() -> None:
    _table, _frame, to_mat = mat_scene(0, {})
    zones = MatZones(mat_layout("bandit"))
    zone = mat_layout("bandit").zone("r0c0")
    assert zone is not None
    x0, y0, x1, y1 = zone.x, zone.y, zone.x + zone.w, zone.y + zone.h
    # The whole frame, and the frame's top and sides joined to the bottom edge of a card lying
    # low in the zone (what the thorough search's straight edges gave, named by no face).
    assert zones.is_frame(zone_quad(to_mat, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]), to_mat)
    assert zones.is_frame(zone_quad(to_mat, [(x0, y0), (x1, y0), (x1, y1 - 7), (x0, y1 - 7)]), to_mat)
    # A card pushed into the zone's corner lies on two of its lines, never on two opposite ones.
    card = [(x0, y0), (x0 + 63, y0), (x0 + 63, y0 + 88), (x0, y0 + 88)]
    assert not zones.is_frame(zone_quad(to_mat, card), to_mat)
    middle = [(x0 + 6, y0 + 6), (x0 + 69, y0 + 6), (x0 + 69, y0 + 94), (x0 + 6, y0 + 94)]
    assert not zones.is_frame(zone_quad(to_mat, middle), to_mat)


def test_taught_cards_lying_low_in_their_zones_are_named_not_taken_with_the_zones_frames(
    tmp_path: Path,
) -> None:
    """The thorough search (here a reader's first frame) took a zone's printed frame, joined to
    the bottom edge of the card lying low in it, for the card: named by no face, it hid it."""
    from companion.bench.latency import teach_deck
    from vision.taught_scene import scene_style

    art = teach_deck(tmp_path / "enrolled")
    table = SimulatedTable("bandit", seed=0, style=scene_style(0, "wood", card_px=120, tilt=10), taught=art)
    dealt = {"r0c0": "bar", "r0c1": "plum", "r0c2": "seven"}
    for zone, card_id in dealt.items():
        table.place(zone, card_id)
    # The seventh frame's sensor noise gave a zone's frame lines and a card's edge as one outline
    # (found so on a dealt table in the taught latency bench: `companion bench latency --taught`).
    for _ in range(6):
        table.frame()
    reader = reader_for_game("bandit", use_mat=True, store=tmp_path / "enrolled")
    reading = reader.read(table.frame())
    assert {card.zone: card.card_id for card in reading.cards} == dealt


def test_a_card_dealt_and_named_by_its_features_needs_no_face_search_once_the_table_settles(
    tmp_path: Path,
) -> None:
    """A card the thumbnails could not decide as it arrived is named by its features once it
    lies still, a few pixels off the outline it was found by. Where it lies explains the change:
    the face search (about 300 ms here, over a second on a Pi) has nothing to look for."""
    from companion.bench.latency import _deal, _scenes, teach_deck

    art = teach_deck(tmp_path / "enrolled")
    scenes = _scenes(0, _deal(1000), art)  # the taught latency bench's first deal
    reader = reader_for_game("bandit", use_mat=True, store=tmp_path / "enrolled")
    assert reader.taught is not None
    for scene in scenes[:4]:
        for frame in scene:  # each card arrives, then the table settles
            reader.read(frame)
    searches = reader.taught.searches
    arrived = reader.read(scenes[4][0])
    assert [card.zone for card in arrived.cards if card.card_id is None] == ["r1c0"]  # waiting
    zones = reader.taught._zones
    assert zones is not None
    cut_out = zones.cut_out
    settled = reader.read(scenes[4][1])
    assert {card.zone: card.card_id for card in settled.cards}["r1c0"] == "any"
    assert reader.taught.searches == searches
    # Nothing changed since the card arrived: no zone's picture is cut out again.
    assert zones.cut_out == cut_out


def test_a_card_lying_against_its_zones_frame_line_is_placed_on_its_own_edges(tmp_path: Path) -> None:
    """Cards turned a few degrees fill most of a zone and touch its printed frame line, which a
    camera blurs wider than the border samples' median ignores: a placement with one side
    between the line and the card showed a stronger step than the card's own edges, and the
    card was placed up to 11 mm off (two of the taught latency bench's deals; its face was then
    never found in the cut)."""
    from companion.bench.latency import _deal, teach_deck
    from companion.flows.bandit import zone_of
    from vision.taught_scene import scene_style

    art = teach_deck(tmp_path / "enrolled")
    worst = 0.0
    for deal in (4004, 1003):
        style = scene_style(deal % 5, "wood", card_px=120, tilt=10)
        table = SimulatedTable("bandit", seed=deal % 5, style=style, taught=art)
        for k, card_id in enumerate(_deal(deal)):
            table.place(zone_of(k), card_id)
            frame = table.frame()
            to_mat = homography(frame)
            lying = table.cards[zone_of(k)].corners
            mm = 108.0 / float(np.linalg.norm(lying[0] - lying[2]))  # a card's diagonal: 108 mm
            found = MatZones(mat_layout("bandit")).find(frame, to_mat)
            # The zone's outline: each corner near one of the card's.
            off = min(max(float(np.linalg.norm(lying - c, axis=1).min()) for c in o.quad) for o in found)
            worst = max(worst, off * mm)
    assert worst < 4.0


def test_an_outline_that_is_not_sure_does_not_keep_the_zone_search_from_its_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outline search may give a card's edge joined to its zone's frame line: card-sized,
    not sure, and no face is found in it. The zone search must still look into that zone, or
    the card lying there is never found (the taught latency bench: deal 3000's eighth card, in
    2 of 5 frame orders)."""
    from companion.bench.latency import teach_deck
    from vision.card_outlines import CardOutline
    from vision.frame_outlines import FrameOutlines
    from vision.taught_scene import scene_style

    art = teach_deck(tmp_path / "enrolled")
    table = SimulatedTable("bandit", seed=0, style=scene_style(0, "wood", card_px=120, tilt=10), taught=art)
    table.place("r1c1", "plum")
    frame = table.frame()
    lying = table.cards["r1c1"].corners
    # A third of a card's width off, across the zone's frame line: over the zone's middle.
    off = (lying[1] - lying[0]) * 0.35
    wrong = CardOutline((lying + off).astype(np.float32), False, True)
    monkeypatch.setattr(FrameOutlines, "first", lambda self, *a: [wrong])
    # Nor is it found by its features over the whole frame (made-up art has few).
    monkeypatch.setattr(taught_reader, "search_faces", lambda *a: [])
    reader = reader_for_game("bandit", use_mat=True, store=tmp_path / "enrolled")
    reading = reader.read(frame)
    assert {card.zone: card.card_id for card in reading.cards if card.card_id} == {"r1c1": "plum"}
