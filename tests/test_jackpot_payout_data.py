"""The Jackpot Payout card data file: the assumed default sets docs/rulings.md describes, and card faces."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engine import ConfigError, GameConfig, get_game
from companion.engine.data import load_components
from companion.engine.games.jackpot_payout.cards import default_catalogue, load_catalogue

CATALOGUE = default_catalogue()
INTRODUCTORY = ("consolation-prize", "filter-2", "guess-suit", "second-chance", "shopping-spree",
                "stuck-reel")
EXPERT = ("coin-sync", "diversity-dividends", "flush", "generous", "imp", "jackpot-payout", "jackpot-shuffle",
          "predict-matches", "thief")


def count(**where: object) -> int:
    return sum(c.count for c in CATALOGUE.cards.values() if all(getattr(c, k) == v for k, v in where.items()))


def test_the_data_file_says_its_composition_is_an_assumed_default() -> None:
    from importlib import resources

    text = resources.files("companion.engine.games").joinpath("jackpot_payout.toml").read_text()
    assert "ASSUMED DEFAULT" in text and "edit" in text


@pytest.mark.parametrize(("card_set", "abilities"), [("introductory", INTRODUCTORY), ("expert", EXPERT)])
def test_each_set_has_sixty_cards_with_two_special_cards_per_ability(
        card_set: str, abilities: tuple[str, ...]) -> None:
    assert count(set=card_set) == 60
    specials: Counter[str | None] = Counter()
    for card in CATALOGUE.cards.values():
        if card.set == card_set and card.is_special:
            specials[card.ability] += card.count
    assert specials == dict.fromkeys(abilities, 2)
    for card in CATALOGUE.cards.values():
        if card.set == card_set and card.is_special:
            assert card.coins == 1 and len(card.symbols) == 1 and not card.is_wild


def test_the_two_jackpot_payouts_can_be_in_one_jackpot() -> None:
    """The rulebook pays "two Jackpot Payouts in play" four times the third card: the data must
    let both be in one jackpot (they showed grapes and diamond, which never match)."""
    from companion.engine.games.jackpot_payout.evaluation import jackpot_coins, jackpot_symbol

    payouts = [c for c in CATALOGUE.cards.values() for _ in range(c.count) if c.ability == "jackpot-payout"]
    assert len(payouts) == 2
    third = CATALOGUE.cards["exp-grapes-4"]
    assert jackpot_symbol([*payouts, third]) is not None
    assert jackpot_coins([*payouts, third]) == 4 * third.coins


def test_regular_cards_have_one_symbol_with_1_to_4_coins_or_two_with_1_to_2_or_are_wild() -> None:
    regular = [c for c in CATALOGUE.cards.values() if c.kind == "regular"]
    assert any(c.is_wild for c in regular)
    for card in regular:
        if len(card.symbols) == 2:
            assert 1 <= card.coins <= 2
        else:
            assert 1 <= card.coins <= 4


def test_starting_deck_coinless_wilds_and_house_cards() -> None:
    assert count(kind="starting") == 11
    assert CATALOGUE.cards["start-improve-the-odds"].is_wild
    assert not CATALOGUE.cards["start-improve-the-odds"].solo
    assert count(kind="coinless-wild") == 10 and CATALOGUE.cards["coinless-wild"].coins == 0
    house = CATALOGUE.of_kind("house")
    assert sorted(c.symbols[0] for c in house) == ["cherries", "crown", "diamond", "grapes", "shamrock"]
    assert {c.symbols[0]: c.house_coins for c in house} == {
        "shamrock": 1, "cherries": 2, "grapes": 2, "diamond": 3, "crown": 3}
    assert all(c.solo and not c.multiplayer for c in house)


def test_card_faces_are_one_per_distinct_card_with_ids_from_the_data_file() -> None:
    faces = get_game("jackpot-payout").card_faces()
    assert [f.id for f in faces] == list(CATALOGUE.cards)
    by_id = {f.id: f for f in faces}
    assert by_id["start-grapes"].count == 2 * 4  # four starting decks in the box
    assert by_id["int-grapes-cherries-1"].symbols == ("grapes", "cherries")
    assert by_id["exp-thief-shamrock"].ability == "thief" and "Opponents" in by_id["exp-thief-shamrock"].text


def test_an_owner_can_pass_their_own_component_table() -> None:
    data = load_components("jackpot-payout")
    mine = {**data, "rules": {**data["rules"], "bank": [0, 25, 20, 25, 30]}}
    game = get_game("jackpot-payout")(GameConfig("jackpot-payout", 2, options={"components": mine}))
    assert game.initial_state().bank == 20


def test_a_card_with_an_unknown_symbol_is_refused() -> None:
    data = load_components("jackpot-payout")
    broken = {**data, "catalogue": {"cards": [{**data["catalogue"]["cards"][0], "symbols": ["banana"]}]}}
    with pytest.raises(ConfigError, match="symbols"):
        load_catalogue(broken)


def test_a_card_id_that_is_not_an_action_word_is_refused() -> None:
    data = load_components("jackpot-payout")
    for bad in ("my grapes", "123", "Grapes"):
        broken = {**data, "catalogue": {"cards": [{**data["catalogue"]["cards"][0], "id": bad}]}}
        with pytest.raises(ConfigError, match="id"):
            load_catalogue(broken)


def test_exactly_one_coinless_wild_line_is_needed() -> None:
    data = load_components("jackpot-payout")
    cards = [c for c in data["catalogue"]["cards"] if c["kind"] != "coinless-wild"]
    with pytest.raises(ConfigError, match="coinless-wild"):
        load_catalogue({**data, "catalogue": {"cards": cards}})


def _trimmed_sets(keep: int) -> dict:
    """The shipped table with only the first ``keep`` display cards of each set."""
    data = load_components("jackpot-payout")
    kept: dict[str, int] = {}
    cards = []
    for card in data["catalogue"]["cards"]:
        if card["set"] in ("introductory", "expert"):
            if kept.get(card["set"], 0) >= keep:
                continue
            kept[card["set"]] = kept.get(card["set"], 0) + card["count"]
        cards.append(card)
    return {**data, "catalogue": {"cards": cards}}


def test_a_mixed_display_deck_needs_the_faqs_60_cards() -> None:
    small = _trimmed_sets(keep=25)
    with pytest.raises(ConfigError, match="at least 60 cards"):
        get_game("jackpot-payout")(GameConfig("jackpot-payout", 2, ("mixed",), options={"components": small}))
    get_game("jackpot-payout")(GameConfig("jackpot-payout", 2, ("expert",), options={"components": small}))
    enough = _trimmed_sets(keep=30)
    get_game("jackpot-payout")(GameConfig("jackpot-payout", 2, ("mixed",), options={"components": enough}))
