"""Made-up faces at the feature scale, grey, and evened out as the feature stage evens out what
it compares: the pictures the aligned comparison's tests lay over each other."""

from __future__ import annotations

import cv2
import numpy as np

from vision.face_features import FEATURE_H, FEATURE_W, FeatureMatcher
from vision.taught_scene import synthetic_face

_MATCHER = FeatureMatcher()


def grey_face(seed: int, changed: bool = False) -> np.ndarray:
    """:func:`vision.taught_scene.synthetic_face` ``seed`` (``changed``: its look-alike, a pip
    more) at the feature scale, grey, as a camera gives it (not evened out)."""
    face = cv2.resize(synthetic_face(seed, changed), (FEATURE_W, FEATURE_H), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)


def evened(grey: np.ndarray) -> np.ndarray:
    """``grey`` evened out as the feature stage does (:meth:`FeatureMatcher.normalised`)."""
    return _MATCHER.normalised(grey)
