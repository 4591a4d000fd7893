"""Issue 28, section 1: a client reading pages back to back is answered a small 429 with Retry-After
past its address's RATELIMIT_PAGE_READS, so it cannot keep the workers' cores from another table;
other addresses, the JSON API and the static files are not counted with it (companion.security)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from flask import Flask, request_started
from flask import request as flask_request
from flask.testing import FlaskClient
from sqlalchemy import event

from companion import create_app
from companion.extensions import db
from companion.security import READ_LIMITED_PAGES, TOO_MANY_READS, ReadBuckets
from tests.app.test_security import new_game
from tests.conftest import app_on


@pytest.fixture
def limited_app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    with app_on(tmp_path, database_url, RATELIMIT_ENABLED=True, RATELIMIT_PAGE_READS="4/2 seconds") as made:
        yield made


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The limit's clock, moved by hand (a slow machine would refill the buckets between reads)."""
    now = [1000.0]
    monkeypatch.setattr("companion.security.time.monotonic", lambda: now[0])
    return now


def reader(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_reads_past_the_limit_are_a_small_429_with_retry_after(limited_app: Flask, clock: list[float]) -> None:
    game_id, _ = new_game(reader(limited_app, "10.0.0.9"))
    hammering = reader(limited_app, "10.0.0.1")
    assert [hammering.get(f"/games/{game_id}").status_code for _ in range(4)] == [200] * 4
    refused = hammering.get(f"/games/{game_id}/check")
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert TOO_MANY_READS.rstrip(".") in refused.get_data(as_text=True)
    assert refused.headers["Cache-Control"] == "no-store" and "Content-Security-Policy" in refused.headers
    assert hammering.get(f"/api/games/{game_id}").status_code == 200  # the API is not counted
    assert hammering.get("/static/app.css").status_code == 200
    assert hammering.get(f"/games/{game_id}/join?key=x").status_code == 303  # a redirect is not a page read
    other_table = reader(limited_app, "10.0.0.2")
    assert other_table.get(f"/games/{game_id}").status_code == 200


def test_a_paced_reader_is_never_refused(limited_app: Flask, clock: list[float]) -> None:
    game_id, _ = new_game(reader(limited_app, "10.0.0.9"))
    phone = reader(limited_app, "10.0.0.3")
    for _ in range(20):
        assert phone.get(f"/games/{game_id}").status_code == 200
        clock[0] += 0.5  # two reads a second, the limit's pace
    for _ in range(4):
        phone.get(f"/games/{game_id}")
    assert phone.get(f"/games/{game_id}").status_code == 429
    clock[0] += 0.5
    assert phone.get(f"/games/{game_id}").status_code == 200


def test_buckets_refill_at_the_limits_pace_and_forget_the_oldest_address() -> None:
    buckets = ReadBuckets(2, 4, most=2)
    assert [buckets.take("a", 0.0) for _ in range(2)] == [0.0, 0.0]
    assert buckets.take("a", 0.0) == pytest.approx(2.0)
    assert buckets.take("a", 2.0) == 0.0
    buckets.take("b", 2.0)
    buckets.take("c", 2.0)  # "a" is forgotten: a full bucket again
    assert buckets.take("a", 2.0) == 0.0 and buckets.take("a", 2.0) == 0.0


def test_the_limit_is_on_when_served_and_checked_at_start(tmp_path: Path) -> None:
    served = create_app({"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(tmp_path))
    assert served.config["RATELIMIT_PAGE_READS"] == "30/10 seconds"
    assert READ_LIMITED_PAGES.issubset(served.view_functions)
    with pytest.raises(ValueError, match="not a rate limit"):
        create_app({"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "sqlite://", "RATELIMIT_PAGE_READS": "lots"})


def test_a_refused_read_is_answered_before_flask_builds_a_request(limited_app: Flask, clock: list[float]) -> None:
    game_id, _ = new_game(reader(limited_app, "10.0.0.9"))
    hammering = reader(limited_app, "10.0.0.1")
    for _ in range(5):  # the fifth is refused, its page rendered (once per app)
        hammering.get(f"/games/{game_id}")
    requests: list[str] = []
    statements: list[str] = []
    sessions = limited_app.session_interface
    opened = []
    original_open = sessions.open_session
    with (
        request_started.connected_to(lambda sender, **extra: requests.append(flask_request.path), limited_app),
        mock.patch.object(sessions, "open_session", lambda *args: opened.append(1) or original_open(*args)),
        limited_app.app_context(),
    ):
        engine = db.engine
        listen = (engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
        event.listen(*listen)
        try:
            refusals = [hammering.get(f"/games/{game_id}{tail}") for tail in ("", "/check", "?history=20")]
            head = hammering.head(f"/games/{game_id}")
        finally:
            event.remove(*listen)
    assert [refused.status_code for refused in [*refusals, head]] == [429] * 4
    assert requests == [] and opened == [] and statements == []  # no request, no session, no SQL
    page = refusals[0]
    assert TOO_MANY_READS.rstrip(".") in page.get_data(as_text=True) and page.headers["Retry-After"] == "1"
    assert head.data == b"" and head.headers["Content-Length"] == page.headers["Content-Length"]
    served = reader(limited_app, "10.0.0.2").get(f"/games/{game_id}")  # another table's page, answered by Flask
    for name in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"):
        assert page.headers[name] == served.headers[name], name
    assert page.headers["Cross-Origin-Opener-Policy"] == served.headers["Cross-Origin-Opener-Policy"]


def test_behind_a_proxy_each_forwarded_address_has_its_own_limit(
    tmp_path: Path, database_url: str, clock: list[float]
) -> None:
    config = {"RATELIMIT_ENABLED": True, "RATELIMIT_PAGE_READS": "2/2 seconds", "PROXY_COUNT": 1}
    with app_on(tmp_path, database_url, **config) as app:
        game_id, _ = new_game(reader(app, "10.0.0.9"))
        proxy = reader(app, "127.0.0.1")

        def read(client_address: str) -> int:
            return proxy.get(f"/games/{game_id}", headers={"X-Forwarded-For": client_address}).status_code

        assert [read("203.0.113.1") for _ in range(3)] == [200, 200, 429]
        assert read("203.0.113.2") == 200  # another phone behind the same proxy
