"""Play or Pay (RULES.md section 7) through the API and the pages: events, settlement, quick mode, flags."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import GameEvent
from tests.conftest import api_game, every_game
from tests.conftest import edit_key as key

PLAYERS = ["Ann", "Bob", "Cy"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def create(client: FlaskClient, players: list[str] | None = None, **options: Any) -> Any:
    players = players or PLAYERS
    return api_game(client, "play-or-pay", players, players[0], **options)


def event(client: FlaskClient, game: dict[str, Any], **body: Any) -> Any:
    return client.post(f"/api/games/{game['id']}/events", json=body, headers=key(game))


def state_of(client: FlaskClient, game: dict[str, Any]) -> Any:
    return client.get(f"/api/games/{game['id']}").get_json()


def deal(players: list[str], dealer: int, seed: int) -> dict[str, set[str]]:
    """A shuffled deck dealt out one card at a time, starting left of the dealer."""
    deck = [rank + suit for suit in "SHDC" for rank in RANKS]
    random.Random(seed).shuffle(deck)
    holdings: dict[str, set[str]] = {name: set() for name in players}
    for index, card in enumerate(deck):
        holdings[players[(dealer + 1 + index) % len(players)]].add(card)
    return holdings


def following(card: str) -> str:
    rank, suit = card[:-1], card[-1]
    return RANKS[(RANKS.index(rank) + 1) % 13] + suit


def test_create_a_game_with_chips_and_the_deal(client: FlaskClient) -> None:
    game = create(client)
    assert game["variant"] == "play-or-pay"
    assert game["options"] == {"chips": 20}
    assert game["chips"] == {"Ann": 20, "Bob": 20, "Cy": 20}
    hand = game["hand"]
    assert (hand["number"], hand["dealer"], hand["turn"], hand["lead"], hand["needed"]) == (1, "Ann", "Bob", True, None)
    assert hand["dealt"] == hand["cards_left"] == {"Ann": 17, "Bob": 18, "Cy": 17}
    assert (game["hands"], game["flags"], game["events"]) == ([], [], 0)
    assert create(client, ["A", "B", "C", "D", "E"], chips=30)["chips"]["E"] == 30
    listed = every_game(client)
    assert {item["variant"] for item in listed} == {"play-or-pay"}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"players": ["Ann", "Bob"]}, "3 to 10 players"),
        ({"players": [f"P{n}" for n in range(11)]}, "3 to 10 players"),
        ({"options": {"chips": 0}}, "Starting chips: a whole number of chips from 1 to"),
        ({"options": {"chips": "20"}}, "Starting chips: a whole number"),
        ({"options": {"chips": True}}, "Starting chips: a whole number"),
        ({"options": {"pot": True}}, 'unknown option "pot"'),
        ({"options": ["chips"]}, "options must be an object"),
        ({"first_dealer": "Zed"}, "first dealer"),
    ],
)
def test_bad_play_or_pay_games_are_refused(client: FlaskClient, body: dict[str, Any], words: str) -> None:
    response = client.post("/api/games", json={"variant": "play-or-pay", "players": PLAYERS, **body})
    assert response.status_code == 400
    assert words in response.get_json()["error"]
    assert every_game(client) == []


def test_a_full_hand_followed_card_by_card_settles_and_conserves_chips(client: FlaskClient) -> None:
    game = create(client)
    holdings = deal(PLAYERS, 0, seed=6)
    paid = dict.fromkeys(PLAYERS, 0)
    state = game
    while not state["hands"]:
        hand = state["hand"]
        who = hand["turn"]
        if hand["needed"] is None:
            card = sorted(holdings[who])[0]
            response = event(client, game, type="play", player=who, card=card)
            holdings[who].discard(card)
        elif hand["needed"] in holdings[who]:
            response = event(client, game, type="play", player=who, card=hand["needed"])
            holdings[who].discard(hand["needed"])
        else:
            response = event(client, game, type="pay", player=who)
            paid[who] += 1
        assert response.status_code == 201, response.get_json()
        state = response.get_json()
        if not state["hands"]:
            assert state["hand"]["cards_left"] == {name: len(cards) for name, cards in holdings.items()}
            assert sum(state["chips"].values()) + state["hand"]["pot"] == 60
    winner = next(name for name, cards in holdings.items() if not cards)
    settled = state["hands"][0]
    assert (settled["number"], settled["dealer"], settled["winner"], settled["quick"]) == (1, "Ann", winner, False)
    for name in PLAYERS:
        if name != winner:
            assert settled["payments"][name] == -(paid[name] + len(holdings[name]))
    assert sum(settled["payments"].values()) == 0
    assert settled["pot"] == sum(paid.values()) + sum(len(cards) for cards in holdings.values())
    assert state["chips"] == {name: 20 + settled["payments"][name] for name in PLAYERS}
    assert sum(state["chips"].values()) == 60
    assert state["flags"] == []
    # The deal moves left: Bob deals hand 2 and Cy leads.
    hand = state["hand"]
    assert (hand["number"], hand["dealer"], hand["turn"], hand["played"], hand["pot"]) == (2, "Bob", "Cy", [], 0)
    assert hand["cards_left"] == {"Ann": 17, "Bob": 17, "Cy": 18}


def complete_hearts(client: FlaskClient, game: dict[str, Any]) -> Any:
    """Thirteen plays from 7H round to 6H: Bob, Cy, Ann, Bob, ... so Bob plays the 13th and leads next."""
    card = "7H"
    for number in range(13):
        response = event(client, game, type="play", player=PLAYERS[(number + 1) % 3], card=card)
        assert response.status_code == 201, response.get_json()
        card = following(card)
    return response.get_json()


def stored_events(app: Flask, game_id: str) -> int:
    with app.app_context():
        return len(db.session.scalars(db.select(GameEvent).filter_by(game_id=game_id)).all())


@pytest.mark.parametrize(
    ("before", "body", "words"),
    [
        ([], {"type": "play", "player": "Cy", "card": "7H"}, 'Cy cannot play "7H": it is Bob\'s turn'),
        ([], {"type": "pay", "player": "Bob"}, "Bob cannot pay: no card is needed, so Bob leads a new sequence"),
        ([("Bob", "7H")], {"type": "play", "player": "Cy", "card": "9H"}, "the card needed is 8H"),
        ([("Bob", "7H")], {"type": "play", "player": "Cy", "card": "7H"}, "has already been played"),
        ([("Bob", "7H")], {"type": "pay", "player": "Ann"}, "Ann cannot pay: it is Cy's turn"),
        ([("Bob", "7H")], {"type": "play", "player": "Cy", "card": "JK"}, "no jokers"),
        ([], {"type": "play", "player": "Bob", "card": "7X"}, '"7X" is not a card'),
        ([], {"type": "play", "player": "Bob"}, "card must be a card"),
        ([], {"type": "play", "player": "Zed", "card": "7H"}, '"Zed" is not a player at this table'),
        ([], {"type": "fold", "player": "Bob"}, 'type must be "play", "pay", "settle" or "purchase"'),
        ([], {"type": "pay", "player": "Bob", "card": "7H"}, 'unknown field "card"'),
        ([], {"type": "play", "player": "Bob", "card": "7H", "version": 99}, "changed since you loaded it"),
    ],
)
def test_refused_events_answer_400_with_the_reason_and_store_nothing(
    client: FlaskClient, app: Flask, before: list[tuple[str, str]], body: dict[str, Any], words: str
) -> None:
    game = create(client)
    for player, card in before:
        assert event(client, game, type="play", player=player, card=card).status_code == 201
    state = state_of(client, game)
    response = event(client, game, **body)
    assert response.status_code in (400, 409)
    assert words in response.get_json()["error"]
    assert state_of(client, game) == state
    assert stored_events(app, game["id"]) == len(before)


def test_a_stale_event_is_a_409_with_the_game_as_stored_now(client: FlaskClient) -> None:
    game = create(client)
    first = event(client, game, type="play", player="Bob", card="7H", version=1)
    assert first.status_code == 201
    stale = event(client, game, type="pay", player="Cy", version=1)
    assert stale.status_code == 409
    answer = stale.get_json()
    assert "changed since you loaded it" in answer["error"]
    assert answer["current"] == state_of(client, game)
    assert answer["current"]["hand"]["needed"] == "8H"


def test_a_lead_in_a_finished_suit_is_refused(client: FlaskClient) -> None:
    game = create(client)
    state = complete_hearts(client, game)
    assert (state["hand"]["turn"], state["hand"]["lead"], state["hand"]["suits_played"]) == ("Bob", True, ["H"])
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    page = client.get(f"/games/{game['id']}/hand").get_data(as_text=True)
    assert "Sequence over: Bob played its last card (6♥) and leads next." in page
    assert page.count('class="lead-suit"') == 3 and page.count('name="card" value="') == 39
    assert 'data-suit="H"' not in page and 'value="2H"' not in page
    assert state["hand"]["cards_left"] == {"Ann": 13, "Bob": 13, "Cy": 13}
    response = event(client, game, type="play", player="Bob", card="2H")
    assert response.status_code == 400
    # Every heart has been played, so the engine names that first.
    assert response.get_json()["error"] == 'Bob cannot play "2H": it has already been played this hand'
    assert state_of(client, game) == state
    assert event(client, game, type="play", player="Bob", card="2S").status_code == 201


def test_flag_when_a_player_plays_a_card_they_paid_for(client: FlaskClient) -> None:
    game = create(client)
    holdings = deal(PLAYERS, 0, seed=11)
    lead = next(card for card in sorted(holdings["Bob"]) if following(card) in holdings["Cy"])
    needed = following(lead)
    assert event(client, game, type="play", player="Bob", card=lead).status_code == 201
    assert event(client, game, type="pay", player="Cy").status_code == 201  # Cy holds it but pays
    assert event(client, game, type="pay", player="Ann").status_code == 201
    assert event(client, game, type="pay", player="Bob").status_code == 201
    # Play has gone round: it is Cy's turn again, and Cy now plays the card she paid for.
    state = event(client, game, type="play", player="Cy", card=needed).get_json()
    assert state["flags"] == [
        {
            "hand": 1,
            "player": "Cy",
            "card": needed,
            "message": f"Cy played {needed} after paying a chip when {needed} was needed, so Cy held it then",
        }
    ]
    assert state["chips"] == {"Ann": 19, "Bob": 19, "Cy": 19}
    assert state["hand"]["pot"] == 3
    page = client.get(f"/games/{game['id']}/hand").get_data(as_text=True)
    assert 'id="flags"' in page and f"Cy played {needed} after paying a chip" in page


def test_undo_the_last_event(client: FlaskClient, app: Flask) -> None:
    game = create(client)
    assert client.delete(f"/api/games/{game['id']}/events/last", headers=key(game)).status_code == 404
    start = state_of(client, game)
    event(client, game, type="play", player="Bob", card="7H")
    after_play = state_of(client, game)
    paid = event(client, game, type="pay", player="Cy").get_json()
    last = f"/api/games/{game['id']}/events/last"
    response = client.delete(f"{last}?version={paid['version']}", headers=key(game))
    assert response.status_code == 200
    undone = response.get_json()
    assert undone["hand"] == after_play["hand"] and undone["chips"] == after_play["chips"]
    undone = client.delete(f"{last}?version={undone['version']}", headers=key(game)).get_json()
    assert undone["hand"] == start["hand"]
    assert stored_events(app, game["id"]) == 0
    assert client.delete(f"/api/games/{game['id']}/events/last").status_code == 403


def test_quick_mode_settles_a_hand_and_moves_the_deal(client: FlaskClient) -> None:
    game = create(client, chips=3)
    response = event(client, game, type="settle", winner="Ann", cards_left={"Bob": 3, "Cy": 5}, paid={"Bob": 2})
    assert response.status_code == 201, response.get_json()
    state = response.get_json()
    assert state["hands"] == [
        {
            "number": 1,
            "dealer": "Ann",
            "winner": "Ann",
            "quick": True,
            "payments": {"Ann": 10, "Bob": -5, "Cy": -5},
            "pot": 10,
            "entries": [
                {"hand": 1, "player": "Bob", "kind": "pay", "amount": -2},
                {"hand": 1, "player": "Bob", "kind": "cards_left", "amount": -3},
                {"hand": 1, "player": "Cy", "kind": "cards_left", "amount": -5},
                {"hand": 1, "player": "Ann", "kind": "pot", "amount": 10},
            ],
        }
    ]
    assert state["chips"] == {"Ann": 13, "Bob": -2, "Cy": -2}  # below zero: owed
    assert sum(state["chips"].values()) == 9
    assert (state["hand"]["number"], state["hand"]["dealer"], state["hand"]["turn"]) == (2, "Bob", "Cy")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"winner": "Ann", "cards_left": {"Bob": 3}}, "Cy is missing"),
        ({"winner": "Ann", "cards_left": {"Ann": 2, "Bob": 3, "Cy": 4}}, "Ann won the hand"),
        ({"winner": "Ann", "cards_left": {"Bob": 0, "Cy": 4}}, "Bob did not win the hand"),
        ({"winner": "Ann", "cards_left": {"Bob": 19, "Cy": 4}}, "Bob was dealt 18 cards"),
        ({"winner": "Ann", "cards_left": {"Bob": 1, "Cy": 4}, "paid": {"Bob": -1}}, "Bob cannot have paid"),
        ({"winner": "Ann", "cards_left": {"Bob": 1, "Cy": 4}, "paid": {"Zed": 1}}, 'paid names "Zed"'),
        ({"winner": "Zed", "cards_left": {"Bob": 1, "Cy": 4}}, '"Zed" is not a player'),
        ({"winner": "Ann", "cards_left": [1, 4]}, "cards_left must be an object"),
    ],
)
def test_bad_quick_settlements_are_refused(client: FlaskClient, body: dict[str, Any], words: str) -> None:
    game = create(client)
    state = state_of(client, game)
    response = event(client, game, type="settle", **body)
    assert response.status_code == 400
    assert words in response.get_json()["error"]
    assert state_of(client, game) == state


def test_quick_mode_is_refused_once_a_hand_is_followed_card_by_card(client: FlaskClient) -> None:
    game = create(client)
    event(client, game, type="play", player="Bob", card="7H")
    response = event(client, game, type="settle", winner="Ann", cards_left={"Bob": 3, "Cy": 5})
    assert response.status_code == 400
    assert "quick mode" in response.get_json()["error"]


def test_rounds_and_events_do_not_mix(client: FlaskClient) -> None:
    game = create(client)
    body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 1, "Cy": 1}}
    for method, url in (
        ("post", f"/api/games/{game['id']}/rounds"),
        ("put", f"/api/games/{game['id']}/rounds/1"),
        ("delete", f"/api/games/{game['id']}/rounds/last"),
    ):
        response = getattr(client, method)(url, json=body, headers=key(game))
        assert response.status_code == 400, url
        assert response.get_json()["error"] == "Play or Pay is played in hands, not rounds"
    rummy = client.post("/api/games", json={"variant": "pay-me", "players": PLAYERS}).get_json()
    response = event(client, rummy, type="pay", player="Bob")
    assert response.status_code == 400
    assert "only a Play or Pay game takes events" in response.get_json()["error"]
    assert client.post("/api/games/nope/events", json={"type": "pay"}, headers=key(game)).status_code == 404
    assert client.post(f"/api/games/{game['id']}/events", json={"type": "pay", "player": "Bob"}).status_code == 403
    url = f"/api/games/{game['id']}/events"
    broken = client.post(url, data="[", headers=key(game), content_type="application/json")
    assert broken.status_code == 400


def test_openapi_documents_events_and_the_pot(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    assert "/api/games/{game_id}/events" in document["paths"]
    assert "/api/games/{game_id}/events/last" in document["paths"]
    schemas = document["components"]["schemas"]
    assert "second_discards" in schemas["RoundEntry"]["properties"]
    # OpenAPI 3.1 has no "nullable": a game without a pot has "pot": null, a schema of its own.
    assert schemas["Game"]["properties"]["pot"]["anyOf"] == [{"$ref": "#/components/schemas/Pot"}, {"type": "null"}]
    assert {"pot", "ante", "knock", "chips"} <= set(schemas["Options"]["properties"])
    assert schemas["NewGame"]["properties"]["variant"]["enum"].count("play-or-pay") == 1
    assert client.get("/api/openapi.json").get_json() == document  # describing twice changes nothing


# ---------------------------------------------------------------- pages


def csrf(page: str) -> str:
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert match
    return match.group(1)


def start_page_game(client: FlaskClient, post_form: Callable[..., Any]) -> str:
    page = client.get("/games/new/chips").get_data(as_text=True)
    assert 'name="chips"' in page and 'value="20"' in page
    response = post_form("/games/new/chips", {"players": "Ann\nBob\nCy", "first_dealer": "0", "chips": "20"})
    assert response.status_code == 303
    game_id = str(response.headers["Location"]).split("/")[2]
    assert response.headers["Location"] == f"/games/{game_id}/hand"
    return game_id


def hand_post(client: FlaskClient, game_id: str, path: str, data: dict[str, str]) -> Any:
    page = client.get(f"/games/{game_id}/hand").get_data(as_text=True)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert version
    return client.post(
        f"/games/{game_id}/hand/{path}", data={"csrf_token": csrf(page), "version": version.group(1), **data}
    )


def test_hand_screen_follows_a_hand(client: FlaskClient, post_form: Callable[..., Any]) -> None:
    game_id = start_page_game(client, post_form)
    assert client.get(f"/games/{game_id}").status_code == 303  # the game's address opens the hand screen
    assert client.get(f"/games/{game_id}/delete").headers["Location"] == f"/games/{game_id}/hand#delete"
    page = client.get(f"/games/{game_id}/hand").get_data(as_text=True)
    assert "<strong>Bob</strong> leads" in page
    assert page.count('class="lead-suit"') == 4 and page.count('name="card" value="') == 52
    assert '18<span class="muted small"> of 18</span>' in page

    response = hand_post(client, game_id, "event", {"type": "lead", "player": "Bob", "card": "7H"})
    assert response.status_code == 303
    page = client.get(f"/games/{game_id}/hand").get_data(as_text=True)
    assert 'id="needed">8♥<' in page and "<strong>Cy</strong>'s turn" in page
    assert hand_post(client, game_id, "event", {"type": "pay", "player": "Cy"}).status_code == 303
    assert hand_post(client, game_id, "event", {"type": "play", "player": "Ann", "card": "8H"}).status_code == 303
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["hand"]["played"] == ["7H", "8H"] and state["chips"]["Cy"] == 19

    # A stale tap (Ann again) is refused with the engine's reason, and nothing is stored.
    response = hand_post(client, game_id, "event", {"type": "play", "player": "Ann", "card": "9H"})
    assert response.status_code == 400
    assert "it is Bob&#39;s turn" in response.get_data(as_text=True)
    assert client.get(f"/api/games/{game_id}").get_json() == state

    assert hand_post(client, game_id, "undo", {}).status_code == 303
    assert client.get(f"/api/games/{game_id}").get_json()["hand"]["played"] == ["7H"]

    # Someone else's phone sees the hand without the buttons.
    viewer = client.application.test_client()
    page = viewer.get(f"/games/{game_id}/hand").get_data(as_text=True)
    assert "View only" in page and 'id="paid"' not in page
    assert viewer.post(f"/games/{game_id}/hand/undo", data={}).status_code in (400, 403)


def test_quick_mode_page_and_owed_chips(client: FlaskClient, post_form: Callable[..., Any]) -> None:
    game_id = start_page_game(client, post_form)
    bad = hand_post(client, game_id, "quick", {"winner": "Ann", "cards_left-1": "x", "cards_left-2": "4"})
    assert bad.status_code == 400 and "must be a whole number" in bad.get_data(as_text=True)
    odd = hand_post(client, game_id, "quick", {"winner": "Ann", "cards_left-1": "¹", "cards_left-2": "4"})
    assert odd.status_code == 400
    missing = hand_post(client, game_id, "quick", {"cards_left-1": "3"})
    assert missing.status_code == 400
    data = {"winner": "Ann", "cards_left-0": "", "cards_left-1": "15", "cards_left-2": "17", "paid-1": "6"}
    assert hand_post(client, game_id, "quick", data).status_code == 303
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["chips"] == {"Ann": 58, "Bob": -1, "Cy": 3}
    page = client.get(f"/games/{game_id}/hand").get_data(as_text=True)
    assert "owes 1 chip" in page and "Hand 1 is settled" in page and "quick mode" in page


def test_money_pages_refuse_the_wrong_kind_of_game(client: FlaskClient, post_form: Callable[..., Any]) -> None:
    game_id = start_page_game(client, post_form)
    assert client.get(f"/games/{game_id}/pot").status_code == 404
    assert client.get(f"/games/{game_id}/rounds/new").status_code == 400
    rummy = client.post("/api/games", json={"variant": "pay-me", "players": PLAYERS}).get_json()
    assert client.get(f"/games/{rummy['id']}/hand").status_code == 404
    assert client.get("/games/nope/hand").status_code == 404
    assert "Play or Pay" in client.get("/").get_data(as_text=True)
    bad = post_form("/games/new/chips", {"players": "Ann\nBob", "first_dealer": "random", "chips": "20"})
    assert bad.status_code == 400 and "3 to 10 players" in bad.get_data(as_text=True)
    bad = post_form("/games/new/chips", {"players": "Ann\nBob\nCy", "first_dealer": "random", "chips": "0"})
    assert bad.status_code == 400


def test_deleting_a_game_deletes_its_events(client: FlaskClient, app: Flask) -> None:
    game = create(client)
    event(client, game, type="play", player="Bob", card="7H")
    response = client.delete(f"/api/games/{game['id']}", headers=key(game))
    assert response.status_code == 200
    assert stored_events(app, game["id"]) == 0
    assert client.get(f"/api/games/{game['id']}").status_code == 404
