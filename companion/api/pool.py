"""The JSON API of pool rummy (RULES.md 11): deals, rejoins, the split, and undo.

``POST /api/games/<id>/deals`` records one deal; ``POST /api/games/<id>/rejoins`` buys a player put
out by the last deal back in; ``POST /api/games/<id>/end`` with ``{"split": ...}`` shares the pot and
ends the game; ``DELETE /api/games/<id>/deals/last?version=N`` (or ``If-Match``) takes back the last
of these: 428 without the version, 409 when it is stale. All need ``X-Edit-Key``.
"""

from __future__ import annotations

from flask import Response

from companion import schemas
from companion.api import bodies
from companion.api.http import bp, expected_version, state
from companion.api.once import exactly_once
from companion.keys import edit_required
from companion.models import Game
from companion.services import pool


@bp.post("/games/<game_id>/deals")
@exactly_once()
@edit_required
def add_deal(game: Game) -> tuple[Response, int]:
    body = bodies.parse(schemas.PoolDeal)
    pool.add_deal(game, body.results, body.cut, body.version, wild=body.wild)
    return state(game, 201)


@bp.post("/games/<game_id>/rejoins")
@exactly_once()
@edit_required
def rejoin(game: Game) -> tuple[Response, int]:
    body = bodies.parse(schemas.PoolRejoin)
    pool.rejoin(game, body.player, body.version)
    return state(game, 201)


@bp.delete("/games/<game_id>/deals/last")
@exactly_once()
@edit_required
def undo_deal(game: Game) -> tuple[Response, int]:
    pool.undo_last(game, expected_version())
    return state(game)
