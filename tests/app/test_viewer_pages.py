"""Issue 28, section 1: a game's pages for the phones without its key are rendered once per state of
the game (the version, the log of checks, the group) and answered 304 to a browser that holds them;
the phone holding the key gets its page rendered every time (companion.viewer_pages)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.services import disputes, store
from tests.app.test_security import add_round, give_key, new_game

PAGES = ("/games/{id}", "/games/{id}/check?round=1", "/games/{id}?history=2")


def counting_renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The templates rendered from now on, by name (both page blueprints render through Flask)."""
    rendered: list[str] = []
    import companion.disputes.routes as checks
    import companion.games.routes as games

    for module in (games, checks):
        original: Callable[..., str] = module.render_template

        def counted(template: str, *args: Any, _original: Callable[..., str] = original, **values: Any) -> str:
            rendered.append(template)
            return _original(template, *args, **values)

        monkeypatch.setattr(module, "render_template", counted)
    return rendered


@pytest.mark.parametrize("page", PAGES)
def test_a_viewer_who_holds_the_page_gets_an_empty_304(client: FlaskClient, page: str) -> None:
    game_id, key = new_game(client)
    add_round(client, game_id, key)
    first = client.get(page.format(id=game_id))
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    etag = first.headers["ETag"]
    again = client.get(page.format(id=game_id), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    assert "Content-Security-Policy" in again.headers


def test_each_state_of_the_game_is_rendered_once_for_viewers(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, key = new_game(client)
    rendered = counting_renders(monkeypatch)
    pages = [client.get(f"/games/{game_id}") for _ in range(3)]
    assert rendered == ["games/game.html"] and len({page.data for page in pages}) == 1
    add_round(client, game_id, key)
    after = client.get(f"/games/{game_id}")
    assert rendered == ["games/game.html"] * 2 and after.data != pages[0].data


def test_a_new_round_changes_the_page_a_viewer_revalidates(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    before = client.get(f"/games/{game_id}")
    add_round(client, game_id, key)
    after = client.get(f"/games/{game_id}", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"]
    assert b"Round 1" in after.data or b">1<" in after.data
    assert after.data != before.data


def test_a_check_changes_the_pages_that_list_checks(app: Flask, client: FlaskClient) -> None:
    """A check moves no version, yet the game page and the check page list it: their state holds the log."""
    game_id, _ = new_game(client)
    game_page, check_page = (client.get(path.format(id=game_id)) for path in PAGES[:2])
    with app.app_context():
        disputes.log_melds(store.get_game(game_id), 1, ["4H 5H 6H"])
    for before, path in ((game_page, PAGES[0]), (check_page, PAGES[1])):
        after = client.get(path.format(id=game_id), headers={"If-None-Match": before.headers["ETag"]})
        assert after.status_code == 200 and "5♥" in after.get_data(as_text=True)
        assert "5♥" not in before.get_data(as_text=True)


def test_the_phone_holding_the_key_gets_its_page_rendered_every_time(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, key = new_game(client)
    give_key(client, game_id, key)
    rendered = counting_renders(monkeypatch)
    pages = [client.get(f"/games/{game_id}") for _ in range(2)]
    assert rendered == ["games/game.html"] * 2
    assert all(page.status_code == 200 and "ETag" not in page.headers for page in pages)
    assert "Undo round" in pages[0].get_data(as_text=True) or "round-entry" in pages[0].get_data(as_text=True)


def test_a_check_page_of_a_round_not_played_is_still_a_404(client: FlaskClient) -> None:
    game_id, _ = new_game(client)
    for _ in range(2):
        assert client.get(f"/games/{game_id}/check?round=9").status_code == 404
