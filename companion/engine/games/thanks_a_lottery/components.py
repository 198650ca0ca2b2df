"""Thanks a Lottery's components: the card mix, dice, tokens and prize cards.

The numbers come from ``thanks_a_lottery.toml`` (assumed defaults where the rulebook is silent);
a table in ``config.options["components"]`` replaces any top-level key of it, so a player who
owns the printed game can match their copy without editing files.

>>> c = Components.load()
>>> c.deck_size, c.dice, c.prizes[2]
(52, 15, (2, 3, 4))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.engine.data import load_components
from companion.engine.errors import ConfigError

GAME_ID = "thanks-a-lottery"
WILD = "wild"
#: the numbers on the game cards; sequences wrap from the last to the first
NUMBERS = (1, 2, 3, 4, 5, 6, 7)
CARD_IDS = (*(str(n) for n in NUMBERS), WILD)
ALL = "all"
NONE = "none"


@dataclass(frozen=True)
class Components:
    """Validated component data for one configuration."""

    hand_size: int
    dice: int
    die_faces: int
    rounds: int
    tokens_drawn: int
    #: bonus per lucky card, by round (index 0 = round 1)
    lucky_card_bonus: tuple[int, ...]
    #: cards by id ("1".."7", "wild")
    cards: Mapping[str, int]
    #: the tokens in the tin, one of each
    tokens: tuple[str, ...]
    #: prize points per round (1-based), lowest space first
    prizes: Mapping[int, tuple[int, ...]]

    @property
    def deck_size(self) -> int:
        """How many game cards there are."""
        return sum(self.cards.values())

    @classmethod
    def load(cls, override: Mapping[str, Any] | None = None) -> Components:
        """The TOML defaults, with ``override``'s top-level keys replacing theirs."""
        if override is not None and not isinstance(override, Mapping):
            raise ConfigError("option 'components' must be a table of component counts")
        data = {**load_components(GAME_ID), **(override or {})}
        try:
            return cls._parse(data)
        except (KeyError, TypeError, ValueError) as error:
            raise ConfigError(f"thanks-a-lottery components: {error}") from None

    @classmethod
    def _parse(cls, data: Mapping[str, Any]) -> Components:
        def whole(key: str, low: int) -> int:
            value = data[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"'{key}' must be a whole number of at least {low}, not {value!r}")
            return value

        cards = {str(k): v for k, v in dict(data["cards"]).items()}
        if set(cards) != set(CARD_IDS):
            raise ValueError(f"'cards' must give a count for each of {', '.join(CARD_IDS)}")
        for card, count in cards.items():
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise ValueError(f"card '{card}' needs a count of 0 or more, not {count!r}")
        faces = whole("die_faces", 1)
        tokens = tuple(str(t) for t in dict(data["tokens"])["faces"])
        allowed = {*(str(v) for v in range(1, faces + 1)), ALL, NONE}
        if len(set(tokens)) != len(tokens) or not set(tokens) <= allowed:
            raise ValueError(f"tokens must be distinct, each a die face, 'all' or 'none': {list(tokens)}")
        rounds = whole("rounds", 1)
        drawn = whole("tokens_drawn", 1)
        if drawn > len(tokens):
            raise ValueError(f"cannot draw {drawn} of {len(tokens)} tokens")
        prizes: dict[int, tuple[int, ...]] = {}
        for r in range(1, rounds + 1):
            points = tuple(int(p) for p in dict(data["prizes"])[str(r)])
            if len(points) != drawn:
                raise ValueError(f"round {r}'s prize card needs {drawn} spaces, not {len(points)}")
            prizes[r] = points
        bonus = tuple(int(b) for b in data["lucky_card_bonus"])
        if len(bonus) != rounds:
            raise ValueError(f"'lucky_card_bonus' needs one value per round ({rounds})")
        return cls(
            hand_size=whole("hand_size", 1),
            dice=whole("dice", 1),
            die_faces=faces,
            rounds=rounds,
            tokens_drawn=drawn,
            lucky_card_bonus=bonus,
            cards=cards,
            tokens=tokens,
            prizes=prizes,
        )


DEFAULT = Components.load()
