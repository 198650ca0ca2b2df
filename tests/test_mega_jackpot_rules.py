"""Mega Jackpot, rule by rule (rulebook seed 001 and docs/rulings.md "Mega Jackpot")."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import (
    Action,
    ConfigError,
    GameConfig,
    IllegalActionError,
    ImpossibleOutcomeError,
    Match,
    ReportedResolver,
)
from companion.engine.events import Event, GameEnded, JackpotHit, TurnEnded, TurnStarted
from companion.engine.games.mega_jackpot.state import DiscardRefilled, JackpotCashed, SpinLanded, SpinPaid

#: setup reveals: the three top reel sides, then per discard the flipped front and the new top
SETUP = ("apple-cherry", "apple-cherry", "diamond-genie",
         "apple", "apple-genie", "cherry", "apple-cherry", "diamond", "diamond-genie")
#: a small deck (12 cards, piles of 4) for games that must run a pile out
SMALL = {"reel_sides": {"apple-cherry": {"apple": 6, "cherry": 3},
                        "diamond-genie": {"diamond": 2, "genie": 1}}}
#: setup reveals for SMALL: discards apple, apple, cherry; every pile (3 cards) shows apple/cherry
SMALL_SETUP = ("apple-cherry", "apple-cherry", "apple-cherry",
               "apple", "apple-cherry", "apple", "apple-cherry", "cherry", "apple-cherry")


def new_match(players: int = 2, *variants: str, components: dict[str, Any] | None = None) -> Match:
    options = {"components": components} if components else {}
    return Match.new(GameConfig("mega-jackpot", players, variants, seed=1, options=options))


def reveal(match: Match, *outcomes: str) -> list[Event]:
    events: list[Event] = []
    for outcome in outcomes:
        events += match.apply(Action.reveal(outcome))
    return events


def started(players: int = 2, *variants: str, setup: tuple[str, ...] = SETUP,
            components: dict[str, Any] | None = None) -> Match:
    """A match after setup: discards apple, cherry, diamond; pile tops apple-genie,
    apple-cherry, diamond-genie; seat 0 to flip."""
    match = new_match(players, *variants, components=components)
    reveal(match, *setup)
    return match


def play(match: Match, action: str, *outcomes: str) -> list[Event]:
    return match.apply(action) + reveal(match, *outcomes)


def tops(match: Match) -> list[str | None]:
    return match.state.discard_tops()


# --- setup ---------------------------------------------------------------------------------


def test_three_reel_piles_of_30_from_the_90_jackpot_cards() -> None:
    match = new_match()
    assert match.state.pile_sizes == [30, 30, 30]
    assert sum(match.state.unknown.values()) == 90
    assert match.game.components.by_symbol() == {"apple": 30, "cherry": 24, "diamond": 18, "carpet": 12,
                                                 "genie": 6}


def test_setup_reveals_each_top_reel_side_then_flips_each_top_card_onto_the_discard_below() -> None:
    match = new_match()
    point = match.chance_point
    assert point is not None and point.kind == "reel-side" and "pile 1" in point.what
    assert dict(point.outcomes)["apple-cherry"] == 14
    events = reveal(match, *SETUP)
    assert tops(match) == ["apple", "cherry", "diamond"]
    assert match.state.discards == [
        ["apple@apple-cherry"], ["cherry@apple-cherry"], ["diamond@diamond-genie"]
    ]
    assert match.state.pile_sizes == [29, 29, 29]
    assert match.state.pile_tops == ["apple-genie", "apple-cherry", "diamond-genie"]
    assert [e for e in events if isinstance(e, DiscardRefilled)] == [
        DiscardRefilled(0, 0), DiscardRefilled(1, 1), DiscardRefilled(2, 2)
    ]
    assert events[-1] == TurnStarted(0)
    assert match.game.current_player(match.state) == 0


def test_each_player_starts_with_three_1_point_and_two_2_point_cards() -> None:
    match = started(4)
    assert match.state.in_front == [{"start-1": 3, "start-2": 2}] * 4
    assert match.game.result(match.state).scores == (7, 7, 7, 7)


@pytest.mark.parametrize("players", [1, 5])
def test_mega_jackpot_is_for_2_to_4_players(players: int) -> None:
    with pytest.raises(ConfigError, match="2-4 players"):
        new_match(players)


# --- hidden information ------------------------------------------------------------------


def test_a_flip_reveals_a_front_weighted_by_the_unknown_cards_of_that_reel_side() -> None:
    match = new_match()
    reveal(match, "apple-cherry")
    reveal(match, "apple-cherry", "diamond-genie")
    point = match.chance_point
    assert point is not None and point.kind == "flip"
    assert dict(point.outcomes) == {"apple": 8, "cherry": 6}
    reveal(match, "apple", "apple-cherry")
    # the second apple/cherry top is drawn without replacement: one apple is gone
    point = match.chance_point
    assert point is not None and dict(point.outcomes) == {"apple": 7, "cherry": 6}


def test_a_new_top_reel_side_is_weighted_by_the_cards_under_the_tops() -> None:
    match = new_match()
    reveal(match, "carpet-genie", "carpet-genie", "carpet-genie")
    # 4 carpet/genie cards, three showing on the tops: one can still be underneath
    reveal(match, "genie")
    point = match.chance_point
    assert point is not None and point.kind == "reel-side"
    assert dict(point.outcomes)["carpet-genie"] == 1
    assert dict(point.outcomes)["apple-cherry"] == 14


def test_a_reveal_that_cannot_happen_is_refused_and_changes_nothing() -> None:
    match = started()
    match.apply("flip 0 1")
    before = match.game.encode_state(match.state)
    with pytest.raises(ImpossibleOutcomeError):
        match.apply(Action.reveal("diamond"))  # an apple/genie card shows apple or genie
    assert match.game.encode_state(match.state) == before


def test_the_last_card_of_a_reel_side_cannot_come_up_twice() -> None:
    match = new_match()
    reveal(match, "carpet-genie", "carpet-genie", "carpet-genie", "genie")
    reveal(match, "carpet-genie")  # the fourth carpet/genie card is the new top of pile 1
    reveal(match, "carpet", "apple-cherry", "carpet", "apple-cherry")
    match.apply("flip 0 0")
    with pytest.raises(ImpossibleOutcomeError, match="genie"):
        match.apply(Action.reveal("genie"))  # only one genie had that reel side


def test_the_state_holds_no_hidden_front() -> None:
    match = started()
    view = match.game.public_view(match.state, viewer=1)
    assert view["pile_tops"] == ["apple-genie", "apple-cherry", "diamond-genie"]
    assert view["discard_tops"] == ["apple", "cherry", "diamond"]
    assert view["scores"] == [7, 7]
    assert sum(view["unknown"].values()) == sum(view["pile_sizes"])


# --- flipping ------------------------------------------------------------------------------


def test_flip_one_card_from_any_pile_onto_any_discard() -> None:
    match = started()
    assert len([a for a in match.legal_actions() if len(a.args) == 2]) == 9
    play(match, "flip 2 0", "genie", "carpet-genie")
    assert tops(match) == ["genie", "cherry", "diamond"]
    assert match.state.discards[0] == ["apple@apple-cherry", "genie@diamond-genie"]
    assert match.state.pile_sizes == [29, 29, 28]
    assert match.state.pile_tops[2] == "carpet-genie"


def test_flip_two_cards_from_two_different_piles_onto_two_different_discards() -> None:
    match = started()
    two = [a for a in match.legal_actions() if len(a.args) == 4]
    assert len(two) == 18
    events = play(match, "flip 0 2 1 0", "apple", "cherry", "apple-cherry", "apple-cherry")
    assert tops(match) == ["cherry", "cherry", "apple"]
    assert SpinLanded(0, ("cherry", "cherry", "apple"), None) in events


@pytest.mark.parametrize(("action", "message"), [
    ("flip 0 1 0 2", "two different piles"),
    ("flip 0 1 2 1", "two different discards"),
    ("flip 2 0 0 1", "lower pile first"),
    ("flip 3 0", "numbered 0, 1 and 2"),
    ("flip 0", "flip one card"),
    ("pay 1 0", "flip one or two cards first"),
    ("cash", "flip one or two cards first"),
])
def test_illegal_flips_are_refused_and_change_nothing(action: str, message: str) -> None:
    match = started()
    before = match.game.encode_state(match.state)
    with pytest.raises(IllegalActionError, match=message):
        match.apply(action)
    assert match.game.encode_state(match.state) == before


def test_discards_are_stacks_and_only_the_top_cards_decide_a_jackpot() -> None:
    match = started()
    events = play(match, "flip 0 2 1 1", "apple", "apple", "apple-cherry", "apple-cherry")
    assert tops(match) == ["apple", "apple", "apple"]
    assert match.state.discards[2] == ["diamond@diamond-genie", "apple@apple-genie"]
    assert JackpotHit(0, "apple", 3) in events
    assert match.legal_actions() == [Action.of("cash")]


# --- after the flip --------------------------------------------------------------------------


def test_no_jackpot_lets_the_player_stop_or_pay_to_spin_again() -> None:
    match = started()
    play(match, "flip 0 1", "apple", "apple-cherry")
    assert match.legal_actions() == [Action.of("stop"), Action.of("pay", 1, 0), Action.of("pay", 1, 1)]
    events = match.apply("stop")
    assert events == [TurnEnded(0), TurnStarted(1)]


def test_a_jackpot_must_be_cashed_out_and_stopping_is_refused() -> None:
    match = started()
    play(match, "flip 0 2 1 1", "apple", "apple", "apple-cherry", "apple-cherry")
    with pytest.raises(IllegalActionError, match="jackpot is showing"):
        match.apply("stop")
    with pytest.raises(IllegalActionError, match="without the Mega Jackpot tiles"):
        match.apply("attempt 0")


def test_cash_out_puts_the_three_cards_in_the_value_pile_and_ends_the_turn() -> None:
    match = started()
    play(match, "flip 0 2 1 1", "apple", "apple", "apple-cherry", "apple-cherry")
    events = match.apply("cash")
    assert JackpotCashed(0, "apple", 3) in events
    assert match.state.in_front[0] == {"start-1": 3, "start-2": 2, "apple": 3}
    # the cards below show again; discard 1 was one card deep: the pile above refills it at once
    assert match.state.discards[1] == ["cherry@apple-cherry"]
    assert match.state.discards[2] == ["diamond@diamond-genie"]
    assert match.state.discards[0] == []
    assert events[-1] == DiscardRefilled(0, 0)
    reveal(match, "cherry", "apple-genie")
    assert tops(match) == ["cherry", "cherry", "diamond"]
    assert match.game.current_player(match.state) == 1
    assert match.game.result(match.state).scores == (10, 7)


def test_an_empty_discard_is_refilled_from_the_next_pile_when_the_pile_above_is_empty() -> None:
    match = started(components=SMALL, setup=SMALL_SETUP)
    play(match, "flip 0 2", "cherry", "apple-cherry")
    match.apply("pay 1 0")
    play(match, "flip 0 1", "apple", "apple-cherry")
    match.apply("pay 2 0")
    play(match, "flip 0 2", "apple")  # pile 1's last card: no new reel side to reveal
    assert match.state.pile_sizes[0] == 0 and match.state.pile_tops[0] is None
    assert tops(match) == ["apple", "apple", "apple"]
    events = match.apply("cash")
    assert DiscardRefilled(0, 1) in events  # pile 1 is empty: pile 2, to its right, refills discard 1
    events = reveal(match, "apple", "apple-cherry")
    # the reel pile ran out this turn: the game ends when the turn does
    assert events[-1] == GameEnded((7, 7), (0, 1))


# --- paying to spin again -------------------------------------------------------------------------


def test_the_first_payment_in_a_turn_is_one_of_the_lowest_value_cards() -> None:
    match = started()
    play(match, "flip 0 1", "apple", "apple-cherry")
    with pytest.raises(IllegalActionError, match="lowest card: 1 point"):
        match.apply("pay 2 0")
    events = match.apply("pay 1 1")
    assert events == [SpinPaid(0, 1, 1)]
    assert match.state.trays[1] == {"start-1": 1}
    assert match.state.in_front[0] == {"start-1": 2, "start-2": 2}


def test_each_later_payment_that_turn_is_worth_more_than_the_previous() -> None:
    match = started()
    play(match, "flip 0 1", "apple", "apple-cherry")
    match.apply("pay 1 0")
    play(match, "flip 0 1", "cherry", "apple-cherry")
    pays = [a for a in match.legal_actions() if a.verb == "pay"]
    assert pays == [Action.of("pay", 2, 0), Action.of("pay", 2, 1)]
    with pytest.raises(IllegalActionError, match="more than the 1 point"):
        match.apply("pay 1 0")
    match.apply("pay 2 0")
    play(match, "flip 0 1", "apple", "apple-cherry")
    # a 2-point card was the last payment and nothing higher is held: only stop
    assert match.legal_actions() == [Action.of("stop")]
    assert match.state.trays[0] == {"start-1": 1, "start-2": 1}


def test_payments_start_again_from_the_lowest_card_next_turn() -> None:
    match = started()
    play(match, "flip 0 1", "apple", "apple-cherry")
    match.apply("pay 1 0")
    play(match, "flip 0 1", "cherry", "apple-cherry")
    match.apply("pay 2 0")
    play(match, "flip 0 1", "apple", "apple-cherry")
    match.apply("stop")
    play(match, "flip 0 1", "cherry", "apple-cherry")
    match.apply("stop")
    play(match, "flip 0 1", "apple", "apple-cherry")
    assert Action.of("pay", 1, 0) in match.legal_actions()


def test_after_paying_the_player_must_flip() -> None:
    match = started()
    play(match, "flip 0 1", "apple", "apple-cherry")
    match.apply("pay 1 0")
    with pytest.raises(IllegalActionError, match="flip one or two cards first"):
        match.apply("stop")
    assert all(a.verb == "flip" for a in match.legal_actions())


def test_a_starting_card_is_paid_before_a_jackpot_card_of_the_same_value() -> None:
    match = started()
    play(match, "flip 0 2 1 1", "apple", "apple", "apple-cherry", "apple-cherry")
    match.apply("cash")
    reveal(match, "cherry", "apple-genie")
    match.apply("flip 0 0")
    reveal(match, "apple", "apple-cherry")
    match.apply("stop")
    play(match, "flip 0 1", "apple", "apple-cherry")
    match.apply("pay 1 0")
    assert match.state.in_front[0] == {"start-1": 2, "start-2": 2, "apple": 3}


def test_a_player_with_no_cards_left_only_plays_the_free_flip() -> None:
    match = started()
    match.state.in_front[0] = {}
    play(match, "flip 0 1", "apple", "apple-cherry")
    assert match.legal_actions() == [Action.of("stop")]
    with pytest.raises(IllegalActionError, match="no cards left to pay"):
        match.apply("pay 1 0")


# --- the end --------------------------------------------------------------------------------------


def test_the_game_ends_after_the_turn_in_which_a_reel_pile_runs_out() -> None:
    match = started(components=SMALL, setup=SMALL_SETUP)
    play(match, "flip 0 2", "cherry", "apple-cherry")
    match.apply("pay 1 0")
    play(match, "flip 0 1", "cherry", "apple-cherry")
    match.apply("pay 2 0")
    play(match, "flip 0 0", "apple")
    assert match.state.pile_sizes[0] == 0 and not match.is_over
    # the current player finishes the turn (here: nothing worth more than 2 left to pay)
    assert match.legal_actions() == [Action.of("stop")]
    events = match.apply("stop")
    assert match.is_over
    assert events[-2:] == [TurnEnded(0), GameEnded((4, 7), (1,))]
    assert match.legal_actions() == []


def test_the_score_counts_starting_cards_and_trays_count_for_no_one() -> None:
    match = started()
    play(match, "flip 0 1", "apple", "apple-cherry")
    match.apply("pay 1 0")
    play(match, "flip 0 2 1 1", "apple", "apple", "apple-cherry", "apple-cherry")
    match.apply("cash")
    assert match.game.result(match.state).scores == (6 + 3, 7)
    assert match.state.trays[0] == {"start-1": 1}


def test_equal_points_share_the_win() -> None:
    match = started()
    result = match.game.result(match.state)
    assert result.winners == (0, 1)


# --- components ----------------------------------------------------------------------------------


def test_the_card_table_can_be_overridden_by_a_players_own_copy() -> None:
    match = new_match(components=SMALL)
    assert match.state.pile_sizes == [4, 4, 4]
    assert match.game.components.by_symbol()["genie"] == 1


@pytest.mark.parametrize(("override", "message"), [
    ({"reel_sides": {"apple-apple": {"apple": 3}}}, "two different symbols"),
    ({"reel_sides": {"cherry-apple": {"apple": 9}}}, "lower value first"),
    ({"reel_sides": {"apple-cherry": {"genie": 9}}}, "cannot reveal 'genie'"),
    ({"reel_sides": {"apple-cherry": {"apple": -1}}}, "whole number"),
    ({"tiles": {"genie": 2, "monkey": 3}}, "genie = 1"),
    ({"starting_cards": {"total": {"1": 2}, "per_player": {"1": 3}}}, "not enough start-1"),
    ("lots", "must be a table"),
])
def test_a_broken_card_table_is_refused_with_a_clear_error(override: Any, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Match.new(GameConfig("mega-jackpot", 2, options={"components": override}))


def test_card_faces_are_one_per_front_and_reel_side_plus_the_starting_cards() -> None:
    faces = {face.id: face for face in Match.new(GameConfig("mega-jackpot", 2)).game.card_faces()}
    jackpot = [f for f in faces.values() if "@" in f.id]
    assert len(jackpot) == 20 and sum(f.count for f in jackpot) == 90
    apple = faces["apple@apple-cherry"]
    assert apple.symbols == ("apple",) and apple.back == ("apple", "cherry") and apple.count == 8
    assert faces["genie@carpet-genie"].count == 1
    assert faces["start-1"].count == 12 and faces["start-2"].count == 8 and faces["start-2"].back == ()


def test_describe_reads_like_the_table() -> None:
    match = started()
    game = match.game
    assert game.describe(match.state, Action.parse("flip 0 2 1 0")) == (
        "player 1 flips pile 1 onto discard 3 and pile 2 onto discard 1"
    )
    match.apply("flip 0 1")
    assert "pile 1 (apple/genie reel) on discard 2" in game.describe(match.state, Action.reveal("apple"))
    reveal(match, "apple", "apple-cherry")
    assert game.describe(match.state, Action.parse("pay 1 0")) == (
        "player 1 pays a 1-point card into tray 1 to spin again"
    )


def test_table_mode_reports_are_checked_against_the_cards_that_remain() -> None:
    match = started()
    match.apply("flip 2 0")  # pile 3 shows the diamond/genie reel side
    resolver = ReportedResolver()
    point = match.chance_point
    assert point is not None
    with pytest.raises(ImpossibleOutcomeError, match="check the card"):
        resolver.report("apple", point)  # a misread: that card shows a diamond or a genie
    resolver.report("genie", point)
    match.resolve(resolver)
    assert tops(match) == ["genie", "cherry", "diamond"]
    point = match.chance_point
    assert point is not None and point.kind == "reel-side"
    resolver.report("carpet-genie", point)
    match.resolve(resolver)
    assert match.state.pile_tops[2] == "carpet-genie"


def test_paying_to_spin_is_offered_only_while_a_reel_pile_has_a_card_to_flip() -> None:
    tiny = {"reel_sides": {"apple-cherry": {"apple": 3, "cherry": 3}}}
    match = started(components=tiny, setup=("apple-cherry",) * 3 + (
        "apple", "apple-cherry", "cherry", "apple-cherry", "apple", "apple-cherry"))
    assert match.state.pile_sizes == [1, 1, 1]
    play(match, "flip 0 1 1 2", "apple", "cherry")
    match.apply("pay 1 0")
    play(match, "flip 2 2", "cherry")
    assert match.state.pile_sizes == [0, 0, 0]
    assert match.legal_actions() == [Action.of("stop")]  # a 2-point card is held, but nothing to flip
    with pytest.raises(IllegalActionError, match="nothing left to spin"):
        match.apply("pay 2 0")
    assert isinstance(match.apply("stop")[-1], GameEnded)
