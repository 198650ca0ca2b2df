"""Thanks a Lottery's dice (the faces a die shows, the chance point of a roll) and the words of
its chance points: the same few at every deal, draw and roll, made once each."""

from __future__ import annotations

from functools import cache, lru_cache

from companion.engine.chance import ChancePoint


def faces(die_faces: int) -> tuple[tuple[str, int], ...]:
    """Each face of a ``die_faces``-sided die once, as chance outcomes: ``("1", 1)``..."""
    return tuple((str(v), 1) for v in range(1, die_faces + 1))


@lru_cache(maxsize=256)
def roll(what: str, die_faces: int) -> ChancePoint:
    """A die roll's chance point (the same few are asked all game: made once each)."""
    return ChancePoint("roll", what, faces(die_faces))


@lru_cache(maxsize=256)
def pool_roll(number: int, count: int, die_faces: int) -> ChancePoint:
    """The roll of die ``number`` of the ``count`` rolled into the pool."""
    return roll(f"die {number} of {count} rolled into the pool", die_faces)


@lru_cache(maxsize=64)
def reroll(seat: int, die_faces: int) -> ChancePoint:
    """The roll of a die ``seat`` picked up to re-roll."""
    return roll(f"a die player {seat + 1} re-rolls", die_faces)


@cache
def deal_what(card: int, seat: int) -> str:
    """What a deal reveals: card ``card`` (from 0) of player ``seat``'s hand."""
    return f"card {card + 1} dealt to player {seat + 1}"


@cache
def draw_what(seat: int) -> str:
    """What a draw reveals: the card player ``seat`` draws."""
    return f"the card player {seat + 1} draws"
