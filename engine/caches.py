"""Every cache the engine keeps between calls, made here so that `clear_caches()` forgets them all.

Thread model. The app serves requests from several threads of one process (gunicorn's threads),
and they share these caches without locks. That is safe because every cache keeps four rules:

* A cached value is a pure function of its key: the key holds every rule the value depends on
  (`MeldRules.search_key` or `.key`, a whole `RuleSet`, card codes, counts), or the identity of
  frozen objects that the entry itself keeps alive (`IdentityCache`, checked with `is`, so that an
  id reused by a new object never matches). Two threads that compute the same entry compute the
  same value, and the last write wins harmlessly.
* Each access is one dict operation (`get`, a store, `setdefault`, `clear`), atomic under the
  interpreter lock; an entry is stored only once complete.
* The one kind of value that keeps growing after it is stored is a solved component
  (engine.solver): its memo tables gain entries as threads search it, each entry again a pure
  function of its own key, written whole, and anything an entry promises (a chosen meld) stored
  before the entry that promises it.
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
