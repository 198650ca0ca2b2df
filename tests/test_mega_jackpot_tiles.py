"""Mega Jackpot tiles (variant ``tiles``): betting a jackpot in a money tray and flipping a tile.

Positions are built with one-symbol decks (every card reveals the same symbol), so every flip
is a jackpot and the only real chance point is the tile.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import Action, GameConfig, IllegalActionError, Match
from companion.engine.events import Event, GameEnded, JackpotHit, TurnStarted
from companion.engine.games.mega_jackpot.state import (
    InstantWin,
    MegaJackpotAttempted,
    TileFlipped,
    TilesShuffled,
    TrayBankrupt,
    TrayWon,
)


def one_symbol_deck(symbol: str) -> dict[str, Any]:
    side = "apple-genie" if symbol == "genie" else "apple-cherry"
    return {"reel_sides": {side: {symbol: 60}}}


def forced(match: Match) -> list[Event]:
    """Answer every chance point that has a single possible outcome."""
    events: list[Event] = []
    while (point := match.chance_point) is not None and len(point.outcomes) == 1:
        events += match.apply(Action.reveal(point.outcomes[0][0]))
    return events


def new_match(symbol: str = "apple", players: int = 2) -> Match:
    match = Match.new(GameConfig("mega-jackpot", players, ("tiles",), seed=1,
                                 options={"components": one_symbol_deck(symbol)}))
    forced(match)
    return match


def hit(match: Match) -> None:
    """The current player flips a card: with a one-symbol deck, always a jackpot."""
    match.apply("flip 0 0")
    forced(match)
    assert match.state.phase == "jackpot"


def bet(match: Match, tray: int, tile: str) -> list[Event]:
    hit(match)
    events = match.apply(f"attempt {tray}")
    events += match.apply(Action.reveal(tile))
    return events + forced(match)


def test_a_jackpot_may_be_cashed_out_or_bet_in_either_money_tray() -> None:
    match = new_match()
    hit(match)
    assert match.legal_actions() == [Action.of("cash"), Action.of("attempt", 0), Action.of("attempt", 1)]


def test_an_attempt_puts_the_three_cards_in_the_chosen_tray_and_flips_a_face_down_tile() -> None:
    match = new_match()
    hit(match)
    events = match.apply("attempt 1")
    assert events == [MegaJackpotAttempted(0, "apple", 1)]
    assert match.state.trays[1] == {"apple": 3}
    point = match.chance_point
    assert point is not None and point.kind == "tile" and "tray 2" in point.what
    assert dict(point.outcomes) == {"genie": 1, "monkey": 3}


def test_a_monkey_stays_face_up_and_the_turn_passes() -> None:
    match = new_match()
    events = bet(match, 0, "monkey")
    assert TileFlipped(0, 0, "monkey") in events
    assert match.state.tiles_up == ["monkey"] and match.state.tiles_down == 3
    assert match.state.trays[0] == {"apple": 3}
    assert TurnStarted(1) in events
    hit(match)
    match.apply("attempt 0")
    point = match.chance_point
    assert point is not None and dict(point.outcomes) == {"genie": 1, "monkey": 2}


def test_third_monkey_empties_the_chosen_tray_out_of_the_game_and_reshuffles_the_tiles() -> None:
    match = new_match()
    conserved = match.game.conserved(match.state)
    bet(match, 0, "monkey")
    bet(match, 1, "monkey")
    events = bet(match, 0, "monkey")
    assert TrayBankrupt(0, 6) in events and TilesShuffled() in events
    assert match.state.trays == [{}, {"apple": 3}]
    assert match.state.out_of_game == {"apple": 6}
    assert match.state.tiles_up == [] and match.state.tiles_down == 4
    assert match.game.conserved(match.state) == conserved
    assert match.game.result(match.state).scores == (7, 7)


def test_the_genie_wins_the_trays_cards_and_reshuffles_the_tiles() -> None:
    match = new_match()
    bet(match, 0, "monkey")
    events = bet(match, 0, "genie")
    assert TrayWon(1, 0, 6, 6) in events and TilesShuffled() in events
    assert match.state.in_front[1] == {"start-1": 3, "start-2": 2, "apple": 6}
    assert match.state.trays == [{}, {}]
    assert match.state.tiles_up == [] and match.state.tiles_down == 4
    assert TurnStarted(0) in events


def test_paid_cards_in_a_tray_are_won_with_it() -> None:
    match = new_match("apple")
    match.state.phase = "spun"  # as after a miss: pay a starting card into tray 1
    match.apply("pay 1 0")
    forced(match)
    events = bet(match, 0, "genie")
    assert TrayWon(0, 0, 4, 4) in events


def test_three_genie_cards_and_the_genie_tile_win_the_game_at_once() -> None:
    match = new_match("genie")
    bet(match, 0, "monkey")
    hit(match)
    match.apply("cash")
    forced(match)
    bet(match, 1, "monkey")
    hit(match)
    match.apply("cash")
    forced(match)
    events = bet(match, 1, "genie")
    assert InstantWin(0) in events
    assert match.is_over
    result = match.game.result(match.state)
    # equal points, but the genie jackpot wins outright: points are not counted
    assert result.scores == (49, 49) and result.winners == (0,)
    assert GameEnded((49, 49), (0,)) in events


def test_a_genie_jackpot_won_with_a_monkey_does_not_end_the_game() -> None:
    match = new_match("genie")
    bet(match, 0, "monkey")
    assert not match.is_over


def test_without_the_tiles_the_trays_only_collect_payments() -> None:
    match = Match.new(GameConfig("mega-jackpot", 2, seed=1, options={"components": one_symbol_deck("apple")}))
    forced(match)
    hit(match)
    assert match.legal_actions() == [Action.of("cash")]
    assert match.state.tiles_down == 0


@pytest.mark.parametrize("action", ["attempt 2", "attempt", "attempt x"])
def test_a_bet_names_tray_0_or_1(action: str) -> None:
    match = new_match()
    hit(match)
    with pytest.raises(IllegalActionError):
        match.apply(action)


def test_matching_tops_after_a_refill_are_no_ones_jackpot_until_the_next_flip() -> None:
    match = Match.new(GameConfig("mega-jackpot", 2, seed=1, options={"components": one_symbol_deck("apple")}))
    forced(match)
    hit(match)
    events = match.apply("cash") + forced(match)
    assert match.state.discard_tops() == ["apple", "apple", "apple"]
    assert not any(isinstance(e, JackpotHit) for e in events)
    assert all(a.verb == "flip" for a in match.legal_actions())
    events = match.apply("flip 1 1") + forced(match)
    assert JackpotHit(1, "apple", 3) in events
