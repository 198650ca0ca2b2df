"""Thanks a Lottery's dice: the faces a die shows and the chance point of a roll."""

from __future__ import annotations

from functools import lru_cache

from companion.engine.chance import ChancePoint


def faces(die_faces: int) -> tuple[tuple[str, int], ...]:
    """Each face of a ``die_faces``-sided die once, as chance outcomes: ``("1", 1)``..."""
    return tuple((str(v), 1) for v in range(1, die_faces + 1))


@lru_cache(maxsize=256)
def roll(what: str, die_faces: int) -> ChancePoint:
    """A die roll's chance point (the same few are asked all game: made once each)."""
    return ChancePoint("roll", what, faces(die_faces))
