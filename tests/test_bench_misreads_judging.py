"""How ``bench misreads`` judges Bandit: a camera reveal against the card the simulated dealer lays
for that deal (even one it has not dealt yet), a payout by replaying the match with those cards."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion.bench.misreads import payout_wrong
from companion.engine import Action, GameConfig, Match
from companion.flows import make_flow
from companion.flows.bandit import BanditFlow
from companion.journal import Journal
from companion.session import Session
from companion.simtable.dealer import SimDealer, SimulatedCamera

#: a first grid whose top row wins plums (10 points) and nothing else wins
GRID = ["plum", "any", "any", "bell", "seven", "cherry", "cherry", "bell", "seven"]


def claimed_plums() -> Match:
    match = Match.new(GameConfig("bandit", players=2, seed=5))
    for card in GRID:
        match.apply(Action.reveal(card))
    match.apply(Action.of("claim", 0))
    assert match.game.scores(match.state)[0] == 10
    return match


def test_a_reveal_corrected_to_the_same_card_or_an_equal_win_is_no_wrong_payout() -> None:
    match = claimed_plums()
    assert not payout_wrong(match, {0: "plum"})
    assert not payout_wrong(match, {1: "plum"})  # plum plum any: still plums


def test_a_reveal_whose_right_card_pays_otherwise_or_wins_nothing_is_a_wrong_payout() -> None:
    match = claimed_plums()
    assert payout_wrong(match, {0: "cherry"})  # cherry any any: 5 points, not 10
    assert payout_wrong(match, {0: "bell", 1: "seven"})  # no win: the claim does not replay


@dataclass
class Table:
    flow: BanditFlow
    pressed: list[object] = field(default_factory=list)

    def dispatch(self, item: object) -> None:
        self.pressed.append(item)


def test_the_dealers_plan_for_a_deal_it_has_not_seen_yet_is_what_it_then_deals(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite")
    session = Session.start(journal, GameConfig("bandit", players=2, seed=4), ["Ann", "Bob"], "table")
    flow = make_flow(session)
    assert isinstance(flow, BanditFlow)
    dealer = SimDealer(SimulatedCamera(), seed=9)
    ahead = dealer.planned(flow)
    assert len(ahead) == 9 and dealer.planned(flow) == ahead  # looking ahead draws nothing
    dealer.update(Table(flow), 0.0)
    assert dealer.planned(flow) == ahead
    flow.session.apply(Action.reveal(ahead["r0c0"]))
    assert dealer.planned(flow) == ahead  # the rest of the same deal
