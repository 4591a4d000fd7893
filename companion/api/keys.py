"""Replacing a game's edit key through the API: ``POST /api/games/<id>/key`` with the current key
in ``X-Edit-Key`` answers ``{"edit_key": <the new key>}``; the old key stops working at once."""

from __future__ import annotations

from flask import Response, jsonify

from companion.api.http import bp
from companion.api.once import exactly_once
from companion.keys import edit_required
from companion.models import Game
from companion.services import store


@bp.post("/games/<game_id>/key")
@exactly_once()
@edit_required
def replace_key(game: Game) -> tuple[Response, int]:
    """Replace the edit key (the current one in X-Edit-Key); answers {"edit_key": new key}."""
    key = store.regenerate_key(game)
    response = jsonify({"edit_key": key})
    response.headers["Cache-Control"] = "no-store"
    return response, 200
