"""Every answer of the Jackpot Payout rulebook's FAQ, as a test."""

from __future__ import annotations

from companion.engine import GameConfig, Match, get_game
from tests.test_jackpot_payout_setup import legal, play, reveal, start

PLAIN = {"start-grapes": 2, "start-cherries": 2, "start-diamond": 2, "start-crown": 2, "start-shamrock": 2}


def test_faq_a_player_can_look_through_their_discard_pile() -> None:
    match = start(decks={0: PLAIN})
    match.state.seats[0].discard = {"int-crown-4": 1, "start-grapes": 2}
    for viewer in (None, 0, 1):
        assert match.game.public_view(match.state, viewer)["seats"][0]["discard"] == {
            "int-crown-4": 1, "start-grapes": 2}


def test_faq_a_card_discarded_before_its_ability_resolves_does_not_resolve() -> None:
    match = start(decks={0: {**PLAIN, "int-second-chance-crown": 1, "int-filter-2-cherries": 1}})
    reveal(match, "int-second-chance-crown", "int-filter-2-cherries", "start-grapes")
    play(match, "resolve 0")
    reveal(match, "start-crown")
    play(match, "replace 1")  # Filter 2 is discarded before it resolved
    assert match.state.seats[0].discard == {"int-filter-2-cherries": 1}
    assert match.state.step == "take"  # straight to the display: Filter 2 never resolved
    assert match.chance_point is None


def test_faq_two_pairs_let_the_player_take_up_to_two_cards_both_special() -> None:
    ruling = get_game("jackpot-payout").adjudicate({"cards": [
        {"symbols": ["grapes"], "coins": 1}, {"symbols": ["grapes", "cherries"], "coins": 1},
        {"symbols": ["cherries"], "coins": 1}]})
    assert ruling["pairs"] == 2 and ruling["may_take"] == 2 and ruling["special_allowed"]
    match = start(decks={0: {**PLAIN, "int-grapes-cherries-1": 1}},
                  display=["int-consolation-prize-grapes", "int-filter-2-crown", "int-grapes-2",
                           "int-diamond-1", "int-crown-4", "int-grapes-cherries-1", "int-wild-1"])
    reveal(match, "start-grapes", "int-grapes-cherries-1", "start-cherries")
    play(match, "take 0")
    reveal(match, "int-crown-1")
    assert "take 1" in legal(match)
    play(match, "take 1")
    assert match.state.takes_left == 0


def test_faq_a_question_mark_card_is_wild_and_matches_all_suits() -> None:
    for symbol in ("grapes", "cherries", "diamond", "crown", "shamrock"):
        ruling = get_game("jackpot-payout").adjudicate({"cards": [
            {"symbols": [symbol], "coins": 1}, {"symbols": ["wild"], "coins": 0},
            {"symbols": [symbol], "coins": 2}]})
        assert ruling["jackpot"] and ruling["symbol"] == symbol and ruling["coins"] == 3


def test_faq_a_two_suit_card_is_either_suit_without_deciding_when_played() -> None:
    # the same split card makes a grapes pair and a cherries pair at once
    match = start(decks={0: {**PLAIN, "int-grapes-cherries-1": 1}})
    reveal(match, "start-grapes", "int-grapes-cherries-1", "start-cherries")
    assert match.state.takes_left == 2 and match.state.special_ok
    # and it completes a jackpot of either symbol
    for symbol in ("grapes", "cherries"):
        ruling = get_game("jackpot-payout").adjudicate({"cards": [
            {"symbols": ["grapes", "cherries"], "coins": 1}, {"symbols": [symbol], "coins": 1},
            {"symbols": [symbol], "coins": 1}]})
        assert ruling["symbol"] == symbol


def test_faq_introductory_and_expert_cards_can_be_mixed_into_a_deck_of_at_least_sixty() -> None:
    match = Match.new(GameConfig("jackpot-payout", 3, ("mixed",)))
    point = match.chance_point
    assert point is not None and point.total >= 60
    cards = {card for card, _ in point.outcomes}
    assert any(c.startswith("int-") for c in cards) and any(c.startswith("exp-") for c in cards)
