"""Issue 16, defects 6, 7 and 10: what the API's HTTP answers promise (Content-Type, 413, 405, OPTIONS, players)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.api.openapi import openapi_document
from tests.conftest import api_game, edit_key, every_game

CROSS_SITE_TYPES = ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x")


@pytest.fixture
def game(client: FlaskClient) -> Any:
    return api_game(client, "pay-me", ["Ann", "Bob"], "Ann")


@pytest.mark.parametrize("content_type", CROSS_SITE_TYPES)
def test_a_write_sent_as_other_than_json_gets_415_and_changes_nothing(
    client: FlaskClient, game: Any, content_type: str
) -> None:
    body = '{"went_out": "Ann", "scores": {"Ann": 0, "Bob": 10}}'
    answer = client.post(
        f"/api/games/{game['id']}/rounds", data=body, headers={**edit_key(game), "Content-Type": content_type}
    )
    assert answer.status_code == 415
    assert answer.get_json() == {"error": "the request body must be JSON, sent with Content-Type: application/json"}
    assert client.get(f"/api/games/{game['id']}").get_json()["rounds"] == []


def test_starting_a_game_as_text_plain_is_refused(client: FlaskClient) -> None:
    body = '{"variant": "pay-me", "players": ["Ann", "Bob"]}'
    answer = client.post("/api/games", data=body, headers={"Content-Type": "text/plain"})
    assert answer.status_code == 415
    assert every_game(client) == []


def test_a_body_without_content_type_is_refused(client: FlaskClient) -> None:
    answer = client.post("/api/games", data=b'{"variant": "pay-me", "players": ["Ann", "Bob"]}')
    assert answer.status_code == 415


def test_json_with_a_charset_is_taken(client: FlaskClient) -> None:
    body = '{"variant": "pay-me", "players": ["Ann", "Bob"]}'
    answer = client.post("/api/games", data=body, headers={"Content-Type": "application/json; charset=utf-8"})
    assert answer.status_code == 201


def test_a_write_without_a_body_needs_no_content_type(client: FlaskClient, game: Any) -> None:
    answer = client.post(f"/api/games/{game['id']}/key", headers=edit_key(game))
    assert answer.status_code == 200


def test_the_document_lists_415_for_every_operation_with_a_body() -> None:
    for path, item in openapi_document()["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "requestBody" in operation:
                assert "415" in operation["responses"], (method, path)


def test_a_413_answer_closes_the_connection(app: Flask, client: FlaskClient, game: Any) -> None:
    big = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 10}, "pad": "x" * app.config["MAX_CONTENT_LENGTH"]}
    answer = client.post(f"/api/games/{game['id']}/rounds", json=big, headers=edit_key(game))
    assert answer.status_code == 413
    assert answer.headers["Connection"] == "close"


def test_a_405_answer_says_which_methods_are_allowed(client: FlaskClient, game: Any) -> None:
    answer = client.put("/api/games", json={})
    assert answer.status_code == 405
    assert set(answer.headers["Allow"].split(", ")) == {"GET", "HEAD", "POST", "OPTIONS"}
    page = client.delete("/games/new")
    assert page.status_code == 405
    assert "GET" in page.headers["Allow"]


def test_options_of_the_import_lists_only_post(client: FlaskClient) -> None:
    answer = client.options("/api/games/import")
    assert answer.status_code == 200
    assert set(answer.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}


@pytest.mark.parametrize("players", [0, 1, -3, 10])
def test_players_out_of_the_documented_range_are_refused_and_schema_invalid(client: FlaskClient, players: int) -> None:
    documented = openapi_document()["components"]["schemas"]["CheckRequest"]["properties"]["players"]
    assert not documented["minimum"] <= players <= documented["maximum"]
    body = {"variant": "pay-me", "round": 1, "melds": ["4H 5H 6H 7H"], "players": players}
    answer = client.post("/api/check", json=body)
    assert answer.status_code == 400


def test_players_null_is_documented_and_taken_as_left_out(client: FlaskClient) -> None:
    documented = openapi_document()["components"]["schemas"]["CheckRequest"]["properties"]["players"]
    assert {"type": "null"} in documented["anyOf"]
    body = {"variant": "pay-me", "round": 1, "melds": ["4H 5H 6H 7H"]}
    left_out = client.post("/api/check", json=body)
    as_null = client.post("/api/check", json={**body, "players": None})
    assert as_null.status_code == left_out.status_code == 200
    assert as_null.get_json() == left_out.get_json()


def test_every_documented_player_count_of_the_checker_is_taken(client: FlaskClient) -> None:
    documented = openapi_document()["components"]["schemas"]["CheckRequest"]["properties"]["players"]
    for players in range(documented["minimum"], documented["maximum"] + 1):
        body = {"variant": "3-13", "round": 1, "melds": ["3H 3S 3D"], "players": players}
        assert client.post("/api/check", json=body).status_code == 200, players


class GunicornLikeResponse:
    """What gunicorn passes as start_response: a method of its response, which can force a close."""

    def __init__(self) -> None:
        self.closed = False
        self.status = ""

    def force_close(self) -> None:
        self.closed = True

    def start_response(self, status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        self.status = status
        return lambda data: None


@pytest.mark.parametrize(("size", "closes"), [(10, False), (10**6, True)])
def test_gunicorn_is_told_to_close_the_connection_after_a_413(app: Flask, size: int, closes: bool) -> None:
    from werkzeug.test import EnvironBuilder

    environ = EnvironBuilder(
        path="/api/games", method="POST", data=b"{" + b" " * size + b"}", content_type="application/json"
    ).get_environ()
    server = GunicornLikeResponse()
    body = app(environ, server.start_response)
    b"".join(body)
    assert server.status.startswith("413") is closes
    assert server.closed is closes
