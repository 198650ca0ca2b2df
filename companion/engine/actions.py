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
            raise IllegalActionError(f"an action argument cannot be empty or contain spaces: {arg!r}")
        if _INT.fullmatch(arg):
            return int(arg)
    return arg


@dataclass(frozen=True, order=True)
class Action:
    """A player's decision or a chance outcome, e.g. ``claim 1`` or ``reveal bar``."""

    verb: str
    args: tuple[ActionArg, ...] = ()

    def __post_init__(self) -> None:
        if not self.verb or not _TOKEN.fullmatch(self.verb) or _INT.fullmatch(self.verb):
            raise IllegalActionError(f"not an action verb: {self.verb!r}")
        object.__setattr__(self, "args", tuple(_normalize(a) for a in self.args))

    @classmethod
    def of(cls, verb: str, *args: ActionArg) -> Action:
        """Build an action from a verb and its arguments."""
        return cls(verb, tuple(args))

    @classmethod
    def reveal(cls, outcome: str) -> Action:
        """The action that answers a chance point with ``outcome``."""
        return cls(REVEAL, (outcome,))

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
                raise IllegalActionError(f"'{self}': expected numbers after '{self.verb}'")
            out.append(arg)
        return tuple(out)

    def __str__(self) -> str:
        return " ".join([self.verb, *(str(a) for a in self.args)])
