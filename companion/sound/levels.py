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


#: The chip counts whose box-shake rattle ships as a WAV (``sounds/shake_<n>.wav``): every count
#: up to 8, then steps about a fifth apart up to 80, where the rattle is at its densest. The
#: rattle says "few" or "many", never the exact count (a listener cannot count the impacts), so
#: a count between two steps plays the lower one. Pre-rendered, a shake needs no NumPy at run time.
SHAKE_CHIPS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 19, 22, 26, 30, 35, 40, 50, 60, 80)


def shake_chips(chips: int) -> int:
    """The shipped rattle a box of ``chips`` chips plays: the largest step not above the count.

    >>> [shake_chips(n) for n in (-1, 0, 7, 9, 17, 80, 500)]
    [0, 0, 7, 8, 16, 80, 80]
    """
    return max(step for step in SHAKE_CHIPS if step <= max(0, chips))
