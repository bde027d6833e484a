"""Plain-data round trips for the GM's dataclasses (for saves and tests).

:func:`dump` turns a dataclass tree into JSON-ready data (enums by value, sets
sorted, tuples as lists); :func:`load` rebuilds it from the type hints.  Only
the shapes the GM's state uses are supported, and anything else is an error,
so a save can never silently lose a field.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")


def dump(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: dump(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.init}
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, dict):
        return {(k.value if isinstance(k, Enum) else str(k)): dump(v) for k, v in obj.items()}
    if isinstance(obj, (set, frozenset)):
        return sorted(dump(v) for v in obj)
    if isinstance(obj, (list, tuple)):
        return [dump(v) for v in obj]
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    raise TypeError(f"cannot save a {type(obj).__name__}")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def load(cls: type[T], data: Any) -> T:
    """Rebuild an instance of ``cls`` (a dataclass) from :func:`dump`'s output."""
    return typing.cast(T, _load(cls, data))


def _load(tp: Any, data: Any) -> Any:
    origin = get_origin(tp)
    if tp is Any:
        return data
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        last: Exception | None = None
        for a in args:
            if a is type(None):
                continue
            try:
                return _load(a, data)
            except (TypeError, ValueError, KeyError) as exc:
                last = exc
        raise TypeError(f"{data!r} fits none of {tp}: {last}")
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise ValueError(f"{data!r} is not one of {get_args(tp)}")
        return data
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise TypeError(f"{tp.__name__} needs an object, got {type(data).__name__}")
        hints = _hints(tp)
        known = {f.name for f in dataclasses.fields(tp) if f.init}
        unknown = set(data) - known
        if unknown:
            raise KeyError(f"{tp.__name__}: unknown field(s) {sorted(unknown)}")
        return tp(**{k: _load(hints[k], v) for k, v in data.items()})
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if origin in (list, tuple, set, frozenset):
        args = get_args(tp)
        if not isinstance(data, list):
            raise TypeError(f"expected a list, got {type(data).__name__}")
        if origin is tuple and args and args[-1] is not Ellipsis:
            return tuple(_load(a, v) for a, v in zip(args, data, strict=True))
        items = [_load(args[0] if args else Any, v) for v in data]
        return origin(items) if origin is not list else items
    if origin is dict:
        kt, vt = get_args(tp)
        if not isinstance(data, dict):
            raise TypeError(f"expected an object, got {type(data).__name__}")
        return {_key(kt, k): _load(vt, v) for k, v in data.items()}
    if tp in (int, float, str, bool):
        if tp is float and isinstance(data, int) and not isinstance(data, bool):
            return float(data)
        if not isinstance(data, tp) or (tp is int and isinstance(data, bool)):
            raise TypeError(f"expected {tp.__name__}, got {data!r}")
        return data
    if tp is type(None):
        if data is not None:
            raise TypeError(f"expected null, got {data!r}")
        return None
    raise TypeError(f"cannot load into {tp}")


def _key(kt: Any, k: str) -> Any:
    if kt is int:
        return int(k)
    if isinstance(kt, type) and issubclass(kt, Enum):
        return kt(k)
    return k
