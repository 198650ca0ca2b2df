"""``companion adjudicate jackpot-payout``: three cards in play -> the ruling; bad input -> a clear error."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import InvalidSituationError, get_game
from companion.engine.games.jackpot_payout.cards import default_catalogue
from tests.test_jackpot_payout_setup import play, reveal, start

GAME = get_game("jackpot-payout")


def card(*symbols: str, coins: int = 1, ability: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"symbols": list(symbols), "coins": coins}
    if ability:
        entry["ability"] = ability
    return entry


def rule(*cards: dict[str, Any]) -> dict[str, Any]:
    return GAME.adjudicate({"cards": list(cards)})


def test_rulebook_scoring_example_a_wild_and_two_matching_cards_pay_three_coins() -> None:
    # "Three symbols match - Jackpot! You must score. The question mark is wild. A total of
    # 3 coins is present across all cards in play. Take 3 coins from the bank."
    ruling = rule(card("wild", coins=0), card("cherries", coins=2), card("cherries", coins=1))
    assert ruling == {"jackpot": True, "symbol": "cherries", "coins": 3, "pairs": 1, "may_take": 0,
                      "special_allowed": False, "shopping_spree": False}


def test_rulebook_scoring_example_in_play_moves_three_coins_and_removes_the_cards() -> None:
    match = start(decks={0: {"start-improve-the-odds": 1, "int-cherries-2": 1, "start-cherries": 1,
                             "start-crown": 3}})
    reveal(match, "start-improve-the-odds", "int-cherries-2", "start-cherries")
    play(match, "improve deck start-crown")  # the wild's own ability resolves first
    state = match.state
    assert state.seats[0].coins == 3 and state.bank == 18 - 3
    assert {"start-improve-the-odds", "int-cherries-2", "start-cherries"} <= set(state.removed)


def test_no_jackpot_and_no_pair_may_take_one_regular_card() -> None:
    ruling = rule(card("grapes"), card("cherries"), card("crown"))
    assert (ruling["jackpot"], ruling["symbol"], ruling["coins"]) == (False, None, 0)
    assert (ruling["pairs"], ruling["may_take"], ruling["special_allowed"]) == (0, 1, False)


def test_a_split_card_makes_a_pair_of_either_symbol() -> None:
    ruling = rule(card("grapes", "cherries"), card("cherries"), card("crown"))
    assert (ruling["pairs"], ruling["may_take"], ruling["special_allowed"]) == (1, 1, True)


def test_a_wild_between_two_symbols_makes_two_pairs_and_two_cards() -> None:
    ruling = rule(card("grapes"), card("wild", coins=0), card("cherries"))
    assert (ruling["pairs"], ruling["may_take"], ruling["special_allowed"]) == (2, 2, True)


def test_three_wilds_are_a_jackpot() -> None:
    assert rule(card("wild"), card("wild", coins=2), card("wild"))["symbol"] == "wild"


def test_consolation_prize_pays_only_without_a_jackpot() -> None:
    assert rule(card("grapes", ability="consolation-prize"), card("crown"), card("diamond"))["coins"] == 2
    assert rule(card("grapes", ability="consolation-prize"), card("grapes"), card("grapes"))["coins"] == 3


def test_diversity_dividends_pays_with_four_symbols() -> None:
    ruling = rule(card("diamond", ability="diversity-dividends"), card("grapes", "cherries"), card("crown"))
    assert ruling["coins"] == 2


@pytest.mark.parametrize(("payouts", "coins"), [(1, 2 * (1 + 3 + 2)), (2, 4 * 2), (3, 4 * 3)])
def test_jackpot_payout_doubles_two_pay_four_times_the_third_three_four_times_the_largest(
        payouts: int, coins: int) -> None:
    values = [1, 3, 2]
    cards = [card("crown", coins=v, ability="jackpot-payout" if i < payouts else None)
             for i, v in enumerate(values)]
    assert rule(*cards)["coins"] == coins


def test_cards_may_be_named_by_the_ids_vision_identify_prints() -> None:
    by_id = GAME.adjudicate({"cards": ["int-grapes-2", "int-wild-1", {"id": "int-grapes-cherries-1"}]})
    printed = default_catalogue().cards
    by_value = rule(*({"symbols": list(printed[i].symbols), "coins": printed[i].coins}
                      for i in ("int-grapes-2", "int-wild-1", "int-grapes-cherries-1")))
    assert by_id == by_value and by_id["jackpot"] is True


def test_two_printed_jackpot_payouts_pay_four_times_the_third_card() -> None:
    payout = "exp-jackpot-payout-grapes"
    ruling = GAME.adjudicate({"cards": [payout, payout, "exp-grapes-4"], "variants": ["expert"]})
    assert ruling["jackpot"] is True and ruling["coins"] == 4 * 4


def test_the_adjudicator_knows_the_games_variants() -> None:
    from companion.engine.games.jackpot_payout.evaluation import VARIANT_IDS

    assert set(VARIANT_IDS) == set(GAME.variants)


def test_shopping_spree_is_reported_without_a_jackpot() -> None:
    assert rule(card("shamrock", ability="shopping-spree"), card("crown"), card("diamond"))["shopping_spree"]


@pytest.mark.parametrize(("situation", "message"), [
    ([], "JSON object"),
    ({}, '"cards"'),
    ({"cards": [{"symbols": ["grapes"], "coins": 1}] * 2}, "exactly 3 cards"),
    ({"cards": [{"symbols": ["banana"], "coins": 1}] * 3}, "unknown symbol 'banana'"),
    ({"cards": [{"symbols": ["grapes"], "coins": 7}] * 3}, "coins"),
    ({"cards": [{"symbols": ["grapes"], "coins": "1"}] * 3}, "coins"),
    ({"cards": [{"symbols": ["grapes"], "coins": 1, "ability": "teleport"}] * 3}, "ability 'teleport'"),
    ({"cards": [{"symbols": ["grapes", "grapes"], "coins": 1}] * 3}, "not a card"),
    ({"cards": [{"symbols": ["wild", "grapes"], "coins": 1}] * 3}, "not a card"),
    ({"cards": [{"symbols": [], "coins": 1}] * 3}, "one or two symbols"),
    ({"cards": ["grapes", "grapes", "grapes"]}, "card 1: no Jackpot Payout card has the id 'grapes'"),
    ({"cards": [7, "int-grapes-2", "int-grapes-2"]}, "card 1 must be"),
    ({"cards": [{"symbols": ["grapes"], "coins": 1, "colour": "red"}] * 3}, "unknown key 'colour'"),
    ({"cards": [{"symbols": ["grapes"], "coins": 1}] * 3, "card": 1}, "does not know the key 'card'"),
    ({"cards": ["exp-jackpot-payout-grapes"] * 3},
     "3 cards exp-jackpot-payout-grapes are in play, but the game has 2"),
    ({"cards": [{"id": "int-grapes-2", "coins": 3}, "int-grapes-2", "int-wild-1"]}, "has coins 2, not 3"),
    ({"cards": ["exp-grapes-4", "int-grapes-2", "int-wild-1"], "variants": ["expert"]}, "introductory set"),
    ({"cards": ["x" * 5000] * 3}, r"id 'x{20,40}\.\.\.x{20,40}' "),
])
def test_bad_situations_are_refused_naming_the_bad_value(situation: Any, message: str) -> None:
    with pytest.raises(InvalidSituationError, match=message):
        GAME.adjudicate(situation)
