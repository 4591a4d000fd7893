"""A pool rummy game's score sheet, as a page and a PDF, and the blank pool sheet (issue 30): each deal's
results and totals, who was put out, the rejoins and their cost, the pot, the winner or the split and
the nets; a blank sheet with a row per deal for a table to fill by hand."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.services import pool, store
from tests.app.test_sheet_routes import pdf_of, size_of, text_of


def plain(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def pool_game(client: FlaskClient, players: list[str], variant: str = "pool-101") -> dict[str, Any]:
    body = {"variant": variant, "players": players, "options": {"buy_in": 500}}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    game: dict[str, Any] = response.get_json()
    return game


def send(client: FlaskClient, game: dict[str, Any], path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/games/{game['id']}/{path}", json=body, headers={"X-Edit-Key": game["edit_key"]})
    assert response.status_code == 201, response.get_json()
    state: dict[str, Any] = response.get_json()
    return state


@pytest.fixture
def example_7(client: FlaskClient) -> dict[str, Any]:
    """RULES.md 11.7 example 7: Ben is out after deal 2 and rejoins at 36; the pot is 20.00."""
    game = pool_game(client, ["Asha", "Ben", "Cy"])
    send(client, game, "deals", {"results": {"Asha": "win", "Ben": 70, "Cy": 20}, "cut": "7H"})
    send(client, game, "deals", {"results": {"Asha": 35, "Ben": 40, "Cy": "win"}, "wild": "A"})
    state = send(client, game, "rejoins", {"player": "Ben"})
    assert state["pot"] == 2000 and state["totals"]["Ben"] == 36
    return game


def test_the_sheet_page_shows_each_deal_the_rejoin_and_the_pot(client: FlaskClient, example_7: dict[str, Any]) -> None:
    response = client.get(f"/games/{example_7['id']}/sheet")
    assert response.status_code == 200
    words = plain(response)
    assert "Pool Rummy 101 score sheet" in words and "Buy-in $5.00" in words and "Out at 101" in words
    assert "1 7H" in words and "2 A wild" in words
    assert "40 110 out, back at 36" in words
    assert "Out: Ben; rejoined: Ben ($5.00 each)" in words
    assert "Standings · pot $20.00" in words
    assert "Ben 36 in 3 1 ($5.00) $10.00" in words  # total, in, drops left, rejoins (cost), paid in


def test_a_finished_game_names_the_winner_and_the_nets(client: FlaskClient) -> None:
    game = pool_game(client, ["Asha", "Ben"])
    send(client, game, "deals", {"results": {"Asha": "win", "Ben": 80}, "cut": "JK"})
    state = send(client, game, "deals", {"results": {"Asha": "win", "Ben": "middle"}})
    assert state["finished"] and state["winner"] == "Asha"
    words = plain(client.get(f"/games/{game['id']}/sheet"))
    assert "Winner: Asha, the last player standing, takes the pot of $10.00." in words
    assert "1 Jkr" in words and "40 middle" in words and "120 out" in words
    assert "Takes Net" in words and "$10.00 +$5.00" in words and "-$5.00" in words


def test_a_split_game_says_how_the_pot_was_shared(app: Flask, client: FlaskClient) -> None:
    game = pool_game(client, ["Asha", "Ben", "Cy"])
    send(client, game, "deals", {"results": {"Asha": "win", "Ben": "drop", "Cy": 60}})
    with app.app_context():  # the split's API route is another helper's; the service is the foundation's
        pool.end(store.get_game(game["id"]), "equal")
    words = plain(client.get(f"/games/{game['id']}/sheet"))
    assert "The pot of $15.00 was split equally." in words
    assert "20 drop" in words


def test_the_sheet_pdf_holds_the_same_facts(client: FlaskClient, example_7: dict[str, Any]) -> None:
    reader = pdf_of(client.get(f"/games/{example_7['id']}/sheet.pdf?paper=letter"))
    text = text_of(reader)
    assert size_of(reader) == (612, 792)
    flat = " ".join(text.split())
    for fact in ("Pool Rummy 101 score sheet", "110 out, back at 36", "rejoined: Ben ($5.00 each)", "pot $20.00"):
        assert fact in flat, flat[:800]


def test_the_blank_pool_sheet_has_columns_to_fill_by_hand(client: FlaskClient) -> None:
    response = client.get("/sheets/pool-101?players=Asha,Ben,Cy")
    assert response.status_code == 200
    words = plain(response)
    assert "Deal Cut Asha Ben Cy Rejoins Pot Result Total Result Total Result Total" in words
    assert "Start 0 0 0 1 2 3" in words
    assert "a first drop" in words and "at most 79" in words and "Winner:" in words
    wide = plain(client.get("/sheets/pool-201?players=A,B,C,D,E,F"))
    assert "A4 landscape" in wide and "at most 174" in wide and "25 a first drop" in wide


def test_the_blank_pool_sheet_pdf(client: FlaskClient) -> None:
    text = text_of(pdf_of(client.get("/sheets/pool-101.pdf")))
    assert "Pool Rummy 101 score sheet" in text and "Buy-in" in text and "Out at 101" in text


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("/sheets/pool-101?players=A,B,C,D,E,F,G", "takes 2 to 6 players"),
        ("/sheets/pool-101.pdf?players=A", "takes 2 to 6 players"),
        ("/sheets/pool-101?paper=legal", 'paper must be "a4" or "letter"'),
    ],
)
def test_bad_blank_sheets_are_a_400_sentence(client: FlaskClient, url: str, says: str) -> None:
    response = client.get(url)
    assert response.status_code == 400
    assert says.lower() in plain(response).lower()


def test_a_game_sheet_with_a_bad_paper_is_a_400(client: FlaskClient, example_7: dict[str, Any]) -> None:
    response = client.get(f"/games/{example_7['id']}/sheet?paper=legal")
    assert response.status_code == 400
