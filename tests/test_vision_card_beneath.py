"""Cards beneath a card: the strip of a fanned or overlapped card beside the card on top is
placed as a whole card, with what shows of it; a lone card or a card beside another has none."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.beneath_edges import on_its_edges
from vision.card_beneath import cards_beneath, strip_share
from vision.card_checks import iou, order_quad
from vision.card_rows import cards_within
from vision.enrolled import EnrolledDeck
from vision.frame_blocks import small_copy
from vision.kept_answers import KeptAnswers
from vision.reader import CardReader
from vision.simulated import SimulatedTable
from vision.taught_scene import scene_style, synthetic_face, teach_synthetic_faces

GAME = "bandit"


def table(seed: int, kind: str = "wood") -> SimulatedTable:
    return SimulatedTable(GAME, seed=seed, mat=False, style=scene_style(seed, kind, card_px=150, tilt=8))


def placed(scene: SimulatedTable, label: str) -> np.ndarray:
    return next(p.corners for p in scene.loose if p.printed.card_id == label)


def shown_part(under: np.ndarray, over: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A mask of what shows of ``under`` with ``over`` on it."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(under).astype(np.int32), 1)
    cv2.fillConvexPoly(mask, np.round(over).astype(np.int32), 0)
    return mask


def mask_iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum()) / max(1.0, float((a | b).sum()))


@pytest.mark.parametrize(
    ("seed", "kind", "shift", "turn"),
    [(41, "wood", 40.0, 0.0), (42, "felt", -45.0, 4.0), (43, "dark", 30.0, -3.0)],
)
def test_a_strip_beside_the_card_on_top_is_the_whole_card_beneath(
    seed: int, kind: str, shift: float, turn: float
) -> None:
    scene = table(seed, kind)
    x, y = scene.centre
    scene.place_art(synthetic_face(seed), (x, y), 10.0, label="under")
    scene.place_art(synthetic_face(seed + 100), (x + shift, y + 3.0), 10.0 + turn, label="over")
    frame = scene.frame()
    under, over = placed(scene, "under"), placed(scene, "over")

    found = cards_beneath(frame, [over])

    assert len(found) == 1
    card = found[0]
    assert iou(card.card, under) > 0.85
    shows = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillPoly(shows, [np.round(card.visible).astype(np.int32)], 1)
    assert mask_iou(shows, shown_part(under, over, frame.shape)) > 0.75
    assert 0.1 < strip_share(card) < 0.8


@pytest.mark.parametrize(
    ("seed", "kind", "shift", "turn"),
    [(41, "wood", 20.0, 23.0), (42, "felt", 20.0, 23.0), (43, "dark", 20.0, -23.0)],
)
def test_a_wedge_beside_the_card_on_top_is_the_card_beneath_turned_against_it(
    seed: int, kind: str, shift: float, turn: float
) -> None:
    """A card on top turned some 20 degrees against the card beneath shows it as a wedge along
    most of one side, widening to the corner beside it (realcards IMG_2605, a ten under a king).
    The wedge's long edge is straight but not a side's length: it is one edge of a corner."""
    scene = table(seed, kind)
    x, y = scene.centre
    scene.place_art(synthetic_face(seed), (x, y), 0.0, label="under")
    scene.place_art(synthetic_face(seed + 100), (x + shift, y), turn, label="over")
    frame = scene.frame()

    found = cards_beneath(frame, [placed(scene, "over")])

    assert len(found) == 1 and iou(found[0].card, placed(scene, "under")) > 0.9


def carpet_scene(seed: int, shift: float, turn: float, beneath: bool = True) -> tuple[np.ndarray, ...]:
    """A 378 x 504 photo of a tan carpet flecked with light fibres (as light as card paper, in
    the paper's gaps of print) and a plain card lying over another ``shift`` px aside, turned
    ``turn`` degrees against it; the photo, the card beneath's corners and the card on top's."""
    rng = np.random.default_rng(seed)
    image = np.empty((504, 378, 3), np.float32)
    image[:] = (95, 130, 160)
    image += cv2.resize(rng.normal(0, 18, (126, 95, 1)).astype(np.float32), (378, 504))[:, :, None]
    flecks = zip(rng.integers(0, 378, 600), rng.integers(0, 504, 600), rng.integers(1, 3, 600), strict=True)
    for x, y, r in flecks:
        cv2.circle(image, (int(x), int(y)), int(r), (215, 222, 228), -1)

    def card(centre: tuple[float, float], degrees: float) -> np.ndarray:
        turned = np.radians(degrees)
        c, s = np.cos(turned), np.sin(turned)
        half = np.array([[-75, -105], [75, -105], [75, 105], [-75, 105]], np.float32)
        return (half @ np.array([[c, s], [-s, c]], np.float32) + centre).astype(np.float32)

    angle = float(rng.uniform(-20, 20))
    under = card((180, 250), angle)
    across = np.radians(angle)
    over = card((180 + shift * np.cos(across), 250 + shift * np.sin(across)), angle + turn)
    for quad, ink in [(under, (40, 40, 200))] * beneath + [(over, (30, 30, 30))]:
        cv2.fillConvexPoly(image, np.round(quad).astype(np.int32), (232, 236, 238), cv2.LINE_AA)
        cv2.circle(image, (int(quad[:, 0].mean()), int(quad[:, 1].mean())), 25, ink, -1)
    image = cv2.GaussianBlur(image, (3, 3), 0) + rng.normal(0, 3, image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8), under, over


@pytest.mark.parametrize("seed", [4, 5])
@pytest.mark.parametrize(("shift", "turn"), [(70.0, 0.0), (-75.0, 3.0), (80.0, -3.0)])
def test_a_strip_on_a_flecked_carpet_is_the_card_beneath(seed: int, shift: float, turn: float) -> None:
    """Light fibres of a carpet are paper to the rays, and a ray's paper bridges print: past the
    strip's edge the rays ran on over the carpet, and the edge was taken for no edge (realcards
    IMG_2641, an ace beneath a nine). Where the paper stops just past the edge decides."""
    frame, under, over = carpet_scene(seed, shift, turn)
    found = cards_beneath(frame, [over])
    assert len(found) == 1 and iou(found[0].card, under) > 0.9
    alone, _under, over = carpet_scene(seed, shift, turn, beneath=False)
    assert cards_beneath(alone, [over]) == []


@pytest.mark.parametrize(
    ("seed", "kind", "shift"), [(41, "wood", 40.0), (42, "felt", -45.0), (43, "dark", 30.0)]
)
@pytest.mark.parametrize("larger", [1.07, 0.95])
def test_a_card_beneath_looking_smaller_or_larger_than_the_card_on_top_is_placed_by_its_ends(
    seed: int, kind: str, shift: float, larger: float
) -> None:
    """Perspective shows the card beneath a few % smaller or larger than the card on top; where
    both its ends show, they place it (sized as the card on top, its border was off the paper:
    not found, or several pixels off)."""
    scene = table(seed, kind)
    x, y = scene.centre
    scene.place_art(synthetic_face(seed), (x, y), 10.0, label="under")
    scene.place_art(synthetic_face(seed + 100), (x + shift, y + 3.0), 10.0, label="over")
    frame = scene.frame()
    under, over = order_quad(placed(scene, "under")), order_quad(placed(scene, "over"))
    centre = over.mean(axis=0)
    top = (centre + (over - centre) * larger).astype(np.float32)  # the card on top as the camera sees it

    found = cards_beneath(frame, [top])

    assert len(found) == 1
    card = found[0].card
    worst = min(float(np.linalg.norm(np.roll(card, k, axis=0) - under, axis=1).max()) for k in range(4))
    assert worst < 0.025 * float(np.linalg.norm(under[3] - under[0]))  # measured: 3.3 px of 209 at most


@pytest.mark.parametrize(
    ("seed", "kind", "shift", "turn"),
    [(41, "wood", 40.0, 0.0), (42, "felt", -45.0, 4.0), (43, "dark", 30.0, -3.0)],
)
@pytest.mark.parametrize("off", [6.0, -5.0])
def test_a_card_beneath_placed_a_few_pixels_off_is_laid_on_its_own_edges(
    seed: int, kind: str, shift: float, turn: float, off: float
) -> None:
    """The rays find the strip's outer edge a few pixels off (print bridged, a light table's
    specks): the card is moved onto its edges where they show, the side under the card on top
    following the one opposite it (and not pulled onto the covering card's edge)."""
    scene = table(seed, kind)
    x, y = scene.centre
    scene.place_art(synthetic_face(seed), (x, y), 10.0, label="under")
    scene.place_art(synthetic_face(seed + 100), (x + shift, y + 3.0), 10.0 + turn, label="over")
    frame = scene.frame()
    under, over = order_quad(placed(scene, "under")), order_quad(placed(scene, "over"))
    away = under.mean(axis=0) - over.mean(axis=0)
    guess = (under + away / float(np.linalg.norm(away)) * off).astype(np.float32)

    laid = on_its_edges(frame, guess, [over])

    assert float(np.linalg.norm(laid - under, axis=1).max()) < 2.5  # measured: 2.3 px at most


def test_a_side_showing_a_third_of_its_length_is_laid_where_it_shows() -> None:
    """A card seen at a slant: its top and bottom sides 8 degrees apart, a card on top hiding
    the top side but for its first 0.4 (7 of the 16 profiles) and the whole right side. The top
    side is fitted where it shows, not laid parallel to the bottom side."""
    frame = np.full((360, 360, 3), 60, np.uint8)
    under = np.float32([[100, 100], [230, 100], [230, 262], [100, 280]])
    over = np.float32([[170, 70], [320, 70], [320, 250], [170, 250]])
    cv2.fillConvexPoly(frame, np.round(under).astype(np.int32), (220, 220, 220))
    cv2.fillConvexPoly(frame, np.round(over).astype(np.int32), (200, 200, 200))
    cv2.polylines(frame, [np.round(over).astype(np.int32)], True, (90, 90, 90), 2)
    frame = cv2.GaussianBlur(frame, (0, 0), 1.0)
    # The rays' placement: a rectangle, a few pixels off.
    guess = np.float32([[97, 97], [233, 97], [233, 275], [97, 275]])

    laid = on_its_edges(frame, guess, [over])

    # Where the top side goes under the card on top (x = 170) it lies on the card's edge (y = 100).
    start, end = laid[0], laid[1]
    at_cover = start + (end - start) * (170.0 - start[0]) / (end[0] - start[0])
    assert abs(float(at_cover[1]) - 100.0) < 2.5  # measured: 0.6 px; laid parallel, 8.7 px
    assert float(np.linalg.norm(laid[3] - under[3])) < 2.5


def test_a_card_alone_or_beside_another_has_nothing_beneath() -> None:
    scene = table(44)
    x, y = scene.centre
    scene.place_art(synthetic_face(1), (x, y), 5.0, label="one")
    scene.place_art(synthetic_face(2), (x + 75.0, y), 5.0, label="two")  # a card's width and a gap away
    frame = scene.frame()
    assert cards_beneath(frame, [placed(scene, "one")]) == []
    assert cards_beneath(frame, [placed(scene, "one"), placed(scene, "two")]) == []


def test_a_card_slid_beneath_a_card_lying_still_is_found_and_a_still_table_is_not_looked_at_again() -> None:
    """Answers of a look at a still table are kept (vision.kept_answers): kept too long, a card
    slid beneath later is never found; never kept, each look costs every side of every card."""

    def small(frame: np.ndarray) -> np.ndarray:
        return small_copy(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))

    scene = table(41)
    x, y = scene.centre
    scene.place_art(synthetic_face(141), (x + 40.0, y + 3.0), 10.0, label="over")
    kept = KeptAnswers()
    alone = scene.frame()
    over = placed(scene, "over")
    kept.settled(small(alone), alone.shape)
    assert cards_beneath(alone, [over], kept=kept) == []
    scene.place_art(synthetic_face(41), (x, y), 10.0, label="under")
    scene.loose.insert(0, scene.loose.pop())  # slid beneath the card lying there
    for look in range(3):
        frame = scene.frame()  # fresh sensor noise each look
        under = placed(scene, "under")
        kept.settled(small(frame), frame.shape)
        worked_out = kept.worked_out
        found = cards_beneath(frame, [over], kept=kept)
        assert [iou(card.card, under) > 0.85 for card in found] == [True]
        assert (kept.worked_out > worked_out) == (look == 0)  # the strip's side, once




@pytest.mark.parametrize(("seed", "kind"), [(41, "wood"), (42, "felt"), (43, "dark")])
def test_the_last_card_of_a_fan_is_found_beside_the_covered_card_it_lies_under(seed: int, kind: str) -> None:
    """A fan of three: from the card on top, the paper of both strips beneath is deeper than one
    card's strip; the strip beside the middle card's free side is the card under it."""
    scene = table(seed, kind)
    x, y = scene.centre
    scene.place_art(synthetic_face(seed), (x, y), 8.0, label="bottom")
    scene.place_art(synthetic_face(seed + 1), (x - 50.0, y + 2.0), 8.0, label="middle")
    scene.place_art(synthetic_face(seed + 2), (x - 100.0, y + 4.0), 8.0, label="top")
    frame = scene.frame()
    bottom, middle, top = (placed(scene, label) for label in ("bottom", "middle", "top"))

    assert not any(iou(card.card, bottom) > 0.5 for card in cards_beneath(frame, [top]))
    found = cards_beneath(frame, [top], partly=[middle])

    assert [round(iou(card.card, bottom), 1) >= 0.9 for card in found] == [True]
    shows = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillPoly(shows, [np.round(found[0].visible).astype(np.int32)], 1)
    assert mask_iou(shows, shown_part(bottom, middle, frame.shape)) > 0.75  # the middle card hides it too


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> EnrolledDeck:
    """Four made-up faces (SYNTHETIC_SEEDS), each taught from a whole photo of it on a wood table."""
    return teach_synthetic_faces(tmp_path_factory.mktemp("store"))


def fanned(under: np.ndarray, seed: int = 51) -> SimulatedTable:
    """``under`` with a bell laid over it, a strip of ``under`` with its corner index showing."""
    scene = table(seed, "felt")
    x, y = scene.centre
    scene.place_art(under, (x, y), 6.0, label="under")
    scene.place_art(synthetic_face(14), (x + 22.0, y + 2.0), 6.0, label="over")
    return scene


def test_the_reader_names_a_card_beneath_by_its_strip_and_keeps_it_while_nothing_moves(
    deck: EnrolledDeck,
) -> None:
    scene = fanned(synthetic_face(11))
    reader = CardReader(GAME, use_mat=False, enrolled=deck)
    assert reader.taught is not None
    first = reader.read(scene.frame())
    plum = [c for c in first.cards if c.card_id == "plum"]
    assert len(plum) == 1 and plum[0].confidence >= 0.8 and plum[0].visible is not None
    assert iou(np.array(plum[0].corners, np.float32), placed(scene, "under")) > 0.85
    checks = reader.taught.beneath_checks
    assert checks >= 1
    again = reader.read(scene.frame())  # nothing moved: the answer stands, nothing compared again
    assert "plum" in {c.card_id for c in again.cards} and reader.taught.beneath_checks == checks


def test_a_strip_of_a_face_never_taught_is_not_named(deck: EnrolledDeck) -> None:
    reader = CardReader(GAME, use_mat=False, enrolled=deck)
    cards = reader.read(fanned(synthetic_face(77)).frame()).cards
    assert reader.taught is not None and reader.taught.beneath_checks >= 1
    assert sorted(c.card_id for c in cards if c.card_id) == ["bell"]


def test_a_row_of_cards_in_one_outline_gives_a_card_at_each_end() -> None:
    row = np.float32([[100, 50], [300, 50], [300, 170], [100, 170]])  # two cards side by side, 120 high
    # Cards standing in the row (and, as the row is long enough, cards lying across it too).
    cards = [c for c in cards_within(row) if float(np.ptp(c[:, 0])) < float(np.ptp(c[:, 1]))]
    assert len(cards) == 2
    for card, x in zip(sorted(cards, key=lambda c: float(c[:, 0].mean())), (100, 300), strict=True):
        xs, ys = card[:, 0], card[:, 1]
        assert abs((xs.max() - xs.min()) - 120 * 63 / 88) < 1 and abs((ys.max() - ys.min()) - 120) < 1
        assert x in (round(float(xs.min())), round(float(xs.max())))  # at the row's end
    # A row standing the other way (cards lying across it) gives those.
    lying = cards_within(np.float32([[0, 0], [120, 0], [120, 200], [0, 200]]))
    assert any(
        abs(float(np.ptp(c[:, 1])) - 120 * 63 / 88) < 1 and float(np.ptp(c[:, 0])) == 120 for c in lying
    )


def test_a_card_beneath_taken_away_is_no_longer_named_and_cards_laid_are_looked_under_once_settled(
    deck: EnrolledDeck,
) -> None:
    scene = fanned(synthetic_face(11))
    reader = CardReader(GAME, use_mat=False, enrolled=deck)
    assert "plum" in {c.card_id for c in reader.read(scene.frame()).cards}
    scene.loose = [p for p in scene.loose if p.printed.card_id != "under"]  # slid out from under
    assert "plum" not in {c.card_id for c in reader.read(scene.frame()).cards}
    assert "plum" not in {c.card_id for c in reader.read(scene.frame()).cards}
    x, y = scene.centre
    scene.loose.insert(0, fanned(synthetic_face(11)).loose[0])  # slid back beneath the bell
    assert reader.taught is not None
    checks = reader.taught.beneath_checks
    moving = reader.read(scene.frame())  # the frame it arrives in: not looked under yet
    assert "plum" not in {c.card_id for c in moving.cards} and reader.taught.beneath_checks == checks
    reused = reader.taught.kept.reused
    settled = reader.read(scene.frame())
    assert "plum" in {c.card_id for c in settled.cards}
    # The bell's sides away from the strip were looked beside when the table settled without
    # the plum: those answers stand (vision.kept_answers).
    assert reader.taught.kept.reused > reused


def test_parts_of_one_card_named_alike_are_one_card_and_two_cards_stay_two() -> None:
    from vision.face_match import Match
    from vision.taught_seen import TaughtSeen, once_each

    card = np.float32([[100, 100], [200, 100], [200, 240], [100, 240]])
    left, right = card.copy(), card.copy()
    left[1:3, 0], right[[0, 3], 0] = 140, 140  # a cable across it: two parts
    bar = Match("bar", 0.9, 0.0, 0.3, "bar", "features")
    halves = [TaughtSeen(card, bar, left, left), TaughtSeen(card + 1, bar, right, right)]
    kept = once_each(halves)
    assert len(kept) == 1 and kept[0].visible is right  # the part that shows most
    other = TaughtSeen(card + 2, Match("plum", 0.9, 0.0, 0.3, "plum", "features"), left, left)
    assert len(once_each([*halves, other])) == 2  # a plum lying on the bar stays
    apart = TaughtSeen(card + 300, bar, card + 300)
    assert len(once_each([*halves, apart])) == 2  # two bars apart are two cards
