"""Pay Line's components (boxes, bank, dice faces), its state and its events; the rules are in ``game``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engine.data import load_components
from companion.engine.errors import ConfigError
from companion.engine.events import Event, event
from companion.engine.game import GameConfig

#: box and die-face colours, in table order (also the tie order when the fullest boxes pay)
SYMBOLS = ("black", "yellow", "red")
DICE = 3

_DEFAULT_COMPONENTS = load_components("pay-line")


def jackpot_symbol(dice: Sequence[str | None]) -> str | None:
    """The colour of three of a kind, or None (also while a die is still rolling).

    >>> jackpot_symbol(["red", "red", "red"])
    'red'
    >>> jackpot_symbol(["red", "black", "red"]) is None
    True
    """
    if len(dice) == DICE and dice[0] is not None and all(die == dice[0] for die in dice):
        return dice[0]
    return None


# --- components ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PayLineComponents:
    """What is in the box: chips, setup removals, starting chips, box levels and die faces."""

    chips: int
    start_chips: int
    tokens: int
    #: chips returned to the game box at setup, by number of players
    removed_chips: Mapping[int, int]
    #: the level each box is filled and refilled to
    boxes: Mapping[str, int]
    #: faces of each colour on every die
    die_faces: Mapping[str, int]

    @classmethod
    def from_config(cls, config: GameConfig) -> PayLineComponents:
        """The TOML defaults with ``config.options["components"]`` merged over them, checked."""
        table: dict[str, Any] = {
            key: dict(value) if isinstance(value, Mapping) else value
            for key, value in _DEFAULT_COMPONENTS.items()
        }
        override = config.options.get("components")
        if override is not None:
            if not isinstance(override, Mapping):
                raise ConfigError("pay-line option 'components' must be a table like pay_line.toml")
            for key, value in override.items():
                if key not in table:
                    raise ConfigError(f"pay-line has no component '{key}' (components: {', '.join(table)})")
                if isinstance(table[key], dict):
                    if not isinstance(value, Mapping):
                        raise ConfigError(f"pay-line component '{key}' must be a table")
                    table[key].update({str(k): v for k, v in value.items()})
                else:
                    table[key] = value
        for key in ("chips", "start_chips", "tokens"):
            _check_count(key, table[key])
        for key in ("removed_chips", "boxes", "die_faces"):
            for name, count in table[key].items():
                _check_count(f"{key}.{name}", count)
        for key in ("boxes", "die_faces"):
            unknown = set(table[key]) - set(SYMBOLS)
            if unknown or (key == "boxes" and set(table[key]) != set(SYMBOLS)):
                raise ConfigError(f"pay-line '{key}' must name exactly the colours {', '.join(SYMBOLS)}")
        if not any(table["die_faces"].values()):
            raise ConfigError("pay-line 'die_faces': a die needs at least one face")
        try:
            removed = {int(players): count for players, count in table["removed_chips"].items()}
        except ValueError:
            raise ConfigError("pay-line 'removed_chips' is keyed by number of players, e.g. 2 = 40") from None
        return cls(
            chips=table["chips"],
            start_chips=table["start_chips"],
            tokens=table["tokens"],
            removed_chips=removed,
            boxes={s: table["boxes"][s] for s in SYMBOLS},
            die_faces={s: table["die_faces"].get(s, 0) for s in SYMBOLS},
        )

    def die_chance(self, symbol: str) -> float:
        """The chance one die comes up ``symbol``."""
        return self.die_faces[symbol] / sum(self.die_faces.values())


def _check_count(name: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ConfigError(f"pay-line component '{name}' must be a whole number of 0 or more, not {value!r}")


# --- state and events ------------------------------------------------------------------------


@dataclass
class PayLineState:
    """Plain data for one game of Pay Line. Box contents are secret: see ``public_view``."""

    #: chips in each player's bag, by seat
    bags: list[int]
    #: double-or-nothing tokens each player still holds
    tokens: list[int]
    #: turns each player has taken (the first tie-break)
    turns: list[int]
    #: chips in the bank (the box lid)
    bank: int
    #: chips returned to the game box at setup (out of play, still counted)
    removed: int
    #: chips inside each box, by colour (secret)
    boxes: dict[str, int]
    #: what each die shows; None while it is rolling (rolling dice are revealed in die order)
    dice: list[str | None] = field(default_factory=lambda: [None] * DICE)
    current: int = 0
    #: False until the first die of the current turn's free roll is revealed
    turn_started: bool = False
    #: the colour being played for in double or nothing, else None
    doubling: str | None = None
    #: double-or-nothing tokens spent (they leave the game)
    tokens_discarded: int = 0
    over: bool = False
    #: why the game ended, in table words ("" while it goes on)
    end_reason: str = ""


@event
class ThreeOfAKind(Event):
    """The dice show three ``symbol``; ``pays`` is False for another colour in double or nothing."""

    player: int
    symbol: str
    pays: bool


@event
class DiceRerolled(Event):
    """``player`` paid one chip per die into the box of its colour (``paid_into``) and re-rolls."""

    player: int
    dice: tuple[int, ...]
    paid_into: tuple[str, ...]


@event
class DoubleOrNothing(Event):
    """``player`` discarded the token and plays for three ``symbol`` again, paid double."""

    player: int
    symbol: str


@event
class WalkedAway(Event):
    """``player`` walked away; ``forfeited`` is the colour of a lost double or nothing."""

    player: int
    forfeited: str | None


@event
class BoxRefilled(Event):
    """The bank put ``chips`` into the emptied ``box`` (back to its level)."""

    box: str
    chips: int


@event
class BankShort(Event):
    """The bank held ``bank`` chips but ``needed`` were due for ``box``: the game ends."""

    box: str
    needed: int
    bank: int


def rolling_dice(state: PayLineState) -> list[int]:
    """The dice still to be revealed, in the order the table reveals them."""
    return [die for die, colour in enumerate(state.dice) if colour is None]


def winners(bags: Sequence[int], turns: Sequence[int]) -> tuple[int, ...]:
    """Most chips; tie: fewer turns taken; still tied: shared."""
    best = max(bags)
    tied = [seat for seat, bag in enumerate(bags) if bag == best]
    fewest = min(turns[seat] for seat in tied)
    return tuple(seat for seat in tied if turns[seat] == fewest)
