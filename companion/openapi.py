"""The OpenAPI 3 description of the JSON API, served at /api/openapi.json."""

from __future__ import annotations

from typing import Any

from engine.rules import OPTION_SPECS, RUMMY_PRESETS


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_ERRORS = {
    400: "Bad input: malformed JSON, wrong types, unknown player or variant, bad scores or options.",
    403: "The X-Edit-Key header is missing or wrong.",
    404: "No such game (or no such round).",
    409: "The game changed meanwhile (version mismatch or a concurrent write).",
    413: "The request body is larger than the app accepts.",
    429: "Too many games started, or too many wrong edit keys, from this address; wait a minute.",
}


def _dispute_docs() -> dict[str, Any]:
    """The meld checker's endpoints and a round's cards, described next to their code (issue 5)."""
    from companion.dispute_api import openapi_fragments

    return openapi_fragments()


def error_responses(*statuses: int) -> dict[str, Any]:
    return {str(status): {"$ref": f"#/components/responses/E{status}"} for status in statuses}


_NAMES = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}

_SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {"type": "string", "description": "One sentence saying what was wrong."},
            "current": {
                "type": "object",
                "description": "On 409 only: the game's state as stored now, so the client can show it.",
            },
        },
    },
    "Options": {
        "type": "object",
        "description": "House-rule options; a game's state always lists every option.",
        "properties": {
            key: (
                {"type": "boolean", "description": spec.effect}
                if spec.kind == "bool"
                else {"type": "string", "enum": list(spec.choices), "description": spec.effect}
                if spec.kind == "choice"
                else {"type": "array", "items": {"type": "integer", "minimum": 1}, "description": spec.effect}
            )
            for key, spec in OPTION_SPECS.items()
        },
        "additionalProperties": False,
    },
    "NewGame": {
        "type": "object",
        "required": ["variant", "players"],
        "properties": {
            "variant": {"type": "string", "enum": list(RUMMY_PRESETS)},
            "players": {
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": 40},
                "minItems": 2,
                "description": "Unique names in seat order (clockwise).",
            },
            "options": ref("Options"),
            "first_dealer": {
                "type": "string",
                "nullable": True,
                "description": "A player's name; left out or null draws one at random.",
            },
        },
        "additionalProperties": False,
    },
    "RoundEntry": {
        "type": "object",
        "required": ["went_out"],
        "description": "Every player needs a score: typed in scores, or worked out from their cards in hands.",
        "properties": {
            "went_out": {"type": "string", "description": "The player who went out; their points must be 0."},
            "scores": {
                "type": "object",
                "description": "Card points by player, before the multiplier: a whole number, or a sum like '10+5'.",
                "additionalProperties": {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]},
            },
            "version": {"type": "integer", "description": "Optional: the game version the client saw; else 409."},
            **_dispute_docs()["round_fields"],
        },
        "additionalProperties": False,
    },
    "PlayedRound": {
        "type": "object",
        "properties": {
            "round": {"type": "integer"},
            "cards": {"type": "integer"},
            "wild": {"type": "array", "items": {"type": "string"}, "example": ["JK", "2", "3"]},
            "multiplier": {"type": "integer"},
            "dealer": {"type": "string"},
            "went_out": {"type": "string"},
            "scores": {**_NAMES, "description": "Card points entered."},
            "points": {**_NAMES, "description": "Points on the sheet, after the multiplier."},
            "hands": _dispute_docs()["round_fields"]["hands"],
        },
    },
    "NextRound": {
        "type": "object",
        "nullable": True,
        "properties": {
            "round": {"type": "integer"},
            "cards": {"type": "integer"},
            "wild": {"type": "array", "items": {"type": "string"}},
            "multiplier": {"type": "integer"},
            "dealer": {"type": "string"},
            "first_player": {"type": "string"},
            "decks": {"type": "integer"},
            "jokers": {"type": "integer"},
        },
    },
    "Game": {
        "type": "object",
        "required": ["id", "variant", "options", "players", "rounds", "totals", "next_round", "finished", "winners"],
        "properties": {
            "id": {"type": "string"},
            "variant": {"type": "string"},
            "options": ref("Options"),
            "players": {"type": "array", "items": {"type": "string"}},
            "rounds": {"type": "array", "items": ref("PlayedRound")},
            "totals": _NAMES,
            "next_round": ref("NextRound"),
            "finished": {"type": "boolean"},
            "winners": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Empty until the game is finished; then the lowest totals (ties share).",
            },
            "version": {"type": "integer"},
        },
    },
    "CreatedGame": {
        "allOf": [
            ref("Game"),
            {
                "type": "object",
                "required": ["edit_key"],
                "properties": {"edit_key": {"type": "string", "description": "Send as X-Edit-Key to change it."}},
            },
        ]
    },
    "GameList": {
        "type": "object",
        "properties": {
            "games": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "variant": {"type": "string"},
                        "players": {"type": "array", "items": {"type": "string"}},
                        "rounds_played": {"type": "integer"},
                        "finished": {"type": "boolean"},
                    },
                },
            }
        },
    },
}

GAME_ID_PARAMETER = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
KEY_PARAMETER = {"name": "X-Edit-Key", "in": "header", "required": True, "schema": {"type": "string"}}


def openapi_document() -> dict[str, Any]:
    """The API description as an OpenAPI 3.0 document."""
    game = _json(ref("Game"), "The game state.")
    round_body = {"required": True, "content": {"application/json": {"schema": ref("RoundEntry")}}}
    document = {
        "openapi": "3.0.3",
        "info": {
            "title": "Card Table Companion API",
            "version": "1",
            "description": "Score contract-rummy games (Pay Me, Three Thirteen, 3-13). "
            "Player names are the keys of scores and totals.",
        },
        "paths": {
            "/api/games": {
                "get": {
                    "summary": "List games",
                    "operationId": "listGames",
                    "responses": {"200": _json(ref("GameList"), "Every game, newest first.")},
                },
                "post": {
                    "summary": "Start a game",
                    "operationId": "createGame",
                    "requestBody": {"required": True, "content": {"application/json": {"schema": ref("NewGame")}}},
                    "responses": {
                        "201": _json(ref("CreatedGame"), "The new game, with its edit key."),
                        **error_responses(400, 429),
                    },
                },
            },
            "/api/games/{game_id}": {
                "parameters": [GAME_ID_PARAMETER],
                "get": {
                    "summary": "A game's state",
                    "operationId": "getGame",
                    "responses": {"200": game, **error_responses(404)},
                },
                "delete": {
                    "summary": "Delete a game",
                    "operationId": "deleteGame",
                    "parameters": [KEY_PARAMETER],
                    "responses": {
                        "200": _json({"type": "object", "properties": {"deleted": {"type": "string"}}}, "Deleted."),
                        **error_responses(403, 404, 409),
                    },
                },
            },
            "/api/games/{game_id}/rounds": {
                "parameters": [GAME_ID_PARAMETER],
                "post": {
                    "summary": "Score the next round",
                    "operationId": "addRound",
                    "parameters": [KEY_PARAMETER],
                    "requestBody": round_body,
                    "responses": {
                        "201": _json(ref("Game"), "The game state with the new round."),
                        **error_responses(400, 403, 404, 409),
                    },
                },
            },
            "/api/games/{game_id}/rounds/{number}": {
                "parameters": [
                    GAME_ID_PARAMETER,
                    {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}},
                ],
                "put": {
                    "summary": "Correct a round; its previous values are kept in the history",
                    "operationId": "correctRound",
                    "parameters": [KEY_PARAMETER],
                    "requestBody": round_body,
                    "responses": {"200": game, **error_responses(400, 403, 404, 409)},
                },
            },
            "/api/games/{game_id}/rounds/last": {
                "parameters": [GAME_ID_PARAMETER],
                "delete": {
                    "summary": "Undo the last round (404 when no round has been played)",
                    "operationId": "undoRound",
                    "parameters": [KEY_PARAMETER],
                    "responses": {"200": game, **error_responses(403, 404, 409)},
                },
            },
            "/api/games/{game_id}/version": {
                "parameters": [GAME_ID_PARAMETER],
                "get": {
                    "summary": "The game's version, for live updates: poll it with If-None-Match",
                    "description": 'The ETag is "v<version>"; the version rises with every change to the game. '
                    "A request whose If-None-Match holds the current ETag gets 304 without a body.",
                    "operationId": "getGameVersion",
                    "parameters": [
                        {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"}}
                    ],
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "properties": {"id": {"type": "string"}, "version": {"type": "integer"}},
                            },
                            "The current version (ETag header: its entity tag).",
                        ),
                        "304": {"description": "Unchanged since the ETag sent in If-None-Match."},
                        **error_responses(404),
                    },
                },
            },
            "/api/games/{game_id}/key": {
                "parameters": [GAME_ID_PARAMETER],
                "post": {
                    "summary": "Replace the edit key: the current one (X-Edit-Key) stops working at once",
                    "operationId": "replaceEditKey",
                    "parameters": [KEY_PARAMETER],
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "required": ["edit_key"],
                                "properties": {"edit_key": {"type": "string", "description": "The new key."}},
                            },
                            "The new edit key.",
                        ),
                        **error_responses(403, 404, 409, 429),
                    },
                },
            },
            **_dispute_docs()["paths"],
            "/api/openapi.json": {
                "get": {
                    "summary": "This document",
                    "operationId": "openapi",
                    "responses": {"200": {"description": "The OpenAPI document."}},
                }
            },
        },
        "components": {
            "schemas": _SCHEMAS,
            "responses": {
                f"E{status}": _json(ref("Error"), text) for status, text in _ERRORS.items()
            },
        },
    }
    from companion.money_api import extend_openapi  # the pot and Play or Pay (issue 6)
    from companion.transfer_api import extend_openapi as extend_transfer  # export and import (issue 7)

    return _complete(extend_transfer(extend_openapi(document)))


def _complete(document: dict[str, Any]) -> dict[str, Any]:
    """What every part of the API shares: a game answer is either kind of game, a body can be too
    large, and a keyed request can be refused for the key or for too many wrong keys."""
    schemas = document["components"]["schemas"]
    schemas["CreatedPlayOrPayGame"] = {"allOf": [ref("PlayOrPayGame"), schemas["CreatedGame"]["allOf"][1]]}
    schemas["AnyGame"] = {"anyOf": [ref("Game"), ref("PlayOrPayGame")]}
    schemas["AnyCreatedGame"] = {"anyOf": [ref("CreatedGame"), ref("CreatedPlayOrPayGame")]}
    paths = document["paths"]
    for path, method, status, schema in [
        ("/api/games", "post", "201", "AnyCreatedGame"),
        ("/api/games/import", "post", "201", "AnyCreatedGame"),
        ("/api/games/{game_id}", "get", "200", "AnyGame"),
    ]:
        paths[path][method]["responses"][status]["content"]["application/json"]["schema"] = ref(schema)
    paths["/api/games/{game_id}/rounds/last"]["delete"]["responses"].update(error_responses(400))
    for item in paths.values():
        for operation in item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            if "requestBody" in operation:
                responses.setdefault("413", error_responses(413)["413"])
            if any(parameter.get("name") == "X-Edit-Key" for parameter in operation.get("parameters", [])):
                for status in ("403", "429"):
                    responses.setdefault(status, error_responses(int(status))[status])
    return document
