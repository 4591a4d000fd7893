"""Security: response headers, CSRF and edit keys on every write, escaping, rate limits, debug, sizes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import ROOT, bounds, create_app, security
from tests.conftest import every_game, read_csrf_token

PLAYERS = ["Ann", "Bob", "Cy"]
HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "{{7*7}}"]
WRITE_METHODS = {"POST", "PUT", "DELETE", "PATCH"}


class PageScan(HTMLParser):
    """What a page holds that the Content-Security-Policy would block, found by parsing it."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.inline_scripts: list[str] = []
        self.handlers: list[str] = []
        self.javascript_urls: list[str] = []
        self.style_attributes: list[str] = []
        self.style_elements = 0
        self.tags: list[str] = []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        values = dict(attrs)
        if tag == "script" and not values.get("src"):
            self.inline_scripts.append(self.get_starttag_text() or tag)
        if tag == "style":
            self.style_elements += 1
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append(f"{tag} {name}")
            if name == "style":
                self.style_attributes.append(f"{tag} style={value!r}")
            if name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.javascript_urls.append(f"{tag} {name}")


def new_game(client: FlaskClient, players: list[str] | None = None, variant: str = "pay-me") -> tuple[str, str]:
    names = players or PLAYERS
    response = client.post("/api/games", json={"variant": variant, "players": names, "first_dealer": names[0]})
    assert response.status_code == 201, response.get_json()
    state = response.get_json()
    return state["id"], state["edit_key"]


def add_round(client: FlaskClient, game_id: str, key: str, players: list[str] | None = None) -> None:
    names = players or PLAYERS
    scores = {name: (0 if seat == 1 else 5 * (seat + 1)) for seat, name in enumerate(names)}
    response = client.post(
        f"/api/games/{game_id}/rounds", json={"went_out": names[1], "scores": scores}, headers={"X-Edit-Key": key}
    )
    assert response.status_code == 201, response.get_json()


def give_key(client: FlaskClient, game_id: str, key: str) -> None:
    client.set_cookie("edit_key", key, path=f"/games/{game_id}")


def concrete(rule: str, game_id: str) -> str:
    """A rule of the URL map with its variables filled in."""
    values = {"game_id": game_id, "number": "1", "variant": "pay-me", "filename": "app.css"}
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", lambda match: values.get(match.group(1), "1"), rule)


def rules(app: Flask) -> Iterator[Any]:
    yield from sorted(app.url_map.iter_rules(), key=lambda rule: rule.rule)


def text(response: Any) -> str:
    body: str = response.get_data(as_text=True)
    return body


# ------------------------------------------------------------------ headers


def test_every_kind_of_response_carries_the_security_headers(client: FlaskClient) -> None:
    game_id, _key = new_game(client)
    urls = [
        "/",
        "/games/new",
        f"/games/{game_id}",
        "/games/nope",
        "/api/games",
        f"/api/games/{game_id}",
        "/api/games/nope",
        f"/api/games/{game_id}/version",
        "/api/openapi.json",
        "/static/app.css",
        "/static/js/live.js",
    ]
    for url in urls:
        headers = client.get(url).headers
        policy = headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, url
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy, url
        assert "default-src 'self'" in policy and "form-action 'self'" in policy, url
        assert headers["X-Content-Type-Options"] == "nosniff", url
        assert headers["X-Frame-Options"] == "DENY", url
        assert headers["Referrer-Policy"] == "no-referrer", url
    response = client.post(f"/api/games/{game_id}/rounds", json={}, headers={"X-Edit-Key": "wrong"})
    assert response.status_code == 403
    assert response.headers["X-Frame-Options"] == "DENY"


def test_pdf_files_get_no_page_policy_so_that_browsers_can_show_them(app: Flask) -> None:
    @app.get("/test-pdf")
    def pdf() -> Any:
        return app.response_class(b"%PDF-1.7", mimetype="application/pdf")

    headers = app.test_client().get("/test-pdf").headers
    assert "Content-Security-Policy" not in headers and "X-Frame-Options" not in headers
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["Referrer-Policy"] == "no-referrer"


def test_the_policy_can_be_set_in_the_config(tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "sqlite://", "REFERRER_POLICY": "same-origin"},
        instance_path=str(tmp_path),
    )
    assert app.test_client().get("/static/app.css").headers["Referrer-Policy"] == "same-origin"


def _html_pages(app: Flask, client: FlaskClient, game_id: str, finished_id: str) -> dict[str, str]:
    """Every GET page of the app (rules without /api/), for this game, plus error and 429 pages."""
    pages: dict[str, str] = {}
    for rule in rules(app):
        if "GET" not in (rule.methods or ()) or rule.rule.startswith(("/api/", "/static/")):
            continue
        if rule.rule.endswith((".pdf", ".csv", ".json", ".svg", ".png")):
            continue  # files, not pages
        for target in {game_id, finished_id} if "<game_id>" in rule.rule else {game_id}:
            url = concrete(rule.rule, target)
            response = client.get(url)
            if response.mimetype == "text/html" and response.status_code < 500:
                pages[url] = text(response)
    pages["404"] = text(client.get("/no/such/page"))
    pages["403"] = text(app.test_client().get(f"/games/{game_id}/rounds/new"))
    return pages


def test_no_page_holds_inline_script(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(client, HOSTILE)
    give_key(client, game_id, key)
    for _ in range(2):
        add_round(client, game_id, key, HOSTILE)
    finished_id, finished_key = new_game(client, ["Ann", "Bob"], variant="3-13")
    give_key(client, finished_id, finished_key)
    for _ in range(11):
        add_round(client, finished_id, finished_key, ["Ann", "Bob"])
    pages = _html_pages(app, client, game_id, finished_id)
    viewer = app.test_client()
    pages["viewer"] = text(viewer.get(f"/games/{game_id}"))
    assert len(pages) >= 10
    for url, page in pages.items():
        scan = PageScan(page)
        assert scan.inline_scripts == [], url
        assert scan.handlers == [], url
        assert scan.javascript_urls == [], url
        assert "img" not in scan.tags or "<img src=x" not in page, url
        assert "<script>alert(1)" not in page, url


def test_the_pages_of_the_core_app_hold_no_inline_style(app: Flask, client: FlaskClient, post_form: Any) -> None:
    """style="" attributes and <style> elements are refused by the policy (style-src 'self')."""
    game_id, key = new_game(client)
    give_key(client, game_id, key)
    add_round(client, game_id, key)
    urls = [
        "/",
        "/games/new",
        "/games/new?variant=3-13",
        f"/games/{game_id}",
        f"/games/{game_id}/rounds/new",
        f"/games/{game_id}/rounds/1/edit",
        f"/games/{game_id}/delete",
        "/games/nope",
    ]
    for url in urls:
        scan = PageScan(text(client.get(url)))
        assert scan.style_attributes == [], url
        assert scan.style_elements == 0, url
    assert PageScan(text(app.test_client().get(f"/games/{game_id}"))).style_attributes == []


# ------------------------------------------------------------------ CSRF and edit keys on writes


def test_every_form_post_without_a_csrf_token_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(client)
    give_key(client, game_id, key)
    add_round(client, game_id, key)
    posts = [rule for rule in rules(app) if "POST" in (rule.methods or ()) and not rule.rule.startswith("/api/")]
    assert len(posts) >= 8
    for rule in posts:
        url = concrete(rule.rule, game_id)
        response = client.post(url, data={"went_out": "Bob", "version": "1"})
        assert response.status_code == 400, url
        assert "form has expired" in text(response), url
    assert client.get(f"/api/games/{game_id}").get_json()["rounds"][0]["went_out"] == "Bob"
    assert len(client.get(f"/api/games/{game_id}").get_json()["rounds"]) == 1


def test_every_write_to_a_game_without_its_key_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(client)
    add_round(client, game_id, key)
    writes = [
        (rule, method)
        for rule in rules(app)
        if "<game_id>" in rule.rule and rule.endpoint != "sharing.join_with_key"  # presents a key, writes nothing
        for method in sorted((rule.methods or set()) & WRITE_METHODS)
    ]
    assert len(writes) >= 12
    stranger = app.test_client()
    token = read_csrf_token(stranger)
    for rule, method in writes:
        url = concrete(rule.rule, game_id)
        if rule.rule.startswith("/api/"):
            for headers in ({}, {"X-Edit-Key": "not the key"}):
                response = stranger.open(url, method=method, json={"went_out": "Bob"}, headers=headers)
                assert response.status_code == 403, (method, url, headers)
                assert "edit key" in response.get_json()["error"], url
        else:
            for cookie in (None, "not the key"):
                if cookie:
                    give_key(stranger, game_id, cookie)
                response = stranger.open(url, method=method, data={"csrf_token": token, "went_out": "Bob"})
                assert response.status_code == 403, (method, url, cookie)
                stranger.delete_cookie("edit_key", path=f"/games/{game_id}")
    state = client.get(f"/api/games/{game_id}").get_json()
    assert len(state["rounds"]) == 1 and state["version"] == 2


# ------------------------------------------------------------------ cookies


def test_session_and_key_cookies_are_http_only_and_same_site(app: Flask, client: FlaskClient, post_form: Any) -> None:
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    session_cookie = client.get("/games/new").headers["Set-Cookie"]
    assert session_cookie.startswith("session=")
    assert "HttpOnly" in session_cookie and "SameSite=Lax" in session_cookie
    response = post_form("/games/new?variant=pay-me", {"variant": "pay-me", "players": "Ann\nBob"})
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    key_cookie = next(v for v in response.headers.getlist("Set-Cookie") if v.startswith("edit_key="))
    assert "HttpOnly" in key_cookie and "SameSite=Lax" in key_cookie and f"Path=/games/{game_id}" in key_cookie


# ------------------------------------------------------------------ escaping


def test_hostile_names_are_escaped_in_pages_and_kept_verbatim_in_json(
    app: Flask, client: FlaskClient, post_form: Any
) -> None:
    game_id, key = new_game(client, HOSTILE)
    give_key(client, game_id, key)
    add_round(client, game_id, key, HOSTILE)
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["players"] == HOSTILE
    assert list(state["totals"]) == HOSTILE
    assert state["rounds"][0]["went_out"] == HOSTILE[1]
    assert every_game(client)[0]["players"] == HOSTILE
    pages = [
        client.get(f"/games/{game_id}"),
        app.test_client().get(f"/games/{game_id}"),
        client.get(f"/games/{game_id}/rounds/new"),
        client.get(f"/games/{game_id}/rounds/1/edit"),
        client.get(f"/games/{game_id}/delete"),
    ]
    for response in pages:
        page = text(response)
        assert response.status_code == 200
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
        assert "{{7*7}}" in page
    # The share panel (QR codes) of the key holder's page escapes them too.
    share = text(client.get(f"/games/{game_id}")).split('id="share"', 1)[1]
    assert "qr-code" in share and "<script>" not in share
    # The new-game form answers a hostile, too long name with an escaped message.
    long_name = "<script>alert(1)</script>" * 2
    response = post_form("/games/new?variant=pay-me", {"variant": "pay-me", "players": f"Ann\n{long_name}"})
    assert response.status_code == 400
    assert "<script>alert(1)" not in text(response) and "longer than 40 characters" in text(response)


def test_names_are_at_most_40_characters(client: FlaskClient) -> None:
    assert client.post("/api/games", json={"variant": "pay-me", "players": ["A" * 40, "Bob"]}).status_code == 201
    response = client.post("/api/games", json={"variant": "pay-me", "players": ["A" * 41, "Bob"]})
    assert response.status_code == 400
    assert "40 characters" in response.get_json()["error"]


# ------------------------------------------------------------------ sizes


def test_a_too_large_body_is_refused_with_413(app: Flask, client: FlaskClient, post_form: Any) -> None:
    body = '{"variant": "pay-me", "players": ["' + "x" * (app.config["MAX_CONTENT_LENGTH"] + 10) + '"]}'
    response = client.post("/api/games", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json() == {"error": "the request body is too large"}
    game_id, key = new_game(client)
    response = client.post(
        f"/api/games/{game_id}/rounds", data=body, content_type="application/json", headers={"X-Edit-Key": key}
    )
    assert response.status_code == 413 and "error" in response.get_json()
    response = client.post("/games/new", data={"players": "x" * (app.config["MAX_CONTENT_LENGTH"] + 10)})
    assert response.status_code == 413 and response.mimetype == "text/html"
    assert every_game(client)[0]["id"] == game_id


def test_card_fields_are_bounded() -> None:
    assert bounds.MAX_CARDS_PER_HAND == 20
    assert bounds.hand_size_error(["7H"] * 20) is None
    assert bounds.hand_size_error(["7H"] * 21, "a meld") == "a meld can hold at most 20 cards"


# ------------------------------------------------------------------ rate limits


def limited(app: Flask, **limits: str) -> None:
    app.config.update(RATELIMIT_ENABLED=True, **limits)


def test_rate_limits_are_off_in_tests_and_on_otherwise(app: Flask, tmp_path: Path) -> None:
    assert app.config["RATELIMIT_ENABLED"] is False
    assert security.CREATE_ENDPOINTS.issubset(app.view_functions)  # every way to start a game is counted
    served = create_app({"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=str(tmp_path))
    assert served.config["RATELIMIT_ENABLED"] is True
    assert served.config["RATELIMIT_CREATE"] == "30/minute"
    assert served.config["RATELIMIT_WRONG_KEY"] == "20/minute"
    with pytest.raises(ValueError, match="not a rate limit"):
        create_app({"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "sqlite://", "RATELIMIT_CREATE": "lots"})


def test_starting_games_is_rate_limited_per_address(app: Flask, client: FlaskClient, post_form: Any) -> None:
    limited(app, RATELIMIT_CREATE="3/minute")
    for _ in range(3):
        new_game(client)
    response = client.post("/api/games", json={"variant": "pay-me", "players": PLAYERS})
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "60"
    assert response.get_json() == {
        "error": "too many games were started from this address; wait a minute and try again"
    }
    response = post_form("/games/new?variant=pay-me", {"variant": "pay-me", "players": "Ann\nBob"})
    assert response.status_code == 429 and response.mimetype == "text/html"
    assert "Too many games were started from this address" in text(response)
    assert "<h1>Slow down</h1>" in text(response)
    assert client.get("/games/new").status_code == 200  # only starting is limited
    elsewhere = {"REMOTE_ADDR": "192.0.2.7"}
    response = client.post("/api/games", json={"variant": "pay-me", "players": PLAYERS}, environ_base=elsewhere)
    assert response.status_code == 201
    assert len(every_game(client)) == 4


def test_wrong_edit_keys_are_rate_limited_per_game_and_address(app: Flask, client: FlaskClient) -> None:
    """The rest (the right key is never refused, the counts are shared): tests/app/test_key_limits.py."""
    limited(app, RATELIMIT_WRONG_KEY="3/minute")
    game_id, key = new_game(client)
    add_round(client, game_id, key)  # right keys are not counted
    for attempt in range(3):
        response = client.delete(f"/api/games/{game_id}/rounds/last", headers={"X-Edit-Key": f"guess {attempt}"})
        assert response.status_code == 403
    response = client.delete(f"/api/games/{game_id}/rounds/last", headers={"X-Edit-Key": "guess"})
    assert response.status_code == 429
    assert "too many wrong edit keys" in response.get_json()["error"]
    # A key guessed through the page cookie only leaves the page view-only.
    give_key(client, game_id, "guess")
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200 and "View only" in text(page)
    assert security.parse_limit("20 per minute") == (20, 60)
    assert security.parse_limit("5/2 hours") == (5, 7200)


# ------------------------------------------------------------------ debug mode


def test_the_app_refuses_debug_mode_unless_allowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = {"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    app = create_app(config, instance_path=str(tmp_path))
    assert app.debug is False
    monkeypatch.setenv("FLASK_DEBUG", "1")
    with pytest.raises(RuntimeError, match="refusing to start in debug mode"):
        create_app(config, instance_path=str(tmp_path))
    monkeypatch.setenv("FLASK_ALLOW_DEBUG", "true")
    assert create_app(config, instance_path=str(tmp_path)).debug


def test_the_serve_script_never_runs_the_debugger() -> None:
    script = (ROOT / "serve").read_text()
    command = script[script.index("exec ") :]
    assert ".venv/bin/gunicorn" in command and "flask" not in command  # a production server, no debugger
    assert "--debug " not in command and "FLASK_DEBUG" not in script


# ------------------------------------------------------------------ stale keys


def test_a_replaced_key_cookie_is_dropped_from_the_browser(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(client)
    give_key(client, game_id, "an old key")
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200 and "View only" in text(response)
    dropped = [v for v in response.headers.getlist("Set-Cookie") if v.startswith("edit_key=")]
    assert dropped and "Expires=Thu, 01 Jan 1970" in dropped[0] and f"Path=/games/{game_id}" in dropped[0]
    give_key(client, game_id, key)
    response = client.get(f"/games/{game_id}")
    assert "View only" not in text(response) and not response.headers.getlist("Set-Cookie")
