"""The kinds of game, keyed by the preset's kind (engine.rules.Preset.kind).

A kind says how a game is played and shown: in rounds with a score sheet ("rummy": Pay Me,
Three Thirteen, 3-13), in hands followed card by card with chips ("stops": Play or Pay), or in
deals with a knock-out and a pot ("pool": pool rummy 101 and 201).
The pages, the API and the exports ask the kind instead of checking variant names.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy.orm import selectinload

from companion.errors import ServiceError
from companion.extensions import db
from companion.models import Game
from companion.services import play_or_pay, pool, rummy, seating
from companion.services.store import GameSummary, current_version, forget_reads, get_game, preset_kind


@dataclass(frozen=True)
class GameKind:
    """What differs between the kinds of game."""

    key: str
    in_rounds: bool
    """Scored in rounds (a score sheet, round forms, a pot); else played in hands with chips (events)."""
    create: Callable[..., tuple[Game, str]]
    """Start a game: (variant, players, options, first dealer, first dealer method, score keeper) -> the game
    and its edit key."""
    state_json: Callable[[Game], dict[str, Any]]
    """The game state of the API contract."""
    summary: Callable[[Game], GameSummary]
    """A line of the games list."""


def _create_play_or_pay(
    _variant: object,
    players: object,
    options: object,
    first_dealer: object,
    first_dealer_method: object = None,
    scorekeeper: object = None,
) -> tuple[Game, str]:
    return play_or_pay.create_play_or_pay(players, options, first_dealer, first_dealer_method, scorekeeper)


def _pool_state_json(game: Game) -> dict[str, Any]:
    """A pool game's state, with its renames (the one change of players it takes) once there are any."""
    answer = pool.state_json(game)
    changes = seating.changes_of(game)
    if changes:
        answer["player_changes"] = [play_or_pay.changes_json(change) for change in changes]
    return answer


ROUNDS = GameKind(rummy.KIND, True, rummy.create_game, rummy.state_json, rummy.summary)
HANDS = GameKind(play_or_pay.KIND, False, _create_play_or_pay, play_or_pay.state_json, play_or_pay.summary)
KNOCKOUT = GameKind(pool.KIND, False, pool.create_pool, _pool_state_json, pool.summary)
KINDS: dict[str, GameKind] = {kind.key: kind for kind in (ROUNDS, HANDS, KNOCKOUT)}


def of_variant(variant: object) -> GameKind:
    """The kind of a preset; an unknown one is taken as played in rounds (whose services refuse it)."""
    return KINDS.get(preset_kind(variant) or "", ROUNDS)


def of(game: Game) -> GameKind:
    return of_variant(game.variant)


def create_game(
    variant: object,
    players: object,
    options: object = None,
    first_dealer: object = None,
    first_dealer_method: object = None,
    scorekeeper: object = None,
) -> tuple[Game, str]:
    """Start a game of any kind; returns it with its secret edit key (only a hash is stored)."""
    return of_variant(variant).create(variant, players, options, first_dealer, first_dealer_method, scorekeeper)


def state_json(game: Game) -> dict[str, Any]:
    """The API state of any game: rounds and totals (with the pot), or hands and chips, and its group."""
    return {**of(game).state_json(game), "group": game.group_id}


GAMES_PAGE = 50
"""Games per page of a list."""
MAX_GAMES_PAGE = 200
"""The last page asked for (10,000 games): a page further on would cost more than a small constant."""


def list_games(group_id: str | None = None, page: int = 1) -> tuple[tuple[GameSummary, ...], bool]:
    """One page of games, the most recently played first by the server's clock (never a date read
    from an imported file); only the group's with `group_id`. Answers the page and whether another follows."""
    query = db.select(Game).options(selectinload(Game.rounds))
    if group_id is not None:
        query = query.where(Game.group_id == group_id)
    query = query.order_by(Game.updated_at.desc(), Game.id).offset((page - 1) * GAMES_PAGE).limit(GAMES_PAGE + 1)
    rows = list(db.session.scalars(query))
    return tuple(of(game).summary(game) for game in rows[:GAMES_PAGE]), len(rows) > GAMES_PAGE


def current_state(game_id: str) -> dict[str, Any] | None:
    """A game's state as stored now (a 409 answers with it), or None when it cannot be read."""
    forget_reads()  # load what the winning write stored
    try:
        return state_json(get_game(game_id))
    except ServiceError:
        return None


# ---------------------------------------------------------------- state reads, cached by version

STATE_CACHE_SIZE = 1024
"""Game states kept encoded in each process (a full-cycle state of 8 players is about 10 KB)."""


class StateCache:
    """Encoded game states by (game id, version), least recently used dropped first.

    Every write raises the game's version (its version column), so an entry never goes stale:
    a server that has not seen a write simply has no entry for the new version. Nothing is
    shared between processes or servers, and nothing needs to be.
    """

    def __init__(self, size: int = STATE_CACHE_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int]) -> bytes | None:
        with self._lock:
            body = self._entries.get(key)
            if body is not None:
                self._entries.move_to_end(key)
            return body

    def put(self, key: tuple[str, int], body: bytes) -> None:
        with self._lock:
            self._entries[key] = body
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


STATES = StateCache()


def cached_state(game_id: str) -> tuple[int, bytes]:
    """A game's version and its API state encoded as JSON, from the cache when that version is in it.

    A hit costs one query of the version column; a miss reads the game and asks the engine.
    """
    version = current_version(game_id)
    body = STATES.get((game_id, version))
    if body is not None:
        return version, body
    game = get_game(game_id)
    body = current_app.json.dumps(state_json(game)).encode("utf-8") + b"\n"
    STATES.put((game.id, game.version), body)
    return game.version, body
