"""Exact, stable JSON for the engine's plain-data dataclasses.

States are dataclasses of ``int``, ``str``, ``bool``, ``None``, lists, tuples, ``dict[str, X]``
and nested dataclasses. :func:`to_data` turns one into JSON-ready data; :func:`from_data`
rebuilds it from the type hints; :func:`dumps` writes the canonical text (sorted keys, no
spaces), so ``dumps(from_data(T, loads(dumps(x)))) == dumps(x)`` byte for byte.

>>> from dataclasses import dataclass, field
>>> @dataclass
... class Pile:
...     cards: list[str] = field(default_factory=list)
...     owner: int | None = None
>>> dumps(to_data(Pile(["bar"], 1)))
'{"cards":["bar"],"owner":1}'
>>> from_data(Pile, {"cards": ["bar"], "owner": None})
Pile(cards=['bar'], owner=None)
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union

from companion.engine.errors import EngineError

T = TypeVar("T")
_PRIMITIVES = (str, int, bool, float, type(None))


def to_data(value: Any) -> Any:
    """Convert a dataclass (or container of them) into JSON-ready data."""
    # Primitives and containers first: they are most of a state, and is_dataclass is slow.
    kind = type(value)
    if kind in _PRIMITIVES:
        return value
    if kind is list or kind is tuple:
        return [to_data(v) for v in value]
    if kind is dict:
        return {str(k): to_data(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [to_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | str | float):
        return value
    raise TypeError(f"not plain data: {type(value).__name__}")


def dumps(data: Any) -> str:
    """The canonical JSON text: sorted keys, compact, ASCII."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_data(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from :func:`to_data` output; raises on a mismatch."""
    try:
        return _from(tp, data)
    except (TypeError, KeyError, ValueError) as error:
        raise EngineError(f"saved state does not match {getattr(tp, '__name__', tp)}: {error}") from None


def _from(tp: Any, data: Any) -> Any:
    # Fast path: plain fields are most of a state.
    if tp is int or tp is str or tp is bool:
        if type(data) is not tp:
            raise TypeError(f"expected {tp.__name__}, got {data!r}")
        return data
    if tp is Any:
        return data
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        options = typing.get_args(tp)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _from(option, data)
            except (TypeError, KeyError, ValueError) as error:
                errors.append(str(error))
        raise ValueError(f"{data!r} fits none of {tp}: {'; '.join(errors)}")
    if origin is typing.Literal:
        if data not in typing.get_args(tp):
            raise ValueError(f"{data!r} is not one of {typing.get_args(tp)}")
        return data
    if origin is list:
        (item,) = typing.get_args(tp) or (Any,)
        _expect(data, list)
        return [_from(item, v) for v in data]
    if origin is tuple:
        args = typing.get_args(tp)
        _expect(data, list)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from(args[0], v) for v in data)
        if len(args) != len(data):
            raise ValueError(f"expected {len(args)} items, got {len(data)}")
        return tuple(_from(a, v) for a, v in zip(args, data, strict=True))
    if origin is dict:
        key_tp, value_tp = typing.get_args(tp) or (str, Any)
        _expect(data, dict)
        return {_key(key_tp, k): _from(value_tp, v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        _expect(data, dict)
        hints = _hints(tp)
        kwargs = {}
        for f in dataclasses.fields(tp):
            if not f.init:
                continue
            if f.name in data:
                kwargs[f.name] = _from(hints[f.name], data[f.name])
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise KeyError(f"missing field '{f.name}'")
        unknown = set(data) - {f.name for f in dataclasses.fields(tp)}
        if unknown:
            raise KeyError(f"unknown field(s) {sorted(unknown)}")
        return tp(**kwargs)
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise TypeError(f"expected a number, got {data!r}")
        return float(data)
    if tp in (int, str, bool):
        if type(data) is not tp:
            raise TypeError(f"expected {tp.__name__}, got {data!r}")
        return data
    if tp is type(None):
        if data is not None:
            raise TypeError(f"expected null, got {data!r}")
        return None
    raise TypeError(f"unsupported type in a state: {tp}")


def _key(tp: Any, key: str) -> Any:
    return int(key) if tp is int else key


def _expect(data: Any, kind: type) -> None:
    if not isinstance(data, kind):
        raise TypeError(f"expected {kind.__name__}, got {type(data).__name__}")
