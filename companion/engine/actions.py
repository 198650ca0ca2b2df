"""Actions: small immutable values with a stable, human-readable text form.

Like python-chess's ``e2e4``, the text form is what logs, tests, the journal and the CLI speak:
a verb followed by whitespace-free argument tokens. Arguments that look like integers are
stored as ``int`` so that ``Action.parse(str(a)) == a`` always holds.

>>> a = Action.of("hold", 0, 2)
>>> str(a)
'hold 0 2'
>>> Action.parse("hold 0 2") == a
True
>>> Action.reveal("cherry")
Action(verb='reveal', args=('cherry',))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.engine.errors import IllegalActionError
from companion.engine.situation import excerpt

#: The verb of the action that answers a chance point with its outcome.
REVEAL = "reveal"

_INT = re.compile(r"-?\d+")
_TOKEN = re.compile(r"[^\s]+")
ActionArg = str | int


def _normalize(arg: ActionArg) -> ActionArg:
    if isinstance(arg, bool):
        raise TypeError("action arguments are str or int, not bool")
    if isinstance(arg, str):
        if not arg or not _TOKEN.fullmatch(arg):
            raise IllegalActionError(f"an action argument cannot be empty or contain spaces: {excerpt(arg)}")
        if _INT.fullmatch(arg):
            return int(arg)
    return arg


#: actions built by :meth:`Action.of`, by verb and arguments (bounded: text from outside is
#: parsed, not cached)
_MADE: dict[tuple[str, tuple[ActionArg, ...]], Action] = {}
_MADE_LIMIT = 50_000
_REVEALS: dict[str, Action] = {}


@dataclass(frozen=True, order=True)
class Action:
    """A player's decision or a chance outcome, e.g. ``claim 1`` or ``reveal bar``."""

    verb: str
    args: tuple[ActionArg, ...] = ()

    def __post_init__(self) -> None:
        if not self.verb or not _TOKEN.fullmatch(self.verb) or _INT.fullmatch(self.verb):
            raise IllegalActionError(f"not an action verb: {excerpt(self.verb)}")
        object.__setattr__(self, "args", tuple(_normalize(a) for a in self.args))

    @classmethod
    def of(cls, verb: str, *args: ActionArg) -> Action:
        """Build an action from a verb and its arguments (the same value again is reused:
        games build the same few actions at every step, and checking the text is not free)."""
        key = (verb, args)
        action = _MADE.get(key)
        for arg in args:
            if arg.__class__ is bool:  # True == 1 as a key: never from the cache
                action = None
        if action is None:
            action = cls(verb, tuple(args))
            if len(_MADE) < _MADE_LIMIT:
                _MADE[key] = action
        return action

    @classmethod
    def reveal(cls, outcome: str) -> Action:
        """The action that answers a chance point with ``outcome``."""
        action = _REVEALS.get(outcome) if outcome.__class__ is str else None
        if action is None:
            action = cls(REVEAL, (outcome,))
            if outcome.__class__ is str and len(_REVEALS) < _MADE_LIMIT:
                _REVEALS[outcome] = action
        return action

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the text form; raises :class:`IllegalActionError` on an empty string."""
        tokens = text.split()
        if not tokens:
            raise IllegalActionError("an empty action: type a verb, e.g. 'spin' or 'claim 0'")
        return cls(tokens[0], tuple(tokens[1:]))

    @property
    def is_reveal(self) -> bool:
        """True when this action answers a chance point."""
        return self.verb == REVEAL

    def int_args(self) -> tuple[int, ...]:
        """The arguments as integers; raises a readable error if one is not a number."""
        out = []
        for arg in self.args:
            if not isinstance(arg, int):
                raise IllegalActionError(f"'{self.brief}': expected numbers after the verb")
            out.append(arg)
        return tuple(out)

    @property
    def brief(self) -> str:
        """The text form cut to 60 characters, for messages that quote an action from outside.

        >>> Action.of("play", *range(40)).brief
        'play 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20...'
        """
        text = str(self)
        return text if len(text) <= 60 else text[:57] + "..."

    def __str__(self) -> str:
        return " ".join([self.verb, *(str(a) for a in self.args)])
