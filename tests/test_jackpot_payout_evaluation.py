"""Jackpot Payout's jackpot and pair rules, worked out on symbol bits, agree with the plain
reading of the rule (every card shows the symbol; at least two cards show it)."""

from __future__ import annotations

import random

import pytest

from companion.engine.chance import ChancePoint
from companion.engine.errors import EngineError
from companion.engine.games.jackpot_payout.cards import SYMBOLS, WILD, Card, default_catalogue
from companion.engine.games.jackpot_payout.evaluation import common_symbol, pair_symbols


def _plain_common(cards: list[Card]) -> str | None:
    if not cards:
        return None
    if all(card.is_wild for card in cards):
        return WILD
    return next((s for s in SYMBOLS if all(card.shows(s) for card in cards)), None)


def _plain_pairs(cards: list[Card]) -> list[str]:
    return [s for s in SYMBOLS if sum(1 for card in cards if card.shows(s)) >= 2]


@pytest.mark.parametrize("seed", range(3))
def test_common_symbol_and_pairs_match_the_rule_for_any_cards(seed: int) -> None:
    faces = list(default_catalogue().cards.values())
    rng = random.Random(seed)
    for _ in range(3000):
        cards = [rng.choice(faces) for _ in range(rng.randint(0, 4))]
        assert common_symbol(cards) == _plain_common(cards), [c.id for c in cards]
        assert pair_symbols(cards) == _plain_pairs(cards), [c.id for c in cards]


def test_a_chance_point_from_counts_is_the_point_of_its_sorted_positive_counts() -> None:
    deck = {"b": 2, "a": 1, "c": 3}
    point = ChancePoint.from_counts("reel", "player 1's card for reel 1", deck)
    assert point == ChancePoint("reel", "player 1's card for reel 1", (("a", 1), ("b", 2), ("c", 3)))
    assert point.total == 6
    assert ChancePoint.from_counts("draw", "x", {"a": 0, "b": 1}).outcomes == (("b", 1),)
    with pytest.raises(EngineError, match="no possible outcome"):
        ChancePoint.from_counts("draw", "x", {})
