"""Issue 16, defect 5: imported dispute checks are judged again by the engine; its verdict is kept."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.services import disputes, store
from tests.conftest import api_game

PLAYERS = ["Ann", "Bob", "Cy"]


@pytest.fixture
def exported(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """A game whose log holds an illegal meld, a legal declarer check and a lay-off onto it."""
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    with app.app_context():
        stored = store.get_game(game["id"])
        disputes.log_melds(stored, 1, ["4H 5C 9S"])
        disputes.start_chain(stored, 1, "Bob", ["4H 5H 6H"])
        disputes.add_layoff(stored, 1, "Cy", "1", "KD")
    document: dict[str, Any] = json.loads(client.get(f"/games/{game['id']}/export.json").get_data())
    return document


def imported_log(app: Flask, client: FlaskClient, document: dict[str, Any]) -> tuple[str, list[Any]]:
    response = client.post("/api/games/import", json=document)
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["id"]
    with app.app_context():
        return game_id, list(disputes.game_log(game_id))


def test_an_illegal_meld_claimed_legal_in_the_file_is_shown_refused(
    app: Flask, client: FlaskClient, exported: dict[str, Any]
) -> None:
    meld = exported["tables"]["disputes"][0]
    assert meld["valid"] is False
    meld["valid"] = True
    meld["reason"] = None
    meld["result"] = {"melds": [{"valid": True, "kind": "set", "reason": None, "readings": []}]}
    game_id, log = imported_log(app, client, exported)
    assert log[0].valid is False
    assert log[0].reason and "Meld 1" in log[0].reason
    assert log[0].result["melds"][0]["valid"] is False
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert '<span class="dp-mark" aria-hidden="true">✗</span> <strong>Meld</strong>' in page
    assert '<span class="dp-ok">legal' not in page.split("<strong>Going out</strong>")[0]


def test_a_lay_off_claimed_legal_is_judged_onto_the_chain_as_it_lay(
    app: Flask, client: FlaskClient, exported: dict[str, Any]
) -> None:
    layoff = exported["tables"]["disputes"][2]
    assert layoff["valid"] is False  # KD does not fit 4H 5H 6H
    layoff["valid"] = True
    layoff["reason"] = None
    layoff["result"]["declarer"] = [["4H", "5H", "6H", "KD"]]
    _, log = imported_log(app, client, exported)
    assert [entry.valid for entry in log] == [False, True, False]
    assert log[2].result["declarer"] == [["4H", "5H", "6H"]]
    assert log[2].result["chain"] == log[1].id


def test_a_faithful_export_comes_back_the_same(app: Flask, client: FlaskClient, exported: dict[str, Any]) -> None:
    game_id, _ = imported_log(app, client, exported)
    again = json.loads(client.get(f"/games/{game_id}/export.json").get_data())
    assert again["tables"]["disputes"] == exported["tables"]["disputes"]


def test_a_check_the_engine_cannot_make_refuses_the_import(
    app: Flask, client: FlaskClient, exported: dict[str, Any]
) -> None:
    exported["tables"]["disputes"][2]["player"] = "Bob"  # the declarer cannot lay off onto their own melds
    response = client.post("/api/games/import", json=exported)
    assert response.status_code == 400
    assert "check 3 of the dispute log" in response.get_json()["error"]
