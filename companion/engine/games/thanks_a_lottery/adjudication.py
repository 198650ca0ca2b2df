"""``companion adjudicate thanks-a-lottery``: rule on a block, or on a round's score.

Two situations (the foundation issue's contract):

- ``{"block": [cards]}`` (numbers 1-7 and ``"wild"``, in table order) ->
  ``{"valid": bool, "kind": "sequential" | "identical" | null, "reason": text or null}``;
- ``{"round": r, "tokens": [3 tokens in draw order], "dice": [values], "block_cards": n,
  "hand": n}`` -> ``{"lottery_points": p, "round_score": s}``. An optional ``"lucky_cards": n``
  (variant lucky-card: real cards in the player's blocks matching the middle token) adds the
  bonus to the score and ``"lucky_bonus"`` to the ruling.

>>> adjudicate({"block": [6, 7, "wild"]})
{'valid': True, 'kind': 'sequential', 'reason': None}
>>> adjudicate({"round": 1, "tokens": ["3", "all", "none"], "dice": [3, 5], "block_cards": 4, "hand": 1})
{'lottery_points': 5, 'round_score': 10}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.errors import InvalidSituationError
from companion.engine.games.thanks_a_lottery.blocks import BlockError, classify
from companion.engine.games.thanks_a_lottery.components import DEFAULT, NUMBERS, WILD
from companion.engine.games.thanks_a_lottery.scoring import lottery_points, lucky_number, round_score


def adjudicate(situation: Mapping[str, Any]) -> dict[str, Any]:
    """Rule on ``situation``; raises :class:`InvalidSituationError` naming the bad value."""
    if not isinstance(situation, Mapping):
        raise InvalidSituationError('thanks-a-lottery takes {"block": [...]} or {"round": ...}')
    if "block" in situation:
        return rule_block(situation["block"])
    if "round" in situation:
        return rule_round(situation)
    raise InvalidSituationError(
        'thanks-a-lottery needs "block": [cards] or "round", "tokens", "dice", "block_cards", "hand"'
    )


def _card(value: Any) -> int | None:
    if value == WILD:
        return None
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value in NUMBERS:
        return value
    raise InvalidSituationError(f"unknown card {value!r}: cards are the numbers 1-7 and \"wild\"")


def rule_block(cards: Any) -> dict[str, Any]:
    """Is this a block? Identical or sequential, with the reason when it is not."""
    if not isinstance(cards, list):
        raise InvalidSituationError('"block" must be a list of cards in table order, e.g. [6, 7, "wild"]')
    parsed = [_card(c) for c in cards]
    for card in (*(str(n) for n in NUMBERS), WILD):
        count = sum(1 for c in parsed if (WILD if c is None else str(c)) == card)
        if count > DEFAULT.cards[card]:
            raise InvalidSituationError(
                f"{count} '{card}' cards in one block, but the game has {DEFAULT.cards[card]}: a misread?"
            )
    try:
        shape = classify(parsed)
    except BlockError as error:
        return {"valid": False, "kind": None, "reason": str(error)}
    return {"valid": True, "kind": shape.kind, "reason": None}


def _count(situation: Mapping[str, Any], key: str, most: int) -> int:
    value = situation.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
        raise InvalidSituationError(f'"{key}" must be a whole number 0-{most}, not {value!r}')
    return value


def rule_round(situation: Mapping[str, Any]) -> dict[str, Any]:
    """One player's lottery points and round score."""
    rounds = DEFAULT.rounds
    rnd = situation.get("round")
    if not isinstance(rnd, int) or isinstance(rnd, bool) or not 1 <= rnd <= rounds:
        raise InvalidSituationError(f'"round" must be 1-{rounds}, not {rnd!r}')
    tokens = situation.get("tokens")
    drawn = DEFAULT.tokens_drawn
    if not isinstance(tokens, list) or len(tokens) != drawn:
        raise InvalidSituationError(f'"tokens" must list the {drawn} tokens in draw order, not {tokens!r}')
    tokens = [str(t) if isinstance(t, int) and not isinstance(t, bool) else t for t in tokens]
    for token in tokens:
        if token not in DEFAULT.tokens:
            raise InvalidSituationError(f"unknown token {token!r} (tokens: {', '.join(DEFAULT.tokens)})")
    if len(set(tokens)) != len(tokens):
        raise InvalidSituationError(f"the tin holds one of each token; {tokens} draws one twice")
    dice = situation.get("dice")
    if not isinstance(dice, list) or len(dice) > DEFAULT.dice:
        raise InvalidSituationError(f'"dice" must list at most {DEFAULT.dice} die values, not {dice!r}')
    dice = [int(v) if isinstance(v, str) and v.isdigit() else v for v in dice]
    for value in dice:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= DEFAULT.die_faces:
            raise InvalidSituationError(f"a die shows 1-{DEFAULT.die_faces}, not {value!r}")
    block_cards = _count(situation, "block_cards", DEFAULT.deck_size)
    hand = _count(situation, "hand", DEFAULT.deck_size)
    if block_cards + hand > DEFAULT.deck_size:
        raise InvalidSituationError(
            f"{block_cards} cards in blocks and {hand} in hand: more than the {DEFAULT.deck_size} in the game"
        )
    lottery = lottery_points(DEFAULT.prizes[rnd], tokens, dice)
    ruling: dict[str, Any] = {"lottery_points": lottery}
    lucky = 0
    if "lucky_cards" in situation:
        cards = _count(situation, "lucky_cards", block_cards)
        lucky = cards * DEFAULT.lucky_card_bonus[rnd - 1] if lucky_number(tokens) is not None else 0
        ruling["lucky_bonus"] = lucky
    ruling["round_score"] = round_score(block_cards, len(dice), lottery, hand, lucky)
    return ruling
