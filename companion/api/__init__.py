"""The JSON API: one blueprint (`bp`, under /api) for games, rounds, events, checks, exports, keys,
live versions and the OpenAPI document; CSRF-exempt, as it takes the edit key in a header."""

from companion.api import checks, events, games, groups, keys, live, openapi, pool, transfer
from companion.api.http import bp

__all__ = ["bp", "checks", "events", "games", "groups", "keys", "live", "openapi", "pool", "transfer"]
