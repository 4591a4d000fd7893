"""The OpenAPI 3 description of the JSON API, served at /api/openapi.json."""

from __future__ import annotations

import copy
from typing import Any

from flask import Response, jsonify

from companion.api.http import bp
from companion.services import play_or_pay, pot, transfer
from companion.services.store import OPTION_SPECS, RUMMY_PRESETS


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


def error_responses(*statuses: int) -> dict[str, Any]:
    return {str(status): {"$ref": f"#/components/responses/E{status}"} for status in statuses}


# ---------------------------------------------------------------- the checks of cards (issue 5)

_CARDS = {"type": "string", "example": "7H 8H JK"}
_MELDS = {"type": "array", "items": {"type": "string", "example": "4H 5H 6H"}}
_COMMON = {
    "variant": {"type": "string", "example": "pay-me"},
    "round": {"type": "integer", "minimum": 1},
    "options": {
        "description": 'House rules: an object such as {"full_cycle": true}, or the command line\'s KEY=VALUE strings.',
        "oneOf": [{"type": "object"}, {"type": "array", "items": {"type": "string"}}],
    },
    "players": {"type": "integer", "description": "Optional: the decks in play follow from it (RULES.md 1)."},
}


def _request(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    schema = {"type": "object", "required": required, "properties": {**_COMMON, **properties}}
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _operation(summary: str, operation: str, body: dict[str, Any], answer: str) -> dict[str, Any]:
    return {
        "post": {
            "summary": summary,
            "description": f"Answers with exactly what `python -m engine {operation}` prints for the same arguments.",
            "operationId": operation + "Cards",
            "requestBody": body,
            "responses": {
                "200": {"description": answer, "content": {"application/json": {"schema": {"type": "object"}}}},
                **error_responses(400),
            },
        }
    }


def _check_fragments() -> dict[str, Any]:
    """Paths of this blueprint, and the round fields "hands" and "declarer"."""
    return {
        "paths": {
            "/api/check": _operation(
                "Judge melds",
                "check",
                _request(["variant", "round", "melds"], {"melds": _MELDS}),
                '{"valid": bool, "melds": [{"cards", "valid", "kind", "reason", "code", "read_as"}]}',
            ),
            "/api/best": _operation(
                "The lowest-penalty arrangement of a hand",
                "best",
                _request(["variant", "round", "hand"], {"hand": _CARDS, "declarer": _MELDS}),
                '{"penalty", "melds", "unmelded"}; with declarer melds also "layoffs" and "declarer" (D7). '
                "A hand of more than 16 cards is refused (400).",
            ),
            "/api/layoff": _operation(
                "Judge one lay-off onto the declarer's meld number onto (from 1)",
                "layoff",
                _request(
                    ["variant", "round", "declarer", "onto", "cards"],
                    {"declarer": _MELDS, "onto": {"type": "integer", "minimum": 1}, "cards": _CARDS},
                ),
                '{"valid", "code", "reason", "declarer": the melds after the lay-off}',
            ),
        },
        "round_fields": {
            "hands": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "Cards by player, in place of their score: the engine scores the best arrangement "
                "(D7), with lay-offs onto the declarer's melds. A player in both scores and hands is a 400. The "
                "player who went out may give a plain hand (all cards must meld, with or without a discard as "
                "the preset says, else 400 with the engine's reason) or melds separated by '|'. The round keeps "
                "the cards in canonical notation and returns them as hands.",
                "example": {"Ann": "7H 8C KS", "Bob": "4H 5H 6H | 9C 9D 9S"},
            },
            "declarer": {
                **_MELDS,
                "description": "The melds of the player who went out (all their cards; each must be legal and "
                "together they must go out). Lay-offs onto them count when scoring hands. Do not also give the "
                "declarer in hands.",
            },
        },
    }


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
            **_check_fragments()["round_fields"],
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
            "hands": _check_fragments()["round_fields"]["hands"],
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
            **_check_fragments()["paths"],
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
    return _complete(_extend_transfer(_extend_money(document)))


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


# ---------------------------------------------------------------- the pot and Play or Pay (issue 6)


_COUNTS = {"type": "object", "additionalProperties": {"type": "integer"}}
_CENTS = {"type": "integer", "minimum": 0, "maximum": pot.MAX_CENTS}

_MONEY_SCHEMAS: dict[str, Any] = {
    "PotEntry": {
        "type": "object",
        "properties": {
            "round": {"type": "integer", "nullable": True, "description": "Null for the ante and the end payouts."},
            "player": {"type": "string", "nullable": True},
            "kind": {"type": "string", "enum": [kind.value for kind in pot.EntryKind]},
            "amount": {"type": "integer", "description": "Cents: positive paid into the pot, negative paid out."},
        },
    },
    "Pot": {
        "type": "object",
        "nullable": True,
        "description": "The pot, rebuilt from the rounds (null when the game has no pot): "
        "sum(net) + balance = 0.",
        "properties": {
            "balance": {"type": "integer", "description": "Cents in the pot now."},
            "ledger": {"type": "array", "items": ref("PotEntry")},
            "net": {**_COUNTS, "description": "Cents each player received from the pot minus paid into it."},
        },
    },
    "PlayOrPayEvent": {
        "type": "object",
        "required": ["type"],
        "description": 'One event: {"type": "play", "player", "card"} (with no card needed, a lead), '
        '{"type": "pay", "player"}, or a hand entered in quick mode: '
        '{"type": "settle", "winner", "cards_left", "paid"}.',
        "properties": {
            "type": {"type": "string", "enum": list(play_or_pay.EVENT_KINDS)},
            "player": {"type": "string"},
            "card": {"type": "string", "example": "7H"},
            "winner": {"type": "string"},
            "cards_left": {**_COUNTS, "description": "Every player's cards at the end (the winner's may be left out)."},
            "paid": {**_COUNTS, "description": "Chips each paid during play; players left out paid none."},
            "version": {"type": "integer", "description": "Optional: the game version the client saw; else 409."},
        },
        "additionalProperties": False,
    },
    "PlayOrPayGame": {
        "type": "object",
        "description": "A Play or Pay game, rebuilt from its events: chips + hand.pot = chips bought.",
        "required": ["id", "variant", "options", "players", "chips", "hand", "hands", "flags"],
        "properties": {
            "id": {"type": "string"},
            "variant": {"type": "string", "enum": [play_or_pay.PLAY_OR_PAY]},
            "options": {"type": "object", "properties": {"chips": {"type": "integer"}}},
            "players": {"type": "array", "items": {"type": "string"}},
            "first_dealer": {"type": "string"},
            "chips": {**_COUNTS, "description": "Each player's chips now; below zero is owed."},
            "hand": {
                "type": "object",
                "properties": {
                    "number": {"type": "integer"},
                    "dealer": {"type": "string"},
                    "turn": {"type": "string"},
                    "lead": {"type": "boolean", "description": "Whether the player to act starts a new sequence."},
                    "needed": {"type": "string", "nullable": True, "example": "7H"},
                    "sequence_start": {"type": "string", "nullable": True},
                    "suits_played": {"type": "array", "items": {"type": "string"}},
                    "played": {"type": "array", "items": {"type": "string"}},
                    "dealt": _COUNTS,
                    "cards_left": _COUNTS,
                    "paid": _COUNTS,
                    "pot": {"type": "integer"},
                },
            },
            "hands": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "number": {"type": "integer"},
                        "dealer": {"type": "string"},
                        "winner": {"type": "string"},
                        "quick": {"type": "boolean"},
                        "payments": {**_COUNTS, "description": "Chips each player won (+) or paid (-) in the hand."},
                        "pot": {"type": "integer"},
                        "entries": {"type": "array", "items": {"type": "object"}},
                    },
                },
            },
            "flags": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "hand": {"type": "integer"},
                        "player": {"type": "string"},
                        "card": {"type": "string"},
                        "message": {"type": "string"},
                    },
                },
            },
            "ledger": {"type": "array", "items": {"type": "object"}},
            "events": {"type": "integer"},
            "finished": {"type": "boolean"},
            "version": {"type": "integer"},
        },
    },
}

_POT_OPTIONS = {
    "pot": {"type": "boolean", "description": "Play for a pot: on by default for 3-13; a simple pot elsewhere."},
    "ante": {**_CENTS, "description": "Cents each player pays in at the start (default 50)."},
    "second_discard": {**_CENTS, "description": "3-13 only: cents per second discard taken (default 5)."},
    "knock": {**_CENTS, "description": "3-13 only: cents the knocker takes each round (default 15)."},
    "booby_cap": {**_CENTS, "description": "3-13 only: most cents of the booby prize (default 50)."},
    "chips": {"type": "integer", "minimum": 1, "description": "Play or Pay only: starting chips (default 20)."},
}


def _extend_money(document: dict[str, Any]) -> dict[str, Any]:
    """Add the pot and Play or Pay to the API description."""
    document = copy.deepcopy(document)
    schemas = document["components"]["schemas"]
    schemas.update(_MONEY_SCHEMAS)
    schemas["Options"]["properties"].update(_POT_OPTIONS)
    variant = schemas["NewGame"]["properties"]["variant"]
    variant["enum"] = [*variant["enum"], play_or_pay.PLAY_OR_PAY]
    schemas["RoundEntry"]["properties"]["second_discards"] = {
        **_COUNTS,
        "description": "Second discards each player took this round (3-13 pot); players left out took none. "
        "When a correction leaves it out, the round keeps its earlier counts.",
    }
    schemas["Game"]["properties"]["pot"] = ref("Pot")
    schemas["Game"]["description"] = "A game played in rounds; a Play or Pay game is a PlayOrPayGame."
    key, game_id = KEY_PARAMETER, GAME_ID_PARAMETER
    state = {
        "description": "The Play or Pay game state.",
        "content": {"application/json": {"schema": ref("PlayOrPayGame")}},
    }
    errors = error_responses(400, 403, 404, 409)
    document["paths"]["/api/games/{game_id}/events"] = {
        "parameters": [game_id],
        "post": {
            "summary": "Record a Play or Pay event: a card played (or led), a chip paid, or a quick-mode hand",
            "description": "400 with the reason, and nothing stored, for a play out of turn, a card other than "
            "the one needed, a card already played, a lead in a suit already played, a pay when it is not "
            "that player's turn, or an event on a game played in rounds.",
            "operationId": "addEvent",
            "parameters": [key],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": ref("PlayOrPayEvent")}},
            },
            "responses": {"201": state, **errors},
        },
    }
    document["paths"]["/api/games/{game_id}/events/last"] = {
        "parameters": [game_id],
        "delete": {
            "summary": "Undo the last Play or Pay event (404 when there is none)",
            "operationId": "undoEvent",
            "parameters": [key],
            "responses": {"200": state, **errors},
        },
    }
    return document


# ---------------------------------------------------------------- export and import (issue 7)

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


def _extend_transfer(document: dict[str, Any]) -> dict[str, Any]:
    """Add the export and import endpoints to the API description."""
    document = copy.deepcopy(document)
    document["components"]["schemas"]["GameExport"] = _EXPORT
    game_id = GAME_ID_PARAMETER
    errors = error_responses(400, 429)
    document["paths"]["/api/games/{game_id}/export"] = {
        "parameters": [game_id],
        "get": {
            "summary": "Export a whole game as JSON (also at /games/{game_id}/export.json; "
            "the rounds as CSV at /games/{game_id}/export.csv, the score sheet at /games/{game_id}/sheet.pdf)",
            "operationId": "exportGame",
            "responses": {
                "200": {
                    "description": "The game export.",
                    "content": {"application/json": {"schema": ref("GameExport")}},
                },
                **error_responses(404),
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
                "content": {"application/json": {"schema": ref("GameExport")}},
            },
            "responses": {
                "201": {
                    "description": "The new game, with its edit key.",
                    "content": {"application/json": {"schema": ref("CreatedGame")}},
                },
                **errors,
                "413": {"description": "The file is too large."},
            },
        }
    }
    return document


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document())
