"""Thanks a Lottery at the table: a round whose hands stay secret until their cards are played.

The engine reveals every card dealt or drawn (one chance point each) and checks every move
against the player's hand. At a real table the hands are secret: the companion learns a card
only when it is laid on the mat. So during a table round the flow keeps the round's *moves*
(what the table did: ``play 3 4 5``, ``add b2 6``, ``replace b1``, ``take 4``, ``pass``) and
builds from them a provisional engine log that the engine checks in full:

- every card dealt or drawn is a *hidden slot* of the seat that got it, in dealing order;
- a slot takes an identity when its seat plays a card it must have been: the seat's earliest
  slot not yet known (a wild taken back by ``replace`` is a card the seat is known to hold);
- slots never played are filled with cards still unaccounted for.

Any such filling is consistent: within a round the deck only shrinks, so a card can be drawn
at every slot as long as no more of it are used than the game has. The engine therefore
checks the real rules on every move (a block's shape, adds at the ends, one wild per block and
only in one's own blocks, dice owed and taken, the end of the round); only "does that player
hold that card" is taken on trust from the table, apart from the count of each card (an eighth
``4`` is a misread). The dice pool is the Pi's: its 15 dice are rolled with the game's seed at
fixed log positions, exactly as the cabinet would roll them.

When the turns stop (the round ends), the provisional log is what the flow commits to the
journal, action by action; finalizing and the lottery then go through the session as usual.
Cards that stayed hidden keep their filled-in faces in the log: only their number counts for
the score (one point off per card in hand). The table's moves are also journaled as
observations as they happen, so a restart in the middle of a round rebuilds it exactly.

>>> from companion.engine import GameConfig, Match
>>> hidden = HiddenRound(Match.new(GameConfig("thanks-a-lottery", players=2, seed=3)))
>>> hidden.state.phase, len(hidden.slot_seats)   # 12 cards dealt, the first player drew one
('act', 13)
>>> hidden.candidates(["5", "3", "4"])[0]
Action(verb='play', args=(3, 4, 5))
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.engine import Action, IllegalActionError, Match, SeededResolver
from companion.engine.games.thanks_a_lottery.blocks import BlockError, classify
from companion.engine.games.thanks_a_lottery.components import CARD_IDS, NUMBERS, WILD
from companion.engine.games.thanks_a_lottery.moves import add_moves, play_moves
from companion.engine.games.thanks_a_lottery.state import ACT, DRAW, SETUP, TAKE

#: the phases of a round's turns (after them the round is committed)
TURN_PHASES = (SETUP, DRAW, ACT, TAKE)


class TableRefusal(ValueError):
    """The table's move cannot be: the message says which cards and what to do."""


def seeded_outcome(seed: int | None, version: int, point: Any) -> str:
    """The Pi's roll at log position ``version``: the same formula as the session's cabinet
    outcome, so the committed log rolls exactly what the screen showed."""
    return SeededResolver(random.Random(f"{seed}:{version}")).resolve(point)


def cards_of(action: Action) -> list[str]:
    """The card ids a ``play`` or ``add`` lays (a wild as ``wild``)."""
    args = action.args[1:] if action.verb == "add" else action.args
    return [WILD if str(a).startswith("wild=") else str(a) for a in args]


def cards_text(cards: Iterable[str]) -> str:
    """``3 4 wild`` in rising order, for messages."""
    return " ".join(sorted(cards, key=CARD_IDS.index))


class _Built:
    """A provisional match being built: its hidden slots' seats, the cards each seat is known
    to hold, and the events of every action (by the version it brought the match to)."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.seats: list[int] = []
        self.held: dict[int, Counter[str]] = {seat: Counter() for seat in range(match.state.players)}
        self.events: list[tuple[int, list[Any]]] = []
        #: log versions (after the reveal) of the cards filled in because nobody has seen them
        self.filled: set[int] = set()

    def step(self, action: Action) -> None:
        events = self.match.apply(action)
        self.events.append((self.match.version, events))


@dataclass(frozen=True)
class _Plan:
    """A checked move, ready to keep once it is journaled."""

    action: Action
    known: dict[int, str]
    built: _Built
    version: int


class HiddenRound:
    """One table round's moves and the provisional engine match they stand for.

    ``base`` is the committed match at the start of the round (about to deal). Nothing here
    touches the journal: the flow journals a move before :meth:`submit` keeps it.
    """

    def __init__(self, base: Match, moves: Sequence[Action] = ()) -> None:
        self.base = copy.deepcopy(base)
        game: Any = self.base.game
        self.composition: dict[str, int] = dict(game.components.cards)
        self.moves: list[Action] = []
        #: identity of each hidden slot known so far (slot index -> card id)
        self.known: dict[int, str] = {}
        self.match: Match = self.base
        #: the seat that got each hidden slot, in dealing/drawing order
        self.slot_seats: list[int] = []
        self._held: dict[int, Counter[str]] = {}
        #: log versions whose card was filled in (never seen at the table)
        self.filled: set[int] = set()
        self._rebuild()
        for move in moves:
            self.submit(move)

    # --- the provisional match -----------------------------------------------------------

    @property
    def state(self) -> Any:
        """The provisional engine state (never mutate it)."""
        return self.match.state

    @property
    def round(self) -> int:
        """The round being played."""
        return int(self.base.state.round)

    @property
    def ended(self) -> bool:
        """True once the turns have stopped (finalizing, the lottery, or the game's end)."""
        return self.match.is_over or self.state.round != self.round or self.state.phase not in TURN_PHASES

    @property
    def actions(self) -> list[Action]:
        """The provisional log of this round (after the base's log)."""
        return self.match.log[len(self.base.log):]

    def seat(self) -> int | None:
        """The seat on turn, if the turns go on."""
        return None if self.ended else self.match.game.current_player(self.state)

    def _fill(self, known: dict[int, str]) -> list[str]:
        """Cards for the unknown slots: what is left once the known ones are counted, most
        plentiful first (any choice replays; this one spreads the filler over the numbers)."""
        left = Counter(self.composition)
        left.subtract(Counter(known.values()))
        out = []
        for _ in range(sum(left.values())):
            card = max(CARD_IDS, key=lambda c: (left[c], -CARD_IDS.index(c)))
            left[card] -= 1
            out.append(card)
        return out

    def _build(self, moves: list[Action], known: dict[int, str]) -> _Built:
        """The base plus ``moves``, chance answered by slots (cards) and the seed (dice);
        raises :class:`IllegalActionError` for a move the rules refuse."""
        fill = iter(self._fill(known))
        match = copy.deepcopy(self.base)
        game: Any = match.game
        built = _Built(match)
        index = 0
        while not match.is_over:
            state = match.state
            if state.round != self.round or state.phase not in TURN_PHASES:
                break
            point = match.chance_point
            if point is not None:
                if state.phase == SETUP and state.to_deal:
                    dealt = game.components.hand_size * state.players - state.to_deal
                    seat = (state.dealer + 1 + dealt) % state.players
                elif state.phase == DRAW:
                    seat = state.turn
                else:  # a die rolled into the pool
                    outcome = seeded_outcome(self.base.config.seed, match.version, point)
                    built.step(Action.reveal(outcome))
                    continue
                slot = len(built.seats)
                built.seats.append(seat)
                if slot in known:
                    built.held[seat][known[slot]] += 1
                built.step(Action.reveal(known.get(slot) or next(fill)))
                if slot not in known:
                    built.filled.add(match.version)
                continue
            if index == len(moves):
                break
            move = moves[index]
            seat = game.current_player(state)
            assert seat is not None
            laid = self._laid(state, move)
            built.step(move)
            built.held[seat].subtract(laid)
            if move.verb == "replace":
                built.held[seat][WILD] += 1
            index += 1
        return built

    def _rebuild(self) -> None:
        built = self._build(self.moves, self.known)
        self.match, self.slot_seats, self._held = built.match, built.seats, built.held
        self.filled = built.filled

    # --- the table's moves -----------------------------------------------------------------

    def held_known(self, seat: int) -> Counter[str]:
        """Cards ``seat`` is known to hold now: known slots and wilds taken back, less those played."""
        return +self._held[seat]

    @staticmethod
    def _laid(state: Any, action: Action) -> list[str]:
        if action.verb in ("play", "add"):
            return cards_of(action)
        if action.verb == "replace" and action.args:
            block = state.block(str(action.args[0]))
            return [] if block is None or block.wild_number is None else [str(block.wild_number)]
        return []

    def laid_cards(self, action: Action) -> list[str]:
        """The cards ``action`` puts on the table now (the real number for ``replace``)."""
        return self._laid(self.state, action)

    def prepare(self, action: Action) -> _Plan:
        """Check the table's ``action`` (a decision of the seat on turn) without keeping it.

        Raises :class:`TableRefusal` when the cards cannot be or the rules refuse the move.
        """
        seat = self.seat()
        if seat is None:
            raise TableRefusal("the turns of this round are over")
        cards = self.laid_cards(action)
        known = dict(self.known)
        need = Counter(cards)
        need.subtract(self.held_known(seat))
        free = [slot for slot, owner in enumerate(self.slot_seats) if owner == seat and slot not in known]
        for card in sorted((+need).elements(), key=CARD_IDS.index):
            if not free:
                raise TableRefusal(f"{cards_text(cards)} is more cards than that player holds: check the mat")
            known[free.pop(0)] = card
        for card, count in Counter(known.values()).items():
            if count > self.composition.get(card, 0):
                name = "wilds" if card == WILD else f"{card}s"
                raise TableRefusal(f"the game has only {self.composition.get(card, 0)} {name} and that would "
                                   "make one more: check the cards on the mat")
        try:
            built = self._build([*self.moves, action], known)
        except IllegalActionError as error:
            raise TableRefusal(str(error)) from None
        return _Plan(action, known, built, self.match.version)

    def keep(self, plan: _Plan) -> list[Any]:
        """Keep a prepared move; returns the engine's events from it on (with the next draw)."""
        self.moves.append(plan.action)
        self.known = plan.known
        built = plan.built
        self.match, self.slot_seats, self._held = built.match, built.seats, built.held
        self.filled = built.filled
        return [event for version, events in built.events if version > plan.version for event in events]

    def undo(self) -> Action:
        """Take back the last move of the round (a misread confirmed, a wrong meaning chosen);
        the cards it made known become unknown again. Returns the move taken back."""
        if not self.moves:
            raise TableRefusal("no move to take back this round")
        rebuilt = HiddenRound(self.base, self.moves[:-1])
        last = self.moves[-1]
        self.moves, self.known = rebuilt.moves, rebuilt.known
        self.match, self.slot_seats, self._held = rebuilt.match, rebuilt.slot_seats, rebuilt._held
        self.filled = rebuilt.filled
        return last

    def submit(self, action: Action) -> list[Any]:
        """:meth:`prepare` and :meth:`keep` in one (replaying a journaled round)."""
        return self.keep(self.prepare(action))

    # --- reading the mat -------------------------------------------------------------------

    def candidates(self, cards: Sequence[str]) -> list[Action]:
        """Every move of the seat on turn that lays exactly ``cards`` (any order): a new block
        (one per number a wild may stand for), an add to a block, or a wild replaced."""
        seat = self.seat()
        state = self.state
        if seat is None or state.phase != ACT or not cards:
            return []
        counts = Counter(cards)
        numbers = tuple(counts[str(n)] for n in NUMBERS)
        wilds = counts[WILD]
        total = len(cards)
        out: list[Action] = []
        for action, shape in play_moves(numbers, wilds).items():
            if len(shape.numbers) == total:
                out.append(action)
        if state.has_block(seat):
            for block in state.blocks:
                usable = wilds if block.owner == seat else 0
                for action, ext in add_moves(state.block_id(block), block.shape, numbers, usable).items():
                    if len(ext.added) == total:
                        out.append(action)
            if total == 1 and not wilds:
                number = int(cards[0])
                out += [Action.of("replace", state.block_id(b)) for b in state.blocks
                        if b.owner != seat and b.wild_number == number]
        return out

    def why_not(self, cards: Sequence[str]) -> str:
        """Why ``cards`` make no move for the seat on turn, in few table words.

        >>> from companion.engine import GameConfig, Match
        >>> HiddenRound(Match.new(GameConfig("thanks-a-lottery", players=2))).why_not(["3", "5", "6"])
        'not a block (the cards must all be the same number or run in sequence (7 wraps to 1))'
        """
        seat = self.seat()
        state = self.state
        if Counter(cards)[WILD] > 1:
            return "only one wild per block"
        try:
            classify([None if c == WILD else int(c) for c in cards])
        except BlockError as error:
            reason = f"not a block ({str(error).split(': ', 1)[-1]})"
        else:
            reason = "a block"
        if seat is None or not state.has_block(seat):
            return reason
        if WILD in cards:
            return f"{reason}; a wild only goes into your own blocks"
        return f"{reason}; they fit no block on the table"
