"""Test-wide set-up: every test runs without a Pi, a screen or a sound card."""

import os

# Set before anything imports pygame or gpiozero, so the same code paths run headless.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


import numpy as np  # noqa: E402 - after the environment above, as every import here
import pytest  # noqa: E402

Region = tuple[int, int, int, int] | None


@pytest.fixture
def outline_searches(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, Region]]:
    """Every outline search a taught-card reader asks for, as (thorough, region), in order."""
    import vision.die_cut_reading as die_cut_reading
    from vision.card_outlines import CardOutline, find_card_candidates

    calls: list[tuple[bool, Region]] = []

    def recording(
        frame: np.ndarray,
        thorough: bool = False,
        region: Region = None,
        work: np.ndarray | None = None,
        grey: np.ndarray | None = None,
    ) -> list[CardOutline]:
        calls.append((thorough, region))
        return find_card_candidates(frame, thorough=thorough, region=region, work=work, grey=grey)

    monkeypatch.setattr(die_cut_reading, "find_card_candidates", recording)
    return calls
