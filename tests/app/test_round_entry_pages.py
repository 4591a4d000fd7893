"""Round entry on the game page (issue 13), through the Flask test client: the form is on the game
page for the phone holding the key, form pages are never kept by the browser, a form sent twice
saves once, and each save lands where the eye needs it."""

from __future__ import annotations

import io
import re
import struct
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.app.test_app_pages import Post, enter_round, game_count, rounds_of, start_game, text
from tests.conftest import read_csrf_token


def _version(page: str) -> str:
    match = re.search(r'<form[^>]*id="round-entry".*?name="version" type="hidden" value="(\d+)"', page, re.S)
    assert match, "the game page has no round entry form"
    return match.group(1)


def test_the_game_page_holds_the_next_rounds_form(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id = start_game(post_form)
    page = text(client.get(f"/games/{game_id}"))
    assert "Enter round 1 scores" in page
    assert f'action="/games/{game_id}/rounds/new"' in page
    assert f'data-api="/api/games/{game_id}/rounds"' in page
    assert 'name="csrf_token"' in page and 'name="round_number" type="hidden" value="1"' in page
    assert 'autocomplete="off"' in page
    assert "js/round-entry.js" in page
    # Standings come before the round panel, so after saving the eye sees both.
    assert page.index('id="standings"') < page.index('id="round"') < page.index('id="round-entry"')

    enter_round(post_form, game_id, "Bob", "3", "0", "4", version=_version(page))
    assert "Enter round 2 scores" in text(client.get(f"/games/{game_id}"))

    viewer = text(app.test_client().get(f"/games/{game_id}"))
    assert 'id="round-entry"' not in viewer and "data-key" not in viewer and "round-entry.js" not in viewer


def test_form_pages_are_never_stored(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form)
    enter_round(post_form, game_id, "Bob", "3", "0", "4")
    for url in (
        "/games/new",
        f"/games/{game_id}",
        f"/games/{game_id}/rounds/new",
        f"/games/{game_id}/rounds/1/edit",
        f"/games/{game_id}/delete",
    ):
        assert client.get(url).headers["Cache-Control"] == "no-store", url
    assert client.get("/rules").headers.get("Cache-Control") != "no-store"


def test_a_round_form_sent_twice_is_saved_once(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id = start_game(post_form)
    version = _version(text(client.get(f"/games/{game_id}")))
    data = {"went_out": "Cy", "version": version, "round_number": "1", "scores-0": "5", "scores-1": "6"}
    data["scores-2"] = "0"
    assert post_form(f"/games/{game_id}/rounds/new", data).status_code == 303
    again = post_form(f"/games/{game_id}/rounds/new", data)  # Back, then the same form again
    assert again.status_code == 409
    assert "another phone saved round 1 first" in text(again)
    assert rounds_of(app, game_id) == [(1, "Cy", {"Ann": 5, "Bob": 6, "Cy": 0})]


def test_saves_land_where_the_eye_needs_it(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form, players="Ann\nBob")
    saved = enter_round(post_form, game_id, "Bob", "3", "0")
    assert saved.headers["Location"] == f"/games/{game_id}#standings"
    enter_round(post_form, game_id, "Ann", "0", "8")

    corrected = post_form(f"/games/{game_id}/rounds/1/edit", {"went_out": "Bob", "scores-0": "9", "scores-1": "0"})
    assert corrected.headers["Location"] == f"/games/{game_id}#round-1"
    page = text(client.get(f"/games/{game_id}"))
    assert 'id="round-1"' in page and 'id="round-2"' in page

    seen = client.get(f"/api/games/{game_id}").get_json()["version"]
    undone = post_form(f"/games/{game_id}/rounds/last/undo", {"version": str(seen)})
    assert undone.headers["Location"] == f"/games/{game_id}#round"

    for _number in range(2, 12):
        last = enter_round(post_form, game_id, "Ann", "0", "1")
    assert last.headers["Location"] == f"/games/{game_id}#result"
    page = text(client.get(f"/games/{game_id}"))
    assert page.index('id="result"') < page.index('id="standings"')
    assert "Rematch" in page and 'id="round-entry"' not in page


# ------------------------------------------------------------------ import from the home page


def _import(client: FlaskClient, raw: bytes, name: str = "game.json") -> Any:
    token = read_csrf_token(client)
    data = {"csrf_token": token, "document": (io.BytesIO(raw), name)}
    return client.post("/games/import", data=data, content_type="multipart/form-data")


def test_the_home_page_imports_an_exported_game(client: FlaskClient, app: Flask, post_form: Post) -> None:
    page = text(client.get("/"))
    assert 'action="/games/import"' in page and 'type="file"' in page and 'enctype="multipart/form-data"' in page
    for name in ("Pay Me", "Three Thirteen", "3-13", "Play or Pay"):
        assert name in page
    game_id = start_game(post_form)
    enter_round(post_form, game_id, "Bob", "3", "0", "4")
    exported = client.get(f"/games/{game_id}/export.json").get_data()

    phone = app.test_client()
    answer = _import(phone, exported)
    assert answer.status_code == 303, text(answer)
    new_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert new_id != game_id
    page = text(phone.get(f"/games/{new_id}"))
    assert "Enter round 2 scores" in page  # this phone holds the new game's edit key
    assert rounds_of(app, new_id) == [(1, "Bob", {"Ann": 3, "Bob": 0, "Cy": 4})]


def test_a_bad_import_says_what_is_wrong_and_stores_nothing(client: FlaskClient, app: Flask) -> None:
    before = game_count(app)
    answer = _import(client, b"{not json")
    assert answer.status_code == 400
    assert "Not imported: " in text(answer)
    missing = client.post(
        "/games/import", data={"csrf_token": read_csrf_token(client)}, content_type="multipart/form-data"
    )
    assert missing.status_code == 400
    assert "Choose the exported JSON file of a game." in text(missing)
    no_token = client.post("/games/import", data={"document": (io.BytesIO(b"{}"), "g.json")})
    assert no_token.status_code == 400
    assert game_count(app) == before


# ------------------------------------------------------------------ installable


def test_the_app_is_installable(client: FlaskClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    manifest = answer.get_json()
    assert manifest["name"] == "Card Table Companion"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"]: icon["src"] for icon in manifest["icons"]}
    assert set(sizes) == {"192x192", "512x512"}
    for size, src in sizes.items():
        png = client.get(src)
        assert png.status_code == 200 and png.mimetype == "image/png"
        width, height = struct.unpack(">II", png.get_data()[16:24])  # the PNG header's IHDR chunk
        assert f"{width}x{height}" == size
        png.close()
    page = text(client.get("/"))
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#ffffff" media="(prefers-color-scheme: light)">' in page
    assert '<meta name="theme-color" content="#0b0b0b" media="(prefers-color-scheme: dark)">' in page


# ------------------------------------------------------------------ plain words


def test_three_thirteen_says_knocked(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form, variant="3-13", players="Ann\nBob")
    page = text(client.get(f"/games/{game_id}"))
    assert "Who knocked?" in page and "The player who knocked scores 0." in page and "went out" not in page
    assert "Who went out?" in text(client.get(f"/games/{start_game(post_form)}"))
    missing = post_form(f"/games/{game_id}/rounds/new", {"scores-0": "1", "scores-1": "2"})
    assert "Missing: who knocked." in text(missing)


def test_times_are_written_for_the_phone_to_show_in_its_own_zone(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form)
    enter_round(post_form, game_id, "Bob", "3", "0", "4")
    seen = client.get(f"/api/games/{game_id}").get_json()["version"]
    post_form(f"/games/{game_id}/rounds/last/undo", {"version": str(seen)})
    assert re.search(
        r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" data-local="time">\d\d:\d\d UTC</time>',
        text(client.get(f"/games/{game_id}")),
    )
    assert "js/local-time.js" in text(client.get("/"))


def test_a_bad_sheet_address_gets_a_page_titled_for_it(client: FlaskClient) -> None:
    answer = client.get("/sheets/print?preset=nope")
    assert answer.status_code == 400
    page = text(answer)
    assert "<title>No sheet for this address · Card Table Companion</title>" in page
    assert "<h1>No sheet for this address</h1>" in page
    assert "Not saved" not in page


def test_the_footer_says_where_scores_are_kept(client: FlaskClient) -> None:
    assert "Scores are kept on the computer that runs the companion, not on the phones." in text(client.get("/"))
