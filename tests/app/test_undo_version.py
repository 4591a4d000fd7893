"""Issue 16, defect 1: an undo carries the version the phone saw (?version=N or If-Match).

Without it the answer is 428, with a stale one 409 with "current"; nothing changes in either case.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import api_game, edit_key


def score(client: FlaskClient, game: Any, went_out: str, points: dict[str, int]) -> Any:
    answer = client.post(
        f"/api/games/{game['id']}/rounds", json={"went_out": went_out, "scores": points}, headers=edit_key(game)
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


@pytest.fixture
def scored(client: FlaskClient) -> tuple[Any, Any]:
    """A game with two rounds; the state after the first (what a slow phone still shows)."""
    game = api_game(client, "pay-me", ["Ann", "Bob"], "Ann")
    seen = score(client, game, "Ann", {"Ann": 0, "Bob": 10})
    score(client, game, "Bob", {"Ann": 7, "Bob": 0})
    return game, seen


def rounds(client: FlaskClient, game: Any) -> int:
    return len(client.get(f"/api/games/{game['id']}").get_json()["rounds"])


def test_an_undo_without_a_version_is_428_and_removes_nothing(client: FlaskClient, scored: tuple[Any, Any]) -> None:
    game, _seen = scored
    answer = client.delete(f"/api/games/{game['id']}/rounds/last", headers=edit_key(game))
    assert answer.status_code == 428
    assert "version" in answer.get_json()["error"]
    assert rounds(client, game) == 2


def test_a_stale_undo_is_409_with_the_current_game_and_removes_nothing(
    client: FlaskClient, scored: tuple[Any, Any]
) -> None:
    game, seen = scored
    answer = client.delete(f"/api/games/{game['id']}/rounds/last?version={seen['version']}", headers=edit_key(game))
    assert answer.status_code == 409
    assert len(answer.get_json()["current"]["rounds"]) == 2
    assert rounds(client, game) == 2
    by_tag = client.delete(
        f"/api/games/{game['id']}/rounds/last", headers={**edit_key(game), "If-Match": f'"v{seen["version"]}"'}
    )
    assert by_tag.status_code == 409
    assert rounds(client, game) == 2


def test_an_undo_with_the_current_version_takes_back_the_last_round(
    client: FlaskClient, scored: tuple[Any, Any]
) -> None:
    game, _seen = scored
    version = client.get(f"/api/games/{game['id']}").get_json()["version"]
    answer = client.delete(f"/api/games/{game['id']}/rounds/last?version={version}", headers=edit_key(game))
    assert answer.status_code == 200
    assert len(answer.get_json()["rounds"]) == 1
    etag = client.get(f"/api/games/{game['id']}/version").headers["ETag"]
    answer = client.delete(f"/api/games/{game['id']}/rounds/last", headers={**edit_key(game), "If-Match": etag})
    assert answer.status_code == 200
    assert answer.get_json()["rounds"] == []


@pytest.mark.parametrize("sent", ["?version=abc", "?version=-1", "?version=1.5"])
def test_a_version_that_is_not_a_number_is_400(client: FlaskClient, scored: tuple[Any, Any], sent: str) -> None:
    game, _seen = scored
    answer = client.delete(f"/api/games/{game['id']}/rounds/last{sent}", headers=edit_key(game))
    assert answer.status_code == 400
    assert rounds(client, game) == 2


def test_if_match_star_names_no_version(client: FlaskClient, scored: tuple[Any, Any]) -> None:
    game, _seen = scored
    answer = client.delete(f"/api/games/{game['id']}/rounds/last", headers={**edit_key(game), "If-Match": "*"})
    assert answer.status_code == 428
    assert rounds(client, game) == 2


def test_the_undo_of_a_play_or_pay_event_needs_the_version_too(client: FlaskClient) -> None:
    game = api_game(client, "play-or-pay", ["Ann", "Bob", "Cy"], "Ann")
    url = f"/api/games/{game['id']}/events"
    first = client.post(url, json={"type": "play", "player": "Bob", "card": "7H"}, headers=edit_key(game))
    assert first.status_code == 201, first.get_json()
    second = client.post(url, json={"type": "pay", "player": "Cy"}, headers=edit_key(game))
    assert second.status_code == 201, second.get_json()
    events = client.get(f"/api/games/{game['id']}").get_json()["events"]
    assert client.delete(f"{url}/last", headers=edit_key(game)).status_code == 428
    stale = client.delete(f"{url}/last?version={first.get_json()['version']}", headers=edit_key(game))
    assert stale.status_code == 409 and "current" in stale.get_json()
    assert client.get(f"/api/games/{game['id']}").get_json()["events"] == events
    current = client.delete(f"{url}/last?version={second.get_json()['version']}", headers=edit_key(game))
    assert current.status_code == 200


def test_the_page_undo_without_the_version_changes_nothing(client: FlaskClient, post_form: Any) -> None:
    game = api_game(client, "pay-me", ["Ann", "Bob"], "Ann")
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    score(client, game, "Ann", {"Ann": 0, "Bob": 10})
    seen = client.get(f"/api/games/{game['id']}").get_json()["version"]
    score(client, game, "Bob", {"Ann": 7, "Bob": 0})
    assert post_form(f"/games/{game['id']}/rounds/last/undo", {}).status_code == 428
    assert post_form(f"/games/{game['id']}/rounds/last/undo", {"version": seen}).status_code == 409
    assert rounds(client, game) == 2


def test_the_428_and_409_of_an_undo_match_the_document(client: FlaskClient, scored: tuple[Any, Any]) -> None:
    from tests.app.test_openapi_responses import conforms

    game, seen = scored
    last = f"/api/games/{game['id']}/rounds/last"
    assert conforms(client, client.delete(last, headers=edit_key(game)), "/api/games/{game_id}/rounds/last", "delete")
    stale = client.delete(f"{last}?version={seen['version']}", headers=edit_key(game))
    assert conforms(client, stale, "/api/games/{game_id}/rounds/last", "delete")["current"]
