"""Joining a game from another phone: the QR codes, the join link, and replacing the edit key."""

from __future__ import annotations

import re
from typing import Any

import segno
from flask import Flask
from flask.testing import FlaskClient

from companion.sharing import links
from tests.conftest import CSRF_INPUT, read_csrf_token

PLAYERS = ["Ann", "Bob", "Cy"]
QR = re.compile(r'<img class="qr-code" src="([^"]+)" alt="([^"]+)"')


def new_game(client: FlaskClient, players: list[str] | None = None) -> tuple[str, str]:
    names = players or PLAYERS
    response = client.post("/api/games", json={"variant": "pay-me", "players": names, "first_dealer": names[0]})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"], response.get_json()["edit_key"]


def give_key(client: FlaskClient, game_id: str, key: str) -> None:
    client.set_cookie("edit_key", key, path=f"/games/{game_id}")


def key_cookie(response: Any) -> str:
    return next(value for value in response.headers.getlist("Set-Cookie") if value.startswith("edit_key="))


def join(phone: FlaskClient, game_id: str, key: str, **kwargs: Any) -> Any:
    """What the join page's script does with /games/<id>/join#key=<key>: post the key with the form."""
    page = phone.get(f"/games/{game_id}/join", **kwargs)
    assert page.status_code == 200, page.status_code
    token = CSRF_INPUT.search(page.get_data(as_text=True))
    assert token
    return phone.post(f"/games/{game_id}/join", data={"csrf_token": token.group(1), "key": key}, **kwargs)


def text(response: Any) -> str:
    body: str = response.get_data(as_text=True)
    return body


def can_edit(client: FlaskClient, game_id: str) -> bool:
    page = text(client.get(f"/games/{game_id}"))
    return "Enter round 1 scores" in page


def share_url(page: str) -> str:
    match = re.search(r'<p class="share-url"><a href="([^"]+)">', page)
    assert match, "no view-only address on the page"
    return match.group(1)


def test_a_key_holder_sees_both_codes_a_viewer_only_the_view_code(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(client)
    give_key(client, game_id, key)
    page = text(client.get(f"/games/{game_id}"))
    # The edit link's panel comes when it opens (a light page), from the page with its panels in full.
    assert f'<details class="share" id="share-edit" data-panel="/games/{game_id}/players">' in page
    assert QR.findall(page) == [(f"/games/{game_id}/qr.svg", "QR code of the view-only address")]
    page = text(client.get(f"/games/{game_id}/players"))
    codes = QR.findall(page)
    assert codes == [
        (f"/games/{game_id}/qr.svg", "QR code of the view-only address"),
        (f"/games/{game_id}/edit-qr.svg", "QR code of the edit link"),
    ]
    view = share_url(page)
    assert view.endswith(f"/games/{game_id}")
    join = f"{view}/join#key={key}"
    assert join in page
    # The codes are images (the page stays small), segno's, made from exactly these addresses.
    view_code = client.get(codes[0][0])
    edit_code = client.get(codes[1][0])
    assert view_code.mimetype == edit_code.mimetype == "image/svg+xml"
    assert view_code.data == links.qr_file(view, "QR code of the view-only address")
    assert edit_code.data == links.qr_file(join, "QR code of the edit link")
    assert b'fill="#fff"' in view_code.data and b"<title>QR code of the view-only address</title>" in view_code.data
    assert edit_code.headers["Cache-Control"] == "no-store"  # it holds the key: never kept
    assert client.get(codes[0][0], headers={"If-None-Match": view_code.headers["ETag"]}).status_code == 304
    assert "Let another phone enter scores" in page and "Make a new edit key" in page

    assert client.get(f"/games/{game_id}").headers["Cache-Control"] == "no-store"  # it shows the key: never kept

    viewer_phone = app.test_client()
    viewer = text(viewer_phone.get(f"/games/{game_id}"))
    assert len(QR.findall(viewer)) == 1
    assert viewer_phone.get(f"/games/{game_id}/edit-qr.svg").status_code == 403
    assert viewer_phone.get(f"/games/{game_id}/qr.svg").data == view_code.data
    assert share_url(viewer) == view
    assert "join#key" not in viewer and key not in viewer
    assert "Make a new edit key" not in viewer


def test_the_qr_code_files_encode_the_address() -> None:
    url = "http://192.168.1.23:5000/games/abc/join#key=k-1_x"
    expected = segno.make(url, error="m")
    svg = links.qr_file(url, "t").decode()
    assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg  # a file of its own
    side = expected.symbol_size(scale=8)[0]
    assert f'width="{side}" height="{side}"' in svg and "<title>t</title>" in svg
    assert expected.svg_data_uri(dark="#000", light="#fff", title="t", scale=8).startswith("data:image/svg+xml")


def test_the_qr_code_encodes_the_address() -> None:
    url = "http://192.168.1.23:5000/games/abc/join#key=k-1_x"
    expected = segno.make(url, error="m")
    svg = str(links.qr_svg(url, "t"))
    assert f'viewBox="0 0 {expected.symbol_size()[0]} {expected.symbol_size()[1]}"' in svg
    assert svg == expected.svg_inline(
        dark="#000", light="#fff", omitsize=True, svgclass="qr-code", lineclass=None, title="t"
    )


def test_joining_stores_the_key_and_drops_it_from_the_address(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(client)
    phone = app.test_client()
    assert not can_edit(phone, game_id)
    page = phone.get(f"/games/{game_id}/join")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert "js/join.js" in text(page) and "Paste it here" in text(page)  # the script, and the no-script way
    response = join(phone, game_id, key)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    cookie = key_cookie(response)
    assert cookie.startswith(f"edit_key={key};")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and f"Path=/games/{game_id}" in cookie
    assert can_edit(phone, game_id)


def test_the_join_link_carries_the_key_in_its_fragment(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    give_key(client, game_id, key)
    page = text(client.get(f"/games/{game_id}/players"))
    assert f"/games/{game_id}/join#key={key}" in page
    assert "join?key" not in page


def test_an_old_query_link_is_redirected_to_the_fragment_without_using_the_key(app: Flask, client: FlaskClient) -> None:
    app.config.update(RATELIMIT_ENABLED=True, RATELIMIT_WRONG_KEY="1/minute")
    game_id, key = new_game(client)
    phone = app.test_client()
    for guess in ("wrong", "wrong again", key):
        response = phone.get(f"/games/{game_id}/join?key={guess}")
        assert response.status_code == 303
        assert response.headers["Location"].startswith(f"/games/{game_id}/join#key=")
        assert response.headers["Cache-Control"] == "no-store"
        assert not response.headers.getlist("Set-Cookie")
    assert not can_edit(phone, game_id)
    assert join(phone, game_id, key).status_code == 303  # the GETs counted no wrong key


def test_a_join_post_needs_the_csrf_token(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(client)
    phone = app.test_client()
    assert phone.post(f"/games/{game_id}/join", data={"key": key}).status_code == 400
    assert not can_edit(phone, game_id)


def test_a_wrong_or_missing_join_key_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(client)
    phone = app.test_client()
    response = join(phone, game_id, "not-the-key")
    assert response.status_code == 403
    assert "does not work for this game" in text(response) and 'name="key"' in text(response)
    assert not response.headers.getlist("Set-Cookie")
    assert join(phone, game_id, "").status_code == 400
    assert join(phone, game_id, "x" * 500).status_code == 400
    assert phone.get("/games/nope/join").status_code == 404
    assert phone.post("/games/nope/join", data={"key": key}).status_code in (400, 404)
    assert not can_edit(phone, game_id)
    # Keys are escaped, never echoed.
    response = join(phone, game_id, "<script>alert(1)</script>")
    assert response.status_code == 403 and "<script>alert" not in text(response)


def test_wrong_join_keys_are_rate_limited(app: Flask, client: FlaskClient) -> None:
    app.config.update(RATELIMIT_ENABLED=True, RATELIMIT_WRONG_KEY="5/minute")
    game_id, key = new_game(client)
    phone = app.test_client()
    statuses = [join(phone, game_id, f"guess-{n}").status_code for n in range(7)]
    assert statuses == [403] * 5 + [429] * 2
    response = join(phone, game_id, "guess")
    assert response.status_code == 429
    assert "Too many wrong edit keys" in text(response)
    assert response.headers["Retry-After"] == "60"
    assert not response.headers.getlist("Set-Cookie")
    assert join(phone, game_id, key).status_code == 303  # the right key is never refused


def test_a_new_key_replaces_the_old_one_at_once(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(client)
    give_key(client, game_id, key)
    other_phone = app.test_client()
    assert join(other_phone, game_id, key).status_code == 303
    assert can_edit(other_phone, game_id)

    response = client.post(f"/games/{game_id}/key", data={"csrf_token": read_csrf_token(client)})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}#share-edit"
    new_key = key_cookie(response).split(";", 1)[0].removeprefix("edit_key=")
    assert new_key and new_key != key
    assert "HttpOnly" in key_cookie(response)

    # This browser keeps editing with the new key; the page shows the new join code.
    page = text(client.get(f"/games/{game_id}/players"))
    assert "Enter round 1 scores" in page and f"join#key={new_key}" in page and key not in page
    # The old key stops working everywhere at once.
    assert not can_edit(other_phone, game_id)
    assert join(app.test_client(), game_id, key).status_code == 403
    response = client.delete(f"/api/games/{game_id}/rounds/last", headers={"X-Edit-Key": key})
    assert response.status_code == 403
    response = client.delete(f"/api/games/{game_id}/rounds/last", headers={"X-Edit-Key": new_key})
    assert response.status_code == 404  # the key works; there is just no round to undo


def test_replacing_the_key_needs_the_key_and_a_csrf_token(app: Flask, client: FlaskClient) -> None:
    game_id, key = new_game(client)
    stranger = app.test_client()
    response = stranger.post(f"/games/{game_id}/key", data={"csrf_token": read_csrf_token(stranger)})
    assert response.status_code == 403
    give_key(stranger, game_id, "a guess")
    assert stranger.post(f"/games/{game_id}/key", data={"csrf_token": read_csrf_token(stranger)}).status_code == 403
    give_key(client, game_id, key)
    assert client.post(f"/games/{game_id}/key").status_code == 400
    assert client.post("/games/nope/key", data={"csrf_token": read_csrf_token(client)}).status_code == 404
    assert can_edit(client, game_id)  # nothing was replaced


def test_the_api_replaces_the_key(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    assert client.post(f"/api/games/{game_id}/key").status_code == 403
    response = client.post(f"/api/games/{game_id}/key", headers={"X-Edit-Key": "wrong"})
    assert response.status_code == 403
    assert response.get_json() == {"error": "the edit key does not match this game"}
    assert client.post("/api/games/nope/key", headers={"X-Edit-Key": key}).status_code == 404
    response = client.post(f"/api/games/{game_id}/key", headers={"X-Edit-Key": key})
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    new_key = response.get_json()["edit_key"]
    assert isinstance(new_key, str) and len(new_key) >= 32 and new_key != key
    assert client.post(f"/api/games/{game_id}/key", headers={"X-Edit-Key": key}).status_code == 403
    scores = {"Ann": 3, "Bob": 0, "Cy": 4}
    response = client.post(
        f"/api/games/{game_id}/rounds", json={"went_out": "Bob", "scores": scores}, headers={"X-Edit-Key": new_key}
    )
    assert response.status_code == 201


def test_the_share_address_names_this_computer_on_the_network(
    app: Flask, client: FlaskClient, monkeypatch: Any
) -> None:
    """More (PUBLIC_URL, a forged Host, TRUSTED_HOSTS): tests/app/test_public_links.py."""
    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.23")
    game_id, key = new_game(client)
    client.set_cookie("edit_key", key, domain="cards.example", path=f"/games/{game_id}")
    page = text(client.get(f"/games/{game_id}/players", base_url="http://cards.example:8000"))
    assert share_url(page) == f"http://192.168.1.23:8000/games/{game_id}"
    assert f"http://192.168.1.23:8000/games/{game_id}/join#key={key}" in page
