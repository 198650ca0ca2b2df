"""Summaries of many simulated games: win rates, turns, jackpots, score distribution."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable
from typing import Any

from companion.engine.simulate import PlayedGame


def summarize(games: Iterable[PlayedGame], players: int) -> dict[str, Any]:
    """Aggregate played games; a shared win counts as a fraction for each winner."""
    wins = [0.0] * players
    turns: list[int] = []
    actions: list[int] = []
    jackpots: Counter[str] = Counter()
    scores: list[list[int]] = [[] for _ in range(players)]
    shared = count = 0
    for played in games:
        count += 1
        winners = played.result.winners
        shared += len(winners) > 1
        for seat in winners:
            wins[seat] += 1 / len(winners)
        turns.append(played.turns)
        actions.append(len(played.match.log))
        jackpots.update(played.jackpots)
        for seat, score in enumerate(played.result.scores):
            scores[seat].append(score)
    every = [s for seat in scores for s in seat]
    return {
        "games": count,
        "win_rate_by_seat": [round(w / count, 4) for w in wins] if count else [],
        "shared_results": shared,
        "mean_turns": round(statistics.fmean(turns), 2) if turns else 0,
        "mean_actions": round(statistics.fmean(actions), 2) if actions else 0,
        "jackpots": dict(sorted(jackpots.items())),
        "jackpots_per_game": round(sum(jackpots.values()) / count, 3) if count else 0,
        "scores": {
            "mean_by_seat": [round(statistics.fmean(s), 2) if s else 0 for s in scores],
            "min": min(every, default=0),
            "median": statistics.median(every) if every else 0,
            "max": max(every, default=0),
            "deciles": [round(q, 1) for q in statistics.quantiles(every, n=10)] if len(every) > 1 else [],
        },
    }
