"""Jackpot Payout transcript lines and events for the screen and the journal."""

from __future__ import annotations

from companion.engine import Action
from tests.test_jackpot_payout_setup import play, reveal, start

PLAIN = {"start-grapes": 2, "start-cherries": 2, "start-diamond": 2, "start-crown": 2, "start-shamrock": 2}


def test_transcript_lines_name_the_player_the_card_and_where_it_goes() -> None:
    match = start(decks={0: {**PLAIN, "int-second-chance-grapes": 1}})
    game = match.game
    assert game.describe(match.state, Action.reveal("start-grapes")) == (
        "revealed Grapes (1 coin) as player 1's card for reel 1")
    reveal(match, "int-second-chance-grapes", "start-grapes", "start-crown", "start-diamond")
    assert game.describe(match.state, Action.parse("replace 2")) == (
        "player 1 plays the revealed card over Crown (1 coin) on reel 3 (Second Chance)")
    play(match, "discard")
    line = game.describe(match.state, Action.parse("take 4"))
    assert line == "player 1 takes Crown (4 coins) from display pile 5"
    assert game.describe(match.state, Action.parse("take wild")) == "player 1 takes a coinless wild"


def test_every_event_has_a_json_form() -> None:
    match = start(decks={0: {**PLAIN, "int-filter-2-cherries": 1}})
    events = reveal(match, "int-filter-2-cherries", "start-grapes", "start-crown")
    events += reveal(match, "start-diamond", "start-crown")
    events += play(match, "filter 0", "take wild")
    forms = [event.to_dict() for event in events]
    assert {"type": "CardRevealed", "player": 0, "card": "start-diamond", "reason": "Filter 2"} in forms
    assert any(form["type"] == "AbilityResolved" and form["ability"] == "filter-2" for form in forms)
    taken = {"type": "CardTaken", "player": 0, "card": "coinless-wild", "source": "the coinless wilds"}
    assert taken in forms
