"""Issue 16: state reads come from a cache keyed by game and version, with the version's ETag."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.services import kinds
from tests.conftest import api_game, edit_key

PLAYERS = ["Ann", "Bob", "Cy"]


def play(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 5, "Cy": 9}}
    response = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_a_state_read_carries_the_version_etag_and_answers_304(client: FlaskClient) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    response = client.get(f"/api/games/{game['id']}")
    assert response.status_code == 200
    assert response.headers["ETag"] == f'"v{game["version"]}"'
    again = client.get(f"/api/games/{game['id']}", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    assert again.get_data() == b""


def test_a_write_is_seen_at_once_although_the_old_state_was_cached(client: FlaskClient) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    before = client.get(f"/api/games/{game['id']}").get_json()
    after_write = play(client, game)
    read = client.get(f"/api/games/{game['id']}", headers={"If-None-Match": f'"v{before["version"]}"'})
    assert read.status_code == 200
    assert read.get_json() == after_write
    assert read.get_json()["version"] > before["version"]


def test_a_cached_read_does_not_ask_the_engine_again(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    play(client, game)
    first = client.get(f"/api/games/{game['id']}").get_json()
    calls: list[str] = []
    original = kinds.state_json
    monkeypatch.setattr(kinds, "state_json", lambda game: calls.append(game.id) or original(game))
    assert client.get(f"/api/games/{game['id']}").get_json() == first
    assert calls == []
    kinds.STATES.clear()
    assert client.get(f"/api/games/{game['id']}").get_json() == first
    assert calls == [game["id"]]


def test_two_apps_on_one_database_agree_after_a_write_on_either(app: Flask, tmp_path: Any, database_url: str) -> None:
    """Two servers: each keeps its own cache; a write through one is read at once through the other."""
    from tests.conftest import app_on

    with app_on(tmp_path / "second", database_url) as second:
        one, two = app.test_client(), second.test_client()
        game = api_game(one, "pay-me", PLAYERS, "Ann")
        assert two.get(f"/api/games/{game['id']}").get_json()["rounds"] == []
        written = play(one, game)
        assert two.get(f"/api/games/{game['id']}").get_json() == written


def test_the_cache_drops_the_least_recently_used_entry() -> None:
    cache = kinds.StateCache(size=2)
    cache.put(("a", 1), b"1")
    cache.put(("b", 1), b"2")
    assert cache.get(("a", 1)) == b"1"
    cache.put(("c", 1), b"3")
    assert cache.get(("b", 1)) is None
    assert cache.get(("a", 1)) == b"1"


def test_an_unknown_game_is_404_for_state_and_poll(client: FlaskClient) -> None:
    for path in ("/api/games/nope", "/api/games/nope/version", "/api/games/" + "x" * 40):
        response = client.get(path)
        assert response.status_code == 404
        assert "error" in response.get_json()
