"""Play whole games with bots: for ``companion simulate``, benchmarks and the test harness."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from companion.engine.actions import Action
from companion.engine.bots import Bot
from companion.engine.chance import SeededResolver
from companion.engine.events import JackpotHit, TurnEnded, TurnStarted
from companion.engine.game import GameConfig, GameResult
from companion.engine.match import Match

#: A game longer than this is a bug (a loop the rules should have ended).
MAX_ACTIONS = 100_000


@dataclass
class PlayedGame:
    """One finished game with what the summary needs."""

    match: Match
    result: GameResult
    turns: int
    jackpots: Counter[str] = field(default_factory=Counter)


def _start(config: GameConfig) -> tuple[Match, SeededResolver, random.Random]:
    """A new match with its chance and the bots' randomness, both from the seed: the fast and
    the checked path start alike, so they play the very same game."""
    return Match.new(config), SeededResolver(config.seed), random.Random(config.seed ^ 0x5EED)


def play_game(config: GameConfig, bots: list[Bot]) -> PlayedGame:
    """Play ``config`` to the end: chance from the seed, decisions from ``bots`` by seat."""
    match, resolver, decider = _start(config)
    started = ended = 0
    jackpots: Counter[str] = Counter()
    game, state, log = match.game, match.state, match.log
    # The engine's hot loop: one chance point per step, and what the resolver or a bot picked
    # from this very state's legal actions goes straight to the rules, without Game.apply's
    # second look (is the game over, which chance point, is the outcome possible: all known
    # here). Anything from outside the engine goes through Match.apply. The game protocol has
    # no chance point and no player to decide once the game is over, so "is it over" is asked
    # only when neither is there, not at every step.
    chance_point, apply_outcome, is_over = game.chance_point, game.apply_outcome, game.is_over
    current_player, apply_decision = game.current_player, game.apply_legal_decision
    reveal, resolve, append = Action.reveal, resolver.resolve, log.append
    while True:
        if len(log) > MAX_ACTIONS:
            raise RuntimeError(f"{config.game} did not end after {MAX_ACTIONS} actions")
        point = chance_point(state)
        if point is not None:
            outcome = resolve(point)
            append(reveal(outcome))
            events = apply_outcome(state, point, outcome)
        else:
            seat = current_player(state)
            if seat is None:
                if is_over(state):
                    break
                raise AssertionError("no chance point and no player to decide")
            action = bots[seat % len(bots)].choose(game, state, decider)
            events = apply_decision(state, action)
            append(action)
        for event in events:
            kind = event.__class__  # these three have no subclasses
            if kind is TurnStarted:
                started += 1
            elif kind is TurnEnded:
                ended += 1
            elif kind is JackpotHit:
                jackpots[event.symbol] += 1  # type: ignore[attr-defined]
    # The first turn starts with the initial state (no event) and the last may end with the
    # game (no TurnEnded), so the larger of the two counts is the number of turns played.
    return PlayedGame(match, match.game.result(match.state), max(started, ended), jackpots)


def play_game_checked(config: GameConfig, bots: list[Bot]) -> Match:
    """The game :func:`play_game` plays, with every action through :meth:`Match.apply` (the
    chance point asked again, each decision checked), as a table's reports are: for ``bench
    engine``'s checked figure and for tests that the fast path plays the very same game."""
    match, resolver, decider = _start(config)
    while not match.is_over:
        point = match.chance_point
        if point is not None:
            match.apply(Action.reveal(resolver.resolve(point)))
        else:
            seat = match.game.current_player(match.state)
            assert seat is not None, "no chance point and no player to decide"
            match.apply(bots[seat % len(bots)].choose(match.game, match.state, decider))
    return match
