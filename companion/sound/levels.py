"""The sound's plain numbers (no NumPy): the sample rate and which fanfare a win gets, so
playing the shipped WAVs needs only pygame (:mod:`.synth` makes the samples)."""

from __future__ import annotations

#: samples per second of every effect (mono)
RATE = 22050


def fanfare_tier(amount: int) -> int:
    """Which fanfare a win gets: 1 under 10 coins/points, 2 under 50, else 3.

    >>> [fanfare_tier(n) for n in (5, 10, 49, 50)]
    [1, 2, 2, 3]
    """
    if amount < 10:
        return 1
    return 2 if amount < 50 else 3
