"""The generic random-game harness: helpers shared by the per-game harness test.

Every registered game is played many times with seeded chance and random decisions, and each
step is checked against the engine contract (see ``test_engine_harness.py``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from companion.engine import Action, GameConfig, IllegalActionError, Match, SeededResolver, replay
from companion.engine.codec import dumps, from_data, to_data

#: verbs a random illegal action is made of (besides each game's own verbs)
_JUNK_VERBS = ("claim", "spin", "take", "reroll", "play", "flip", "pay", "walk", "fly", "reveal")


def configs(game_cls: Any, count: int, base_seed: int = 0) -> Iterator[GameConfig]:
    """``count`` seeded configurations cycling through player counts and variant subsets."""
    variants = list(game_cls.variants)
    for index in range(count):
        players = game_cls.min_players + index % (game_cls.max_players - game_cls.min_players + 1)
        chosen = tuple(v for bit, v in enumerate(variants) if (index >> bit) & 1)
        yield GameConfig(game_cls.id, players, chosen, seed=base_seed + index)


def reordered_actions(legal: list[Action]) -> Iterator[Action]:
    """Each legal action with its arguments reversed, when that is not itself listed: a game
    has one text per move, so ``spin 1 0`` must be refused where only ``spin 0 1`` is listed
    (random junk found that only at harness seed 271)."""
    listed = set(legal)
    for action in legal:
        if len(action.args) >= 2:
            reordered = Action(action.verb, tuple(reversed(action.args)))
            if reordered not in listed:
                yield reordered


def random_illegal_actions(match: Match, rng: random.Random, tries: int = 3) -> Iterator[Action]:
    """Plausible-looking actions that are not legal right now; every reordering of a legal one first."""
    legal = set(match.legal_actions())
    yield from reordered_actions(match.legal_actions())
    verbs = sorted({a.verb for a in legal} | set(_JUNK_VERBS))
    produced = 0
    for _ in range(tries * 10):
        verb = rng.choice(verbs)
        args = tuple(rng.choice([rng.randint(-2, 9), rng.choice(["bar", "zz", "wild", "1"])])
                     for _ in range(rng.randint(0, 3)))
        action = Action(verb, args)
        if action not in legal:
            yield action
            produced += 1
            if produced >= tries:
                return


def roundtrip(match: Match) -> None:
    """The state survives JSON exactly, byte for byte."""
    text = match.game.encode_state(match.state)
    back = match.game.decode_state(text)
    assert back == match.state
    assert match.game.encode_state(back) == text
    assert dumps(to_data(from_data(match.game.state_type, json.loads(text)["state"]))) == dumps(
        json.loads(text)["state"]
    )


def play_checked(config: GameConfig, check_every: int = 1) -> Match:
    """Play one random game, checking the contract along the way; returns the final match."""
    rng = random.Random(config.seed * 7919 + 1)
    resolver = SeededResolver(config.seed)
    match = Match.new(config)
    game = match.game
    conserved = game.conserved(match.state)
    steps = 0
    while not match.is_over:
        steps += 1
        assert steps < 50_000, f"{config} did not end"
        point = match.chance_point
        if point is not None:
            assert game.current_player(match.state) is None
            probabilities = point.probabilities()
            assert sum(probabilities.values()) == 1
            assert all(p > 0 for p in probabilities.values())
            action = Action.reveal(resolver.resolve(point))
        else:
            seat = game.current_player(match.state)
            assert seat is not None and 0 <= seat < config.players
            legal = match.legal_actions()
            assert legal, f"no legal action for seat {seat} in {config}"
            assert len(set(legal)) == len(legal), "legal actions listed twice"
            action = rng.choice(legal)
        if steps % check_every == 0:
            before = game.encode_state(match.state)
            for bad in random_illegal_actions(match, rng):
                try:
                    match.game.apply(match.state, bad)
                except IllegalActionError as error:
                    assert str(error), "an illegal action needs a message a player can read"
                else:
                    raise AssertionError(f"illegal action {bad} was accepted in {config}")
                assert game.encode_state(match.state) == before, f"refused {bad} changed the state"
            roundtrip(match)
        assert Action.parse(str(action)) == action
        match.apply(action)
        assert game.conserved(match.state) == conserved, f"{action} created or destroyed something"
    roundtrip(match)
    result = game.result(match.state)
    assert len(result.scores) == config.players
    assert all(0 <= w < config.players for w in result.winners)
    assert result.winners or config.players == 1, "only The House (solo) wins without a winning seat"
    assert match.legal_actions() == []
    # replay equals live play
    again = replay(config, [str(a) for a in match.log])
    assert game.encode_state(again.state) == game.encode_state(match.state)
    return match
