"""Contract Rummy says "deal", never "round", also in the server's refusals (issue 27, section 1)."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.app.test_security import add_round, new_game


def test_undo_with_nothing_played_names_a_deal(client: FlaskClient) -> None:
    game_id, key = new_game(client, variant="contract-rummy")
    response = client.delete(f"/api/games/{game_id}/rounds/last?version=1", headers={"X-Edit-Key": key})
    assert response.status_code == 404
    assert response.get_json()["error"] == "there is no deal to undo yet"


def test_a_deal_not_played_is_named_a_deal(client: FlaskClient) -> None:
    game_id, key = new_game(client, variant="contract-rummy")
    add_round(client, game_id, key)
    response = client.put(
        f"/api/games/{game_id}/rounds/5",
        json={"went_out": "Bob", "scores": {"Ann": 5, "Bob": 0, "Cy": 10}, "version": 2},
        headers={"X-Edit-Key": key},
    )
    assert response.status_code == 404
    assert response.get_json()["error"] == "deal 5 has not been played in this game"


def test_pay_me_still_says_round(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    response = client.delete(f"/api/games/{game_id}/rounds/last?version=1", headers={"X-Edit-Key": key})
    assert response.status_code == 404
    assert response.get_json()["error"] == "there is no round to undo yet"
