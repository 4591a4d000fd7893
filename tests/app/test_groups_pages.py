"""The group pages (issue 14): /groups/new, /groups/<id>, starting games in a group, the group key
shared by a join link (and replaced), the CSV of the figures, and the home page's list of groups."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import CSRF_INPUT, app_on, edit_key, every_game, read_csrf_token

Post = Callable[..., Any]


def make_group(
    client: FlaskClient,
    post_form: Post,
    name: str = "Thursday night",
    players: str = "Ann\nBob\nCy",
) -> str:
    response = post_form("/groups/new", {"name": name, "players": players})
    assert response.status_code == 303
    match = re.fullmatch(r"/groups/([\w-]+)", response.headers["Location"])
    assert match
    return match.group(1)


def group_cookie(client: FlaskClient, group_id: str) -> str:
    cookie = client.get_cookie(f"group_key_{group_id}")
    assert cookie is not None and cookie.path == "/" and cookie.http_only
    return cookie.value


def test_the_new_group_page_shows_its_form(client: FlaskClient) -> None:
    page = client.get("/groups/new")
    assert page.status_code == 200
    assert 'name="csrf_token"' in page.get_data(as_text=True) and "Name of the group" in page.get_data(as_text=True)


def test_a_new_group_keeps_its_key_in_this_browser_and_shows_its_page(client: FlaskClient, post_form: Post) -> None:
    group_id = make_group(client, post_form)
    assert group_cookie(client, group_id)
    page = client.get(f"/groups/{group_id}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Thursday night" in html
    assert "Start a game in this group" in html and "Make a new group key" in html
    assert page.headers["Cache-Control"] == "private, no-store"


def test_a_group_needs_a_name_and_a_form_without_csrf_is_refused(client: FlaskClient, post_form: Post) -> None:
    refused = post_form("/groups/new", {"name": "  ", "players": "Ann"})
    assert refused.status_code == 400 and "The group needs a name." in refused.get_data(as_text=True)
    twice = post_form("/groups/new", {"name": "Night", "players": "Ann\nann"})
    assert twice.status_code == 400 and "is in the list twice" in twice.get_data(as_text=True)
    assert client.post("/groups/new", data={"name": "Night"}).status_code == 400
    assert client.get("/").get_data(as_text=True).count("/groups/") == 1  # only the "New group" link


def test_a_game_started_on_the_group_page_belongs_to_the_group(client: FlaskClient, post_form: Post) -> None:
    group_id = make_group(client, post_form)
    started = post_form(f"/groups/{group_id}/games", {"variant": "pay-me", "players": "Ann\nBob\nDee"})
    assert started.status_code == 303
    game_id = started.headers["Location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["group"] == group_id
    page = client.get(f"/groups/{group_id}").get_data(as_text=True)
    assert "Ann, Bob, Cy, Dee" in page  # Dee joined
    assert f"/games/{game_id}" in page and "Not finished" in page
    assert client.get(f"/games/{game_id}").status_code == 200


def test_a_refused_game_stores_nothing_and_says_why(client: FlaskClient, post_form: Post) -> None:
    group_id = make_group(client, post_form)
    refused = post_form(f"/groups/{group_id}/games", {"variant": "pay-me", "players": "Ann"})
    assert refused.status_code == 400
    assert "player" in refused.get_data(as_text=True)
    unknown = post_form(f"/groups/{group_id}/games", {"variant": "chess", "players": "Ann\nBob"})
    assert unknown.status_code == 400
    assert every_game(client) == []


def test_another_phone_cannot_start_games_without_the_group_key(
    app: Flask, client: FlaskClient, post_form: Post
) -> None:
    group_id = make_group(client, post_form)
    other = app.test_client()
    page = other.get(f"/groups/{group_id}").get_data(as_text=True)
    assert "Thursday night" in page and "Start a game in this group" not in page
    assert "Make a new group key" not in page
    refused = post_form(f"/groups/{group_id}/games", {"variant": "pay-me", "players": "Ann\nBob"}, browser=other)
    assert refused.status_code == 403


def join_group(phone: FlaskClient, group_id: str, key: str) -> Any:
    """What the join page's script does with /groups/<id>/join#key=<key>: post the key with the form."""
    page = phone.get(f"/groups/{group_id}/join")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    token = CSRF_INPUT.search(page.get_data(as_text=True))
    assert token
    return phone.post(f"/groups/{group_id}/join", data={"csrf_token": token.group(1), "key": key})


def test_the_join_link_hands_the_group_key_to_another_phone_which_edits_every_game(
    app: Flask, client: FlaskClient, post_form: Post
) -> None:
    group_id = make_group(client, post_form)
    key = group_cookie(client, group_id)
    game = client.post(
        "/api/games",
        json={"variant": "pay-me", "players": ["Ann", "Bob"], "group": group_id},
        headers={"X-Group-Key": key},
    ).get_json()
    other = app.test_client()
    assert other.get(f"/games/{game['id']}/rounds/new").status_code == 403
    page = other.get(f"/groups/{group_id}/join").get_data(as_text=True)
    assert "js/join.js" in page and "Paste it here" in page  # the script, and the no-script way
    assert join_group(other, group_id, "wrong").status_code == 403
    assert join_group(other, group_id, " ").status_code == 400
    assert other.get_cookie(f"group_key_{group_id}") is None
    joined = join_group(other, group_id, key)
    assert joined.status_code == 303 and joined.headers["Cache-Control"] == "no-store"
    assert joined.headers["Location"] == f"/groups/{group_id}"
    assert other.get(f"/games/{game['id']}/rounds/new").status_code == 200  # the group key edits the game
    assert "Start a game in this group" in other.get(f"/groups/{group_id}").get_data(as_text=True)


def test_the_group_key_link_carries_the_key_in_its_fragment(client: FlaskClient, post_form: Post) -> None:
    group_id = make_group(client, post_form)
    key = group_cookie(client, group_id)
    page = client.get(f"/groups/{group_id}").get_data(as_text=True)
    assert f"/groups/{group_id}/join#key={key}" in page
    assert "join?key" not in page


def test_an_old_group_query_link_is_redirected_to_the_fragment_without_using_the_key(
    app: Flask, client: FlaskClient, post_form: Post
) -> None:
    app.config.update(RATELIMIT_ENABLED=True, RATELIMIT_WRONG_KEY="1/minute")
    group_id = make_group(client, post_form)
    key = group_cookie(client, group_id)
    phone = app.test_client()
    for guess in ("wrong", "wrong again", key):
        response = phone.get(f"/groups/{group_id}/join?key={guess}")
        assert response.status_code == 303
        assert response.headers["Location"].startswith(f"/groups/{group_id}/join#key=")
        assert response.headers["Cache-Control"] == "no-store"
        assert not response.headers.getlist("Set-Cookie")
    assert phone.get_cookie(f"group_key_{group_id}") is None
    assert join_group(phone, group_id, key).status_code == 303  # the GETs counted no wrong key


def test_a_group_join_post_needs_the_csrf_token(app: Flask, client: FlaskClient, post_form: Post) -> None:
    group_id = make_group(client, post_form)
    phone = app.test_client()
    assert phone.post(f"/groups/{group_id}/join", data={"key": group_cookie(client, group_id)}).status_code == 400
    assert phone.get_cookie(f"group_key_{group_id}") is None


def test_a_new_group_key_locks_out_the_old_one(app: Flask, client: FlaskClient, post_form: Post) -> None:
    group_id = make_group(client, post_form)
    old = group_cookie(client, group_id)
    other = app.test_client()
    assert join_group(other, group_id, old).status_code == 303
    assert post_form(f"/groups/{group_id}/key", {}, browser=app.test_client()).status_code == 403
    replaced = post_form(f"/groups/{group_id}/key", {})
    assert replaced.status_code == 303
    assert group_cookie(client, group_id) != old
    assert "Start a game in this group" not in other.get(f"/groups/{group_id}").get_data(as_text=True)
    body = {"variant": "pay-me", "players": ["Ann", "Bob"], "group": group_id}
    assert client.post("/api/games", json=body, headers={"X-Group-Key": old}).status_code == 403


def test_the_statistics_download_as_csv(client: FlaskClient, post_form: Post) -> None:
    group_id = make_group(client, post_form)
    key = group_cookie(client, group_id)
    game = client.post(
        "/api/games",
        json={"variant": "pay-me", "players": ["Ann", "Bob"], "group": group_id},
        headers={"X-Group-Key": key},
    ).get_json()
    for went_out in ["Ann"] * 11:
        body = {"went_out": went_out, "scores": {"Ann": 0, "Bob": 3}}
        assert client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game)).status_code == 201
    response = client.get(f"/groups/{group_id}/statistics.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0][:4] == ["name", "games", "wins", "win_rate"]
    assert rows[1][:7] == ["Ann", "1", "1", "1.0", "0.0", "0", "0"]
    assert rows[2][:7] == ["Bob", "1", "0", "0.0", "3.0", "33", "33"]
    page = client.get(f"/groups/{group_id}").get_data(as_text=True)
    assert "won by Ann" in page and "<svg" in page and "Ratings after each finished game" in page


def test_a_name_a_spreadsheet_would_run_is_quoted_in_the_csv(client: FlaskClient) -> None:
    group = client.post("/api/groups", json={"name": "Thursday", "players": ["=HYPERLINK(1)", "Bob"]}).get_json()
    response = client.get(f"/groups/{group['id']}/statistics.csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert [rows[1][0], rows[2][0]] == ["'=HYPERLINK(1)", "Bob"]


def test_the_home_page_lists_no_group_or_game_of_the_server(client: FlaskClient, post_form: Post) -> None:
    group_id = make_group(client, post_form)
    key = group_cookie(client, group_id)
    grouped = client.post(
        "/api/games",
        json={"variant": "pay-me", "players": ["Ann", "Bob"], "group": group_id},
        headers={"X-Group-Key": key},
    ).get_json()
    loose = client.post("/api/games", json={"variant": "pay-me", "players": ["Zed", "Yo"]}).get_json()
    home = client.get("/").get_data(as_text=True)  # the phone lists what it remembers (js/my-games.js)
    assert f"/groups/{group_id}" not in home and f"/games/{loose['id']}" not in home
    group_page = client.get(f"/groups/{group_id}").get_data(as_text=True)
    assert f'data-kind="group" data-id="{group_id}" data-name="Thursday night"' in group_page
    assert f'data-kind="game" data-id="{grouped["id"]}"' in client.get(f"/games/{grouped['id']}").get_data(as_text=True)


def test_a_rematch_stays_in_the_group(client: FlaskClient, post_form: Post) -> None:
    group_id = make_group(client, post_form)
    started = post_form(f"/groups/{group_id}/games", {"variant": "pay-me", "players": "Ann\nBob"})
    game_id = started.headers["Location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").get_json()
    group_key = {"X-Edit-Key": group_cookie(client, group_id)}  # the group's key edits its games through the API
    for _ in range(11):
        body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 2}, "version": state["version"]}
        state = client.post(f"/api/games/{game_id}/rounds", json=body, headers=group_key).get_json()
    rematch = post_form(f"/games/{game_id}/rematch", {"version": state["version"]})
    assert rematch.status_code == 303, rematch.get_data(as_text=True)
    new_id = rematch.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{new_id}").get_json()["group"] == group_id


def test_an_unknown_group_page_is_404(client: FlaskClient, post_form: Post) -> None:
    assert client.get("/groups/nope").status_code == 404
    assert client.get("/groups/nope/statistics.csv").status_code == 404
    assert client.get("/groups/nope/join?key=x").status_code == 404
    assert client.get("/groups/nope/join").status_code == 404
    assert post_form("/groups/nope/join", {"key": "x"}).status_code == 404
    assert post_form("/groups/nope/games", {"variant": "pay-me", "players": "Ann\nBob"}).status_code == 404
    assert post_form("/groups/nope/key", {}).status_code == 404


def test_a_games_pages_link_back_to_its_group_with_or_without_the_key(
    app: Flask, client: FlaskClient, post_form: Post
) -> None:
    group_id = make_group(client, post_form, name="Thursday <night>")
    headers = {"X-Group-Key": group_cookie(client, group_id)}
    link = f'Played in the group <a href="/groups/{group_id}">Thursday &lt;night&gt;</a>'
    for variant, players in (("pay-me", ["Ann", "Bob"]), ("play-or-pay", ["Ann", "Bob", "Cy"])):
        body = {"variant": variant, "players": players, "group": group_id}
        game = client.post("/api/games", json=body, headers=headers).get_json()
        page_url = f"/games/{game['id']}" if variant == "pay-me" else f"/games/{game['id']}/hand"
        for phone in (client, app.test_client()):  # this phone holds the group's key; a new one only looks
            page = phone.get(page_url)
            assert page.status_code == 200
            assert link in page.get_data(as_text=True)
    loose = client.post("/api/games", json={"variant": "pay-me", "players": ["Ann", "Bob"]}).get_json()
    assert 'id="game-group"' not in client.get(f"/games/{loose['id']}").get_data(as_text=True)


def test_the_group_links_come_from_the_public_address_never_the_host_header(
    client: FlaskClient, post_form: Post, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, database_url: str
) -> None:
    from companion.sharing import links

    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.23")
    group_id = make_group(client, post_form)
    page = client.get(f"/groups/{group_id}", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert "evil.example" not in page and f'href="http://192.168.1.23/groups/{group_id}"' in page
    page = client.get(f"/groups/{group_id}").get_data(as_text=True)  # the key holder's own host
    assert f"http://192.168.1.23/groups/{group_id}/join#key=" in page
    with app_on(tmp_path, database_url, PUBLIC_URL="https://cards.example/") as app:
        phone = app.test_client()
        response = phone.post("/groups/new", data={"csrf_token": read_csrf_token(phone), "name": "N", "players": "A"})
        other_id = response.headers["Location"].rsplit("/", 1)[1]
        page = phone.get(f"/groups/{other_id}", headers={"Host": "evil.example"}).get_data(as_text=True)
        assert f'href="https://cards.example/groups/{other_id}"' in page and "evil.example" not in page
        page = phone.get(f"/groups/{other_id}").get_data(as_text=True)
        assert f"https://cards.example/groups/{other_id}/join#key=" in page
