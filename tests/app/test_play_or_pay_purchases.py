"""Play or Pay money (D17) through the API and the pages: chips bought between hands, undo, the table
ending the game, the results (chips held minus chips bought, from the engine), the sheet and the export."""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import api_game, every_game
from tests.conftest import edit_key as key

PLAYERS = ["Ann", "Bob", "Cy"]
QUICK_HAND = {"type": "settle", "winner": "Ann", "cards_left": {"Bob": 3, "Cy": 1}}


def create(client: FlaskClient) -> Any:
    return api_game(client, "play-or-pay", PLAYERS, "Ann", chips=20)


def event(client: FlaskClient, game: dict[str, Any], **body: Any) -> Any:
    return client.post(f"/api/games/{game['id']}/events", json=body, headers=key(game))


def end(client: FlaskClient, game: dict[str, Any], **body: Any) -> Any:
    return client.post(f"/api/games/{game['id']}/end", json=body or None, headers=key(game))


def plain(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def give_key(client: FlaskClient, game: dict[str, Any]) -> None:
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")


# ---------------------------------------------------------------- the API


def test_a_purchase_is_a_ledger_event_and_the_results_sum_to_zero(client: FlaskClient) -> None:
    game = create(client)
    bought = event(client, game, type="purchase", player="Cy", chips=15)
    assert bought.status_code == 201, bought.get_json()
    answer = bought.get_json()
    assert answer["chips"] == {"Ann": 20, "Bob": 20, "Cy": 35}
    assert answer["bought"] == {"Ann": 20, "Bob": 20, "Cy": 35}
    assert answer["results"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert answer["ledger"][-1] == {"hand": 1, "player": "Cy", "kind": "purchase", "amount": 15}
    settled = event(client, game, **QUICK_HAND).get_json()
    assert settled["results"] == {"Ann": 4, "Bob": -3, "Cy": -1}
    assert sum(settled["results"].values()) == 0
    assert settled["finished"] is False


def test_undo_takes_back_a_purchase(client: FlaskClient) -> None:
    game = create(client)
    bought = event(client, game, type="purchase", player="Bob", chips=5).get_json()
    undone = client.delete(f"/api/games/{game['id']}/events/last?version={bought['version']}", headers=key(game))
    assert undone.status_code == 200
    assert undone.get_json()["bought"] == {"Ann": 20, "Bob": 20, "Cy": 20}
    assert undone.get_json()["events"] == 0


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"player": "Cy", "chips": 0}, 'a purchase must be a whole number of chips from 1 to 10000, not "0"'),
        ({"player": "Cy", "chips": "5"}, "a purchase must be a whole number of chips"),
        ({"player": "Cy", "chips": True}, "a purchase must be a whole number of chips"),
        ({"player": "Zed", "chips": 5}, '"Zed" is not a player at this table'),
        ({"player": "Cy"}, "chips"),
        ({"player": "Cy", "chips": 5, "card": "7H"}, 'unknown field "card"'),
    ],
)
def test_a_bad_purchase_is_a_400_and_stores_nothing(client: FlaskClient, body: dict[str, Any], words: str) -> None:
    game = create(client)
    response = event(client, game, type="purchase", **body)
    assert response.status_code == 400
    assert words in response.get_json()["error"]
    assert client.get(f"/api/games/{game['id']}").get_json()["events"] == 0


def test_chips_are_not_bought_while_a_hand_is_played(client: FlaskClient) -> None:
    game = create(client)
    event(client, game, type="play", player="Bob", card="7H")
    response = event(client, game, type="purchase", player="Ann", chips=5)
    assert response.status_code == 400
    assert "hand 1 is being played" in response.get_json()["error"]
    assert client.get(f"/api/games/{game['id']}").get_json()["events"] == 1


def test_the_table_ends_the_game_and_undo_plays_on(client: FlaskClient) -> None:
    game = create(client)
    event(client, game, type="purchase", player="Cy", chips=10)
    event(client, game, **QUICK_HAND)
    ended = end(client, game)
    assert ended.status_code == 200, ended.get_json()
    assert ended.get_json()["finished"] is True
    assert ended.get_json()["results"] == {"Ann": 4, "Bob": -3, "Cy": -1}
    listed = every_game(client)
    assert listed[0]["finished"] is True
    refused = event(client, game, type="purchase", player="Cy", chips=1)
    assert refused.status_code == 400
    assert "ended this game" in refused.get_json()["error"]
    again = end(client, game)
    assert again.status_code == 400
    assert "already ended" in again.get_json()["error"]
    seen = client.get(f"/api/games/{game['id']}").get_json()["version"]
    reopened = client.delete(f"/api/games/{game['id']}/events/last?version={seen}", headers=key(game))
    assert reopened.get_json()["finished"] is False
    assert reopened.get_json()["events"] == 2


def test_ending_is_refused_during_a_hand_on_a_rummy_game_and_without_the_key(client: FlaskClient) -> None:
    game = create(client)
    event(client, game, type="play", player="Bob", card="7H")
    during = end(client, game)
    assert during.status_code == 400
    assert "hand 1 is being played" in during.get_json()["error"]
    rummy = api_game(client, "pay-me", PLAYERS, "Ann")
    assert end(client, rummy).status_code == 400
    assert client.post(f"/api/games/{game['id']}/end").status_code == 403
    assert client.post("/api/games/nope/end", headers=key(game)).status_code in (403, 404)


def test_ending_checks_the_version_and_the_body(client: FlaskClient) -> None:
    game = create(client)
    assert end(client, game, version=999).status_code == 409
    bad = end(client, game, version="1")
    assert bad.status_code == 400
    assert bad.get_json()["error"] == "version must be a whole number"
    unknown = end(client, game, winner="Ann")
    assert unknown.status_code == 400
    assert 'unknown field "winner"' in unknown.get_json()["error"]
    assert client.get(f"/api/games/{game['id']}").get_json()["finished"] is False


def test_export_and_import_keep_purchases_and_the_ending(client: FlaskClient) -> None:
    game = create(client)
    event(client, game, type="purchase", player="Cy", chips=10)
    event(client, game, **QUICK_HAND)
    end(client, game)
    exported = client.get(f"/api/games/{game['id']}/export").get_json()
    assert exported["format_version"] == 1
    assert exported["game"]["finished"] is True
    assert exported["tables"]["game_events"][0]["kind"] == "purchase"
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert copy["finished"] is True
    assert copy["results"] == {"Ann": 4, "Bob": -3, "Cy": -1}
    assert copy["bought"]["Cy"] == 30


def test_an_import_ended_during_a_hand_is_refused(client: FlaskClient) -> None:
    game = create(client)
    event(client, game, type="play", player="Bob", card="7H")
    exported = client.get(f"/api/games/{game['id']}/export").get_json()
    exported["game"]["finished"] = True
    refused = client.post("/api/games/import", json=exported)
    assert refused.status_code == 400
    assert "ended while a hand is being played" in refused.get_json()["error"]


# ---------------------------------------------------------------- the pages


def test_the_hand_page_buys_chips_and_undo_takes_them_back(client: FlaskClient, post_form: Callable[..., Any]) -> None:
    game = create(client)
    give_key(client, game)
    page = client.get(f"/games/{game['id']}/hand")
    assert 'id="buy"' in page.get_data(as_text=True)
    bought = post_form(f"/games/{game['id']}/hand/purchase", {"player": "Bob", "chips": "12"})
    assert bought.status_code == 303
    assert client.get(f"/api/games/{game['id']}").get_json()["chips"]["Bob"] == 32
    assert "purchase" in plain(client.get(f"/games/{game['id']}/hand"))
    seen = client.get(f"/api/games/{game['id']}").get_json()["version"]
    post_form(f"/games/{game['id']}/hand/undo", {"version": str(seen)})
    assert client.get(f"/api/games/{game['id']}").get_json()["chips"]["Bob"] == 20


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"player": "Bob", "chips": "0"}, "Chips bought: a whole number of chips from 1 to 10000."),
        ({"player": "Bob", "chips": "lots"}, "Chips bought:"),
        ({"player": "Zed", "chips": "3"}, "Choose who buys the chips."),
    ],
)
def test_a_bad_purchase_form_is_a_400_with_one_sentence(
    client: FlaskClient, post_form: Callable[..., Any], data: dict[str, str], words: str
) -> None:
    game = create(client)
    give_key(client, game)
    response = post_form(f"/games/{game['id']}/hand/purchase", data)
    assert response.status_code == 400
    assert words in plain(response)
    assert client.get(f"/api/games/{game['id']}").get_json()["events"] == 0


def test_the_purchase_form_is_hidden_during_a_hand_and_refused_there(
    client: FlaskClient, post_form: Callable[..., Any]
) -> None:
    game = create(client)
    give_key(client, game)
    event(client, game, type="play", player="Bob", card="7H")
    page = client.get(f"/games/{game['id']}/hand").get_data(as_text=True)
    assert 'id="buy"' not in page and 'id="end"' not in page
    response = post_form(f"/games/{game['id']}/hand/purchase", {"player": "Ann", "chips": "3"})
    assert response.status_code == 400
    assert "hand 1 is being played" in plain(response)


def test_purchases_and_ending_need_the_key_and_csrf(client: FlaskClient, post_form: Callable[..., Any]) -> None:
    game = create(client)
    assert post_form(f"/games/{game['id']}/hand/purchase", {"player": "Bob", "chips": "3"}).status_code == 403
    assert post_form(f"/games/{game['id']}/hand/end", {}).status_code == 403
    give_key(client, game)
    assert client.post(f"/games/{game['id']}/hand/end", data={}).status_code == 400
    assert client.get(f"/api/games/{game['id']}").get_json()["finished"] is False


def test_ending_the_game_shows_each_players_result(client: FlaskClient, post_form: Callable[..., Any]) -> None:
    game = create(client)
    give_key(client, game)
    event(client, game, type="purchase", player="Cy", chips=10)
    event(client, game, **QUICK_HAND)
    page = client.get(f"/games/{game['id']}/hand").get_data(as_text=True)
    assert 'id="end"' in page and "End the game now" in page
    ended = post_form(f"/games/{game['id']}/hand/end", {})
    assert ended.status_code == 303
    final = plain(client.get(f"/games/{game['id']}/hand"))
    assert "Results" in final
    assert "Ann 24 20 +4" in final and "Bob 17 20 -3" in final and "Cy 29 30 -1" in final
    assert "Buy chips" not in final and "Quick mode" not in final
    sheet = plain(client.get(f"/games/{game['id']}/sheet"))
    assert "Result" in sheet and "+4" in sheet and "-3" in sheet
    pdf = client.get(f"/games/{game['id']}/sheet.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    assert post_form(f"/games/{game['id']}/hand/end", {}).status_code == 400
    seen = client.get(f"/api/games/{game['id']}").get_json()["version"]
    post_form(f"/games/{game['id']}/hand/undo", {"version": str(seen)})
    assert "Results" not in plain(client.get(f"/games/{game['id']}/hand"))


def test_the_csv_counts_purchases_in_the_balances_and_ends_with_the_results(client: FlaskClient) -> None:
    game = create(client)
    event(client, game, type="purchase", player="Cy", chips=10)
    event(client, game, **QUICK_HAND)
    end(client, game)
    text = client.get(f"/games/{game['id']}/export.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][4:] == ["Ann chips", "Ann balance", "Bob chips", "Bob balance", "Cy chips", "Cy balance"]
    assert rows[1] == ["1", "Ann", "Ann", "yes", "4", "24", "-3", "17", "-1", "29"]
    assert rows[2] == ["result", "", "", "", "4", "24", "-3", "17", "-1", "29"]
