"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json.

Every schema is generated from the pydantic models of `companion.schemas`; only the table of
paths below is written by hand.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from flask import Response, jsonify
from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from companion import schemas
from companion.api.http import bp
from companion.services.store import PRESETS, RUMMY_PRESETS
from companion.services.transfer import MAX_IMPORT_BYTES

REF_TEMPLATE = "#/components/schemas/{model}"
MAX_IMPORT_MIB = MAX_IMPORT_BYTES // (1024 * 1024)

# The models of the document: what clients send (validation) and what they get (serialization).
REQUESTS: tuple[type[BaseModel], ...] = (
    schemas.NewGame,
    schemas.RoundEntry,
    schemas.PlayOrPayEvent,
    schemas.EndGame,
    schemas.CheckRequest,
    schemas.BestRequest,
    schemas.LayoffRequest,
    schemas.ContractRequest,
    schemas.GameExport,
    schemas.NewGroup,
    schemas.BuyChange,
    schemas.PlayerChange,
    schemas.PoolDeal,
    schemas.PoolRejoin,
)
ANSWERS: tuple[type[BaseModel], ...] = (
    schemas.AnyGame,
    schemas.AnyCreatedGame,
    schemas.GameList,
    schemas.Error,
    schemas.Deleted,
    schemas.GameVersion,
    schemas.NewKey,
    schemas.CheckAnswer,
    schemas.CreatedGroup,
    schemas.GroupState,
)

ERRORS = {
    400: "Bad input: malformed JSON, wrong types, unknown player or variant, bad scores or options.",
    403: "The X-Edit-Key header (X-Group-Key for a group) is missing or wrong.",
    404: "No such game (or no such round).",
    409: "The game changed meanwhile (version mismatch or a concurrent write).",
    413: "The request body is larger than the app accepts.",
    415: "The request has a body that is not sent as Content-Type: application/json.",
    422: "This Idempotency-Key was already used for another request (another body, address or key); "
    "nothing was stored.",
    428: "An undo needs the version the client saw: ?version=N or If-Match.",
    429: "Too many games or groups started (or refused), or too many wrong keys, from this address; wait a minute.",
    503: "The database is unavailable (unreachable, read-only or full): the change was not saved; try again after "
    "Retry-After seconds. Or, for a write, the connection broke while it was being committed: the error says that "
    "the change may or may not have been saved, and sending it again with the same Idempotency-Key is safe.",
}
RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before trying again.", "schema": {"type": "integer"}}}
WRITES = frozenset(
    {
        "createGame",
        "createGroup",
        "replaceGroupKey",
        "deleteGame",
        "addRound",
        "correctRound",
        "undoRound",
        "changeBuys",
        "changePlayers",
        "undoPlayerChange",
        "replaceEditKey",
        "addEvent",
        "endGame",
        "undoEvent",
        "importGame",
        "addDeal",
        "addRejoin",
        "undoDeal",
    }
)
"""The operations that change something: each takes an Idempotency-Key (companion.api.once)."""
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255},
    "description": "Any opaque string of 1 to 255 characters (a random UUID), new for each change and the same "
    "for every retry of it. A repeat of the same request with the same key gets the first answer again (same "
    "status and body, with Idempotent-Replayed: true) and writes nothing; the same key with another request is "
    "422. Answers are kept at least 24 hours, per game (per route for starting a game, a group or an import), "
    "on every server. Only successful writes are kept: a refused one stored nothing and is judged again. An "
    "empty or longer key is 400.",
}

GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
KEY = {"name": "X-Edit-Key", "in": "header", "required": True, "schema": {"type": "string"}}
GROUP_ID = {"name": "group_id", "in": "path", "required": True, "schema": {"type": "string"}}
GROUP_KEY = {"name": "X-Group-Key", "in": "header", "required": False, "schema": {"type": "string"}}
PAGE = {"name": "page", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1, "maximum": 200}}
ROUND_NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
VERSION_QUERY = {
    "name": "version",
    "in": "query",
    "required": False,
    "schema": {"type": "integer", "minimum": 1},
    "description": "The game version the client saw (or send it as If-Match).",
}
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": 'The version the client saw as an entity tag: "vN" (the ETag of /api/games/{game_id}/version).',
}
UNDO_DESCRIPTION = (
    "The version the client saw is required, as ?version=N or If-Match: without it the answer is 428, "
    'with a stale one 409 with the game as stored now under "current"; nothing changes in either case.'
)
IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"}}


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF_TEMPLATE.format(model=name)}


def answer(name: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": ref(name)}}}


def body(name: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": ref(name)}}}


def errors(*statuses: int) -> dict[str, Any]:
    return {str(status): {"$ref": f"#/components/responses/E{status}"} for status in statuses}


def operation(
    operation_id: str,
    summary: str,
    responses: dict[str, Any],
    *,
    request: str | None = None,
    keyed: bool = False,
    description: str | None = None,
    parameters: tuple[dict[str, Any], ...] = (),
) -> dict[str, Any]:
    """One operation; a body can be too large (413) or not JSON (415); a keyed one can be refused
    for the key (403, 429); a write takes an Idempotency-Key (400 when malformed, 422 when reused);
    any can meet an unavailable database (503)."""
    writes = operation_id in WRITES
    described: dict[str, Any] = {"summary": summary, "operationId": operation_id}
    if description:
        described["description"] = description
    listed = [*parameters, *([KEY] if keyed else []), *([IDEMPOTENCY_KEY] if writes else [])]
    if listed:
        described["parameters"] = listed
    if request:
        described["requestBody"] = body(request)
    described["responses"] = {
        **responses,
        **{status: value for status, value in errors(413, 415).items() if request and status not in responses},
        **{status: value for status, value in errors(403, 429).items() if keyed and status not in responses},
        **{status: value for status, value in errors(400, 422).items() if writes and status not in responses},
        **errors(503),
    }
    return described


def optional_body(described: dict[str, Any]) -> dict[str, Any]:
    """An operation whose request body may be left out."""
    described["requestBody"]["required"] = False
    return described


def _check(command: str, summary: str, request: str, says: str) -> dict[str, Any]:
    return {
        "post": operation(
            command + "Cards",
            summary,
            {"200": answer("CheckAnswer", says), **errors(400)},
            request=request,
            description=f"Answers with exactly what `python -m engine {command}` prints for the same arguments.",
        )
    }


def paths() -> dict[str, Any]:
    """The table of paths: every route of the /api blueprint."""
    game = answer("AnyGame", "The game state.")
    play_or_pay = answer("PlayOrPayGame", "The Play or Pay game state.")
    pool = answer("PoolGame", "The pool rummy game state.")
    return {
        "/api/games": {
            "get": operation(
                "listGames",
                "List a group's games",
                {"200": answer("GameList", "A page of games, the most recently played first."), **errors(400, 403)},
                parameters=(GROUP_KEY, PAGE),
                description="Only the games of the group whose key is sent in X-Group-Key (403 without one), "
                "50 a page; a server set up with PUBLIC_GAME_LIST=true lists every game without a key.",
            ),
            "post": operation(
                "createGame",
                "Start a game",
                {"201": answer("AnyCreatedGame", "The new game, with its edit key."), **errors(400, 403, 404, 429)},
                request="NewGame",
                parameters=(GROUP_KEY,),
                description='With "group", the group\'s key is needed in X-Group-Key (403 without it or with '
                "a wrong one; 404 for no such group); the game's players join the group.",
            ),
        },
        "/api/groups": {
            "post": operation(
                "createGroup",
                "Start a group of people who play together",
                {"201": answer("CreatedGroup", "The new group, with its key."), **errors(400, 429)},
                request="NewGroup",
            ),
        },
        "/api/groups/{group_id}": {
            "parameters": [GROUP_ID],
            "get": operation(
                "getGroup",
                "A group's standings, head-to-head, ratings, money and settle-up",
                {"200": answer("GroupState", "The group's figures over its finished games."), **errors(404)},
            ),
        },
        "/api/groups/{group_id}/key": {
            "parameters": [GROUP_ID],
            "post": operation(
                "replaceGroupKey",
                "Replace the group's key: the current one (X-Group-Key) stops working at once",
                {"200": answer("NewKey", "The new group key."), **errors(403, 404, 413, 415, 429)},
                parameters=({**GROUP_KEY, "required": True},),
            ),
        },
        "/api/games/{game_id}": {
            "parameters": [GAME_ID],
            "get": operation(
                "getGame",
                "A game's state",
                {"200": game, "304": {"description": "Unchanged since the ETag sent in If-None-Match."}, **errors(404)},
                description='The ETag is "v<version>", as for the version.',
                parameters=(IF_NONE_MATCH,),
            ),
            "delete": operation(
                "deleteGame",
                "Delete a game",
                {"200": answer("Deleted", "Deleted."), **errors(403, 404, 409)},
                keyed=True,
            ),
        },
        "/api/games/{game_id}/rounds": {
            "parameters": [GAME_ID],
            "post": operation(
                "addRound",
                "Score the next round",
                {"201": answer("Game", "The game state with the new round."), **errors(400, 403, 404, 409)},
                request="RoundEntry",
                keyed=True,
            ),
        },
        "/api/games/{game_id}/rounds/{number}": {
            "parameters": [GAME_ID, ROUND_NUMBER],
            "put": operation(
                "correctRound",
                "Correct a round; its previous values are kept in the history",
                {"200": answer("Game", "The game state."), **errors(400, 403, 404, 409)},
                request="RoundEntry",
                keyed=True,
            ),
        },
        "/api/games/{game_id}/rounds/last": {
            "parameters": [GAME_ID],
            "delete": operation(
                "undoRound",
                "Undo the last round (404 when no round has been played)",
                {"200": answer("Game", "The game state."), **errors(400, 403, 404, 409, 428)},
                keyed=True,
                description=UNDO_DESCRIPTION,
                parameters=(VERSION_QUERY, IF_MATCH),
            ),
        },
        "/api/games/{game_id}/buys": {
            "parameters": [GAME_ID],
            "post": operation(
                "changeBuys",
                "Contract Rummy: count a buy (or take one back) in the deal being played",
                {"200": answer("Game", "The game state with the buys of the deal."), **errors(400, 403, 404, 409)},
                request="BuyChange",
                keyed=True,
                description="400 with the reason, and nothing stored, for a buy past the deal's limit, taking back "
                "a buy nobody made, a name that is not a player, a finished game or a game without buying. The "
                "buys are stored with the deal's round when it is saved, and the count starts again.",
            ),
        },
        "/api/games/{game_id}/players": {
            "parameters": [GAME_ID],
            "post": operation(
                "changePlayers",
                "Rename a player, seat a late player, or take a player out from the next round",
                {"200": answer("Game", "The game state with the change."), **errors(400, 403, 404, 409)},
                request="PlayerChange",
                keyed=True,
                description="Send one of rename, add (with start) or remove. 400 with the reason, and nothing "
                "stored, for a name already at the table (whatever its case), a full table, too few players left, "
                "a player who is not at the table, or a finished game (renames are taken then too). A pool "
                "rummy game takes only renames: a player put out comes back by a rejoin.",
            ),
        },
        "/api/games/{game_id}/players/last": {
            "parameters": [GAME_ID],
            "delete": operation(
                "undoPlayerChange",
                "Undo the last change of players (404 when there is none)",
                {"200": answer("Game", "The game state."), **errors(400, 403, 404, 409, 428)},
                keyed=True,
                description=UNDO_DESCRIPTION + " A join or a leave can be undone only before the next round is "
                "scored (400 otherwise); a round scored after it is undone first.",
                parameters=(VERSION_QUERY, IF_MATCH),
            ),
        },
        "/api/games/{game_id}/version": {
            "parameters": [GAME_ID],
            "get": operation(
                "getGameVersion",
                "The game's version, for live updates: poll it with If-None-Match",
                {
                    "200": answer("GameVersion", "The current version (ETag header: its entity tag)."),
                    "304": {"description": "Unchanged since the ETag sent in If-None-Match."},
                    **errors(404),
                },
                description='The ETag is "v<version>"; the version rises with every change to the game. '
                "A request whose If-None-Match holds the current ETag gets 304 without a body.",
                parameters=(IF_NONE_MATCH,),
            ),
        },
        "/api/games/{game_id}/key": {
            "parameters": [GAME_ID],
            "post": operation(
                "replaceEditKey",
                "Replace the edit key: the current one (X-Edit-Key) stops working at once",
                {"200": answer("NewKey", "The new edit key."), **errors(403, 404, 409, 413, 415, 429)},
                keyed=True,
            ),
        },
        "/api/check": _check(
            "check",
            "Judge melds",
            "CheckRequest",
            '{"valid": bool, "melds": [{"cards", "valid", "kind", "reason", "code", "read_as", "reading", '
            '"reading_text"}]}. A legal meld says how the engine read it: "read_as" is the card each card '
            'stands for, "reading" the cards in run order with wild roles ("JK=4H"), "reading_text" the same in '
            'words ("read as 4♥ 5♥ 6♥ 7♥"); all three are null for a meld that is not legal.',
        ),
        "/api/best": _check(
            "best",
            "The lowest-penalty arrangement of a hand",
            "BestRequest",
            '{"penalty", "melds", "unmelded"}; with declarer melds also "layoffs" (the cards laid off onto each '
            'meld: [{"meld", "cards"}]), "placements" (where each card went: [{"card", "meld", "place": '
            '"low"|"high"|"set", "as": the card it stands for}]) and "declarer" (the melds after the lay-offs). '
            "A hand of more than 16 cards is refused (400).",
        ),
        "/api/layoff": _check(
            "layoff",
            "Judge one lay-off onto the declarer's meld number onto (from 1)",
            "LayoffRequest",
            '{"valid", "code", "reason", "declarer": the melds after the lay-off, "placements": where each card '
            'went, [{"card", "meld", "place": "low"|"high"|"set", "as"}] (empty when refused)}. Given "table" '
            '(Contract Rummy: lay-offs onto any meld on the table), the melds after the lay-off are under "table".',
        ),
        "/api/contract": _check(
            "contract",
            "Judge going down: are the melds exactly the deal's contract?",
            "ContractRequest",
            '{"valid": bool, "reason": why not, in words, or null, "melds": the verdict on each meld, as check '
            "gives it}. Only for a game played in deals with contracts (Contract Rummy).",
        ),
        "/api/games/{game_id}/events": {
            "parameters": [GAME_ID],
            "post": operation(
                "addEvent",
                "Record a Play or Pay event: a card played (or led), a chip paid, a quick-mode hand, or chips bought",
                {"201": play_or_pay, **errors(400, 403, 404, 409)},
                request="PlayOrPayEvent",
                keyed=True,
                description="400 with the reason, and nothing stored, for a play out of turn, a card other than "
                "the one needed, a card already played, a lead in a suit already played, a pay when it is not "
                "that player's turn, a purchase while a hand is being played, an event on an ended game, or an "
                "event on a game played in rounds. A quick-mode hand (settle) during a hand followed card by card "
                "must say in replaces how many cards and chips it replaces: all of those recorded in the hand; "
                "undo brings them back.",
            ),
        },
        "/api/games/{game_id}/end": {
            "parameters": [GAME_ID],
            "post": optional_body(
                operation(
                    "endGame",
                    "End a Play or Pay game (its results are final), or split a pool rummy game's pot",
                    {"200": game, **errors(400, 403, 404, 409)},
                    request="EndGame",
                    keyed=True,
                    description="Play or Pay: the body may be left out, or hold the version seen; 400 while a hand "
                    "is being played, for a game already ended, or a game played in rounds. Undo (DELETE "
                    '.../events/last) reopens it. Pool rummy: {"split": "drops"|"equal"|"amounts"} (with "shares" '
                    "for amounts), when every player still in agrees; 400 with the reason, and nothing stored, when "
                    "the split by drops would leave less than one buy-in to share, typed shares miss a player, name "
                    "one who is out or do not sum to the pot, or the game is over. Undo (DELETE .../deals/last) "
                    "takes the split back.",
                )
            ),
        },
        "/api/games/{game_id}/deals": {
            "parameters": [GAME_ID],
            "post": operation(
                "addDeal",
                "Pool rummy: record a deal, a result for every player still in",
                {"201": pool, **errors(400, 403, 404, 409)},
                request="PoolDeal",
                keyed=True,
                description="400 with the reason, and nothing stored, for a game that is over, a name that is not "
                "a player, a result for a player who is out, a player still in without a result, a result that is "
                'not "win", "drop", "middle", "full", "wrong" or a whole count from 0, not exactly one win, a drop '
                "past max_drops, a card cut that is not in the deck (or a cut when cut_joker is off), or a game of "
                "another kind. A deal that takes a player to the limit puts them out; may_rejoin says who may buy "
                "back in now.",
            ),
        },
        "/api/games/{game_id}/rejoins": {
            "parameters": [GAME_ID],
            "post": operation(
                "addRejoin",
                "Pool rummy: a player put out by the last deal buys back in",
                {"201": pool, **errors(400, 403, 404, 409)},
                request="PoolRejoin",
                keyed=True,
                description="The player pays the buy-in again and comes back at the highest total still in plus "
                "one. 400 with the reason, and nothing stored, for a game that is over, a player who is not out, "
                "a deal dealt since the player went out, max_rejoins reached, a highest total above the rejoin "
                "cutoff, or a rejoin total that is itself out.",
            ),
        },
        "/api/games/{game_id}/deals/last": {
            "parameters": [GAME_ID],
            "delete": operation(
                "undoDeal",
                "Pool rummy: undo the last deal, rejoin or split (404 when there is none)",
                {"200": pool, **errors(400, 403, 404, 409, 428)},
                keyed=True,
                description=UNDO_DESCRIPTION,
                parameters=(VERSION_QUERY, IF_MATCH),
            ),
        },
        "/api/games/{game_id}/events/last": {
            "parameters": [GAME_ID],
            "delete": operation(
                "undoEvent",
                "Undo the last Play or Pay event, or the ending of an ended game (404 when there is none)",
                {"200": play_or_pay, **errors(400, 403, 404, 409, 428)},
                keyed=True,
                description=UNDO_DESCRIPTION,
                parameters=(VERSION_QUERY, IF_MATCH),
            ),
        },
        "/api/games/{game_id}/export": {
            "parameters": [GAME_ID],
            "get": operation(
                "exportGame",
                "Export a whole game as JSON (also at /games/{game_id}/export.json; "
                "the rounds as CSV at /games/{game_id}/export.csv, the score sheet at /games/{game_id}/sheet.pdf)",
                {"200": answer("GameExport", "The game export."), **errors(404)},
            ),
        },
        "/api/games/import": {
            "post": operation(
                "importGame",
                "Recreate an exported game under a new id and a new edit key",
                {
                    "201": answer("AnyCreatedGame", "The new game, with its edit key."),
                    **errors(400, 429),
                    "413": {"description": "The file is too large."},
                },
                request="GameExport",
                description=f"The body is an export (at most {MAX_IMPORT_MIB} MiB). "
                "Everything is checked before anything is stored; a refused file stores nothing.",
            ),
        },
        "/api/openapi.json": {
            "get": operation("openapi", "This document", {"200": {"description": "The OpenAPI document."}}),
        },
    }


def component_schemas() -> dict[str, Any]:
    """Every model's JSON schema, named by its class, with references into components."""
    inputs: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        *((model, "validation") for model in REQUESTS),
        *((model, "serialization") for model in ANSWERS),
    ]
    _, definitions = models_json_schema(inputs, ref_template=REF_TEMPLATE)
    found: dict[str, Any] = definitions["$defs"]
    return found


def _rummy_names() -> str:
    """The rummy games the registry holds, by name: "Pay Me, …, Five Crowns"."""
    return ", ".join(PRESETS[variant].name for variant in RUMMY_PRESETS)


@cache
def _document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Card Table Companion API",
            "version": "1",
            "description": f"Score rummy games ({_rummy_names()}), Play or Pay, and pool rummy 101 and 201. "
            "Player names are the keys of scores and totals.",
        },
        "paths": paths(),
        "components": {
            "schemas": component_schemas(),
            "responses": {
                f"E{status}": answer("Error", text) | ({"headers": RETRY_AFTER} if status == 503 else {})
                for status, text in ERRORS.items()
            },
        },
    }


def openapi_document() -> dict[str, Any]:
    """The API description as an OpenAPI 3.1 document (built once; callers get a copy)."""
    return copy.deepcopy(_document())


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(_document())
