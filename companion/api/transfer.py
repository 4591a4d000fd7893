"""The JSON API of exports and imports (issue 7): GET /api/games/<id>/export, POST /api/games/import.

An import answers like starting a game: 201 with the game state and its new "edit_key". It needs
no edit key (it creates a new game) and counts against the same rate limit as starting a game.
"""

from __future__ import annotations

from flask import Response, jsonify, request

from companion.api.http import bp, created
from companion.api.once import exactly_once
from companion.services import store, transfer


@bp.get("/games/<game_id>/export")
def export_game(game_id: str) -> Response:
    game = store.get_game(game_id)
    response = jsonify(transfer.export_game(game))
    response.headers["Content-Disposition"] = f'inline; filename="{transfer.export_filename(game, "json")}"'
    return response


@bp.post("/games/import", provide_automatic_options=False)
@exactly_once(max_body=transfer.MAX_IMPORT_BYTES)
def import_game() -> tuple[Response, int]:
    # Counted against RATELIMIT_CREATE like starting a game: security.CREATE_ENDPOINTS names this endpoint.
    game, key = transfer.import_bytes(request.get_data(), request.headers.get("X-Group-Key"))
    return created(game, key)


@bp.route("/games/import", methods=["OPTIONS"], provide_automatic_options=False)
def import_options() -> Response:
    """Only POST: the automatic answer would also list the methods of /games/<game_id>."""
    response = Response(status=200)
    response.headers["Allow"] = "OPTIONS, POST"
    return response
