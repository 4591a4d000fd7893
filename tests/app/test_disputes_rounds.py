"""Rounds scored from cards: "hands" and "declarer" in round bodies (issue 5, D7, D8)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Round, RoundRevision
from tests.conftest import api_game, edit_key


def new_game(
    client: FlaskClient, variant: str = "pay-me", players: tuple[str, ...] = ("Ann", "Bob", "Cy"), **options: Any
) -> tuple[str, dict[str, str]]:
    game = api_game(client, variant, list(players), players[0], **options)
    return game["id"], edit_key(game)


def add_round(client: FlaskClient, game_id: str, key: dict[str, str], **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/rounds", json=body, headers=key)


def stored(app: Flask, game_id: str) -> list[Round]:
    with app.app_context():
        rows = db.session.scalars(db.select(Round).filter_by(game_id=game_id).order_by(Round.number)).all()
        return list(rows)


def undo_last_round(client: FlaskClient, game_id: str, key: dict[str, str]) -> None:
    """Undo as a phone does: with the version it saw."""
    version = client.get(f"/api/games/{game_id}").get_json()["version"]
    assert client.delete(f"/api/games/{game_id}/rounds/last?version={version}", headers=key).status_code == 200


def test_hands_are_scored_by_the_engine_and_kept(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    response = add_round(
        client, game_id, key, went_out="Bob", scores={"Bob": 0, "Cy": "10+5"}, hands={"Ann": "7h 8c ks"}
    )
    assert response.status_code == 201, response.get_json()
    played = response.get_json()["rounds"][0]
    # Round 1 of Pay Me: 7H scores 5, 8C and KS 10 each (no lay-offs without the declarer's melds).
    assert played["scores"] == {"Ann": 25, "Bob": 0, "Cy": 15}
    assert played["hands"] == {"Ann": "7H 8C KS"}
    assert client.get(f"/api/games/{game_id}").get_json()["rounds"][0]["hands"] == {"Ann": "7H 8C KS"}


def test_declarer_melds_let_the_others_lay_off(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    response = add_round(
        client,
        game_id,
        key,
        went_out="Bob",
        declarer=["4H 5H 6H"],
        hands={"Ann": "7H 8H KS", "Cy": "JK 9C 9D"},
    )
    assert response.status_code == 201, response.get_json()
    played = response.get_json()["rounds"][0]
    # Ann lays 7H 8H off onto 4H 5H 6H and keeps KS (10); Cy melds 9C 9D JK.
    assert played["scores"] == {"Ann": 10, "Bob": 0, "Cy": 0}
    assert played["hands"] == {"Bob": "4H 5H 6H", "Ann": "7H 8H KS", "Cy": "JK 9C 9D"}


def test_the_declarers_melds_may_be_given_in_hands_with_bars(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    hands = {"Bob": "4H 5H 6H | 9C 9D 9S", "Ann": "7H 8H KS"}
    response = add_round(client, game_id, key, went_out="Bob", scores={"Cy": 5}, hands=hands)
    assert response.status_code == 400  # round 1 deals 3 cards: six melded cards cannot be a hand
    assert "hold 3 cards, or 4 when going out without a discard; 6 were given" in response.get_json()["error"]
    response = add_round(
        client, game_id, key, went_out="Bob", scores={"Cy": 5}, hands={"Bob": "4H 5H 6H", "Ann": "7H 8H KS"}
    )
    assert response.status_code == 201
    # A plain hand is split into melds by the engine; Ann lays 7H 8H off on 4H 5H 6H.
    assert response.get_json()["rounds"][0]["scores"] == {"Ann": 10, "Bob": 0, "Cy": 5}
    response = add_round(
        client, game_id, key, went_out="Cy", scores={"Bob": 5}, hands={"Cy": "4H 5H 6H | 9C 9D", "Ann": "7H 8H KS 3C"}
    )
    assert response.status_code == 400
    assert "declarer's meld 2 (9C 9D) is not legal" in response.get_json()["error"]
    response = add_round(
        client, game_id, key, went_out="Cy", scores={"Bob": 5}, hands={"Cy": "4H 5H 6H 2C", "Ann": "7H 8H KS 3C"}
    )
    assert response.status_code == 201
    response = add_round(
        client,
        game_id,
        key,
        went_out="Cy",
        scores={"Bob": 5},
        hands={"Cy": "4H 5H 6H | 9C 9D 9S", "Ann": "7H 8H KS 3C AS"},
    )
    assert response.status_code == 201, response.get_json()
    played = response.get_json()["rounds"][2]
    assert played["hands"]["Cy"] == "4H 5H 6H | 9C 9D 9S"
    assert played["scores"]["Ann"] == 20  # 7H 8H laid off; KS 10, 3C 5 and AS 5 left
    # The round's JSON can be sent back as it is.
    again = client.put(
        f"/api/games/{game_id}/rounds/3",
        json={"went_out": "Cy", "scores": {"Bob": 5}, "hands": played["hands"]},
        headers=key,
    )
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["rounds"][2] == played


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"went_out": "Bob", "scores": {"Ann": 5, "Bob": 0, "Cy": 5}, "hands": {"Ann": "7H"}},
            "give Ann's score or Ann's cards, not both",
        ),
        (
            {"went_out": "Bob", "scores": {"Bob": 0, "Cy": 5}, "hands": {"Ann": "7H 7X"}},
            '"7X" at position 2 is not a card',
        ),
        ({"went_out": "Bob", "scores": {"Bob": 0, "Cy": 5}, "hands": {"Ann": ""}}, "Ann's cards are empty"),
        (
            {"went_out": "Bob", "scores": {"Bob": 0, "Cy": 5}, "hands": {"Dee": "7H"}},
            '"Dee" is not a player in this game',
        ),
        ({"went_out": "Bob", "scores": {"Bob": 0, "Cy": 5}, "hands": ["7H"]}, "hands must be an object"),
        ({"went_out": "Bob", "scores": {"Bob": 0, "Cy": 5}, "hands": {"Ann": 7}}, "hands must be an object"),
        (
            {"went_out": "Bob", "scores": {"Cy": 5}, "hands": {"Ann": "7H", "Bob": "4H 5H 9C"}},
            "Bob went out, but these cards cannot all be melded",
        ),
        (
            {"went_out": "Bob", "scores": {"Cy": 5}, "hands": {"Ann": "7H", "Bob": "4H 5H"}},
            "Bob went out, but in round 1 a player going out shows 3 cards",
        ),
        (
            {"went_out": "Bob", "scores": {"Cy": 5, "Ann": 5}, "declarer": "4H 5H 6H"},
            "declarer must be a list of melds",
        ),
        (
            {"went_out": "Bob", "scores": {"Cy": 5, "Ann": 5}, "declarer": ["4H 5C 6H"]},
            "declarer's meld 1 (4H 5C 6H) is not legal",
        ),
        (
            {"went_out": "Bob", "scores": {"Cy": 5, "Ann": 5}, "declarer": ["4H 5H 6H"], "hands": {"Bob": "4H 5H 6H"}},
            "give Bob's cards once",
        ),
        (
            {"went_out": "Bob", "scores": {"Cy": 5}, "hands": {"Ann": "7H 7H 7H"}},
            '"7H" appears 3 times, but 2 decks hold only 2',
        ),
        ({"went_out": "Bob", "scores": {"Cy": 5, "Ann": 5}, "declarer": [" "]}, "declarer must list at least one meld"),
        ({"went_out": 3, "scores": {"Cy": 5}, "hands": {"Ann": "7H"}}, "went_out must be the name"),
        ({"went_out": "Bob", "hands": {"Ann": "7H"}}, "Bob has no score"),
        (
            {"went_out": "Bob", "scores": {"Bob": 0, "Cy": 5}, "hands": {"Ann": "7H"}, "extra": 1},
            'unknown field "extra"',
        ),
    ],
)
def test_rejected_round_bodies_store_nothing(
    client: FlaskClient, app: Flask, body: dict[str, Any], message: str
) -> None:
    game_id, key = new_game(client)
    response = add_round(client, game_id, key, **body)
    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert stored(app, game_id) == []


def test_the_declarer_in_hands_scores_zero(client: FlaskClient) -> None:
    game_id, key = new_game(client, "three-thirteen", ("Ann", "Bob"))
    # Three Thirteen round 1: 3 cards, 3s wild, a final discard is required.
    response = add_round(client, game_id, key, went_out="Ann", hands={"Ann": "4H 5H 6H KS", "Bob": "3C 9D 10D"})
    assert response.status_code == 201, response.get_json()
    played = response.get_json()["rounds"][0]
    assert played["scores"] == {"Ann": 0, "Bob": 0}  # 3C is wild: 3C 9D 10D is a run
    response = add_round(client, game_id, key, went_out="Bob", hands={"Bob": "4H 5H 6H 7H KS", "Ann": "KC QD JH 10S"})
    assert response.status_code == 201
    assert response.get_json()["rounds"][1]["scores"]["Ann"] == 40  # no lay-offs in Three Thirteen


def test_a_doubled_round_keeps_card_points_and_doubles_on_the_sheet(client: FlaskClient) -> None:
    game_id, key = new_game(client, "3-13", ("Ann", "Bob"))
    for _ in range(1, 10):
        assert add_round(client, game_id, key, went_out="Ann", scores={"Ann": 0, "Bob": 0}).status_code == 201
    response = add_round(client, game_id, key, went_out="Ann", scores={"Ann": 0}, hands={"Bob": "AH 7C JK"})
    played = response.get_json()["rounds"][9]
    assert played["scores"]["Bob"] == 22  # A 15 + 7 + wild 0
    assert played["points"]["Bob"] == 44


def test_corrections_and_undo_keep_the_cards_in_the_history(client: FlaskClient, app: Flask) -> None:
    game_id, key = new_game(client)
    add_round(client, game_id, key, went_out="Bob", scores={"Bob": 0, "Cy": 5}, hands={"Ann": "7H 8C KS"})
    # Typing the same scores again keeps the cards that back them.
    same = client.put(
        f"/api/games/{game_id}/rounds/1",
        json={"went_out": "Bob", "scores": {"Ann": 25, "Bob": 0, "Cy": 5}},
        headers=key,
    )
    assert same.get_json()["rounds"][0]["hands"] == {"Ann": "7H 8C KS"}
    changed = client.put(
        f"/api/games/{game_id}/rounds/1",
        json={"went_out": "Bob", "scores": {"Bob": 0, "Cy": 5}, "hands": {"Ann": "7H"}},
        headers=key,
    )
    assert changed.status_code == 200
    assert changed.get_json()["rounds"][0]["scores"]["Ann"] == 5
    typed = client.put(
        f"/api/games/{game_id}/rounds/1", json={"went_out": "Bob", "scores": {"Ann": 9, "Bob": 0, "Cy": 5}}, headers=key
    )
    assert "hands" not in typed.get_json()["rounds"][0]
    undo_last_round(client, game_id, key)
    with app.app_context():
        revisions = db.session.scalars(
            db.select(RoundRevision).filter_by(game_id=game_id).order_by(RoundRevision.id)
        ).all()
        assert [revision.hands for revision in revisions] == [
            {"Ann": "7H 8C KS"},
            {"Ann": "7H"},
            None,
        ]


def test_hands_need_the_edit_key(client: FlaskClient) -> None:
    game_id, _ = new_game(client)
    response = client.post(f"/api/games/{game_id}/rounds", json={"went_out": "Bob", "hands": {"Ann": "7H"}})
    assert response.status_code == 403


def test_lay_offs_chain_in_turn_order_from_the_declarers_left(client: FlaskClient) -> None:
    """D6 and D5 across players: Bob (left of Ann) lays off first, then Cy on the melds Bob left."""
    game_id, key = new_game(client)
    assert add_round(client, game_id, key, went_out="Ann", scores={"Ann": 0, "Bob": 5, "Cy": 5}).status_code == 201
    declarer = ["6S 7S 8S 9S"]
    extended = add_round(client, game_id, key, went_out="Ann", declarer=declarer, hands={"Bob": "10S", "Cy": "JS"})
    assert extended.status_code == 201, extended.get_json()
    assert extended.get_json()["rounds"][1]["scores"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    undo_last_round(client, game_id, key)
    taken = add_round(client, game_id, key, went_out="Ann", declarer=declarer, hands={"Bob": "10S", "Cy": "10S"})
    assert taken.get_json()["rounds"][1]["scores"] == {"Ann": 0, "Bob": 0, "Cy": 10}
    undo_last_round(client, game_id, key)
    # When Cy went out, Ann lays off before Bob: Ann's 10S takes the place Bob's 10S wanted.
    cy_out = add_round(client, game_id, key, went_out="Cy", declarer=declarer, hands={"Bob": "10S", "Ann": "10S"})
    assert cy_out.get_json()["rounds"][1]["scores"] == {"Ann": 0, "Bob": 10, "Cy": 0}


def test_a_must_discard_declarer_cannot_lay_down_the_card_drawn_too(client: FlaskClient) -> None:
    game_id, key = new_game(client, "3-13", ("Ann", "Bob"))
    response = add_round(client, game_id, key, went_out="Ann", declarer=["4S 5S 6S 7S"], hands={"Bob": "8S 9D KC"})
    assert response.status_code == 400
    assert response.get_json()["error"] == (
        "Ann went out, but in round 1 the melds of a player going out hold 3 cards "
        "(the 4th drawn card is discarded); 4 were given."
    )
    assert stored(client.application, game_id) == []
    response = add_round(client, game_id, key, went_out="Ann", declarer=["4S 5S 6S"], hands={"Bob": "7S 9D KC"})
    assert response.status_code == 201
    assert response.get_json()["rounds"][0]["scores"] == {"Ann": 0, "Bob": 19}  # 7S laid off; 9 + 10 left


def test_a_hand_of_only_separators_is_empty_and_nothing_is_stored(client: FlaskClient) -> None:
    game_id, key = new_game(client)
    response = add_round(client, game_id, key, went_out="Bob", scores={"Bob": 0, "Cy": 5}, hands={"Ann": " , "})
    assert response.status_code == 400
    assert response.get_json()["error"] == "Ann's cards are empty; give their cards or their score"
    assert stored(client.application, game_id) == []
