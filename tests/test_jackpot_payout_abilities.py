"""Every Jackpot Payout ability, from the rulebook's card reference (and docs/rulings.md)."""

from __future__ import annotations

import pytest

from companion.engine import CoinsPaid, IllegalActionError, JackpotHit
from companion.engine.games.jackpot_payout.state import CardRemoved, CardScored
from tests.test_jackpot_payout_setup import EXPERT_DISPLAY, legal, play, reveal, start

PLAIN = {"start-grapes": 2, "start-cherries": 2, "start-diamond": 2, "start-crown": 2, "start-shamrock": 2}


def with_cards(**extra: int) -> dict[str, int]:
    """The plain starting cards plus ``extra`` (card ids with '-' written as '_')."""
    deck = dict(PLAIN)
    for card, count in extra.items():
        deck[card.replace("_", "-")] = deck.get(card.replace("_", "-"), 0) + count
    return deck


# --- abilities resolve in the order the player chooses --------------------------------------------


def test_several_abilities_resolve_in_the_order_the_player_chooses() -> None:
    match = start(decks={0: with_cards(int_filter_2_cherries=1, int_second_chance_crown=1)})
    reveal(match, "int-filter-2-cherries", "int-second-chance-crown", "start-grapes")
    assert legal(match) == ["resolve 0", "resolve 1"]
    play(match, "resolve 1")
    point = match.chance_point
    assert point is not None and "Second Chance" in point.what


# --- Improve the Odds -----------------------------------------------------------------------------


def test_improve_the_odds_removes_a_discard_or_deck_card_from_the_game() -> None:
    match = start(decks={0: {"start-improve-the-odds": 1, "start-grapes": 2, "start-crown": 3}})
    match.state.seats[0].discard = {"start-shamrock": 1}
    reveal(match, "start-improve-the-odds", "start-grapes", "start-crown")
    assert set(legal(match)) == {"improve discard start-shamrock", "improve deck start-grapes",
                                 "improve deck start-crown"}
    events = play(match, "improve discard start-shamrock")
    assert CardRemoved("start-shamrock", "player 1's discard") in events
    assert match.state.removed == {"start-shamrock": 1}
    assert match.state.step == "take"


def test_improve_the_odds_from_the_deck_shuffles_the_deck_afterwards() -> None:
    match = start(decks={0: {"start-improve-the-odds": 1, "start-grapes": 2, "start-crown": 3}})
    reveal(match, "start-improve-the-odds", "start-grapes", "start-crown")
    match.state.seats[0].deck_top = ["start-crown"]  # a card known to be on top ...
    match.state.seats[0].deck = {"start-grapes": 1}
    play(match, "improve deck start-grapes")
    seat = match.state.seats[0]
    assert seat.deck_top == [] and seat.deck == {"start-crown": 1}  # ... is shuffled in again


# --- Consolation Prize ----------------------------------------------------------------------------


def test_consolation_prize_pays_two_coins_without_a_jackpot() -> None:
    match = start(decks={0: with_cards(int_consolation_prize_grapes=1)})
    events = reveal(match, "int-consolation-prize-grapes", "start-crown", "start-diamond")
    assert CoinsPaid(0, 2, "bank") in events
    assert match.state.seats[0].coins == 2


def test_consolation_prize_scores_as_normal_on_a_jackpot() -> None:
    match = start(decks={0: with_cards(int_consolation_prize_grapes=1)})
    events = reveal(match, "int-consolation-prize-grapes", "start-grapes", "start-grapes")
    assert JackpotHit(0, "grapes", 3) in events
    assert match.state.seats[0].coins == 3


# --- Filter 2 -------------------------------------------------------------------------------------


def test_filter_2_discards_the_chosen_top_cards_and_keeps_the_others_on_top() -> None:
    match = start(decks={0: with_cards(int_filter_2_cherries=1)})
    reveal(match, "int-filter-2-cherries", "start-grapes", "start-crown")
    point = match.chance_point
    assert point is not None and point.what == "the top card of player 1's deck (Filter 2)"
    reveal(match, "start-diamond", "start-shamrock")
    assert set(legal(match)) == {"filter none", "filter 0", "filter 1", "filter 0 1"}
    play(match, "filter 0")
    seat = match.state.seats[0]
    assert seat.discard == {"start-diamond": 1}
    assert seat.deck_top == ["start-shamrock"]


def test_filter_2_may_discard_nothing() -> None:
    match = start(decks={0: with_cards(int_filter_2_cherries=1)})
    reveal(match, "int-filter-2-cherries", "start-grapes", "start-crown", "start-diamond", "start-shamrock")
    play(match, "filter none")
    assert match.state.seats[0].deck_top == ["start-diamond", "start-shamrock"]


def test_a_card_kept_on_top_is_drawn_next_without_a_chance_point() -> None:
    match = start(players=1, decks={0: {"int-filter-2-cherries": 1, "start-crown": 5, "start-grapes": 1}})
    reveal(match, "int-filter-2-cherries", "start-crown", "start-grapes", "start-crown", "start-crown")
    play(match, "filter none", "done")
    assert [r.card for r in match.state.revealed] == ["start-crown", "start-crown"]  # revealed without asking
    point = match.chance_point
    assert point is not None and point.what == "player 1's card for reel 3"


# --- Guess Suit -----------------------------------------------------------------------------------


def test_guess_suit_scores_the_top_card_when_the_guess_is_right() -> None:
    match = start(decks={0: with_cards(int_guess_suit_diamond=1, int_crown_4=1)})
    reveal(match, "int-guess-suit-diamond", "start-grapes", "start-cherries")
    assert legal(match) == [f"guess {s}" for s in ("grapes", "cherries", "diamond", "crown", "shamrock")]
    play(match, "guess crown")
    events = reveal(match, "int-crown-4")
    assert CardScored(0, "int-crown-4") in events
    assert match.state.seats[0].coins == 4


def test_guess_suit_discards_the_card_when_the_guess_is_wrong() -> None:
    match = start(decks={0: with_cards(int_guess_suit_diamond=1)})
    reveal(match, "int-guess-suit-diamond", "start-grapes", "start-cherries")
    play(match, "guess crown")
    reveal(match, "start-shamrock")
    assert match.state.seats[0].discard == {"start-shamrock": 1}
    assert match.state.seats[0].coins == 0


def test_guess_suit_cannot_guess_wild_but_may_score_a_revealed_wild() -> None:
    match = start(decks={0: with_cards(int_guess_suit_diamond=1, int_wild_2=1)})
    reveal(match, "int-guess-suit-diamond", "start-grapes", "start-cherries")
    with pytest.raises(IllegalActionError, match="cannot guess wild"):
        play(match, "guess wild")
    play(match, "guess shamrock")
    reveal(match, "int-wild-2")
    assert legal(match) == ["score", "discard"]
    play(match, "score")
    assert match.state.seats[0].coins == 2 and match.state.removed == {"int-wild-2": 1}


def test_guess_suit_counts_a_split_card_showing_the_guessed_suit() -> None:
    match = start(decks={0: with_cards(int_guess_suit_diamond=1, int_grapes_diamond_2=1)})
    reveal(match, "int-guess-suit-diamond", "start-grapes", "start-cherries")
    play(match, "guess diamond")
    reveal(match, "int-grapes-diamond-2")
    assert match.state.seats[0].coins == 2


# --- Second Chance --------------------------------------------------------------------------------


def test_second_chance_plays_the_revealed_card_in_place_of_one_in_play() -> None:
    match = start(decks={0: with_cards(int_second_chance_grapes=1)})
    reveal(match, "int-second-chance-grapes", "start-grapes", "start-crown")
    reveal(match, "start-grapes")
    assert legal(match) == ["replace 0", "replace 1", "replace 2", "discard"]
    events = play(match, "replace 2")
    assert JackpotHit(0, "grapes", 3) in events
    assert match.state.seats[0].discard == {"start-crown": 1}  # the replaced card


def test_second_chance_may_discard_the_revealed_card() -> None:
    match = start(decks={0: with_cards(int_second_chance_grapes=1)})
    reveal(match, "int-second-chance-grapes", "start-grapes", "start-crown", "start-diamond")
    play(match, "discard")
    assert match.state.seats[0].discard == {"start-diamond": 1}
    assert match.state.seats[0].play == ["int-second-chance-grapes", "start-grapes", "start-crown"]


def test_a_card_played_by_second_chance_resolves_its_ability_too() -> None:
    match = start(decks={0: with_cards(int_second_chance_grapes=1, int_guess_suit_diamond=1)})
    reveal(match, "int-second-chance-grapes", "start-grapes", "start-crown", "int-guess-suit-diamond")
    play(match, "replace 2")
    assert legal(match)[0] == "guess grapes"


# --- Shopping Spree -------------------------------------------------------------------------------


def test_shopping_spree_lets_the_player_take_as_many_cards_as_they_want() -> None:
    match = start(decks={0: with_cards(int_shopping_spree_cherries=1)})
    reveal(match, "int-shopping-spree-cherries", "start-crown", "start-diamond")
    play(match, "take 0")
    reveal(match, "int-shamrock-1")
    play(match, "take 1")
    reveal(match, "int-shamrock-2")
    play(match, "take wild")
    assert "take 3" in legal(match)
    assert "take 2" not in legal(match)  # still no pair: no Special card
    play(match, "done")
    assert match.state.current == 1
    assert sum(match.state.seats[0].discard.values()) == 6


# --- Stuck Reel -----------------------------------------------------------------------------------


def test_stuck_reel_kept_in_play_means_one_fewer_card_next_turn() -> None:
    match = start(players=1, decks={0: with_cards(int_stuck_reel_grapes=1)})
    reveal(match, "int-stuck-reel-grapes", "start-crown", "start-diamond")
    play(match, "done")
    assert legal(match) == ["keep", "release"]
    play(match, "keep")
    seat = match.state.seats[0]
    assert seat.play == ["int-stuck-reel-grapes"] and seat.kept == 1  # held while the others spin
    point = match.chance_point
    assert point is not None and point.what == "player 1's card for reel 2"
    events = reveal(match, "start-grapes", "start-grapes")
    assert JackpotHit(0, "grapes", 3) in events
    assert match.state.removed["int-stuck-reel-grapes"] == 1  # a jackpot must score it


def test_stuck_reel_may_be_discarded_instead() -> None:
    match = start(decks={0: with_cards(int_stuck_reel_grapes=1)})
    reveal(match, "int-stuck-reel-grapes", "start-crown", "start-diamond")
    play(match, "done", "release")
    assert match.state.seats[0].discard["int-stuck-reel-grapes"] == 1
    assert match.state.seats[0].kept == 0


# --- Coin Sync ------------------------------------------------------------------------------------


def test_coin_sync_scores_your_top_card_and_opponents_score_cards_with_the_same_coins() -> None:
    match = start(players=3, variants=("expert",), decks={
        0: with_cards(exp_coin_sync_grapes=1, exp_crown_2=1), 1: with_cards(exp_cherries_2=1), 2: PLAIN})
    reveal(match, "exp-coin-sync-grapes", "start-crown", "start-diamond", "exp-crown-2")
    assert legal(match) == ["score", "discard"]
    play(match, "score")
    reveal(match, "exp-cherries-2", "start-grapes")
    state = match.state
    assert [s.coins for s in state.seats] == [2, 2, 0]
    assert state.removed == {"exp-crown-2": 1, "exp-cherries-2": 1}
    assert state.seats[2].discard == {"start-grapes": 1}


def test_coin_sync_may_discard_the_card_instead() -> None:
    match = start(variants=("expert",), decks={0: with_cards(exp_coin_sync_grapes=1)})
    reveal(match, "exp-coin-sync-grapes", "start-crown", "start-diamond", "start-grapes")
    play(match, "discard")
    assert match.state.seats[0].discard == {"start-grapes": 1}
    assert match.chance_point is None  # opponents reveal nothing


# --- Diversity Dividends --------------------------------------------------------------------------


def test_diversity_dividends_pays_two_coins_for_four_symbols_counting_both_halves_of_split_cards() -> None:
    match = start(variants=("expert",), decks={0: with_cards(exp_diversity_dividends_diamond=1,
                                                              exp_grapes_cherries_2=1)})
    events = reveal(match, "exp-diversity-dividends-diamond", "exp-grapes-cherries-2", "start-crown")
    assert CoinsPaid(0, 2, "bank") in events


def test_diversity_dividends_pays_nothing_with_three_symbols() -> None:
    match = start(variants=("expert",), decks={0: with_cards(exp_diversity_dividends_diamond=1)})
    reveal(match, "exp-diversity-dividends-diamond", "start-grapes", "start-crown")
    assert match.state.seats[0].coins == 0


# --- Flush ----------------------------------------------------------------------------------------


def test_flush_replaces_every_display_card_of_the_named_suit_and_the_wilds() -> None:
    match = start(variants=("expert",), decks={0: with_cards(exp_flush_shamrock=1)})
    reveal(match, "exp-flush-shamrock", "start-crown", "start-diamond")
    assert legal(match) == [f"flush {s}" for s in ("grapes", "cherries", "diamond", "crown", "shamrock")]
    play(match, "flush grapes")
    state = match.state
    assert state.supply_bottom == ["exp-grapes-2", "exp-flush-grapes", "exp-wild-1"]
    assert [state.display[i] for i in (0, 2, 5)] == [None, None, None]
    point = match.chance_point
    assert point is not None and point.what == "the new card for display pile 1"
    reveal(match, "exp-crown-1", "exp-crown-2", "exp-crown-3")
    assert state.display == ["exp-crown-1", *EXPERT_DISPLAY[1:2], "exp-crown-2", *EXPERT_DISPLAY[3:5],
                             "exp-crown-3", EXPERT_DISPLAY[6]]


# --- Generous -------------------------------------------------------------------------------------


def test_generous_gives_each_player_including_you_a_display_card_then_refreshes() -> None:
    match = start(players=3, variants=("expert",), decks={0: with_cards(exp_generous_cherries=1)})
    reveal(match, "exp-generous-cherries", "start-crown", "start-diamond")
    play(match, "give 4", "give 0", "give wild")
    state = match.state
    assert state.seats[0].discard == {"exp-crown-4": 1}
    assert state.seats[1].discard == {"exp-grapes-2": 1}
    assert state.seats[2].discard == {"coinless-wild": 1}
    point = match.chance_point
    assert point is not None and point.what == "the new card for display pile 5"


# --- Imp ------------------------------------------------------------------------------------------


def test_imp_reveals_everyones_top_card_and_you_choose_which_are_put_back() -> None:
    match = start(variants=("expert",), decks={0: with_cards(exp_imp_crown=1), 1: with_cards(exp_crown_4=1)})
    reveal(match, "exp-imp-crown", "start-crown", "start-diamond")
    reveal(match, "start-grapes", "exp-crown-4")
    assert legal(match) == ["put-back", "discard"]
    play(match, "put-back", "discard")
    assert match.state.seats[0].deck_top == ["start-grapes"]
    assert match.state.seats[1].discard == {"exp-crown-4": 1}


# --- Jackpot Payout -------------------------------------------------------------------------------


def test_jackpot_payout_doubles_the_jackpot() -> None:
    match = start(variants=("expert",), decks={0: with_cards(exp_jackpot_payout_grapes=1, exp_grapes_4=1)})
    events = reveal(match, "exp-jackpot-payout-grapes", "exp-grapes-4", "start-grapes")
    assert JackpotHit(0, "grapes", 12) in events


# --- Jackpot Shuffle ------------------------------------------------------------------------------


def test_jackpot_shuffle_returns_chosen_discards_to_the_deck_after_a_jackpot() -> None:
    match = start(variants=("expert",), decks={0: with_cards(exp_jackpot_shuffle_cherries=1)})
    match.state.seats[0].discard = {"exp-crown-4": 1, "start-shamrock": 1}
    reveal(match, "exp-jackpot-shuffle-cherries", "start-cherries", "start-cherries")
    assert legal(match) == ["shuffle-in exp-crown-4", "shuffle-in start-shamrock", "done"]
    play(match, "shuffle-in exp-crown-4", "done")
    seat = match.state.seats[0]
    assert seat.discard == {"start-shamrock": 1} and seat.deck["exp-crown-4"] == 1
    assert match.state.current == 1


# --- Predict Matches ------------------------------------------------------------------------------


def test_predict_matches_is_announced_before_revealing_and_scores_cards_that_all_match() -> None:
    match = start(variants=("expert",), decks={0: with_cards(exp_predict_matches_crown=1, exp_wild_2=1)})
    reveal(match, "exp-predict-matches-crown", "start-grapes", "start-cherries")
    assert match.chance_point is None
    assert legal(match) == ["predict 2", "predict 3", "predict 4", "predict 5"]
    play(match, "predict 3")
    reveal(match, "start-crown", "exp-wild-2", "start-crown")
    assert match.state.seats[0].coins == 4
    assert match.state.removed == {"start-crown": 2, "exp-wild-2": 1}


def test_predicted_cards_that_do_not_all_match_are_discarded() -> None:
    match = start(variants=("expert",), decks={0: with_cards(exp_predict_matches_crown=1)})
    reveal(match, "exp-predict-matches-crown", "start-grapes", "start-cherries")
    play(match, "predict 2")
    reveal(match, "start-crown", "start-diamond")
    assert match.state.seats[0].coins == 0
    assert match.state.seats[0].discard == {"start-crown": 1, "start-diamond": 1}


# --- Thief ----------------------------------------------------------------------------------------


def test_thief_takes_one_revealed_opponent_card_and_the_rest_are_discarded() -> None:
    match = start(players=3, variants=("expert",), decks={
        0: with_cards(exp_thief_diamond=1), 1: with_cards(exp_crown_4=1), 2: PLAIN})
    reveal(match, "exp-thief-diamond", "start-crown", "start-grapes")
    reveal(match, "exp-crown-4", "start-shamrock")
    assert legal(match) == ["steal 1", "steal 2", "pass"]
    play(match, "steal 1")
    state = match.state
    assert state.seats[0].discard == {"exp-crown-4": 1}
    assert state.seats[2].discard == {"start-shamrock": 1}


# --- edges -----------------------------------------------------------------------------------------


def test_an_opponent_reaching_twelve_coins_by_coin_sync_triggers_the_end_after_the_turn() -> None:
    match = start(variants=("expert",), decks={0: with_cards(exp_coin_sync_grapes=1, exp_crown_2=1),
                                               1: with_cards(exp_cherries_2=1)})
    match.state.seats[1].coins = 10
    reveal(match, "exp-coin-sync-grapes", "start-crown", "start-diamond", "exp-crown-2")
    play(match, "score")
    reveal(match, "exp-cherries-2")
    events = play(match, "done")
    assert any(type(e).__name__ == "EndTriggered" and e.to_dict()["player"] == 1 for e in events)
    assert match.state.in_showdown and match.state.current == 0  # fewest coins first


def test_imp_in_solo_reveals_only_your_own_top_card() -> None:
    match = start(players=1, variants=("expert",), decks={0: with_cards(exp_imp_crown=1)})
    reveal(match, "exp-imp-crown", "start-crown", "start-diamond", "start-grapes")
    play(match, "discard")
    assert match.state.seats[0].discard == {"start-grapes": 1}
    assert match.state.step == "take"


def test_generous_stops_when_the_display_and_the_wilds_run_out() -> None:
    match = start(players=3, variants=("expert",), decks={0: with_cards(exp_generous_cherries=1)})
    match.state.display = ["exp-crown-4", None, None, None, None, None, None]
    match.state.wilds = 0
    reveal(match, "exp-generous-cherries", "start-crown", "start-diamond")
    play(match, "give 0")
    assert match.state.seats[0].discard == {"exp-crown-4": 1}
    assert match.state.seats[1].discard == {} and match.state.seats[2].discard == {}


def test_predict_matches_reshuffles_an_empty_deck_to_reveal_every_card_announced() -> None:
    match = start(variants=("expert",), decks={0: {"exp-predict-matches-crown": 1, "start-grapes": 1,
                                                   "start-cherries": 1, "start-crown": 1}})
    match.state.seats[0].discard = {"start-crown": 2}
    reveal(match, "exp-predict-matches-crown", "start-grapes", "start-cherries")
    play(match, "predict 3")
    events = reveal(match, "start-crown")
    assert any(type(e).__name__ == "DeckReshuffled" for e in events)
    reveal(match, "start-crown", "start-crown")
    assert match.state.seats[0].coins == 3


def test_guess_suit_with_no_card_left_anywhere_does_nothing() -> None:
    match = start(decks={0: {"int-guess-suit-diamond": 1, "start-grapes": 1, "start-cherries": 1}})
    reveal(match, "int-guess-suit-diamond", "start-grapes", "start-cherries")
    assert match.state.step == "take"
