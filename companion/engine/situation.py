"""The ``adjudicate`` contract shared by every game: keys, variants, whole numbers, excerpts.

A situation is one JSON object. Every game refuses a key it does not know (naming it: a
misspelt optional key must never be scored as if absent), accepts ``"variants"`` (the game's
variant ids, for the rulings a variant changes), and quotes bad values through
:func:`excerpt`, so an error line never echoes kilobytes of input back.

>>> len(excerpt("x" * 5000)) <= 80
True
>>> excerpt([[[[1]]]])
'[[[[...]]]]'
>>> check_keys({"grid": [], "gird": 1}, ("grid",), "bandit")
Traceback (most recent call last):
...
companion.engine.errors.InvalidSituationError: bandit does not know the key 'gird' (keys: grid, variants)
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine.errors import InvalidSituationError

#: the key every game accepts besides its own
VARIANTS_KEY = "variants"

_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = 60
_REPR.maxother = 40
_REPR.maxlong = 40
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = 4


def excerpt(value: Any) -> str:
    """A short ``repr`` of a value from the input: at most about 80 characters, any depth."""
    try:
        text = _REPR.repr(value)
    except ValueError:  # an int past Python's 4,300-digit conversion limit
        text = "<a number too long to quote>"
    except RecursionError:
        text = "<a value nested too deeply to quote>"
    return text if len(text) <= 80 else text[:76] + "...'"


def require_object(situation: Any, game: str, example: str) -> Mapping[str, Any]:
    """The situation as a mapping, or the one-line error with an ``example`` situation."""
    if not isinstance(situation, Mapping):
        raise InvalidSituationError(f"{game} needs one JSON object, e.g. {example}")
    return situation


def check_keys(situation: Mapping[str, Any], keys: Sequence[str], game: str) -> None:
    """Refuse the first key that is neither one of ``keys`` nor ``"variants"``."""
    known = (*keys, VARIANTS_KEY)
    for key in situation:
        if key not in known:
            raise InvalidSituationError(
                f"{game} does not know the key {excerpt(key)} (keys: {', '.join(known)})"
            )


def variants(situation: Mapping[str, Any], known: Mapping[str, str], game: str) -> frozenset[str]:
    """The variants the situation says are played (none when the key is absent)."""
    value = situation.get(VARIANTS_KEY, [])
    if not isinstance(value, list):
        raise InvalidSituationError(f'"variants" must be a list of {game} variant ids, not {excerpt(value)}')
    for variant in value:
        if not isinstance(variant, str) or variant not in known:
            names = ", ".join(known) or "none"
            raise InvalidSituationError(f"{game} has no variant {excerpt(variant)} (variants: {names})")
    return frozenset(value)


def whole_number(value: Any, name: str, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``; a digit string counts (``"3"``, never ``"²"``)."""
    if isinstance(value, str) and value.isascii() and value.isdecimal() and len(value) <= 6:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidSituationError(f'{name} must be a whole number {low}-{high}, not {excerpt(value)}')
    return value
