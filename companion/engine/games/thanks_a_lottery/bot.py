"""The heuristic bot: play blocks, add to others' blocks for dice, end rounds when ahead.

Every card moved from hand to a block is worth 2 points (1 gained, 1 no longer lost). A die is
worth 1 point plus its expected lottery win. With the printed tin (one token per face) every
value expects the same, so the bot keeps its dice; with a tin that lacks a face, it re-rolls
the dice showing a value worth less than a fresh roll. A wild laid down can be taken by an
opponent for a die, so it costs a little.
Ending the round (taking the last die, or emptying the hand while holding dice) is good only
when the bot's estimated round score leads the table.
"""

from __future__ import annotations

import random
from typing import Protocol

from companion.engine.actions import Action
from companion.engine.games.thanks_a_lottery.blocks import Extension
from companion.engine.games.thanks_a_lottery.components import Components
from companion.engine.games.thanks_a_lottery.moves import play_moves
from companion.engine.games.thanks_a_lottery.state import ACT, FINALIZE, TAKE, Block, LotteryState


class LotteryRules(Protocol):
    """What the bot asks of the rules (the game; a protocol keeps this module below it)."""

    @property
    def components(self) -> Components: ...

    def prizes(self, state: LotteryState) -> tuple[int, ...]: ...

    def decisions(self, state: LotteryState) -> list[Action]: ...

    def has_variant(self, variant: str) -> bool: ...

    def add_options(self, state: LotteryState, seat: int, block: Block) -> dict[Action, Extension]: ...

#: the risk of an opponent replacing a wild we lay down (they gain a die and the wild)
WILD_EXPOSED = 1.5
#: what giving an opponent a card in their block costs us
GIFT = 0.5
END_WHEN_AHEAD, END_WHEN_BEHIND = 5.0, -8.0


def face_value(game: LotteryRules, state: LotteryState, face: int) -> float:
    """Expected lottery points of a die showing ``face``: each token is equally likely on
    each space; ``all`` pays every die."""
    tokens = game.components.tokens
    chances = (str(face) in tokens) + ("all" in tokens)
    return sum(game.prizes(state)) * chances / len(tokens)


def fresh_roll_value(game: LotteryRules, state: LotteryState) -> float:
    """Expected lottery points of a die about to be rolled."""
    faces = range(1, game.components.die_faces + 1)
    return sum(face_value(game, state, f) for f in faces) / len(faces)


def die_value(game: LotteryRules, state: LotteryState) -> float:
    """A die taken now: 1 point plus its expected lottery points."""
    return 1.0 + fresh_roll_value(game, state)


def rerolls(game: LotteryRules, state: LotteryState, seat: int) -> tuple[int, ...]:
    """The dice (by value) worth less than a fresh roll."""
    fresh = fresh_roll_value(game, state)
    return tuple(v for v in state.dice[seat] if face_value(game, state, v) < fresh)


def estimate(state: LotteryState, seat: int, value: float) -> float:
    """A seat's round score if the round ended now (lottery at its expectation)."""
    return state.block_cards(seat) + len(state.dice[seat]) * value - len(state.hands[seat])


def choose(game: LotteryRules, state: LotteryState, rng: random.Random) -> Action:
    """The heuristic decision for the current player."""
    if state.phase == TAKE:
        return Action.of("take", max(state.pool, key=lambda v: (state.pool.count(v), v)))
    if state.phase == FINALIZE:
        low = rerolls(game, state, state.deciders[0])
        return Action.of("reroll", *low) if low else Action.of("keep")
    if state.phase != ACT:
        raise ValueError(f"no decision in phase {state.phase}")
    seat = state.turn
    value = die_value(game, state)
    others = max(estimate(state, s, value) for s in range(state.players) if s != seat)
    mine = estimate(state, seat, value)
    best, best_score = Action.of("pass"), 0.0
    for action in game.decisions(state):
        cards, dice, gift, wild = _effect(game, state, seat, action)
        score = 2.0 * cards + dice * value - GIFT * gift - WILD_EXPOSED * wild
        after = mine + 2.0 * cards + dice * value
        if dice and dice >= len(state.pool):  # this takes the last die: the round ends now
            score += END_WHEN_AHEAD if after >= others else END_WHEN_BEHIND
        hand_left = len(state.hands[seat]) - cards
        if not hand_left and (dice or state.dice[seat]) and not game.has_variant("long-game"):
            score += 2.0 if after >= others else 0.0
        score += rng.random() * 0.01  # break ties without always choosing the first listed
        if score > best_score:
            best, best_score = action, score
    return best


def _effect(
    game: LotteryRules, state: LotteryState, seat: int, action: Action
) -> tuple[int, int, int, int]:
    """Cards leaving the hand (net), dice earned, cards given to opponents, wilds laid."""
    if action.verb == "play":
        shape = play_moves(state.counts(seat), state.wilds(seat))[action]
        return len(shape.numbers), 0, 0, int(shape.wild_at is not None)
    if action.verb == "add":
        block = state.block(str(action.args[0]))
        assert block is not None
        own = block.owner == seat
        ext = game.add_options(state, seat, block)[action]
        added = len(ext.added)
        return added, 0 if own else added, 0 if own else added, int(ext.wild is not None)
    if action.verb == "replace":
        return 0, 1, 0, 0  # a real card out, the wild in: the hand keeps its size
    return 0, 0, 0, 0
