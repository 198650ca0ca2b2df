"""Jackpot Payout's turn, display, bank, end triggers and Final Showdown, from the rulebook."""

from __future__ import annotations

import pytest

from companion.engine import GameEnded, IllegalActionError, ImpossibleOutcomeError, JackpotHit, TurnStarted
from companion.engine.games.jackpot_payout.state import DeckReshuffled, EndTriggered, ShowdownStarted
from tests.test_jackpot_payout_setup import DISPLAY, kinds, legal, play, reveal, start

PLAIN = {"start-grapes": 2, "start-cherries": 2, "start-diamond": 2, "start-crown": 2, "start-shamrock": 2}


def test_three_matching_symbols_are_a_jackpot_scored_from_the_bank_and_removed() -> None:
    match = start(decks={0: {"int-grapes-3": 1, "start-grapes": 2, "start-crown": 3}})
    events = reveal(match, "int-grapes-3", "start-grapes", "start-grapes")
    assert JackpotHit(0, "grapes", 5) in events
    seat = match.state.seats[0]
    assert seat.coins == 5 and match.state.bank == 18 - 5
    assert seat.play == [] and seat.discard == {}
    assert match.state.removed == {"int-grapes-3": 1, "start-grapes": 2}
    assert TurnStarted(1) in events  # the jackpot ends the turn


def test_without_a_jackpot_the_player_may_take_one_regular_card_or_a_coinless_wild() -> None:
    match = start(decks={0: PLAIN})
    reveal(match, "start-grapes", "start-cherries", "start-diamond")
    options = legal(match)
    assert "take 2" not in options  # Consolation Prize is a Special card: no pair
    assert {"take 0", "take 1", "take 3", "take 6", "take wild", "done"} <= set(options)
    play(match, "take 4")
    point = match.chance_point
    assert point is not None and point.what == "the new card for display pile 5"
    reveal(match, "int-shamrock-1")
    seat = match.state.seats[0]
    assert seat.discard == {"int-crown-4": 1, "start-grapes": 1, "start-cherries": 1, "start-diamond": 1}
    assert match.state.display[4] == "int-shamrock-1"
    assert match.state.current == 1


def test_a_special_card_can_only_be_taken_after_revealing_a_pair() -> None:
    match = start(decks={0: PLAIN})
    reveal(match, "start-grapes", "start-cherries", "start-diamond")
    before = match.game.encode_state(match.state)
    with pytest.raises(IllegalActionError, match="only take a Special card after revealing a pair"):
        play(match, "take 2")
    assert match.game.encode_state(match.state) == before


def test_one_pair_allows_a_special_card_but_only_one_card() -> None:
    match = start(decks={0: PLAIN})
    reveal(match, "start-grapes", "start-grapes", "start-diamond")
    assert "take 2" in legal(match)
    play(match, "take 2")
    reveal(match, "int-shamrock-1")
    assert "int-consolation-prize-grapes" in match.state.seats[0].discard
    assert match.state.current == 1


def test_two_pairs_allow_two_cards_and_both_may_be_special() -> None:
    display = ["int-consolation-prize-grapes", "int-filter-2-crown", *DISPLAY[2:]]
    display[2] = "int-grapes-2"
    match = start(decks={0: {**PLAIN, "coinless-wild": 1}}, display=display)
    reveal(match, "start-grapes", "coinless-wild", "start-cherries")  # grapes pair + cherries pair
    play(match, "take 0")
    reveal(match, "int-shamrock-1")
    play(match, "take 1")
    reveal(match, "int-shamrock-2")
    discard = match.state.seats[0].discard
    assert discard["int-consolation-prize-grapes"] == 1 and discard["int-filter-2-crown"] == 1
    assert match.state.current == 1


def test_the_coinless_wild_can_be_taken_while_the_supply_lasts() -> None:
    match = start(decks={0: PLAIN})
    match.state.wilds = 1
    reveal(match, "start-grapes", "start-cherries", "start-diamond")
    play(match, "take wild")
    assert match.state.wilds == 0
    assert match.state.seats[0].discard["coinless-wild"] == 1
    # next turn, nobody sees the wild offered any more
    reveal(match, "start-grapes", "start-cherries", "start-diamond")
    assert "take wild" not in legal(match)


def test_an_empty_deck_is_formed_again_by_shuffling_the_discard_pile() -> None:
    match = start(decks={0: {"start-grapes": 1, "start-crown": 1}})
    match.state.seats[0].discard = {"start-diamond": 3, "start-shamrock": 2}
    events = reveal(match, "start-grapes", "start-crown")
    assert DeckReshuffled(0, 5) in events
    point = match.chance_point
    assert point is not None and dict(point.outcomes) == {"start-diamond": 3, "start-shamrock": 2}
    assert match.state.seats[0].discard == {}


def test_when_the_bank_is_empty_payments_come_from_the_box_then_substitute_tokens() -> None:
    match = start(decks={0: {"int-grapes-3": 1, "int-grapes-4": 1, "start-grapes": 1}})
    match.state.box, match.state.bank = 2, 1
    match.state.substitutes = 0
    before = match.state.bank + match.state.box + match.state.substitutes
    reveal(match, "int-grapes-3", "int-grapes-4", "start-grapes")
    state = match.state
    assert state.seats[0].coins == 8
    assert (state.bank, state.box, state.substitutes) == (0, 0, 5)
    assert before == 3  # 1 from the bank, 2 from the box, 5 substitutes


def test_twelve_coins_trigger_the_end_after_the_turn_then_fewest_coins_start_the_showdown() -> None:
    match = start(players=3, decks={0: {"int-grapes-3": 1, "start-grapes": 2}, 1: PLAIN, 2: PLAIN})
    match.state.seats[0].coins = 9
    match.state.seats[1].coins = 4
    match.state.seats[2].coins = 2
    events = reveal(match, "int-grapes-3", "start-grapes", "start-grapes")
    assert EndTriggered(0, "coins") in events
    assert ShowdownStarted((2, 1, 0)) in events
    assert match.state.current == 2 and match.state.in_showdown
    assert kinds(events)[-1] == "TurnStarted"


def test_starting_a_turn_with_six_or_fewer_cards_in_deck_and_discard_triggers_the_end() -> None:
    match = start(decks={0: PLAIN, 1: {"start-crown": 4}})
    match.state.seats[1].discard = {"start-grapes": 2}
    reveal(match, "start-grapes", "start-cherries", "start-diamond")
    events = play(match, "done")
    assert EndTriggered(1, "cards") in events
    # the triggering player still finishes the turn
    events = reveal(match, "start-crown", "start-crown", "start-crown")
    assert JackpotHit(1, "crown", 3) in events
    assert any(isinstance(e, ShowdownStarted) for e in events)


def test_final_showdown_jackpots_chain_until_a_miss_then_the_next_player_reveals() -> None:
    match = start(decks={0: {"int-grapes-3": 1, "start-grapes": 2, "start-crown": 2}, 1: PLAIN})
    match.state.seats[0].coins = 11
    reveal(match, "int-grapes-3", "start-grapes", "start-grapes")  # 16 coins: end
    assert match.state.in_showdown and match.state.current == 1
    match.state.seats[1].deck = {"start-crown": 7, "start-diamond": 2}
    events = reveal(match, "start-crown", "start-crown", "start-crown")
    assert JackpotHit(1, "crown", 3) in events and match.state.current == 1
    events = reveal(match, "start-crown", "start-crown", "start-crown")
    assert JackpotHit(1, "crown", 3) in events
    reveal(match, "start-diamond", "start-diamond", "start-crown")  # a miss ends the chain
    assert match.state.seats[1].coins == 6
    assert match.state.current == 0
    point = match.chance_point
    assert point is not None and point.what == "player 1's card for reel 1"


def test_the_showdown_ends_the_game_after_every_player_missed() -> None:
    match = start(decks={0: {"int-grapes-3": 1, "start-grapes": 2, "start-crown": 2}, 1: PLAIN})
    match.state.seats[0].coins = 11
    reveal(match, "int-grapes-3", "start-grapes", "start-grapes")
    reveal(match, "start-grapes", "start-cherries", "start-diamond")  # player 2 misses
    events = reveal(match, "start-crown", "start-crown")  # player 1 has only two cards left
    assert match.is_over
    assert GameEnded((16, 0), (0,)) in events
    assert match.legal_actions() == []


def test_a_tie_goes_to_the_most_coins_on_the_cards_still_owned() -> None:
    match = start(decks={0: PLAIN, 1: PLAIN})
    state = match.state
    state.seats[0].coins = state.seats[1].coins = 12
    state.seats[1].discard = {"int-crown-4": 1}
    result = match.game.result(state)
    assert result.winners == (1,)
    assert "owned cards" in result.details


def test_a_tie_on_owned_coins_too_is_a_shared_victory() -> None:
    match = start(decks={0: PLAIN, 1: PLAIN})
    match.state.seats[0].coins = match.state.seats[1].coins = 12
    assert match.game.result(match.state).winners == (0, 1)


def test_the_camera_cannot_report_a_card_the_player_does_not_have() -> None:
    match = start(decks={0: PLAIN})
    before = match.game.encode_state(match.state)
    with pytest.raises(ImpossibleOutcomeError, match="cannot be player 1's card for reel 1"):
        reveal(match, "int-crown-4")
    assert match.game.encode_state(match.state) == before


def test_the_camera_cannot_report_a_card_already_scored() -> None:
    match = start(decks={0: {"int-grapes-3": 1, "start-grapes": 2, "start-crown": 3}, 1: PLAIN})
    reveal(match, "int-grapes-3", "start-grapes", "start-grapes")
    reveal(match, "start-grapes", "start-cherries", "start-diamond")
    play(match, "done")
    with pytest.raises(ImpossibleOutcomeError):
        reveal(match, "int-grapes-3")


def test_draws_are_weighted_by_what_is_left_in_the_deck() -> None:
    match = start(decks={0: {"start-grapes": 3, "start-crown": 1}})
    point = match.chance_point
    assert point is not None
    assert point.probability("start-grapes") == pytest.approx(0.75)


def test_the_public_view_hides_deck_contents_but_shows_discards_and_the_display() -> None:
    match = start(decks={0: PLAIN})
    match.state.seats[1].discard = {"start-crown": 1}
    view = match.game.public_view(match.state)
    assert "deck" not in view["seats"][0] and view["seats"][0]["deck_count"] == 10
    assert view["seats"][1]["discard"] == {"start-crown": 1}
    assert view["display"] == DISPLAY
    assert "supply" not in view and view["supply_count"] == 53
    assert match.game.public_view(match.state, viewer=0)["seats"][0]["deck_contents"] == PLAIN


def test_chance_point_kinds_tell_the_camera_where_to_look() -> None:
    match = start(decks={0: {"int-filter-2-cherries": 1, **PLAIN}})
    point = match.chance_point
    assert point is not None and point.kind == "reel"
    reveal(match, "int-filter-2-cherries", "start-grapes", "start-crown")
    point = match.chance_point
    assert point is not None and point.kind == "draw"
    reveal(match, "start-diamond", "start-diamond")
    play(match, "filter none", "take 0")
    point = match.chance_point
    assert point is not None and point.kind == "display"
