"""The lottery and the round score: shared by play and ``companion adjudicate``.

Tokens lie on the prize card lowest space first. Each die showing a token's number scores that
space's points; ``all`` makes every die score that space (so a die can score twice); ``none``
makes no die score it.

>>> space_points((1, 2, 3), ("3", "all", "none"), [3, 3, 5])
[2, 6, 0]
>>> round_score(block_cards=4, dice=3, lottery=8, hand=2)
13
>>> round_score(block_cards=0, dice=0, lottery=0, hand=5)
0
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine.games.thanks_a_lottery.components import ALL, NONE


def space_points(prizes: Sequence[int], tokens: Sequence[str], dice: Sequence[int]) -> list[int]:
    """What ``dice`` win on each filled space of the prize card (tokens in draw order)."""
    won = []
    for points, token in zip(prizes, tokens, strict=False):
        if token == ALL:
            won.append(points * len(dice))
        elif token == NONE:
            won.append(0)
        else:
            won.append(points * dice.count(int(token)))
    return won


def lottery_points(prizes: Sequence[int], tokens: Sequence[str], dice: Sequence[int]) -> int:
    """All the points ``dice`` win in the lottery."""
    return sum(space_points(prizes, tokens, dice))


def lucky_number(tokens: Sequence[str]) -> int | None:
    """Variant ``lucky-card``: the number of the middle prize token (None for ``all``/``none``)."""
    if not tokens:
        return None
    middle = tokens[len(tokens) // 2]
    return int(middle) if middle.isdigit() else None


def round_score(block_cards: int, dice: int, lottery: int, hand: int, lucky: int = 0) -> int:
    """1 per card in blocks, 1 per die, the lottery (and lucky-card bonus), minus 1 per card
    still in hand; never below 0."""
    return max(0, block_cards + dice + lottery + lucky - hand)
