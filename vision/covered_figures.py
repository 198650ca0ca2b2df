"""How the covered-card path names a card lying beneath another, on real art: ``companion bench
covered``.

:meth:`vision.enrolled.EnrolledDeck.identify_covered` names a card from the strip of it that
shows, a corner index in it. In the realcards photos few cards lie so, too few to tell how safe
it is; here every other taught cut-out is taught, and the others are laid on real table squares
with a card of another rank over all of the card but a strip at its side (its corners given a few
% off, as the geometry extrapolates them), sharp and softened by a camera's blur, and read:

- with every rank taught (right, wrong, unidentified);
- with the card's own rank left untaught (any id named is wrong);
- as a look-alike never taught: the same card with another index printed over both of its own
  (a rank whose pips match a taught one's; any id named is wrong).

:func:`second_digit` measures a limit those pinochle look-alikes (one-character ranks) cannot:
a two-digit index whose first digit a never-taught card shares (a "19"'s art numbered "10" to
"18"), on the synthetic faces of :mod:`vision.taught_scene`.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np

#: Where the card beneath lies (TL TR BR BL of the upright face): 130 px wide, a little turned.
CARD = np.float32([[120, 80], [250, 92], [238, 272], [106, 259]])
#: Its corners as extrapolated from what shows: each 2 % of the card's size off, in another order.
OFF_CORNERS = (CARD + np.float32([[2.6, -3.6], [-2.6, 3.6], [2.6, 3.6], [-2.6, -3.6]]))[[2, 0, 3, 1]]
#: The camera's blur (Gaussian sigma, frame px) the scenes are read at.
BLURS = (0.0, 1.0, 1.5)
#: Each card is read twice: this share of its width showing, and turned upside down or not.
STRIPS = ((0.3, False), (0.25, True))
#: Cut-outs are compared at this size (px, portrait).
FACE_SIZE = (200, 280)
#: The index printed over a look-alike's own: a rank no deck of these games shares with pinochle.
LOOK_ALIKE_INDEX = "7"
GAME = "bandit"
#: The second-digit look-alikes' strips: a quarter of the card shows only the narrow index zone
#: (the first digit and part of the second); four tenths show the wide zone, the index whole.
SECOND_DIGIT_STRIPS = {"narrow": 0.25, "wide": 0.4}
#: The face laid over them (never taught; an art of its own).
SECOND_DIGIT_COVER = 12


def lay(frame: np.ndarray, face: np.ndarray, quad: np.ndarray) -> None:
    """Paint ``face`` onto ``frame`` inside ``quad`` (TL TR BR BL)."""
    h, w = face.shape[:2]
    source = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    homography = cv2.getPerspectiveTransform(source, np.float32(quad))
    size = (frame.shape[1], frame.shape[0])
    warped = cv2.warpPerspective(face, homography, size, flags=cv2.INTER_AREA)
    inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), homography, size) > 128
    frame[inside] = warped[inside]


def covered_scene(
    table: np.ndarray, face: np.ndarray, cover: np.ndarray, shown: float, turned: bool, blur: float, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """A 400 x 360 frame of ``table`` with ``face`` (upside down when ``turned``) at ``CARD``
    and ``cover`` over all of it but its left ``shown`` share, softened by ``blur`` (sigma px)
    and a little noise; and the polygon (frame px) of the part that shows."""
    frame = cv2.resize(table, (400, 360), interpolation=cv2.INTER_AREA)
    lay(frame, face[::-1, ::-1] if turned else face, CARD)
    width = CARD[1] - CARD[0]
    over = CARD + shown * np.float32([width] * 4)
    lay(frame, cover, over)
    visible = np.float32([CARD[0], over[0], over[3], CARD[3]])
    if blur:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    noise = np.random.default_rng(seed).normal(0, 3, frame.shape)
    return (frame + noise).clip(0, 255).astype(np.uint8), visible


def look_alike(face: np.ndarray) -> np.ndarray:
    """``face`` with ``LOOK_ALIKE_INDEX`` printed over its rank in both corner indices (the top
    left, and the bottom right turned; the suit beneath kept), on the index's own paper colour
    in its own print's colour."""
    card = cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA)
    w, h = FACE_SIZE
    rank = (slice(int(0.015 * h), int(0.155 * h)), slice(int(0.02 * w), int(0.14 * w)))
    for _turn in range(2):
        pixels = card[rank].reshape(-1, 3)
        grey = pixels.astype(np.float32).sum(axis=1)
        paper = tuple(int(v) for v in np.median(pixels[grey >= np.median(grey)], axis=0))
        ink = tuple(int(v) for v in np.median(pixels[grey <= np.percentile(grey, 10)], axis=0))
        card[rank] = paper
        cv2.putText(
            card,
            LOOK_ALIKE_INDEX,
            (int(0.025 * w), int(0.13 * h)),
            cv2.FONT_HERSHEY_DUPLEX,
            0.9,
            ink,
            2,
            cv2.LINE_AA,
        )
        card = np.ascontiguousarray(card[::-1, ::-1])
    return card


def _read(
    deck: Any,
    faces: list[tuple[str, np.ndarray]],
    covers: list[np.ndarray],
    tables: list[np.ndarray],
    blur: float,
) -> dict[str, Any]:
    """Every face in ``faces`` (id, card at ``FACE_SIZE``) laid covered (by ``covers``, at
    ``FACE_SIZE``) and read: right, wrong (with what it was read as), unidentified."""
    right = unidentified = 0
    wrong: list[str] = []
    for k, (face_id, card) in enumerate(faces):
        cover = covers[(7 * k + 3) % len(covers)]
        for shown, turned in STRIPS:
            frame, visible = covered_scene(tables[k % len(tables)], card, cover, shown, turned, blur, k)
            named = deck.identify_covered(frame, OFF_CORNERS, visible).card_id
            if named is None:
                unidentified += 1
            elif named == face_id:
                right += 1
            else:
                wrong.append(f"{k}:{face_id}->{named}")
    return {"right": right, "wrong": len(wrong), "unidentified": unidentified, "wrongs": wrong}


def figures(cutouts: list[tuple[str, np.ndarray]], tables: list[np.ndarray]) -> list[dict[str, Any]]:
    """One ``covered`` line per blur of ``BLURS``: cut-outs (id, upright card) at odd places
    taught, the others read covered (every id taught; their own id left untaught; as a
    never-taught look-alike)."""
    from vision.enrolled import EnrolledDeck

    taught = cutouts[1::2]
    # Brought to one size once, and the look-alikes made once: every blur reads the same cards.
    read = [
        (face_id, cv2.resize(cutout, FACE_SIZE, interpolation=cv2.INTER_AREA))
        for face_id, cutout in cutouts[0::2]
    ]
    covers = [cv2.resize(cutout, FACE_SIZE, interpolation=cv2.INTER_AREA) for _id, cutout in taught]
    fakes = [(face_id, look_alike(card)) for face_id, card in read]
    root = Path(tempfile.mkdtemp(prefix="covered-"))
    try:
        deck = EnrolledDeck(GAME, root / "all")
        for face_id, cutout in taught:
            deck.keep(face_id, cutout)
        ids = sorted({face_id for face_id, _cutout in read})
        without: dict[str, Any] = {}
        for left_out in ids:
            shutil.copytree(root / "all", root / left_out)
            without[left_out] = EnrolledDeck(GAME, root / left_out)
            without[left_out].forget(left_out)
        lines = []
        for blur in BLURS:
            line: dict[str, Any] = {"figure": "covered", "blur": blur, "cards": len(read) * len(STRIPS)}
            line |= _read(deck, read, covers, tables, blur)
            untaught = [_read(without[i], [f for f in read if f[0] == i], covers, tables, blur) for i in ids]
            line["untaught_named"] = sum(u["right"] + u["wrong"] for u in untaught)
            faked = _read(deck, fakes, covers, tables, blur)
            line["look_alike_named"] = faked["right"] + faked["wrong"]
            lines.append(line)
        return lines
    finally:
        shutil.rmtree(root, ignore_errors=True)


def second_digit(tables: list[np.ndarray], second_digits: str = "0123456789") -> list[dict[str, Any]]:
    """One ``covered.second_digit`` line per blur of ``BLURS``: the four synthetic faces taught
    (``SYNTHETIC_SEEDS``: indices "50", "34", "19", "46"), each read beneath a card with each
    strip of ``SECOND_DIGIT_STRIPS`` (right: named as itself), and its art numbered with its own
    first digit and every other of ``second_digits`` (a never-taught look-alike: named is
    wrong)."""
    from vision.enrolled import EnrolledDeck
    from vision.taught_scene import SYNTHETIC_IDS, SYNTHETIC_SEEDS, renumbered, synthetic_face
    from vision.taught_scene import synthetic_index as index_of

    cover = synthetic_face(SECOND_DIGIT_COVER)
    faces = list(zip(SYNTHETIC_IDS, SYNTHETIC_SEEDS, strict=True))
    strangers = [
        (seed, index[0] + digit)
        for _id, seed in faces
        for index in [index_of(seed)]
        for digit in second_digits
        if index[0] + digit != index
    ]
    # Made once: every blur and strip reads the same cards.
    own = [synthetic_face(seed) for _id, seed in faces]
    looks = {(seed, index): renumbered(seed, index) for seed, index in strangers}
    root = Path(tempfile.mkdtemp(prefix="second-digit-"))
    try:
        deck = EnrolledDeck(GAME, root)
        for (face_id, _seed), face in zip(faces, own, strict=True):
            deck.keep(face_id, face)
        lines = []
        for blur in BLURS:
            line: dict[str, Any] = {"figure": "covered.second_digit", "blur": blur}
            for strip, shown in SECOND_DIGIT_STRIPS.items():

                def named(k: int, face: np.ndarray, shown: float = shown, blur: float = blur) -> str | None:
                    table = tables[k % len(tables)]
                    frame, visible = covered_scene(table, face, cover, shown, False, blur, k)
                    return deck.identify_covered(frame, OFF_CORNERS, visible).card_id

                right = sum(named(k, own[k]) == face_id for k, (face_id, _seed) in enumerate(faces))
                wrong = [index for k, (seed, index) in enumerate(strangers) if named(k, looks[seed, index])]
                line[strip] = {
                    "right": right,
                    "faces": len(faces),
                    "strangers": len(strangers),
                    "named": wrong,
                }
            lines.append(line)
        return lines
    finally:
        shutil.rmtree(root, ignore_errors=True)
