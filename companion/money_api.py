"""The JSON API of Play or Pay events (RULES.md section 7); the pot rides on the round endpoints.

``POST /api/games/<id>/events`` records one play, payment or quick-mode hand;
``DELETE /api/games/<id>/events/last`` takes the last one back. Both need ``X-Edit-Key``.
"""

from __future__ import annotations

import copy
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion import money, openapi, services
from companion.api import KEY_HEADER, service_error
from companion.http import json_object_body
from engine.pot import EntryKind

bp = Blueprint("money_api", __name__, url_prefix="/api")


# The same answers as the round endpoints: a conflict carries the game as stored now.
bp.register_error_handler(services.ServiceError, service_error)


@bp.post("/games/<game_id>/events")
def add_event(game_id: str) -> tuple[Response, int]:
    game = services.get_game(game_id)
    services.require_key(game, request.headers.get(KEY_HEADER))
    body = json_object_body()
    if not money.is_play_or_pay(game):
        raise services.InvalidInput(money.EVENTS_REFUSED)
    kind, data = money.parse_event(game, body)
    after = money.add_event(game, kind, data, body.get("version"))
    state = after.as_json()
    state["version"] = game.version
    return jsonify(state), 201


@bp.delete("/games/<game_id>/events/last")
def undo_event(game_id: str) -> tuple[Response, int]:
    game = services.get_game(game_id)
    services.require_key(game, request.headers.get(KEY_HEADER))
    money.undo_last_event(game)
    return jsonify(money.state_json(game)), 200


# ---------------------------------------------------------------- the OpenAPI description


_COUNTS = {"type": "object", "additionalProperties": {"type": "integer"}}
_CENTS = {"type": "integer", "minimum": 0, "maximum": money.MAX_CENTS}

_SCHEMAS: dict[str, Any] = {
    "PotEntry": {
        "type": "object",
        "properties": {
            "round": {"type": "integer", "nullable": True, "description": "Null for the ante and the end payouts."},
            "player": {"type": "string", "nullable": True},
            "kind": {"type": "string", "enum": [kind.value for kind in EntryKind]},
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
            "ledger": {"type": "array", "items": openapi.ref("PotEntry")},
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
            "type": {"type": "string", "enum": list(money.EVENT_KINDS)},
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
            "variant": {"type": "string", "enum": [money.PLAY_OR_PAY]},
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


def extend_openapi(document: dict[str, Any]) -> dict[str, Any]:
    """Add the pot and Play or Pay to the API description (companion.openapi calls this)."""
    document = copy.deepcopy(document)
    schemas = document["components"]["schemas"]
    schemas.update(_SCHEMAS)
    schemas["Options"]["properties"].update(_POT_OPTIONS)
    variant = schemas["NewGame"]["properties"]["variant"]
    variant["enum"] = [*variant["enum"], money.PLAY_OR_PAY]
    schemas["RoundEntry"]["properties"]["second_discards"] = {
        **_COUNTS,
        "description": "Second discards each player took this round (3-13 pot); players left out took none. "
        "When a correction leaves it out, the round keeps its earlier counts.",
    }
    schemas["Game"]["properties"]["pot"] = openapi.ref("Pot")
    schemas["Game"]["description"] = "A game played in rounds; a Play or Pay game is a PlayOrPayGame."
    key, game_id = openapi.KEY_PARAMETER, openapi.GAME_ID_PARAMETER
    state = {
        "description": "The Play or Pay game state.",
        "content": {"application/json": {"schema": openapi.ref("PlayOrPayGame")}},
    }
    errors = openapi.error_responses(400, 403, 404, 409)
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
                "content": {"application/json": {"schema": openapi.ref("PlayOrPayEvent")}},
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
