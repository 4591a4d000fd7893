"""Issue 16, defect 2: wrong keys never lock out the right key; counts every server sees; proxies.

A page of another site can make a visitor's browser send wrong keys (``<img src=/games/<id>/join?key=wrong>``);
behind a reverse proxy every phone shares one address. Neither may keep the right key out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import RateCount
from companion.services import limits
from tests.app.test_sharing import join
from tests.conftest import api_game, app_on, edit_key

PLAYERS = ["Ann", "Bob", "Cy"]
SCORES = {"went_out": "Bob", "scores": {"Ann": 5, "Bob": 0, "Cy": 15}}


@pytest.fixture
def limited(app: Flask) -> Flask:
    app.config.update(RATELIMIT_ENABLED=True, RATELIMIT_WRONG_KEY="20/minute", RATELIMIT_CREATE="3/minute")
    return app


def test_forty_cross_site_wrong_keys_leave_the_right_key_working(limited: Flask, client: FlaskClient) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    for attempt in range(45):  # what <img src=/games/<id>/join?key=wrong...> makes the owner's browser send
        answer = client.get(f"/games/{game['id']}/join?key=wrong{attempt}")
        assert answer.status_code == 303 and not answer.headers.getlist("Set-Cookie")  # a GET uses no key
    for attempt in range(45):  # and wrong keys this browser sent itself, on the join form
        answer = join(client, game["id"], f"wrong{attempt}")
    assert answer.status_code == 429  # the guessing was slowed down
    # The same browser, with the right key, on the API and on the pages:
    api = client.post(f"/api/games/{game['id']}/rounds", json=SCORES, headers=edit_key(game))
    assert api.status_code == 201
    assert join(client, game["id"], game["edit_key"]).status_code == 303
    page = client.get(f"/games/{game['id']}")
    assert page.status_code == 200 and "Undo round 1" in page.get_data(as_text=True)
    assert client.get(f"/games/{game['id']}/rounds/new").status_code == 200


def test_wrong_keys_on_the_api_never_refuse_the_right_one(limited: Flask, client: FlaskClient) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    statuses = [
        client.post(f"/api/games/{game['id']}/rounds", json=SCORES, headers={"X-Edit-Key": f"guess{n}"}).status_code
        for n in range(25)
    ]
    assert statuses[:20] == [403] * 20 and set(statuses[20:]) == {429}
    refused = client.post(f"/api/games/{game['id']}/rounds", json=SCORES, headers={"X-Edit-Key": "guess"})
    assert refused.headers["Retry-After"] == "60"
    assert "too many wrong edit keys for this game" in refused.get_json()["error"]
    assert client.post(f"/api/games/{game['id']}/rounds", json=SCORES, headers=edit_key(game)).status_code == 201


def test_a_wrong_cookie_past_the_limit_only_makes_the_page_view_only(limited: Flask, client: FlaskClient) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    for n in range(25):
        join(client, game["id"], f"wrong{n}")
    client.set_cookie("edit_key", "a replaced key", path=f"/games/{game['id']}")
    page = client.get(f"/games/{game['id']}")
    assert page.status_code == 200 and "View only" in page.get_data(as_text=True)


def test_wrong_keys_are_counted_per_game_and_per_client(limited: Flask, client: FlaskClient) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    other = api_game(client, "pay-me", PLAYERS, "Ann")
    for n in range(20):
        join(client, game["id"], f"wrong{n}")
    assert join(client, game["id"], "wrong").status_code == 429
    assert join(client, other["id"], "wrong").status_code == 403  # another game
    elsewhere = {"REMOTE_ADDR": "192.0.2.9"}
    assert join(client, game["id"], "wrong", environ_base=elsewhere).status_code == 403


def test_the_counts_are_in_the_database_where_every_server_sees_them(tmp_path: Path, database_url: str) -> None:
    config = {"RATELIMIT_ENABLED": True, "RATELIMIT_CREATE": "3/minute"}
    with app_on(tmp_path / "1", database_url, **config) as one, app_on(tmp_path / "2", database_url, **config) as two:
        first, second = one.test_client(), two.test_client()
        body = {"variant": "pay-me", "players": PLAYERS}
        assert [first.post("/api/games", json=body).status_code for _ in range(2)] == [201, 201]
        assert second.post("/api/games", json=body).status_code == 201
        assert second.post("/api/games", json=body).status_code == 429  # the other server counted the first two
        assert first.post("/api/games", json=body).status_code == 429
        with one.app_context():
            assert db.session.scalar(db.select(RateCount.hits).where(RateCount.bucket == "create|127.0.0.1")) == 3


def test_the_counter_counts_in_windows_and_forgets_ended_ones(app: Flask) -> None:
    now = [1000.0]
    with app.app_context():
        assert [limits.hit("b", 2, 60, clock=lambda: now[0]) for _ in range(3)] == [True, True, False]
        assert limits.exhausted("b", 2, clock=lambda: now[0])
        assert not limits.exhausted("other", 2, clock=lambda: now[0])
        now[0] += 61
        assert not limits.exhausted("b", 2, clock=lambda: now[0])
        assert limits.hit("c", 2, 60, clock=lambda: now[0])  # a new window: the ended one of "b" goes
        assert db.session.scalars(db.select(RateCount.bucket)).all() == ["c"]
        assert limits.hit("b", 2, 60, clock=lambda: now[0])
        limits.forget_all()
        assert db.session.scalars(db.select(RateCount.bucket)).all() == []


def test_forwarded_addresses_are_ignored_unless_a_proxy_is_configured(client: FlaskClient, limited: Flask) -> None:
    body = {"variant": "pay-me", "players": PLAYERS}
    spoofed = [
        client.post("/api/games", json=body, headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code
        for n in range(4)
    ]
    assert spoofed == [201, 201, 201, 429]  # a client cannot pick its own address


def test_behind_a_configured_proxy_each_client_is_counted_apart(tmp_path: Path, database_url: str) -> None:
    config = {"RATELIMIT_ENABLED": True, "RATELIMIT_CREATE": "1/minute", "PROXY_COUNT": 1}
    with app_on(tmp_path, database_url, **config) as proxied:
        client = proxied.test_client()
        body = {"variant": "pay-me", "players": PLAYERS}
        phone = {"X-Forwarded-For": "198.51.100.1", "X-Forwarded-Proto": "https"}
        answer = client.post("/api/games", json=body, headers=phone)
        assert answer.status_code == 201
        assert client.post("/api/games", json=body, headers=phone).status_code == 429
        other = {"X-Forwarded-For": "198.51.100.2"}
        assert client.post("/api/games", json=body, headers=other).status_code == 201
        assert "Secure" in join_cookie(client, answer.get_json(), phone)  # the proxy was reached over HTTPS
        assert "Secure" not in join_cookie(client, answer.get_json(), other)  # the proxy was reached over HTTP


def join_cookie(client: FlaskClient, game: Any, headers: dict[str, str]) -> str:
    """The key cookie a join link sets, seen through the proxy with `headers`."""
    answer = join(client, game["id"], game["edit_key"], headers=headers)
    return next(value for value in answer.headers.getlist("Set-Cookie") if value.startswith("edit_key="))


def test_a_negative_proxy_count_fails_at_start(tmp_path: Path, database_url: str) -> None:
    with pytest.raises(ValueError, match="PROXY_COUNT"), app_on(tmp_path, database_url, PROXY_COUNT=-1):
        pass
