"""Copies of a photo as if taken in other light, for ``companion bench realcards --light``: the
shared photos were taken by day with a phone that exposed them well, and a game night is often
neither."""

from __future__ import annotations

from typing import Any

#: What each light does to a photo: a gain on every channel, an offset, and the sensor noise
#: (grey levels) a camera adds when it raises its gain to see in that light.
LIGHTS: dict[str, tuple[float, float, float]] = {
    # A dim room: a little less than half the light, the picture noisier.
    "dim": (0.45, 0.0, 3.0),
    # Overexposed (a lamp right above, a sun patch): light paper clips to white.
    "bright": (1.35, 10.0, 0.0),
}


def lit(image: Any, light: str, seed: int) -> Any:
    """``image`` (BGR) as if taken in ``light`` (a key of ``LIGHTS``); the noise drawn from
    ``seed``, so a photo's copy is the same on every run."""
    import numpy as np

    gain, offset, noise = LIGHTS[light]
    copy = image.astype(np.float32) * gain + offset
    if noise:
        copy += np.random.default_rng(seed).normal(0.0, noise, copy.shape).astype(np.float32)
    return np.clip(copy, 0, 255).astype(np.uint8)
