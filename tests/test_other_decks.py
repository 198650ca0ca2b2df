"""Decks printed unlike the pinochle one (``realcards.other_decks``): rendered faces on real tables.

The bench's line per style is what the project knows about such decks; these tests hold its
floor on a small seeded set: every style is drawn with rounded corners and laid where its box
says, the bordered and full-bleed decks are taught and read, and no style names a card wrongly
(nor a face never taught).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.deck_styles import (
    CORNER_RADIUS,
    FACE_H,
    FACE_W,
    FACES,
    STYLES,
    corner_mask,
    deck_faces,
    render_face,
)

REALCARDS = Path(__file__).resolve().parent.parent.parent / "shared" / "realcards" / "photos"
needs_realcards = pytest.mark.skipif(not REALCARDS.is_dir(), reason="no ../shared/realcards beside the clone")


def test_every_style_has_look_alikes_and_untaught_faces() -> None:
    for style in STYLES:
        faces = deck_faces(style)
        taught = [f for f in faces if f.card_id is not None]
        assert len({f.card_id for f in taught}) == len(taught)
        symbols = [f.symbol for f in taught]
        assert any(symbols.count(s) > 1 for s in symbols)  # a look-alike pair among the taught
        assert any(f.card_id is None and f.symbol in symbols for f in faces)  # and one never taught
    assert len(FACES) == len(deck_faces(STYLES[0]))


def test_faces_differ_and_corners_are_rounded() -> None:
    mask = corner_mask()
    assert mask[0, 0] == 0.0 and mask[-1, -1] == 0.0
    assert mask[CORNER_RADIUS, CORNER_RADIUS] == 1.0 and mask[mask.shape[0] // 2, 0] == 1.0
    for style in STYLES:
        a, b = (render_face(f).astype(int) for f in deck_faces(style)[:2])
        assert np.abs(a - b).mean() > 0.5  # the look-alike pair differs in its number


@needs_realcards
def test_laid_cards_are_where_their_boxes_say() -> None:
    import cv2

    from vision.labelled_photos import load_photos
    from vision.other_decks import place, table_squares
    from vision.photo_tables import lay_cards, table_photo

    patches = table_squares(load_photos(REALCARDS)[:20])
    assert patches
    rng = np.random.default_rng(4)
    faces = deck_faces("dark")[:3]
    corners = place(rng, 3, 90.0, overlap=False)
    photo, laid = lay_cards(
        table_photo(patches[0], rng),
        [(render_face(f), corner_mask(), c) for f, c in zip(faces, corners, strict=True)],
        rng,
    )
    for card in laid:
        # Apart, nothing covers any of them: what shows is the whole card (less the tips of its
        # rounded corners).
        assert np.abs(np.subtract(card.box, card.visible_box)).max() <= 3
        # The face lies on the corners: a point of its dark ground, near the top's middle.
        to_photo = cv2.getPerspectiveTransform(
            np.float32([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]]), card.corners
        )
        x, y = cv2.perspectiveTransform(np.float32([[[FACE_W / 2, 0.08 * FACE_H]]]), to_photo)[0, 0]
        assert photo[int(y), int(x)].mean() < 60


@pytest.fixture(scope="module")
def tables() -> list[np.ndarray]:
    from vision.labelled_photos import load_photos
    from vision.other_decks import table_squares

    return table_squares(load_photos(REALCARDS))


#: Photos read per style: the first 17 seeded ones (the full-bleed deck's look-alike hole shows
#: in photos 13 and 16 since its cards are found by their die-cut edge; 12 showed none).
SCENES = 17
#: What each style reads at least on those photos (taught faces) and how many of its five faces
#: are taught, as the figure stands. Full-bleed and dark faces are found by their die-cut edge
#: (:mod:`vision.die_cut`; without it: 10 and 0 read, 2 and 0 taught). Bordered: 22 (half as
#: many when the reader does not look again out to a printed border,
#: :func:`vision.printed_border.named_by_border`). Dark: a card off paper is named only when its
#: index tells it apart from every other taught face's (:mod:`vision.corner_index`'s rivals),
#: and its seven, a dark face on dark cloth, is not taught; its cherry two and three, which
#: share their art, are told apart by their corner index (12 read before). Full-bleed: 31 until
#: a face-search placement that fails is compared again lined up within a frame pixel
#: (vision.face_placing: realcards at 0.6x 250 -> 254 right); one full-bleed card of these
#: photos is lost with it (why was not found; still 0 wrong).
#: Faces of one art (the cherry two and three) are told apart by their corner index where the
#: features line both up alike (vision.face_features' ``shared``): full-bleed 30 -> 43, bordered
#: 23 -> 27, dark 19 -> 20. The floors leave a card or two for another platform's arithmetic.
FLOOR = {"full_bleed": 41, "dark": 19, "bordered": 25}
#: The dark deck on seed 1's tables (a bar on a patterned rug, dark where it meets a side): all
#: five faces taught (4 before a faint step on an even rim counted, vision.die_cut.side_steps)
#: and read on those photos at least this often (19 now; 16 before the cherry two and three
#: were told apart by their corner index; 8 with four faces taught and dark faces compared by
#: brightness over the light level, which a glossy reflection upsets).
DARK_SEED1_FLOOR = 18
TAUGHT_FLOOR = {"full_bleed": 5, "dark": 4, "bordered": 5}


@pytest.fixture(scope="module")
def lines(tables: list[np.ndarray]) -> dict[str, dict]:
    from vision.other_decks import style_figure

    return {style: style_figure(style, tables, scenes=SCENES) for style in STYLES}


@needs_realcards
@pytest.mark.parametrize("style", sorted(FLOOR))
def test_style_is_taught_and_read(style: str, lines: dict[str, dict]) -> None:
    line = lines[style]
    assert line["cards"] + line["untaught_cards"] >= 12
    assert line["right"] >= FLOOR[style], line
    assert line["taught"] >= TAUGHT_FLOOR[style], line
    # Bordered: the border printed round the white centre is taught with it (without, the
    # centre alone was cut out, 5 of 5, its corner numbers lost). Full-bleed: a face cut along
    # a ray of its art is taken whole (vision.die_cut_capture; without, 1 of 2 was half a card).
    assert line["wrong_cutouts"] == 0, line["wrong_cutout_faces"]


@needs_realcards
@pytest.mark.parametrize("style", STYLES)
def test_no_style_names_a_card_wrongly(style: str, lines: dict[str, dict]) -> None:
    # A card is named only when a corner index of it in view is the named face's print and tells
    # it apart from every other taught face's (vision.corner_index): without, the bordered deck
    # named 22 cards wrongly on seed 1's tables (its cherry's teaching cut-out halves the
    # numbers); with the print alone, full-bleed cards were named as their taught look-alike
    # and never-taught 4s as a taught 2 or 3 (photos 13 and 16 here: one cut by the frame's
    # edge, named by its features; one within the limit of both).
    line = lines[style]
    assert line["wrong"] == 0 and line["untaught_named"] == 0, line["wrong_examples"]


@needs_realcards
def test_a_dark_deck_is_taught_and_read_on_dark_and_uneven_tables(tables: list[np.ndarray]) -> None:
    from vision.other_decks import style_figure

    line = style_figure("dark", tables, scenes=SCENES, seed=1)
    assert line["taught"] == 5, line["refused_examples"]
    assert line["right"] >= DARK_SEED1_FLOOR, line
    assert line["wrong"] == 0 and line["untaught_named"] == 0 and line["wrong_cutouts"] == 0, line
