"""The 3-13 pot (RULES.md section 6) through the API and the pages: ante, second discards, knocks, end payouts."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Round, RoundRevision
from tests.conftest import api_game, every_game
from tests.conftest import edit_key as key

FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def create(client: FlaskClient, variant: str = "3-13", players: list[str] | None = None, **options: Any) -> Any:
    return api_game(client, variant, players or FIVE, "Ann", **options)


def scores_for(players: list[str], knocker: str, base: dict[str, int]) -> dict[str, int]:
    return {name: 0 if name == knocker else base[name] for name in players}


def post_round(client: FlaskClient, game: dict[str, Any], knocker: str, base: dict[str, int], **pickups: int) -> Any:
    body: dict[str, Any] = {"went_out": knocker, "scores": scores_for(game["players"], knocker, base)}
    if pickups:
        body["second_discards"] = pickups
    return client.post(f"/api/games/{game['id']}/rounds", json=body, headers=key(game))


def entries(state: dict[str, Any]) -> list[tuple[Any, Any, str, int]]:
    return [(e["round"], e["player"], e["kind"], e["amount"]) for e in state["pot"]["ledger"]]


def assert_balanced(pot: dict[str, Any]) -> None:
    assert sum(pot["net"].values()) + pot["balance"] == 0
    assert pot["balance"] == sum(entry["amount"] for entry in pot["ledger"])
    assert pot["balance"] >= 0


# A 5-player game with a 30-cent knock, so that the pot runs short in round 10 and refills in round 11.
KNOCKERS = ["Bob", "Cy", "Ann", "Dee", "Ann", "Bob", "Ann", "Cy", "Ann", "Eve", "Ann"]
PICKUPS: dict[int, dict[str, int]] = {1: {"Ann": 2}, 3: {"Dee": 1}, 5: {"Eve": 2}, 11: {"Bob": 10}}
BASE = {"Ann": 1, "Bob": 2, "Cy": 1, "Dee": 3, "Eve": 9}
BALANCES = [230, 200, 175, 145, 125, 95, 65, 35, 5, 0]


def test_a_full_five_player_game_is_paid_out_to_the_cent(client: FlaskClient) -> None:
    game = create(client, knock=30)
    assert game["options"]["pot"] is True
    assert (game["options"]["ante"], game["options"]["second_discard"]) == (50, 5)
    assert (game["options"]["knock"], game["options"]["booby_cap"]) == (30, 50)
    assert game["pot"]["balance"] == 250
    assert entries(game) == [(None, name, "ante", 50) for name in FIVE]
    for number, knocker in enumerate(KNOCKERS, start=1):
        response = post_round(client, game, knocker, BASE, **PICKUPS.get(number, {}))
        assert response.status_code == 201, response.get_json()
        state = response.get_json()
        assert_balanced(state["pot"])
        if number <= len(BALANCES):
            assert state["pot"]["balance"] == BALANCES[number - 1], number
    assert state["finished"] is True
    assert state["totals"] == {"Ann": 7, "Bob": 22, "Cy": 11, "Dee": 36, "Eve": 99}
    assert entries(state)[5:] == [
        (1, "Ann", "second_discard", 10),
        (1, "Bob", "knock", -30),
        (2, "Cy", "knock", -30),
        (3, "Dee", "second_discard", 5),
        (3, "Ann", "knock", -30),
        (4, "Dee", "knock", -30),
        (5, "Eve", "second_discard", 10),
        (5, "Ann", "knock", -30),
        (6, "Bob", "knock", -30),
        (7, "Ann", "knock", -30),
        (8, "Cy", "knock", -30),
        (9, "Ann", "knock", -30),
        (10, "Eve", "knock", -5),  # the pot held only 5 cents
        (11, "Bob", "second_discard", 50),
        (11, "Ann", "knock", -30),
        (None, "Eve", "booby", -5),  # a quarter of the 20 cents left, to the highest total
        (None, "Ann", "payout", -15),  # the rest to the lowest total
    ]
    assert state["pot"]["balance"] == 0
    assert state["pot"]["net"] == {"Ann": 105, "Bob": -40, "Cy": 10, "Dee": -25, "Eve": -50}
    assert client.get(f"/api/games/{game['id']}").get_json()["pot"] == state["pot"]
    # The pages show the arithmetic of the end (the rules page explains the booby prize).
    for page in (f"/games/{game['id']}", f"/games/{game['id']}/pot"):
        words = client.get(page).get_data(as_text=True)
        assert "How the pot was paid out" in words
        booby = "Booby prize for the highest total (99): a quarter of the pot ($0.20) is $0.05: Eve receives $0.05."
        payout = "Payout for the lowest total (7): the rest of the pot, $0.20 − $0.05 = $0.15: Ann receives $0.15."
        assert booby in words and payout in words
    rules = client.get("/rules/3-13").get_data(as_text=True)
    assert "The booby prize: at the end, with 5 or more players, the highest total receives a quarter" in rules
    assert "The booby prize" not in client.get("/rules/pay-me").get_data(as_text=True)


def test_ties_split_the_booby_prize_and_the_payout_in_seat_order(client: FlaskClient) -> None:
    game = create(client, ante=100)
    for number in range(1, 12):
        knocker = "Ann" if number % 2 else "Bob"
        base = {"Ann": 7, "Bob": 6, "Cy": 5, "Dee": 10, "Eve": 10}
        state = post_round(client, game, knocker, base).get_json()
    assert state["totals"] == {"Ann": 42, "Bob": 42, "Cy": 65, "Dee": 130, "Eve": 130}
    assert entries(state)[-4:] == [
        (None, "Dee", "booby", -25),  # a quarter of 335 is 83: the cap of 50, split between the two highest
        (None, "Eve", "booby", -25),
        (None, "Ann", "payout", -143),  # 285 split; the odd cent goes to the first in seat order
        (None, "Bob", "payout", -142),
    ]
    assert state["pot"]["net"] == {"Ann": 133, "Bob": 117, "Cy": -100, "Dee": -75, "Eve": -75}
    assert_balanced(state["pot"])


def test_no_booby_prize_under_five_players(client: FlaskClient) -> None:
    game = create(client, players=FIVE[:4], ante=100)
    for _ in range(11):
        state = post_round(client, game, "Bob", {"Ann": 5, "Bob": 0, "Cy": 20, "Dee": 30}).get_json()
    kinds = [entry["kind"] for entry in state["pot"]["ledger"]]
    assert "booby" not in kinds
    assert entries(state)[-1] == (None, "Bob", "payout", -(400 - 11 * 15))
    assert_balanced(state["pot"])


def stored_pickups(app: Flask, game_id: str) -> list[dict[str, int] | None]:
    with app.app_context():
        rounds = db.session.scalars(db.select(Round).filter_by(game_id=game_id).order_by(Round.number))
        return [item.second_discards for item in rounds]


def test_a_correction_recomputes_every_later_round(client: FlaskClient, app: Flask) -> None:
    game = create(client, players=["Ann", "Bob", "Cy"], ante=10)
    base = {"Ann": 5, "Bob": 5, "Cy": 5}
    for knocker in ("Ann", "Bob", "Cy"):
        state = post_round(client, game, knocker, base).get_json()
    assert entries(state)[3:] == [(1, "Ann", "knock", -15), (2, "Bob", "knock", -15)]  # round 3: an empty pot
    assert state["pot"]["balance"] == 0

    body = {"went_out": "Ann", "scores": scores_for(game["players"], "Ann", base), "second_discards": {"Cy": 2}}
    response = client.put(f"/api/games/{game['id']}/rounds/1", json=body, headers=key(game))
    assert response.status_code == 200, response.get_json()
    state = response.get_json()
    assert entries(state)[3:] == [
        (1, "Cy", "second_discard", 10),
        (1, "Ann", "knock", -15),
        (2, "Bob", "knock", -15),
        (3, "Cy", "knock", -10),  # the corrected round 1 left 10 cents for round 3's knock
    ]
    assert_balanced(state["pot"])
    assert stored_pickups(app, game["id"]) == [{"Cy": 2}, {}, {}]
    with app.app_context():
        revision = db.session.scalars(db.select(RoundRevision).filter_by(game_id=game["id"])).one()
        assert (revision.action, revision.second_discards) == ("corrected", {})

    # A correction without second_discards keeps the round's counts.
    body = {"went_out": "Bob", "scores": scores_for(game["players"], "Bob", base)}
    state = client.put(f"/api/games/{game['id']}/rounds/1", json=body, headers=key(game)).get_json()
    assert entries(state)[3:5] == [(1, "Cy", "second_discard", 10), (1, "Bob", "knock", -15)]
    assert stored_pickups(app, game["id"])[0] == {"Cy": 2}

    # Undo takes the last round's entries out of the ledger; its counts go into the history.
    last = f"/api/games/{game['id']}/rounds/last?version={state['version']}"
    state = client.delete(last, headers=key(game)).get_json()
    assert [entry[0] for entry in entries(state)] == [None, None, None, 1, 1, 2]
    assert state["pot"]["balance"] == 10
    with app.app_context():
        undone = db.session.scalars(db.select(RoundRevision).filter_by(game_id=game["id"], action="undone")).one()
        assert undone.second_discards == {}


def test_a_simple_pot_on_another_preset_goes_to_the_lowest_total(client: FlaskClient) -> None:
    game = create(client, "pay-me", ["Ann", "Bob", "Cy"], pot=True, ante=100)
    assert game["options"]["pot"] is True and game["options"]["ante"] == 100
    assert "knock" not in game["options"]
    assert game["pot"]["balance"] == 300
    refused = post_round(client, game, "Bob", {"Ann": 5, "Bob": 0, "Cy": 20}, Ann=1)
    assert refused.status_code == 400
    assert "simple pot" in refused.get_json()["error"]
    for _ in range(11):
        state = post_round(client, game, "Bob", {"Ann": 5, "Bob": 0, "Cy": 20}).get_json()
    assert entries(state)[3:] == [(None, "Bob", "payout", -300)]
    assert state["pot"]["net"] == {"Ann": -100, "Bob": 200, "Cy": -100}


def test_games_without_a_pot_have_a_null_pot_and_refuse_pickups(client: FlaskClient) -> None:
    game = create(client, "pay-me", ["Ann", "Bob", "Cy"])
    assert game["pot"] is None
    assert "pot" not in game["options"]
    refused = post_round(client, game, "Bob", {"Ann": 5, "Bob": 0, "Cy": 20}, Ann=2)
    assert refused.status_code == 400
    assert "no pot" in refused.get_json()["error"]
    assert post_round(client, game, "Bob", {"Ann": 5, "Bob": 0, "Cy": 20}, Ann=0).status_code == 201
    off = create(client, "3-13", ["Ann", "Bob"], pot=False)
    assert off["pot"] is None


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"pot": "yes"}, 'Play for a pot: true or false, not "yes"'),
        ({"ante": -5}, 'Ante, each player: a whole number of cents from 0 to 100000, not "-5"'),
        ({"ante": 1.5}, "Ante, each player: a whole number"),
        ({"knock": True}, "Knock payout: a whole number"),
        ({"booby_cap": "50"}, "Booby prize cap: a whole number"),
        ({"second_discard": 10**6}, "Second discard: a whole number"),
    ],
)
def test_bad_pot_options_are_refused(client: FlaskClient, options: dict[str, Any], words: str) -> None:
    response = client.post("/api/games", json={"variant": "3-13", "players": FIVE, "options": options})
    assert response.status_code == 400
    assert words in response.get_json()["error"]
    assert every_game(client) == []


def test_3_13_amounts_are_refused_on_a_simple_pot(client: FlaskClient) -> None:
    body = {"variant": "pay-me", "players": FIVE, "options": {"pot": True, "knock": 10}}
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert "3-13 pot" in response.get_json()["error"]


@pytest.mark.parametrize(
    ("pickups", "words"),
    [
        ({"Zed": 1}, '"Zed" took a second discard but is not a player'),
        ({"Ann": -1}, "second discard"),
        ({"Ann": 1.5}, "second discard"),
        ({"Ann": "2"}, "second discard"),
        ({"Ann": True}, "second discard"),
        ({"Ann": 100}, "second discard"),
        (["Ann"], "second_discards must be an object"),
    ],
)
def test_bad_second_discards_are_refused_and_nothing_is_stored(
    client: FlaskClient, app: Flask, pickups: Any, words: str
) -> None:
    game = create(client)
    body = {"went_out": "Bob", "scores": scores_for(FIVE, "Bob", BASE), "second_discards": pickups}
    response = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=key(game))
    assert response.status_code == 400
    assert words in response.get_json()["error"]
    assert stored_pickups(app, game["id"]) == []
    assert client.get(f"/api/games/{game['id']}").get_json()["pot"]["balance"] == 250


def test_a_rematch_keeps_the_pot_settings(client: FlaskClient) -> None:
    game = create(client, players=["Ann", "Bob"], ante=20, knock=5)
    assert game["pot"]["balance"] == 40
    for _ in range(11):
        post_round(client, game, "Ann", {"Ann": 0, "Bob": 3})
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    response = client.post(f"/games/{game['id']}/rematch", data={"csrf_token": token.group(1)})
    assert response.status_code == 303
    new_id = response.headers["Location"].rsplit("/", 1)[-1]
    state = client.get(f"/api/games/{new_id}").get_json()
    assert (state["options"]["ante"], state["options"]["knock"]) == (20, 5)
    assert state["pot"]["balance"] == 40


# ---------------------------------------------------------------- pages


def start_page_game(post_form: Callable[..., Any], **fields: str) -> str:
    data = {"variant": "3-13", "players": "\n".join(FIVE), "first_dealer": "0", **fields}
    response = post_form("/games/new", data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return str(response.headers["Location"]).rsplit("/", 1)[-1]


def test_new_game_page_offers_the_pot(client: FlaskClient) -> None:
    page = client.get("/games/new?variant=3-13").get_data(as_text=True)
    assert re.search(r'<input checked id="opt_pot" name="opt_pot" type="checkbox"', page)
    for name, cents in (("ante", 50), ("second_discard", 5), ("knock", 15), ("booby_cap", 50)):
        assert re.search(rf'id="opt_{name}"[^>]*name="opt_{name}"[^>]*value="{cents}"', page), name
    page = client.get("/games/new?variant=pay-me").get_data(as_text=True)
    assert re.search(r'<input id="opt_pot" name="opt_pot" type="checkbox"', page)
    assert 'name="opt_ante"' in page and 'name="opt_knock"' not in page
    assert "/games/new/chips" in page  # Play or Pay is offered too


def test_pages_show_the_pot_the_knock_box_and_the_ledger(client: FlaskClient, post_form: Callable[..., Any]) -> None:
    game_id = start_page_game(
        post_form, opt_pot="y", opt_ante="50", opt_second_discard="5", opt_knock="15", opt_booby_cap="50"
    )
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="pot"' in page and "$2.50" in page

    form = client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)
    assert "Second discards taken" in form
    assert form.count('data-step="1"') == 5
    data = {"went_out": "Bob", "version": "1", "second_discards-0": "2", "second_discards-1": "0"}
    data.update({f"scores-{seat}": "0" if name == "Bob" else "5" for seat, name in enumerate(FIVE)})
    response = post_form(f"/games/{game_id}/rounds/new", data)
    assert response.status_code == 303, response.get_data(as_text=True)
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["pot"]["balance"] == 250 + 10 - 15
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'class="knock-box"' in page and "$0.15" in page

    ledger = client.get(f"/games/{game_id}/pot").get_data(as_text=True)
    assert "Pot ledger" in ledger
    assert "second discard" in ledger and "+$0.10" in ledger and "-$0.15" in ledger
    assert "Pot after round 1" in ledger and "$2.45" in ledger

    edit = client.get(f"/games/{game_id}/rounds/1/edit").get_data(as_text=True)
    assert re.search(r'id="second_discards-0"[^>]*value="2"', edit)
    data["second_discards-0"] = "1"
    assert post_form(f"/games/{game_id}/rounds/1/edit", {**data, "version": "2"}).status_code == 303
    assert client.get(f"/api/games/{game_id}").get_json()["pot"]["balance"] == 250 + 5 - 15


def test_round_form_refuses_a_negative_stepper(client: FlaskClient, post_form: Callable[..., Any]) -> None:
    game_id = start_page_game(
        post_form, opt_pot="y", opt_ante="50", opt_second_discard="5", opt_knock="15", opt_booby_cap="50"
    )
    data = {"went_out": "Bob", "version": "1", "second_discards-0": "-2"}
    data.update({f"scores-{seat}": "0" if name == "Bob" else "5" for seat, name in enumerate(FIVE)})
    response = post_form(f"/games/{game_id}/rounds/new", data)
    assert response.status_code == 400
    assert client.get(f"/api/games/{game_id}").get_json()["rounds"] == []


def test_pages_without_a_pot(client: FlaskClient, post_form: Callable[..., Any]) -> None:
    game_id = start_page_game(post_form)  # the box left unticked: no pot
    assert client.get(f"/api/games/{game_id}").get_json()["pot"] is None
    assert 'id="pot"' not in client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Second discards" not in client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)
    assert client.get(f"/games/{game_id}/pot").status_code == 404
    assert client.get("/games/nope/pot").status_code == 404


def test_bad_pot_amount_on_the_form_is_refused(client: FlaskClient, post_form: Callable[..., Any]) -> None:
    data = {"variant": "3-13", "players": "Ann\nBob", "first_dealer": "0", "opt_pot": "y", "opt_ante": "abc"}
    response = post_form("/games/new", data)
    assert response.status_code == 400
    assert every_game(client) == []
