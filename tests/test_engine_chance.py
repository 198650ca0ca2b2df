"""The three ways to answer a chance point: seeded, scripted, reported by the table."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from companion.engine import (
    ChancePoint,
    EngineError,
    GameConfig,
    ImpossibleOutcomeError,
    Match,
    RandomBot,
    ReportedResolver,
    ScriptedResolver,
    SeededResolver,
)

DEAL = ChancePoint("deal", "the card for row 1, column 1", (("bar", 3), ("cherry", 20)))


def test_probabilities_are_exact_and_sum_to_one() -> None:
    assert DEAL.probabilities() == {"bar": Fraction(3, 23), "cherry": Fraction(20, 23)}


def test_the_seeded_resolver_repeats_itself_for_the_same_seed() -> None:
    first, second = SeededResolver(9), SeededResolver(9)
    assert [first.resolve(DEAL) for _ in range(20)] == [second.resolve(DEAL) for _ in range(20)]


def test_a_script_that_runs_out_or_names_an_impossible_card_is_refused() -> None:
    script = ScriptedResolver(["bar", "plum"])
    assert script.resolve(DEAL) == "bar"
    with pytest.raises(ImpossibleOutcomeError, match="'plum' cannot be"):
        script.resolve(DEAL)
    with pytest.raises(EngineError, match="no outcome left"):
        script.resolve(DEAL)


def test_the_table_report_is_checked_when_reported_and_answered_in_order() -> None:
    table = ReportedResolver()
    with pytest.raises(ImpossibleOutcomeError, match="check the card"):
        table.report("seven", DEAL)  # a misread is refused at once, never queued
    with pytest.raises(EngineError, match="waiting for the table"):
        table.resolve(DEAL)
    table.report("cherry", DEAL)
    table.report("bar", DEAL)
    assert [table.resolve(DEAL), table.resolve(DEAL)] == ["cherry", "bar"]


def test_a_refused_report_says_what_to_check_and_never_mentions_a_die_for_a_card() -> None:
    from companion.engine import Action, GameConfig, ImpossibleOutcomeError, Match

    match = Match.new(GameConfig("bandit", players=2, seed=1))
    for card in ("bar", "bar", "bar"):
        match.apply(Action.reveal(card))
    with pytest.raises(ImpossibleOutcomeError) as used_up:
        match.apply(Action.reveal("bar"))
    assert "none is left" in str(used_up.value) and "die" not in str(used_up.value)
    assert "check the card for row 2, column 1" in str(used_up.value)
    for never in ("lemon", "blank"):  # blank: only with the bad-luck variant
        with pytest.raises(ImpossibleOutcomeError) as absent:
            match.apply(Action.reveal(never))
        assert f"there is no '{never}' in this game" in str(absent.value)
        assert "none is left" not in str(absent.value)


def test_without_the_games_word_a_refused_outcome_claims_neither() -> None:
    point = ChancePoint("roll", "die 1", (("red", 1),))
    with pytest.raises(ImpossibleOutcomeError, match="'x' cannot be die 1 now .*check die 1"):
        point.check("x")


@pytest.mark.parametrize("game_id", ["bandit", "jackpot-payout", "mega-jackpot", "pay-line",
                                     "thanks-a-lottery"])
def test_every_game_says_an_outcome_is_not_in_the_game_rather_than_used_up(game_id: str) -> None:
    from companion.engine import Action, GameConfig, ImpossibleOutcomeError, Match, get_game

    game_cls = get_game(game_id)
    match = Match.new(GameConfig(game_id, max(2, game_cls.min_players), seed=1))
    point = match.chance_point
    assert point is not None
    with pytest.raises(ImpossibleOutcomeError) as refused:
        match.apply(Action.reveal("lemon"))
    assert "there is no 'lemon' in this game" in str(refused.value)
    assert "die" not in str(refused.value).replace(point.what, "")


def test_a_point_from_a_deck_is_the_point_from_its_counts() -> None:
    deck = {"cherry": 20, "bar": 3, "seven": 1}
    point = ChancePoint.from_deck("deal", "the next card", deck)
    assert point == ChancePoint.from_counts("deal", "the next card", deck)
    assert point.outcomes == (("bar", 3), ("cherry", 20), ("seven", 1)) and point.total == 24
    assert [SeededResolver(4).resolve(point) for _ in range(3)] == [SeededResolver(4).resolve(
        ChancePoint("deal", "the next card", point.outcomes)) for _ in range(3)]
    with pytest.raises(EngineError):
        ChancePoint.from_deck("deal", "the next card", {})


@pytest.mark.parametrize("game_id", ["jackpot-payout", "thanks-a-lottery"])
def test_the_decks_chance_points_are_made_from_never_hold_a_count_below_one(game_id: str) -> None:
    """``from_deck`` trusts this of the decks these games keep: checked at every step."""

    def decks(state: object) -> list[dict[str, int]]:
        if game_id == "thanks-a-lottery":
            return [state.deck]  # type: ignore[attr-defined]
        return [state.supply, *(seat.deck for seat in state.seats)]  # type: ignore[attr-defined]

    for seed in range(6):
        match = Match.new(GameConfig(game_id, 2 + seed % 3, seed=seed))
        resolver, rng = SeededResolver(seed), random.Random(seed)
        while not match.is_over:
            assert all(count >= 1 for deck in decks(match.state) for count in deck.values())
            if match.chance_point is not None:
                match.resolve(resolver)
            else:
                match.apply(RandomBot().choose(match.game, match.state, rng))
