"""``companion adjudicate thanks-a-lottery``: rule on a block, or on a round's score.

Two situations (the foundation issue's contract):

- ``{"block": [cards]}`` (numbers 1-7 and ``"wild"``, in table order) ->
  ``{"valid": bool, "kind": "sequential" | "identical" | null, "reason": text or null}``;
- ``{"round": r, "tokens": [3 tokens in draw order], "dice": [values], "block_cards": n,
  "hand": n}`` -> ``{"lottery_points": p, "round_score": s}``. An optional ``"lucky_cards": n``
  (variant lucky-card: real cards in the player's blocks matching the middle token) adds the
  bonus to the score and ``"lucky_bonus"`` to the ruling.

Card ids are those ``companion vision identify`` prints (``"1"`` ... ``"7"``, ``"wild"``); plain
numbers are accepted too. Unknown keys and impossible counts are refused, naming them: a block
holds at least 3 cards, so ``block_cards`` is 0 or 3 and more; ``lucky_cards`` cannot exceed the
cards printed with the lucky number, nor be above 0 when the middle token is ``all``/``none``.

>>> adjudicate({"block": [6, 7, "wild"]})
{'valid': True, 'kind': 'sequential', 'reason': None}
>>> adjudicate({"round": 1, "tokens": ["3", "all", "none"], "dice": [3, 5], "block_cards": 4, "hand": 1})
{'lottery_points': 5, 'round_score': 10}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.errors import InvalidSituationError
from companion.engine.games.thanks_a_lottery.blocks import MIN_BLOCK, BlockError, classify
from companion.engine.games.thanks_a_lottery.components import DEFAULT, NUMBERS, WILD
from companion.engine.games.thanks_a_lottery.scoring import lottery_points, lucky_number, round_score
from companion.engine.situation import check_keys, excerpt, require_object, variants, whole_number

GAME = "thanks-a-lottery"
BLOCK_KEYS = ("block",)
ROUND_KEYS = ("round", "tokens", "dice", "block_cards", "hand", "lucky_cards")
#: the game's variant ids (game.py imports this module, so they are named here; a test keeps
#: them equal)
VARIANTS = dict.fromkeys(("lucky-card", "long-game"), "")


def adjudicate(situation: Mapping[str, Any]) -> dict[str, Any]:
    """Rule on ``situation``; raises :class:`InvalidSituationError` naming the bad value."""
    situation = require_object(situation, GAME, '{"block": [6, 7, "wild"]} or {"round": 1, ...}')
    if "block" in situation:
        check_keys(situation, BLOCK_KEYS, GAME)
        variants(situation, VARIANTS, GAME)
        return rule_block(situation["block"])
    if "round" in situation:
        check_keys(situation, ROUND_KEYS, GAME)
        played = variants(situation, VARIANTS, GAME)
        if "variants" in situation and "lucky_cards" in situation and "lucky-card" not in played:
            raise InvalidSituationError('"lucky_cards" scores only with the lucky-card variant: '
                                        'add it to "variants"')
        return rule_round(situation)
    check_keys(situation, (*BLOCK_KEYS, *ROUND_KEYS), GAME)
    raise InvalidSituationError(
        'thanks-a-lottery needs "block": [cards] or "round", "tokens", "dice", "block_cards", "hand"'
    )


def _card(value: Any) -> int | None:
    if value == WILD:
        return None
    if isinstance(value, str) and value.isascii() and value.isdecimal() and len(value) == 1:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value in NUMBERS:
        return value
    raise InvalidSituationError(f"unknown card {excerpt(value)}: cards are the numbers 1-7 and \"wild\"")


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
    return whole_number(situation.get(key), f'"{key}"', 0, most)


def rule_round(situation: Mapping[str, Any]) -> dict[str, Any]:
    """One player's lottery points and round score."""
    rounds = DEFAULT.rounds
    rnd = whole_number(situation.get("round"), '"round"', 1, rounds)
    tokens = situation.get("tokens")
    drawn = DEFAULT.tokens_drawn
    if not isinstance(tokens, list) or len(tokens) != drawn:
        raise InvalidSituationError(f'"tokens" must list the {drawn} tokens in draw order, '
                                    f"not {excerpt(tokens)}")
    tokens = [str(t) if isinstance(t, int) and not isinstance(t, bool) else t for t in tokens]
    for token in tokens:
        if token not in DEFAULT.tokens:
            raise InvalidSituationError(f"unknown token {excerpt(token)} "
                                        f"(tokens: {', '.join(DEFAULT.tokens)})")
    if len(set(tokens)) != len(tokens):
        raise InvalidSituationError(f"the tin holds one of each token; {tokens} draws one twice")
    dice = situation.get("dice")
    if not isinstance(dice, list) or len(dice) > DEFAULT.dice:
        raise InvalidSituationError(f'"dice" must list at most {DEFAULT.dice} die values, '
                                    f"not {excerpt(dice)}")
    dice = [whole_number(value, "a die", 1, DEFAULT.die_faces) for value in dice]
    block_cards = _count(situation, "block_cards", DEFAULT.deck_size)
    if 0 < block_cards < MIN_BLOCK:
        raise InvalidSituationError(f'"block_cards" is {block_cards}, but a block has at least {MIN_BLOCK} '
                                    "cards: count every card in the player's blocks (0 for none)")
    hand = _count(situation, "hand", DEFAULT.deck_size)
    if block_cards + hand > DEFAULT.deck_size:
        raise InvalidSituationError(
            f"{block_cards} cards in blocks and {hand} in hand: more than the {DEFAULT.deck_size} in the game"
        )
    lottery = lottery_points(DEFAULT.prizes[rnd], tokens, dice)
    ruling: dict[str, Any] = {"lottery_points": lottery}
    lucky = 0
    if "lucky_cards" in situation:
        number = lucky_number(tokens)
        printed = DEFAULT.cards[str(number)] if number is not None else 0
        cards = _count(situation, "lucky_cards", block_cards)
        if cards > printed:
            raise InvalidSituationError(
                f'"lucky_cards" is {cards}, but only {printed} cards show the lucky number '
                + (f"{number}" if number is not None
                   else f"(the middle token is {tokens[len(tokens) // 2]!r})")
            )
        lucky = cards * DEFAULT.lucky_card_bonus[rnd - 1]
        ruling["lucky_bonus"] = lucky
    ruling["round_score"] = round_score(block_cards, len(dice), lottery, hand, lucky)
    return ruling
