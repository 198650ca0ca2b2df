"""Thanks a Lottery scenarios, written from the rulebook (seed 003) and docs/rulings.md.

Positions are built with explicit reveals: the deal (one card at a time round the table from
the dealer's left), the roll of the pool, each draw. Component overrides (fewer dice, a small
deck, 3-card hands) make the round-end edges quick to reach.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import Action, GameConfig, IllegalActionError, Match, RoundEnded
from companion.engine.games.thanks_a_lottery.state import (
    FINALIZE,
    LOTTERY,
    TAKE,
    DiceRerolled,
    DieTaken,
    RoundScored,
    RoundStopped,
    WildReplaced,
)

GAME = "thanks-a-lottery"
POOL = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 1, 2, 3]


def new_match(players: int = 2, variants: tuple[str, ...] = (), **components: Any) -> Match:
    options: dict[str, Any] = {"components": components} if components else {}
    return Match.new(GameConfig(GAME, players, variants, seed=1, options=options))


def deal(match: Match, hands: list[str]) -> None:
    """Deal ``hands`` (one string per seat) the way the dealer does: one card each in turn."""
    cards = [hand.split() for hand in hands]
    state = match.state
    for k in range(sum(len(c) for c in cards)):
        seat = (state.dealer + 1 + k) % state.players
        match.apply(Action.reveal(cards[seat][k // state.players]))


def roll(match: Match, values: list[int]) -> None:
    for value in values:
        match.apply(Action.reveal(str(value)))


def start(hands: list[str], pool: list[int] | None = None, variants: tuple[str, ...] = (),
          **components: Any) -> Match:
    match = new_match(len(hands), variants, **components)
    deal(match, hands)
    roll(match, POOL[: components.get("dice", 15)] if pool is None else pool)
    return match


def turn(match: Match, draw: str, *actions: str) -> list[Any]:
    """The player on turn draws ``draw`` and does ``actions`` (an action and its takes)."""
    events = match.apply(Action.reveal(draw))
    for action in actions:
        events += match.apply(action)
    return events


def verbs(match: Match) -> set[str]:
    return {a.verb for a in match.legal_actions()}


# --- setting up the round ------------------------------------------------------------------


def test_each_player_is_dealt_six_cards_one_at_a_time_from_the_dealers_left() -> None:
    match = new_match(players=3)
    state = match.state
    assert state.dealer == 2  # seat 0 is left of the first dealer and starts
    whats = []
    for k in range(18):
        whats.append(match.chance_point.what)
        match.apply(Action.reveal(str(k % 7 + 1)))
    assert whats[:4] == ["card 1 dealt to player 1", "card 1 dealt to player 2",
                         "card 1 dealt to player 3", "card 2 dealt to player 1"]
    assert [len(h) for h in state.hands] == [6, 6, 6]
    assert state.hands[0] == ["1", "2", "3", "4", "6", "7"]  # every third card: 1 4 7 3 6 2
    assert sum(state.deck.values()) == 52 - 18


def test_a_dealt_card_that_is_gone_cannot_be_reported() -> None:
    match = new_match(players=2)
    for _ in range(3):
        match.apply(Action.reveal("wild"))
    with pytest.raises(IllegalActionError, match="wild"):
        match.apply(Action.reveal("wild"))


def test_all_fifteen_dice_are_rolled_into_the_pool_one_chance_point_each() -> None:
    match = new_match(players=2)
    deal(match, ["1 2 3 4 5 6", "1 2 3 4 5 6"])
    for i in range(15):
        point = match.chance_point
        assert point.kind == "roll" and point.what == f"die {i + 1} of 15 rolled into the pool"
        assert point.probabilities() == {str(v): pytest.approx(1 / 6) for v in range(1, 7)}
        match.apply(Action.reveal(str(POOL[i])))
    assert match.state.pool == sorted(POOL)
    assert match.chance_point.what == "the card player 1 draws"


# --- blocks and the first-block restriction -------------------------------------------------


def test_before_a_first_block_the_only_action_is_to_play_a_block() -> None:
    match = start(["6 7 1 2 2 5", "3 3 3 4 wild 7"])
    match.apply(Action.reveal("4"))
    assert verbs(match) == {"play", "pass"}
    assert Action.parse("play 6 7 1") in match.legal_actions()
    assert Action.parse("play 1 2 wild=3") not in match.legal_actions()  # no wild in hand


def test_a_wrap_around_block_6_7_1_is_played_and_grows_at_either_end() -> None:
    match = start(["6 7 1 2 2 5", "3 3 3 4 wild 7"])
    turn(match, "4", "play 6 7 1")
    block = match.state.blocks[0]
    assert block.numbers == (6, 7, 1) and block.kind == "sequential" and block.owner == 0
    assert match.state.hands[0] == ["2", "2", "4", "5"]
    turn(match, "1", "pass")
    match.apply(Action.reveal("3"))
    legal = match.legal_actions()
    assert Action.parse("add b1 5 2") in legal       # 5 before 6, 2 after 1
    assert Action.parse("add b1 2 3 4") in legal     # 6 7 1 2 3 4
    # all seven numbers: the ends no longer matter, so the run is written one way
    with pytest.raises(IllegalActionError, match="'add b1 2 3 4 5'"):
        match.apply("add b1 5 2 3 4")
    match.apply("add b1 2 3 4 5")
    assert sorted(match.state.blocks[0].numbers) == [1, 2, 3, 4, 5, 6, 7]


def test_a_sequence_cannot_hold_the_same_number_twice() -> None:
    match = start(["1 2 3 4 5 6", "1 1 1 2 2 2"])
    turn(match, "7", "play 1 2 3 4 5 6 7")
    turn(match, "3", "pass")
    match.apply(Action.reveal("1"))
    assert not any(a.verb == "add" for a in match.legal_actions())
    with pytest.raises(IllegalActionError, match="do not extend"):
        match.apply("add b1 1")


def test_only_one_wild_per_block_and_only_in_your_own_blocks() -> None:
    match = start(["3 4 wild 1 1 6", "wild 5 5 5 2 2"])
    turn(match, "wild", "play 3 4 wild=5")
    turn(match, "7", "play 5 5 5")
    match.apply(Action.reveal("2"))
    # player 1 holds a wild, but b1 already holds one and b2 is not theirs
    with pytest.raises(IllegalActionError, match="only one wild per block"):
        match.apply("add b1 wild=6")
    with pytest.raises(IllegalActionError, match="only play wilds in your own blocks"):
        match.apply("add b2 wild=5")
    assert not any("wild=" in str(a) for a in match.legal_actions() if a.verb == "add")


def test_a_wild_keeps_its_declared_number_and_replacing_it_takes_that_number() -> None:
    match = start(["6 7 wild 2 2 2", "1 1 1 5 5 3"])
    turn(match, "4", "play 6 7 wild=1")
    assert match.state.blocks[0].wild_number == 1
    turn(match, "3", "play 1 1 1")
    match.apply(Action.reveal("3"))
    match.apply("play 2 2 2")
    match.apply(Action.reveal("5"))
    assert Action.parse("replace b1") not in match.legal_actions()  # player 2 holds no 1 now
    match.apply("pass")
    turn(match, "4", "pass")
    match.apply(Action.reveal("1"))  # now they do
    assert Action.parse("replace b1") in match.legal_actions()
    events = match.apply("replace b1")
    assert WildReplaced(1, "b1", 0, 1) in events
    assert match.state.blocks[0].cards() == ["6", "7", "1"]
    assert "wild" in match.state.hands[1]
    assert match.state.phase == TAKE and match.state.dice_owed == 1


def test_you_cannot_replace_a_wild_in_your_own_block() -> None:
    match = start(["6 7 wild 1 2 2", "1 1 1 5 5 3"])
    turn(match, "4", "play 6 7 wild=1")
    turn(match, "3", "play 1 1 1")
    match.apply(Action.reveal("3"))
    with pytest.raises(IllegalActionError, match="someone else's block"):
        match.apply("replace b1")


def test_adding_to_someone_elses_block_earns_one_die_per_card_chosen_by_value() -> None:
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"])
    turn(match, "4", "play 1 2 3 4")
    turn(match, "1", "play 3 4 5")
    match.apply(Action.reveal("7"))
    match.apply("add b2 6 7")
    assert match.state.phase == TAKE and match.state.dice_owed == 2
    assert [str(a) for a in match.legal_actions()] == [f"take {v}" for v in range(1, 7)]
    events = match.apply("take 6")
    assert DieTaken(0, 6) in events
    match.apply("take 1")
    assert match.state.dice[0] == [1, 6]  # values unchanged
    assert sorted(match.state.pool + [1, 6]) == sorted(POOL)
    assert match.state.phase != TAKE and match.state.turn == 1


def test_adding_to_your_own_block_earns_no_dice() -> None:
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"])
    turn(match, "4", "play 1 2 3")
    turn(match, "1", "play 3 4 5")
    events = turn(match, "7", "add b1 4")
    assert not [e for e in events if isinstance(e, DieTaken)]
    assert match.state.dice[0] == [] and match.state.turn == 1


def test_a_take_outside_the_pool_is_refused_and_changes_nothing() -> None:
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"], pool=[2] * 14 + [5])
    turn(match, "4", "play 1 2 3 4")
    turn(match, "1", "play 3 4 5")
    match.apply(Action.reveal("7"))
    match.apply("add b2 6")
    before = match.game.encode_state(match.state)
    with pytest.raises(IllegalActionError, match="one of 2, 5"):
        match.apply("take 4")
    assert match.game.encode_state(match.state) == before


def test_dice_are_taken_automatically_when_there_is_no_choice() -> None:
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"], pool=[4] * 15)
    turn(match, "4", "play 1 2 3 4")
    turn(match, "1", "play 3 4 5")
    events = turn(match, "7", "add b2 6 7")
    assert [e for e in events if isinstance(e, DieTaken)] == [DieTaken(0, 4), DieTaken(0, 4)]
    assert match.state.turn == 1


def test_only_one_block_is_played_or_added_to_per_turn() -> None:
    match = start(["1 2 3 5 5 5", "1 1 1 2 2 2"])
    turn(match, "4", "play 1 2 3")
    assert match.state.turn == 1 and match.chance_point is not None  # player 2 draws now


def test_a_refused_move_says_why_and_leaves_the_state_alone() -> None:
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"])
    match.apply(Action.reveal("4"))
    before = match.game.encode_state(match.state)
    for text, why in [
        ("add b1 4", "play your first block"),
        ("play 1 2", "at least 3 cards"),
        ("play 3 2 1", "rising order"),
        ("play 1 2 7", "do not hold another 7"),
        ("play 1 3 5", "run in sequence"),
        ("fly", "not a move"),
    ]:
        with pytest.raises(IllegalActionError, match=why):
            match.apply(text)
        assert match.game.encode_state(match.state) == before


# --- the end of a round ----------------------------------------------------------------------


def _empty_hand_with_a_die(variants: tuple[str, ...] = ()) -> Match:
    """3-card hands: player 1 empties their hand, then earns a die with their last card."""
    match = start(["1 2 3", "5 5 5"], variants=variants, hand_size=3)
    turn(match, "4", "play 1 2 3 4")
    turn(match, "6", "play 5 5 5")
    # a player with an empty hand and no dice plays on: they draw
    assert match.chance_point.what == "the card player 1 draws"
    turn(match, "5", "add b2 5", "take 3")
    assert match.state.hands[0] == [] and match.state.dice[0] == [3]
    turn(match, "7", "pass")
    return match


def test_a_player_starting_a_turn_with_no_cards_and_a_die_ends_the_round() -> None:
    match = _empty_hand_with_a_die()
    state = match.state
    assert state.ender == 0 and state.phase == FINALIZE
    assert state.deciders == [0]  # only players with dice finalize


def test_long_game_an_empty_hand_does_not_end_the_round() -> None:
    match = _empty_hand_with_a_die(variants=("long-game",))
    assert match.state.phase != FINALIZE
    assert match.chance_point.what == "the card player 1 draws"


def test_the_round_ends_when_a_draw_is_impossible() -> None:
    cards = {"1": 2, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 1, "wild": 0}
    match = start(["1 2 3", "4 5 6"], hand_size=3, cards=cards)
    turn(match, "7", "pass")
    events = turn(match, "1", "pass")
    stopped = [e for e in events if isinstance(e, RoundStopped)]
    assert stopped == [RoundStopped(1, 0, "could not draw: the deck ran out")]
    assert match.state.ender == 0


def test_taking_the_last_die_ends_the_round_and_more_cards_than_dice_get_what_remains() -> None:
    match = start(["1 2 3 5 1 6", "3 4 5 7 7 2"], pool=[2, 6], dice=2)
    turn(match, "4", "play 1 2 3 4")
    turn(match, "1", "play 3 4 5")
    events = turn(match, "7", "add b2 6 7 1")  # three cards, two dice left
    assert [e for e in events if isinstance(e, DieTaken)] == [DieTaken(0, 6), DieTaken(0, 2)]
    assert RoundStopped(1, 0, "took the last die from the pool") in events
    assert match.state.pool == [] and match.state.dice[0] == [2, 6]
    assert match.state.phase == FINALIZE


def _round_ended_by_player_1() -> Match:
    match = start(["1 2 3 5 5 6", "3 4 5 7 7 2"], pool=[2, 6], dice=2)
    turn(match, "4", "play 1 2 3 4")
    turn(match, "1", "play 3 4 5")
    turn(match, "7", "add b2 6 7")
    return match


def test_finalizing_each_player_may_reroll_any_of_their_dice_once() -> None:
    match = _round_ended_by_player_1()
    assert [str(a) for a in match.legal_actions()] == ["keep", "reroll 2", "reroll 6", "reroll 2 6"]
    with pytest.raises(IllegalActionError, match="rising order"):
        match.apply("reroll 6 2")
    events = match.apply("reroll 2")
    assert DiceRerolled(0, (2,)) in events
    point = match.chance_point
    assert point.what == "a die player 1 re-rolls"
    match.apply(Action.reveal("5"))
    assert match.state.dice[0] == [5, 6]
    assert match.state.phase == LOTTERY  # nobody re-rolls twice


def test_lottery_tokens_fill_the_lowest_space_first_all_scores_every_die_none_scores_nothing() -> None:
    match = _round_ended_by_player_1()
    match.apply("keep")
    whats = []
    for token in ["6", "all", "none"]:
        whats.append(match.chance_point.what)
        assert match.chance_point.probabilities()[token] == pytest.approx(1 / (8 - len(whats) + 1))
        events = match.apply(Action.reveal(token))
    assert whats == ["lottery token 1 (the 1-point space)", "lottery token 2 (the 2-point space)",
                     "lottery token 3 (the 3-point space)"]
    scored = {e.player: e for e in events if isinstance(e, RoundScored)}
    # player 1: blocks 1 2 3 4 (4 cards), dice 2 and 6, hand 5 5 (2 cards)
    # lottery: the 6 on the 1-point space (1) + all on the 2-point space (2 x 2 dice) + none
    assert scored[0] == RoundScored(0, block_cards=4, dice=2, lottery=5, lucky=0, hand=2, score=9)
    # player 2: block 3 4 5 6 7 is theirs (5 cards), no dice, hand 7 7 2 1 (4 cards)
    assert scored[1].score == 5 - 4
    assert RoundEnded(1, (9, 1)) in events
    assert match.state.totals == [9, 1]


def test_a_round_score_below_zero_scores_zero() -> None:
    match = start(["1 2 3 5 5 6", "7 1 2 4 4 6"], pool=[4], dice=1)
    turn(match, "4", "play 1 2 3 4")
    turn(match, "6", "pass")
    turn(match, "5", "pass")
    turn(match, "3", "play 7 1 2")
    turn(match, "7", "add b2 6")  # player 1 takes the only die: the round ends
    match.apply("keep")
    for token in ["none", "1", "2"]:
        events = match.apply(Action.reveal(token))
    scored = {e.player: e for e in events if isinstance(e, RoundScored)}
    # player 2: 4 cards in their block (6 7 1 2), no dice, 5 in hand (4 4 6 6 3): -1 scores 0
    assert scored[1] == RoundScored(1, block_cards=4, dice=0, lottery=0, lucky=0, hand=5, score=0)
    assert match.state.totals[1] == 0


def test_the_player_who_ended_the_round_deals_next_and_their_left_starts() -> None:
    match = _round_ended_by_player_1()
    match.apply("keep")
    for token in ["1", "2", "3"]:
        match.apply(Action.reveal(token))
    state = match.state
    assert state.round == 2 and state.dealer == 0
    assert match.chance_point.what == "card 1 dealt to player 2"
    assert sum(state.deck.values()) == 52 and state.to_roll == 2 and state.blocks == []
    assert match.game.tin(state) == ["1", "2", "3", "4", "5", "6", "all", "none"]


def test_lucky_card_scores_real_cards_of_the_middle_tokens_number_but_not_wilds() -> None:
    match = start(["2 2 wild 1 5 6", "3 4 5 7 7 2"], pool=[2, 6], dice=2, variants=("lucky-card",))
    turn(match, "2", "play 2 2 2 wild=2")  # three real 2s and a wild standing for 2
    turn(match, "1", "play 3 4 5")
    turn(match, "7", "add b2 6 7")  # player 1 takes both dice: the round ends
    match.apply("keep")
    for token in ["none", "2", "all"]:
        events = match.apply(Action.reveal(token))
    scored = {e.player: e for e in events if isinstance(e, RoundScored)}
    assert scored[0].lucky == 3 * 1  # round 1: 1 point per real 2
    assert scored[0].lottery == 2 * 1 + 3 * 2  # the die showing 2 on the 2-point space; all on 3
    assert scored[1].lucky == 0


def test_a_game_is_three_rounds_and_each_next_dealer_ended_the_round_before() -> None:
    from companion.engine import HeuristicBot
    from companion.engine.simulate import play_game

    played = play_game(GameConfig(GAME, 4, seed=11), [HeuristicBot()])
    match = played.match
    assert match.is_over and len(match.state.round_scores) == 3
    assert list(played.result.scores) == [sum(r[s] for r in match.state.round_scores) for s in range(4)]


def test_ties_go_to_the_most_points_in_round_3_then_are_shared() -> None:
    match = _round_ended_by_player_1()
    game, state = match.game, match.state
    state.phase = "over"
    state.round_scores = [[5, 10], [5, 5], [10, 5]]
    assert game.result(state).winners == (0,)
    state.round_scores = [[5, 10], [10, 5], [5, 5]]
    assert game.result(state).winners == (0, 1)


@pytest.mark.parametrize(("written", "advice"), [
    ("play 4 3 wild=2", "'play 3 4 wild=2'"),  # was told 'play 2 3 4 wild=2', itself refused
    ("play 4 3 wild=5", "'play 3 4 wild=5'"),  # was told "4 3 5 is not a block"
])
def test_a_misordered_play_is_told_the_form_the_rules_accept(written: str, advice: str) -> None:
    match = start(["3 4 wild 1 1 6", "wild 5 5 5 2 2"])
    match.apply(Action.reveal("7"))
    with pytest.raises(IllegalActionError, match=advice) as refused:
        match.apply(written)
    suggested = Action.parse(str(refused.value).split("'")[1])
    assert suggested in match.legal_actions()
    match.apply(suggested)


def test_cards_that_are_no_block_in_any_order_say_why() -> None:
    match = start(["3 4 wild 1 1 6", "wild 5 5 5 2 2"])
    match.apply(Action.reveal("7"))
    with pytest.raises(IllegalActionError, match="is not a block"):
        match.apply("play 1 6 wild=3")
