"""A softer camera than the one a card was taught with: the aligned comparison still agrees
with the right card and still tells a look-alike apart."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tests.feature_faces import evened
from vision.aligned_compare import compare_aligned, fine_share
from vision.enrolled import EnrolledDeck
from vision.face_features import FEATURE_H, FEATURE_W, VERIFY_BLOCK, VERIFY_SCORE
from vision.taught_scene import lay_out, scene_style, synthetic_face, teach_synthetic_faces

#: How far above the acceptance score a softened copy of the right card must stay.
SPARE = 0.05


def _grey(face: np.ndarray, blur: float = 0.0, seed: int = 0) -> np.ndarray:
    """``face`` at the feature scale, grey, evened out as the feature stage does; ``blur``: seen
    by a softer, noisier camera (sigma, feature px) with a warm cast."""
    small = cv2.resize(face, (FEATURE_W, FEATURE_H), interpolation=cv2.INTER_AREA).astype(np.float32)
    if blur:
        noise = np.random.default_rng(seed).normal(0.0, 4.0, small.shape)
        small = cv2.GaussianBlur(small, (0, 0), blur) * np.float32([0.8, 0.95, 1.15]) + noise
    grey = cv2.cvtColor(np.clip(small, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    return evened(grey)


def test_sharpness_falls_with_blur_whatever_the_contrast() -> None:
    grey = _grey(synthetic_face(10))
    mask = np.ones(grey.shape, bool)
    shares = [fine_share(cv2.GaussianBlur(grey, (0, 0), s) if s else grey, mask) for s in (0, 1.0, 2.0)]
    assert shares[0] > shares[1] > shares[2]
    assert abs(fine_share((grey * 0.5).astype(np.uint8), mask) - shares[0]) < 0.1 * shares[0]


def test_a_softer_cameras_card_still_agrees_and_a_look_alike_still_does_not() -> None:
    for seed in (10, 11, 12):
        taught = _grey(synthetic_face(seed))
        for blur in (1.5, 3.0):
            seen = _grey(synthetic_face(seed), blur, seed)
            score, block = compare_aligned(taught, np.eye(3), seen)
            # With room to spare (a real camera adds its own misalignment): compared as they
            # are, the sharp taught picture against a card 3 px softer scores 0.89-0.91.
            assert score >= VERIFY_SCORE + SPARE and block <= VERIFY_BLOCK, (seed, blur, score, block)
            # One more pip in the middle (a ten beside a taught nine), as soft: refused.
            alike = _grey(synthetic_face(seed, changed=True), blur, seed)
            score, block = compare_aligned(taught, np.eye(3), alike)
            assert score < VERIFY_SCORE or block > VERIFY_BLOCK, (seed, blur, score, block)


def _webcam(frame: np.ndarray, seed: int, blur: float) -> np.ndarray:
    """``frame`` as a soft, noisy webcam with a warm cast and heavy JPEG takes it."""
    noise = np.random.default_rng(seed).normal(0.0, 5.0, frame.shape)
    soft = cv2.GaussianBlur(frame, (0, 0), blur).astype(np.float32) * np.float32([0.8, 0.95, 1.15]) + noise
    _ok, jpeg = cv2.imencode(".jpg", np.clip(soft, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 55])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def _top_part(corners: np.ndarray, share: float) -> np.ndarray:
    tl, tr, br, bl = corners
    return np.float32([tl, tr, tr + share * (br - tr), tl + share * (bl - tl)])


def test_a_soft_cameras_half_covered_card_is_named_by_the_softened_pictures(tmp_path: Path) -> None:
    """Taught from sharp photos, seen by a soft webcam with only its top showing (the feature
    stage decides: no thumbnail of a part). The softened descriptions of the taught pictures
    name cards the sharp ones alone leave unnamed, and never a wrong or untaught one."""
    deck = teach_synthetic_faces(tmp_path)
    features = deck.features
    assert features.ready()
    both = list(features._indexes)
    named = {"both": 0, "sharp": 0}
    for seed in range(300, 312):
        for face, card_id in ((10, "cherry"), (14, "bell"), (77, None)):
            style = scene_style(seed, "felt", card_px=150, tilt=10)
            scene = lay_out([synthetic_face(face)], seed, style=style)
            frame = _webcam(scene.frame(), seed, 1.8)
            part = _top_part(scene.all_placed()[0].corners.astype(np.float32), 0.6)
            for sets, key in ((both, "both"), (both[:1], "sharp")):
                features._indexes = sets  # the softened set switched off for the comparison
                found = deck.identify(frame, part, whole=False).card_id
                features._indexes = both
                assert found in (None, card_id), (seed, face, key, found)
                named[key] += found is not None
    # Measured: 8 of the 24 taught parts with both sets, none with the sharp pictures alone.
    assert named["both"] >= named["sharp"] + 5, named


def test_the_softened_descriptions_are_kept_beside_the_picture_and_old_files_redone(tmp_path: Path) -> None:
    deck = teach_synthetic_faces(tmp_path)
    kept = sorted((tmp_path / "bandit").glob("*/*.features.npz"))
    assert kept and deck.features.ready()
    with np.load(kept[0]) as one:
        soft = len(one["soft_points"])
        assert soft >= 10 and one["soft_descriptors"].shape == (soft, 128)
        old = {k: one[k] for k in ("source", "points", "descriptors")}
    # A file from before the softened set (no soft keypoints, the old version key): redone.
    np.savez(kept[0], key=np.array([FEATURE_W, FEATURE_H, 300, 1], np.int32), **old)
    again = EnrolledDeck("bandit", tmp_path)
    assert again.features.ready()
    with np.load(kept[0]) as one:
        assert "soft_points" in one
