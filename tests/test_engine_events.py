"""Events made with ``@event``: frozen dataclasses whose faster ``__init__`` changes nothing else."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from companion.engine.events import Event, JackpotHit, event
from companion.engine.games.jackpot_payout.state import CardRevealed
from companion.engine.games.thanks_a_lottery.state import DiceRerolled


def test_an_event_is_built_compared_hashed_and_frozen_as_a_frozen_dataclass() -> None:
    hit = JackpotHit(0, "bar", amount=200)
    assert hit == JackpotHit(player=0, symbol="bar", amount=200)
    assert hash(hit) == hash(JackpotHit(0, "bar", 200))
    assert hit != JackpotHit(1, "bar", 200)
    assert repr(hit) == "JackpotHit(player=0, symbol='bar', amount=200)"
    assert hit.to_dict() == {"type": "JackpotHit", "player": 0, "symbol": "bar", "amount": 200}
    assert copy.deepcopy(hit) == hit == pickle.loads(pickle.dumps(hit))
    assert dataclasses.replace(hit, amount=5).amount == 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        hit.amount = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        CardRevealed(0, "start-grapes")  # type: ignore[call-arg]  # a field is missing


def test_a_field_may_have_any_name() -> None:
    rerolled = DiceRerolled(1, values=(2, 5))  # ``values``: not the name __init__ keeps its dict in
    assert (rerolled.player, rerolled.values) == (1, (2, 5))
    assert rerolled == DiceRerolled(1, (2, 5))

    @event
    class Odd(Event):
        stored: int
        stored_: str
        self_: int

    odd = Odd(1, "x", 2)
    assert (odd.stored, odd.stored_, odd.self_) == (1, "x", 2)


def test_an_event_with_a_default_is_refused() -> None:
    with pytest.raises(TypeError, match="no defaults"):
        @event
        class Defaulted(Event):
            player: int = 0
