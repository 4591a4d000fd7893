"""The OpenAPI document: OpenAPI 3.1, generated from companion.schemas, every path of before issue 12 still in it."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from openapi_spec_validator import OpenAPIV31SpecValidator, validate
from pydantic import BaseModel

from companion import schemas

# The operations of /api/openapi.json before the document was generated from the schemas (issue 12).
OPERATIONS_BEFORE = {
    ("/api/games", "get"),
    ("/api/games", "post"),
    ("/api/games/{game_id}", "get"),
    ("/api/games/{game_id}", "delete"),
    ("/api/games/{game_id}/rounds", "post"),
    ("/api/games/{game_id}/rounds/{number}", "put"),
    ("/api/games/{game_id}/rounds/last", "delete"),
    ("/api/games/{game_id}/version", "get"),
    ("/api/games/{game_id}/key", "post"),
    ("/api/check", "post"),
    ("/api/best", "post"),
    ("/api/layoff", "post"),
    ("/api/openapi.json", "get"),
    ("/api/games/{game_id}/events", "post"),
    ("/api/games/{game_id}/events/last", "delete"),
    ("/api/games/{game_id}/end", "post"),  # issue 11: the table ends a Play or Pay game (D17)
    ("/api/games/{game_id}/export", "get"),
    ("/api/games/import", "post"),
}
OPERATIONS_OF_GROUPS = {  # issue 14
    ("/api/groups", "post"),
    ("/api/groups/{group_id}", "get"),
    ("/api/groups/{group_id}/key", "post"),
}
OPERATIONS_OF_CONTRACT_RUMMY = {  # issue 15: going down against the contract, and the buy counter
    ("/api/contract", "post"),
    ("/api/games/{game_id}/buys", "post"),
}
OPERATIONS_OF_PLAYERS = {  # issue 27: players who come, go, or were misspelt
    ("/api/games/{game_id}/players", "post"),
    ("/api/games/{game_id}/players/last", "delete"),
}
OPERATIONS_OF_POOL = {  # issue 30: pool rummy's deals, rejoins and undo (its split is POST .../end)
    ("/api/games/{game_id}/deals", "post"),
    ("/api/games/{game_id}/rejoins", "post"),
    ("/api/games/{game_id}/deals/last", "delete"),
}
SCHEMAS_BEFORE = {
    "AnyCreatedGame",
    "AnyGame",
    "CreatedGame",
    "CreatedPlayOrPayGame",
    "Error",
    "Game",
    "GameExport",
    "GameList",
    "NewGame",
    "NextRound",
    "Options",
    "PlayOrPayEvent",
    "PlayOrPayGame",
    "PlayedRound",
    "Pot",
    "PotEntry",
    "RoundEntry",
}


def document(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    found: dict[str, Any] = response.get_json()
    return found


def test_the_document_is_valid_openapi_3_1(client: FlaskClient) -> None:
    described = document(client)
    assert described["openapi"].startswith("3.1.")
    validate(described, cls=OpenAPIV31SpecValidator)


def test_every_operation_of_before_is_still_described(client: FlaskClient) -> None:
    described = {
        (path, method) for path, item in document(client)["paths"].items() for method in item if method != "parameters"
    }
    assert described == (
        OPERATIONS_BEFORE
        | OPERATIONS_OF_GROUPS
        | OPERATIONS_OF_CONTRACT_RUMMY
        | OPERATIONS_OF_PLAYERS
        | OPERATIONS_OF_POOL
    )
    assert set(document(client)["components"]["schemas"]) >= SCHEMAS_BEFORE


def test_the_schemas_are_the_models_schemas(client: FlaskClient) -> None:
    schemas_described = document(client)["components"]["schemas"]
    ref_template = "#/components/schemas/{model}"
    requests: list[type[BaseModel]] = [
        schemas.NewGame,
        schemas.RoundEntry,
        schemas.CheckRequest,
        schemas.GameExport,
        schemas.PoolDeal,
        schemas.PoolRejoin,
    ]
    answers: list[type[BaseModel]] = [schemas.Game, schemas.PlayOrPayGame, schemas.PoolGame, schemas.Error]
    for models, mode in ((requests, "validation"), (answers, "serialization")):
        for model in models:
            generated = model.model_json_schema(ref_template=ref_template, mode=mode)  # type: ignore[arg-type]
            generated.pop("$defs", None)
            assert schemas_described[model.__name__] == generated, model.__name__


def test_request_bodies_refuse_unknown_fields_in_the_document(client: FlaskClient) -> None:
    described = document(client)["components"]["schemas"]
    for name in (
        "NewGame",
        "RoundEntry",
        "PlayEvent",
        "PayEvent",
        "SettleEvent",
        "PurchaseEvent",
        "EndGame",
        "CheckRequest",
        "BestRequest",
        "LayoffRequest",
        "GameExport",
        "PoolDeal",
        "PoolRejoin",
        "PoolOptions",
    ):
        assert described[name]["additionalProperties"] is False, name
    event = described["PlayOrPayEvent"]
    assert event["discriminator"]["propertyName"] == "type"
    kinds = {item["$ref"].rsplit("/", 1)[1] for item in event["oneOf"]}
    assert kinds == {"PlayEvent", "PayEvent", "SettleEvent", "PurchaseEvent"}


def test_the_chip_maximum_of_the_code_is_in_the_document(client: FlaskClient) -> None:
    from engine.play_or_pay import MAX_CHIPS

    described = document(client)["components"]["schemas"]
    chips = [branch for branch in described["Options"]["properties"]["chips"]["anyOf"] if "maximum" in branch]
    assert chips == [{"type": "integer", "minimum": 1, "maximum": MAX_CHIPS}]
    assert described["PlayOrPayOptions"]["properties"]["chips"]["maximum"] == MAX_CHIPS


def test_the_buy_in_maximum_of_the_code_is_in_the_document(client: FlaskClient) -> None:
    from companion.services.pool import MAX_BUY_IN

    described = document(client)["components"]["schemas"]
    buy_in = [branch for branch in described["PoolOptions"]["properties"]["buy_in"]["anyOf"] if "maximum" in branch]
    assert buy_in == [{"type": "integer", "minimum": 0, "maximum": MAX_BUY_IN}]
    assert set(described["PoolOptions"]["properties"]) >= {"buy_in", "pool_limit", "rejoin_cutoff", "split"}


def test_the_export_format_and_version_are_constants_in_the_document(client: FlaskClient) -> None:
    export = document(client)["components"]["schemas"]["GameExport"]
    assert export["properties"]["format"]["const"] == schemas.FORMAT
    assert export["properties"]["format_version"]["const"] == schemas.FORMAT_VERSION
    assert set(export["required"]) == {"format", "format_version", "game"}


def test_every_reference_resolves(client: FlaskClient) -> None:
    described = document(client)

    def refs(value: Any) -> list[str]:
        if isinstance(value, dict):
            own = [value["$ref"]] if isinstance(value.get("$ref"), str) else []
            return own + [ref for item in value.values() for ref in refs(item)]
        if isinstance(value, list):
            return [ref for item in value for ref in refs(item)]
        return []

    for ref in refs(described):
        section, name = ref.removeprefix("#/components/").split("/")
        assert name in described["components"][section], ref
