"""Answers of the JSON API checked against the schemas /api/openapi.json declares for them."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from openapi_schema_validator import OAS31Validator


def documented(client: FlaskClient, path: str, method: str, status: int) -> OAS31Validator:
    document = client.get("/api/openapi.json").get_json()
    response = document["paths"][path][method]["responses"][str(status)]
    if "$ref" in response:
        response = document["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    schema = response["content"]["application/json"]["schema"]
    return OAS31Validator({**schema, "components": document["components"]})


def conforms(client: FlaskClient, answer: Any, path: str, method: str) -> dict[str, Any]:
    body: dict[str, Any] = answer.get_json()
    documented(client, path, method, answer.status_code).validate(body)
    return body


@pytest.mark.parametrize("variant", ["pay-me", "3-13", "play-or-pay"])
def test_every_kind_of_game_matches_its_documented_state(client: FlaskClient, variant: str) -> None:
    created = conforms(
        client,
        client.post("/api/games", json={"variant": variant, "players": ["Ann", "Bob", "Cy"]}),
        "/api/games",
        "post",
    )
    conforms(client, client.get(f"/api/games/{created['id']}"), "/api/games/{game_id}", "get")
    exported = client.get(f"/api/games/{created['id']}/export").get_json()
    imported = conforms(client, client.post("/api/games/import", json=exported), "/api/games/import", "post")
    assert imported["variant"] == variant


def test_a_play_or_pay_state_is_not_a_rummy_state(client: FlaskClient) -> None:
    created = client.post("/api/games", json={"variant": "play-or-pay", "players": ["Ann", "Bob", "Cy"]}).get_json()
    rummy = documented(client, "/api/games/{game_id}", "get", 200)
    rummy.validate(created)
    game_only = OAS31Validator({"$ref": "#/components/schemas/Game", "components": rummy.schema["components"]})
    assert not game_only.is_valid(created)


def test_refusals_of_keyed_requests_match_the_error_schema(client: FlaskClient) -> None:
    created = client.post("/api/games", json={"variant": "pay-me", "players": ["Ann", "Bob"]}).get_json()
    wrong = {"X-Edit-Key": "wrong"}
    answer = client.delete(f"/api/games/{created['id']}/rounds/last", headers=wrong)
    assert conforms(client, answer, "/api/games/{game_id}/rounds/last", "delete")["error"]
    pop = client.post("/api/games", json={"variant": "play-or-pay", "players": ["Ann", "Bob", "Cy"]}).get_json()
    answer = client.delete(f"/api/games/{pop['id']}/rounds/last", headers={"X-Edit-Key": pop["edit_key"]})
    assert answer.status_code == 400
    conforms(client, answer, "/api/games/{game_id}/rounds/last", "delete")


def test_every_operation_with_a_body_or_a_key_lists_413_or_403_and_429(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if "requestBody" in operation:
                assert "413" in operation["responses"], (path, method)
            if any(parameter.get("name") == "X-Edit-Key" for parameter in operation.get("parameters", [])):
                assert {"403", "429"} <= set(operation["responses"]), (path, method)


def test_the_group_and_key_refusals_are_documented_and_sent(app: Any, client: FlaskClient) -> None:
    """Issue 28, section 8: 429 on POST /api/groups and /api/groups/{id}/key, 415 on the key endpoints."""
    document = client.get("/api/openapi.json").get_json()["paths"]
    assert "429" in document["/api/groups"]["post"]["responses"]
    assert {"415", "429"} <= set(document["/api/groups/{group_id}/key"]["post"]["responses"])
    assert "415" in document["/api/games/{game_id}/key"]["post"]["responses"]
    game = client.post("/api/games", json={"variant": "pay-me", "players": ["Ann", "Bob"]}).get_json()
    group = client.post("/api/groups", json={"name": "Friday", "players": ["Ann", "Bob"]}).get_json()
    for path, key in (
        (f"/api/games/{game['id']}/key", "X-Edit-Key"),
        (f"/api/groups/{group['id']}/key", "X-Group-Key"),
    ):
        answer = client.post(path, data="key", content_type="text/plain", headers={key: "whatever"})
        assert answer.status_code == 415
        conforms(client, answer, path.replace(game["id"], "{game_id}").replace(group["id"], "{group_id}"), "post")
    app.config.update(RATELIMIT_ENABLED=True, RATELIMIT_CREATE="1/minute", RATELIMIT_WRONG_KEY="1/minute")
    assert client.post("/api/groups", json={"name": "Saturday", "players": ["Ann", "Bob"]}).status_code == 201
    answer = client.post("/api/groups", json={"name": "Sunday", "players": ["Ann", "Bob"]})
    assert answer.status_code == 429
    conforms(client, answer, "/api/groups", "post")
    path = f"/api/groups/{group['id']}/key"
    assert client.post(path, headers={"X-Group-Key": "wrong"}).status_code == 403
    answer = client.post(path, headers={"X-Group-Key": "wrong"})
    assert answer.status_code == 429
    conforms(client, answer, "/api/groups/{group_id}/key", "post")
