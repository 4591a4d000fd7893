"""Live standings: the version endpoint with its ETag, 304s, and what moves the version on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion import create_app

PLAYERS = ["Ann", "Bob", "Cy"]


def new_game(client: FlaskClient, players: list[str] | None = None) -> tuple[str, str]:
    names = players or PLAYERS
    response = client.post("/api/games", json={"variant": "pay-me", "players": names, "first_dealer": names[0]})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"], response.get_json()["edit_key"]


def add_round(client: FlaskClient, game_id: str, key: str) -> None:
    scores = {"Ann": 12, "Bob": 0, "Cy": 30}
    response = client.post(
        f"/api/games/{game_id}/rounds", json={"went_out": "Bob", "scores": scores}, headers={"X-Edit-Key": key}
    )
    assert response.status_code == 201, response.get_json()


def give_key(client: FlaskClient, game_id: str, key: str) -> None:
    client.set_cookie("edit_key", key, path=f"/games/{game_id}")


def version_of(client: FlaskClient, game_id: str, etag: str | None = None) -> Any:
    headers = {"If-None-Match": etag} if etag else {}
    return client.get(f"/api/games/{game_id}/version", headers=headers)


def test_the_version_comes_with_an_etag_and_304_while_unchanged(client: FlaskClient) -> None:
    game_id, _key = new_game(client)
    response = version_of(client, game_id)
    assert response.status_code == 200
    assert response.get_json() == {"id": game_id, "version": 1}
    assert response.headers["ETag"] == '"v1"'
    assert response.headers["Cache-Control"] == "no-cache"
    unchanged = version_of(client, game_id, '"v1"')
    assert unchanged.status_code == 304
    assert unchanged.get_data() == b""
    assert unchanged.headers["ETag"] == '"v1"'
    assert version_of(client, game_id, '"v0"').status_code == 200
    assert version_of(client, game_id, '"v0", "v1"').status_code == 304


def test_a_new_corrected_or_undone_round_changes_the_etag(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    etags = [version_of(client, game_id).headers["ETag"]]

    def changed() -> str:
        response = version_of(client, game_id, etags[-1])
        assert response.status_code == 200, "the version did not move on"
        etags.append(response.headers["ETag"])
        assert response.get_json()["version"] == client.get(f"/api/games/{game_id}").get_json()["version"]
        return etags[-1]

    add_round(client, game_id, key)
    changed()
    scores = {"Ann": 7, "Bob": 0, "Cy": 9}
    response = client.put(
        f"/api/games/{game_id}/rounds/1", json={"went_out": "Bob", "scores": scores}, headers={"X-Edit-Key": key}
    )
    assert response.status_code == 200
    changed()
    # The same values again change nothing.
    client.put(
        f"/api/games/{game_id}/rounds/1", json={"went_out": "Bob", "scores": scores}, headers={"X-Edit-Key": key}
    )
    assert version_of(client, game_id, etags[-1]).status_code == 304
    last = f"/api/games/{game_id}/rounds/last?version={client.get(f'/api/games/{game_id}').get_json()['version']}"
    assert client.delete(last, headers={"X-Edit-Key": key}).status_code == 200
    changed()
    # A refused write changes nothing either.
    client.post(f"/api/games/{game_id}/rounds", json={"went_out": "Bob"}, headers={"X-Edit-Key": key})
    assert version_of(client, game_id, etags[-1]).status_code == 304
    assert len(set(etags)) == len(etags) == 4


def test_rounds_entered_on_the_pages_change_the_version(client: FlaskClient, post_form: Any) -> None:
    game_id, key = new_game(client)
    give_key(client, game_id, key)
    data = {"went_out": "Bob", "scores-0": "5", "scores-1": "0", "scores-2": "10", "version": "1"}
    assert post_form(f"/games/{game_id}/rounds/new", data).status_code == 303
    assert version_of(client, game_id, '"v1"').get_json() == {"id": game_id, "version": 2}


def test_an_unknown_game_has_no_version(client: FlaskClient) -> None:
    response = version_of(client, "no-such-game")
    assert response.status_code == 404
    assert response.get_json() == {"error": "there is no game with that id"}


def test_the_game_page_polls_instead_of_reloading(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(client)
    add_round(client, game_id, key)
    give_key(client, game_id, key)
    for browser in (client, app.test_client()):
        page = browser.get(f"/games/{game_id}").get_data(as_text=True)
        assert f'data-live="/api/games/{game_id}/version"' in page
        assert 'data-live-version="2"' in page
        assert 'data-live-interval="2500"' in page
        assert "data-refresh" not in page
        assert '<script src="/static/js/live.js" defer></script>' in page
    assert client.get("/static/js/live.js").status_code == 200


def test_every_server_worker_answers_the_same(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    """A second app on the same database (another gunicorn worker) sees the same versions."""
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test secret key",
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        },
        instance_path=str(tmp_path / "other"),
    ).test_client()
    game_id, key = new_game(client, PLAYERS)
    assert version_of(other, game_id).headers["ETag"] == version_of(client, game_id).headers["ETag"]
    add_round(other, game_id, key)
    assert version_of(client, game_id, '"v1"').status_code == 200
    assert version_of(client, game_id).headers["ETag"] == version_of(other, game_id).headers["ETag"] == '"v2"'
