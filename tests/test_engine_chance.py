"""The three ways to answer a chance point: seeded, scripted, reported by the table."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.engine import (
    ChancePoint,
    EngineError,
    ImpossibleOutcomeError,
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
