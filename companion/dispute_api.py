"""The engine's judgements as JSON (issue 5): ``POST /api/check``, ``/api/best`` and ``/api/layoff``.

Each takes the command line's arguments as fields and answers with exactly what
``python -m engine check|best|layoff`` prints: both call `engine.api` (check_json, best_json,
layoff_json). Bad input is a 400 ``{"error": "<one sentence>"}``, the engine's own sentence
where the engine found the problem.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, Response, jsonify

from companion import disputes, openapi, services
from companion.http import json_object_body
from engine.api import best_json, check_json, layoff_json
from engine.errors import EngineError

bp = Blueprint("dispute_api", __name__, url_prefix="/api")

FIELDS = {
    "check": ("variant", "round", "melds"),
    "best": ("variant", "round", "hand"),
    "layoff": ("variant", "round", "declarer", "onto", "cards"),
}
OPTIONAL = {
    "check": ("options", "players"),
    "best": ("options", "players", "declarer"),
    "layoff": ("options", "players"),
}


@bp.errorhandler(services.ServiceError)
def service_error(error: services.ServiceError) -> tuple[Response, int]:
    return jsonify({"error": error.message}), error.status


def _body(command: str) -> dict[str, Any]:
    body = json_object_body()
    required, optional = FIELDS[command], OPTIONAL[command]
    unknown = sorted(set(body) - set(required) - set(optional))
    if unknown:
        raise services.InvalidInput(f'unknown field "{unknown[0]}"; {command} takes {", ".join(required + optional)}')
    missing = [field for field in required if field not in body]
    if missing:
        raise services.InvalidInput(f"{command} needs {', '.join(required)}; {missing[0]} is missing")
    return body


def _string(body: Mapping[str, Any], field: str) -> str:
    value = body[field]
    if not isinstance(value, str):
        raise services.InvalidInput(f"{field} must be a string of cards")
    return value


def _melds(body: Mapping[str, Any], field: str) -> list[str]:
    value = body.get(field, [])
    if not isinstance(value, list) or not all(isinstance(meld, str) for meld in value):
        raise services.InvalidInput(f'{field} must be a list of melds, each a string such as "4H 5H 6H"')
    return value


def _options(body: Mapping[str, Any]) -> Any:
    """House rules as a JSON object, or as the command line's KEY=VALUE strings."""
    options = body.get("options")
    if options is None or isinstance(options, dict):
        return options
    if isinstance(options, list) and all(isinstance(pair, str) for pair in options):
        return options
    raise services.InvalidInput('options must be an object such as {"full_cycle": true}')


def _players(body: Mapping[str, Any]) -> int | None:
    players = body.get("players")
    if players is None:
        return None
    if not isinstance(players, int) or isinstance(players, bool):
        raise services.InvalidInput("players must be a whole number")
    return players


def _variant(body: Mapping[str, Any]) -> str:
    variant = body["variant"]
    if not isinstance(variant, str):
        raise services.InvalidInput("variant must be a preset id such as pay-me")
    return variant


def _answer(call: Callable[..., dict[str, Any]], *args: Any) -> Response:
    try:
        answer = call(*args)
    except EngineError as error:
        raise services.InvalidInput(" ".join(str(error).split())) from error
    return jsonify(answer)


@bp.post("/check")
def check() -> Response:
    """Verdicts on melds, as ``python -m engine check`` prints them."""
    body = _body("check")
    melds = _melds(body, "melds")
    return _answer(check_json, _variant(body), body["round"], _options(body), melds, _players(body))


@bp.post("/best")
def best() -> Response:
    """The least-penalty arrangement of a hand, as ``python -m engine best`` prints it."""
    body = _body("best")
    hand = _string(body, "hand")
    disputes.verify_hand_size(hand)
    declarer = _melds(body, "declarer")
    return _answer(best_json, _variant(body), body["round"], _options(body), hand, declarer, _players(body))


@bp.post("/layoff")
def layoff() -> Response:
    """The verdict on one lay-off, as ``python -m engine layoff`` prints it."""
    body = _body("layoff")
    declarer = _melds(body, "declarer")
    cards = _string(body, "cards")
    args = (_variant(body), body["round"], _options(body), declarer, body["onto"], cards, _players(body))
    return _answer(layoff_json, *args)


# ---------------------------------------------------------------- OpenAPI (merged into companion.openapi)

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
                **openapi.error_responses(400),
            },
        }
    }


def openapi_fragments() -> dict[str, Any]:
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
