"""The pages' side of issue 24: the service worker served from the site root, the policy that lets
it run, and the markers the phone scripts read (draft forms, the screen switch for the key holder)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.app.test_security import add_round, give_key, new_game


def test_the_service_worker_is_served_from_the_root_for_every_page(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert response.headers["Cache-Control"] == "no-cache"
    assert b'addEventListener("fetch"' in response.get_data()
    assert "worker-src 'self'" in response.headers["Content-Security-Policy"]


def test_every_page_names_the_worker_and_the_draft_script(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'src="/static/js/offline.js" data-sw="/sw.js"' in page
    assert "/static/js/drafts.js" in page


def test_the_key_holder_gets_draft_forms_and_the_screen_switch_a_viewer_does_not(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    viewer = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "data-wake" not in viewer and "data-draft" not in viewer
    give_key(client, game_id, key)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert re.search(r"<body[^>]* data-wake[ >]", page)
    assert f'data-game="{game_id}" data-draft="round-1"' in page
    assert f'data-correct="/api/games/{game_id}/rounds/0"' in page
    add_round(client, game_id, key)
    correction = client.get(f"/games/{game_id}/rounds/1/edit").get_data(as_text=True)
    assert f'data-game="{game_id}" data-draft="correct-1"' in correction
