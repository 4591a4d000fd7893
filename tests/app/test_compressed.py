"""Pages, stylesheets and scripts go compressed to a browser that asks (issue 24: the game page's
weight), as a phone's browser asks on plain http; JSON answers go as they are, so that their ETags
still answer If-None-Match."""

from __future__ import annotations

import zlib

from flask.testing import FlaskClient

from tests.app.test_security import add_round, give_key, new_game

GZIP = {"Accept-Encoding": "gzip, deflate"}  # what Chromium asks for over plain http


def unpacked(encoding: str, data: bytes) -> bytes:
    return zlib.decompress(data, 16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS)


def test_the_game_page_and_its_assets_are_compressed_when_asked(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    add_round(client, game_id, key)
    give_key(client, game_id, key)
    plain = client.get(f"/games/{game_id}").get_data()
    for address in (f"/games/{game_id}", "/static/app.css", "/static/js/round-entry.js"):
        response = client.get(address, headers=GZIP)
        assert response.status_code == 200
        encoding = response.headers.get("Content-Encoding")
        assert encoding == "gzip", address  # scripts and stylesheets too: sent minified from memory, not streamed
        assert "Accept-Encoding" in response.headers["Vary"]
        body = unpacked(encoding, response.get_data())
        assert len(response.get_data()) < len(body) / 2, address
        if address.startswith("/games/"):  # the page itself (its CSRF token aside) is the one sent plain
            assert body.split(b'name="csrf_token"')[0] == plain.split(b'name="csrf_token"')[0]
    assert "Content-Encoding" not in client.get(f"/games/{game_id}").headers  # not asked, not compressed


def test_json_answers_are_not_compressed_and_keep_their_etags(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    add_round(client, game_id, key)
    state = client.get(f"/api/games/{game_id}", headers=GZIP)
    assert state.status_code == 200 and "Content-Encoding" not in state.headers
    again = client.get(f"/api/games/{game_id}", headers={**GZIP, "If-None-Match": state.headers["ETag"]})
    assert again.status_code == 304
