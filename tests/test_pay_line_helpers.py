"""Shared helpers for the Pay Line scenario tests (no tests here): build a match, roll dice."""

from __future__ import annotations

from typing import Any

from companion.engine import Action, GameConfig, Match
from companion.engine.events import Event

NO_JACKPOT = ("black", "yellow", "red")


def new_match(players: int = 2, **components: Any) -> Match:
    """A fresh Pay Line match; keyword arguments override the component table."""
    options = {"components": components} if components else {}
    return Match.new(GameConfig("pay-line", players=players, seed=1, options=options))


def roll(match: Match, *colours: str) -> list[Event]:
    """Reveal the dice that are rolling now, in die order."""
    events: list[Event] = []
    for colour in colours:
        events += match.apply(Action.reveal(colour))
    return events


def walk_turn(match: Match) -> list[Event]:
    """A whole turn that hits nothing and walks away."""
    return roll(match, *NO_JACKPOT) + match.apply("walk")


def take_turn(match: Match, colour: str) -> list[Event]:
    """A whole turn whose free roll is three ``colour`` and takes the box."""
    return roll(match, colour, colour, colour) + match.apply("take")
