"""The JSON API of exports and imports (issue 7): GET /api/games/<id>/export, POST /api/games/import.

An import answers like starting a game: 201 with the game state and its new "edit_key". It needs
no edit key (it creates a new game) and counts against the same rate limit as starting a game.
"""

from __future__ import annotations

import copy
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion import money, openapi, services, transfer

bp = Blueprint("transfer_api", __name__, url_prefix="/api")


@bp.errorhandler(services.ServiceError)
def service_error(error: services.ServiceError) -> tuple[Response, int]:
    return jsonify({"error": error.message}), error.status


@bp.get("/games/<game_id>/export")
def export_game(game_id: str) -> Response:
    game = services.get_game(game_id)
    response = jsonify(transfer.export_game(game))
    response.headers["Content-Disposition"] = f'inline; filename="{transfer.export_filename(game, "json")}"'
    return response


@bp.post("/games/import")
def import_game() -> tuple[Response, int]:
    # Counted against RATELIMIT_CREATE like starting a game: security.CREATE_ENDPOINTS names this endpoint.
    request.max_content_length = transfer.MAX_IMPORT_BYTES
    game, key = transfer.import_bytes(request.get_data(cache=False))
    state = money.state_json(game)
    state["edit_key"] = key
    response = jsonify(state)
    response.headers["Location"] = f"/api/games/{game.id}"
    return response, 201


# ---------------------------------------------------------------- OpenAPI (merged into companion.openapi)

_EXPORT = {
    "type": "object",
    "required": ["format", "format_version", "game", "tables"],
    "description": "A whole game: every column of the game and of each table that belongs to it "
    "(rounds, the history of corrections, events, the dispute log), without ids or the edit key. "
    "Dates are ISO 8601 (UTC). `derived` (state, totals, ledger) is read-only; an import ignores it.",
    "properties": {
        "format": {"type": "string", "enum": [transfer.FORMAT]},
        "format_version": {"type": "integer", "enum": [transfer.FORMAT_VERSION]},
        "game": {
            "type": "object",
            "description": "variant, options, players (seat order), first_dealer (seat of round 1's dealer), "
            "finished, created_at, updated_at, money (pot settings or Play or Pay chips).",
        },
        "tables": {
            "type": "object",
            "description": "Rows by table name, in the order stored: rounds, round_revisions, game_events, disputes.",
            "additionalProperties": {"type": "array", "items": {"type": "object"}},
        },
        "derived": {"type": "object", "description": "Read-only: the game state, totals, winners, ledger."},
    },
    "additionalProperties": False,
}


def extend_openapi(document: dict[str, Any]) -> dict[str, Any]:
    """Add the export and import endpoints to the API description (companion.openapi calls this)."""
    document = copy.deepcopy(document)
    document["components"]["schemas"]["GameExport"] = _EXPORT
    game_id = openapi.GAME_ID_PARAMETER
    errors = openapi.error_responses(400, 429)
    document["paths"]["/api/games/{game_id}/export"] = {
        "parameters": [game_id],
        "get": {
            "summary": "Export a whole game as JSON (also at /games/{game_id}/export.json; "
            "the rounds as CSV at /games/{game_id}/export.csv, the score sheet at /games/{game_id}/sheet.pdf)",
            "operationId": "exportGame",
            "responses": {
                "200": {
                    "description": "The game export.",
                    "content": {"application/json": {"schema": openapi.ref("GameExport")}},
                },
                **openapi.error_responses(404),
            },
        },
    }
    document["paths"]["/api/games/import"] = {
        "post": {
            "summary": "Recreate an exported game under a new id and a new edit key",
            "description": f"The body is an export (at most {transfer.MAX_IMPORT_BYTES // 1024} KiB). "
            "Everything is checked before anything is stored; a refused file stores nothing.",
            "operationId": "importGame",
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": openapi.ref("GameExport")}},
            },
            "responses": {
                "201": {
                    "description": "The new game, with its edit key.",
                    "content": {"application/json": {"schema": openapi.ref("CreatedGame")}},
                },
                **errors,
                "413": {"description": "The file is too large."},
            },
        }
    }
    return document
