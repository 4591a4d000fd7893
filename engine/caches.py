"""Every cache the engine keeps between calls, made here so that `clear_caches()` forgets them all.

Thread model. The app serves requests from several threads of one process (gunicorn's threads),
and they share these caches without locks. That is safe because of three rules every cache keeps:

* A cached value is a pure function of its key: the key holds every rule the value depends on
  (a `MeldRules.key`, card codes, counts), or the identity of frozen objects kept alive in the
  entry itself (`identity_cache`, checked with `is` so that a reused id never matches). Two
  threads that compute the same entry compute the same value; the last write wins, harmlessly.
* Each access is one dict operation (`get`, a store, `clear`), atomic under the interpreter lock;
  no code reads an entry twice expecting it unchanged, and values are never mutated once stored
  except by the search that made them, before storing (a component's memo grows, but only with
  answers that are again pure functions of its own key).
* A full cache is cleared, not trimmed: another thread may then miss and compute again, never
  read half an entry.

Tests call `clear_caches()` to measure or to compare answers from a cold start.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

__all__ = ["IdentityCache", "cache", "cache_sizes", "clear_caches"]

_A = TypeVar("_A")
_B = TypeVar("_B")
_V = TypeVar("_V")

_CACHES: dict[str, dict[Any, Any]] = {}


def cache(name: str) -> dict[Any, Any]:
    """A new dict the engine may keep between calls, cleared by `clear_caches()`. Its user bounds
    it (clearing it when full) and keeps the rules above."""
    if name in _CACHES:
        raise ValueError(f'a cache named "{name}" already exists')
    made: dict[Any, Any] = {}
    _CACHES[name] = made
    return made


class IdentityCache(Generic[_A, _B, _V]):
    """Values computed from two frozen objects, remembered by their identity: hashing a whole rule
    set costs more than the lookups it saves. Each entry keeps both objects, so an id reused by a
    new object never matches."""

    def __init__(self, name: str, limit: int):
        self.entries: dict[tuple[int, int], tuple[_A, _B, _V]] = cache(name)
        self.limit = limit

    def get(self, first: _A, second: _B, make: Callable[[_A, _B], _V]) -> _V:
        entries = self.entries
        known = entries.get((id(first), id(second)))
        if known is not None and known[0] is first and known[1] is second:
            return known[2]
        if len(entries) >= self.limit:
            entries.clear()
        value = make(first, second)
        entries[(id(first), id(second))] = (first, second, value)
        return value


def clear_caches(names: Iterable[str] | None = None) -> None:
    """Forget everything the engine remembers between calls (or only the caches named)."""
    for name in _CACHES if names is None else names:
        _CACHES[name].clear()


def cache_sizes() -> dict[str, int]:
    """How many entries each cache holds, by name (for tests and benchmarks)."""
    return {name: len(entries) for name, entries in _CACHES.items()}
