"""The JSON API: the contract, and a JSON error for every kind of bad request."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Game, Round
from engine.rules import OPTION_SPECS, PRESETS
from tests.conftest import every_game

PLAYERS = ["Ann", "Bob", "Cy"]


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    payload = {"variant": "pay-me", "players": PLAYERS, "first_dealer": "Ann", **body}
    response = client.post("/api/games", json=payload)
    assert response.status_code == 201, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def key_header(game: dict[str, Any]) -> dict[str, str]:
    return {"X-Edit-Key": game["edit_key"]}


def add_round(client: FlaskClient, game: dict[str, Any], went_out: str = "Bob", **scores: Any) -> Any:
    body = {"went_out": went_out, "scores": scores or {"Ann": 12, "Bob": 0, "Cy": 30}}
    return client.post(f"/api/games/{game['id']}/rounds", json=body, headers=key_header(game))


def stored_rounds(app: Flask, game_id: str) -> list[tuple[int, str, dict[str, int]]]:
    with app.app_context():
        rounds = db.session.scalars(db.select(Round).filter_by(game_id=game_id).order_by(Round.number))
        return [(item.number, item.went_out, dict(item.scores)) for item in rounds]


def test_create_game_answers_201_with_state_and_edit_key(client: FlaskClient) -> None:
    game = create(client)
    assert len(game["id"]) >= 16
    assert len(game["edit_key"]) >= 16
    assert game["variant"] == "pay-me"
    assert game["players"] == PLAYERS
    assert game["options"] == PRESETS["pay-me"].defaults.as_json()
    assert set(game["options"]) == set(OPTION_SPECS)
    assert game["rounds"] == []
    assert game["totals"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert game["finished"] is False
    assert game["winners"] == []
    assert game["next_round"] == {
        "round": 1,
        "cards": 3,
        "wild": ["JK", "2", "3"],
        "multiplier": 1,
        "dealer": "Ann",
        "first_player": "Bob",
        "decks": 2,
        "jokers": 4,
    }


def test_get_game_does_not_reveal_the_edit_key(client: FlaskClient) -> None:
    game = create(client)
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert "edit_key" not in state
    assert state["id"] == game["id"]


def test_random_first_dealer_is_one_of_the_players(client: FlaskClient) -> None:
    game = create(client, first_dealer=None)
    assert game["next_round"]["dealer"] in PLAYERS
    body = {"variant": "three-thirteen", "players": ["Ann", "Bob"]}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201
    assert response.get_json()["next_round"]["dealer"] in ("Ann", "Bob")


def test_players_are_trimmed(client: FlaskClient) -> None:
    game = create(client, players=["  Ann ", "Bob", "Cy"], first_dealer=" Cy ")
    assert game["players"] == PLAYERS
    assert game["next_round"]["dealer"] == "Cy"
    assert game["next_round"]["first_player"] == "Ann"


def test_options_override_the_preset_defaults(client: FlaskClient) -> None:
    game = create(client, options={"full_cycle": True, "ace": "both"})
    assert game["options"]["full_cycle"] is True
    assert game["options"]["ace"] == "both"
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["options"] == game["options"]


def test_round_scores_points_totals_and_next_round(client: FlaskClient) -> None:
    game = create(client)
    response = add_round(client, game, "Bob", Ann=12, Bob=0, Cy="10+5+5")
    assert response.status_code == 201
    state = response.get_json()
    assert state["rounds"] == [
        {
            "round": 1,
            "cards": 3,
            "wild": ["JK", "2", "3"],
            "multiplier": 1,
            "dealer": "Ann",
            "went_out": "Bob",
            "scores": {"Ann": 12, "Bob": 0, "Cy": 20},
            "points": {"Ann": 12, "Bob": 0, "Cy": 20},
        }
    ]
    assert state["totals"] == {"Ann": 12, "Bob": 0, "Cy": 20}
    assert state["next_round"]["round"] == 2
    assert state["next_round"]["dealer"] == "Bob"
    assert state["next_round"]["first_player"] == "Cy"


def test_multiplier_applies_in_3_13_rounds_10_and_11(client: FlaskClient) -> None:
    game = create(client, variant="3-13")
    for _ in range(9):
        assert add_round(client, game).status_code == 201
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["next_round"]["multiplier"] == 2
    state = add_round(client, game, "Bob", Ann=12, Bob=0, Cy=30).get_json()
    assert state["rounds"][9]["multiplier"] == 2
    assert state["rounds"][9]["scores"] == {"Ann": 12, "Bob": 0, "Cy": 30}
    assert state["rounds"][9]["points"] == {"Ann": 24, "Bob": 0, "Cy": 60}
    assert state["totals"] == {"Ann": 12 * 9 + 24, "Bob": 0, "Cy": 30 * 9 + 60}


def test_full_game_finishes_with_winners_then_refuses_more_rounds(client: FlaskClient, app: Flask) -> None:
    game = create(client)
    for number in range(11):
        went_out = "Bob" if number % 2 else "Cy"
        scores = {"Ann": 5, "Bob": 0, "Cy": 0}
        scores[{"Bob": "Cy", "Cy": "Bob"}[went_out]] = 5
        response = add_round(client, game, went_out, **scores)
        assert response.status_code == 201
    state = response.get_json()
    assert state["finished"] is True
    assert state["next_round"] is None
    assert state["totals"] == {"Ann": 55, "Bob": 30, "Cy": 25}
    assert state["winners"] == ["Cy"]
    late = add_round(client, game)
    assert late.status_code == 400
    assert "over" in late.get_json()["error"]
    assert len(stored_rounds(app, game["id"])) == 11
    listing = every_game(client)
    assert listing[0]["finished"] is True


def test_tied_winners_share(client: FlaskClient) -> None:
    game = create(client, variant="three-thirteen", players=["Ann", "Bob"])
    for _ in range(11):
        add_round(client, game, "Ann", Ann=0, Bob=0)
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["winners"] == ["Ann", "Bob"]


def test_correct_round_keeps_history(client: FlaskClient, app: Flask) -> None:
    game = create(client)
    add_round(client, game)
    add_round(client, game, "Cy", Ann=3, Bob=4, Cy=0)
    body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 7, "Cy": 9}}
    response = client.put(f"/api/games/{game['id']}/rounds/1", json=body, headers=key_header(game))
    assert response.status_code == 200
    state = response.get_json()
    assert state["rounds"][0]["went_out"] == "Ann"
    assert state["totals"] == {"Ann": 3, "Bob": 11, "Cy": 9}
    with app.app_context():
        stored = db.session.get(Game, game["id"])
        assert stored is not None
        history = [(rev.number, rev.action, rev.went_out, rev.scores) for rev in stored.revisions]
    assert history == [(1, "corrected", "Bob", {"Ann": 12, "Bob": 0, "Cy": 30})]


def test_undo_last_round(client: FlaskClient, app: Flask) -> None:
    game = create(client)
    add_round(client, game)
    version = add_round(client, game, "Cy", Ann=3, Bob=4, Cy=0).get_json()["version"]
    response = client.delete(f"/api/games/{game['id']}/rounds/last?version={version}", headers=key_header(game))
    assert response.status_code == 200
    assert len(response.get_json()["rounds"]) == 1
    assert stored_rounds(app, game["id"]) == [(1, "Bob", {"Ann": 12, "Bob": 0, "Cy": 30})]
    assert response.get_json()["next_round"]["round"] == 2


def test_undo_with_no_round_is_404(client: FlaskClient) -> None:
    game = create(client)
    response = client.delete(f"/api/games/{game['id']}/rounds/last", headers=key_header(game))
    assert response.status_code == 404
    assert response.get_json()["error"]


def test_delete_game(client: FlaskClient) -> None:
    game = create(client)
    add_round(client, game)
    response = client.delete(f"/api/games/{game['id']}", headers=key_header(game))
    assert response.status_code == 200
    assert response.get_json() == {"deleted": game["id"]}
    assert client.get(f"/api/games/{game['id']}").status_code == 404


def test_list_games(client: FlaskClient) -> None:
    assert every_game(client) == []
    game = create(client)
    listing = every_game(client)
    assert listing == [
        {"id": game["id"], "variant": "pay-me", "players": PLAYERS, "rounds_played": 0, "finished": False}
    ]


def test_names_are_kept_in_one_unicode_spelling(client: FlaskClient) -> None:
    body = {"variant": "pay-me", "players": ["A\u030asa", "Bo"], "first_dealer": "A\u030asa"}
    game = client.post("/api/games", json=body).get_json()
    assert game["players"] == ["\u00c5sa", "Bo"]
    assert game["next_round"]["dealer"] == "\u00c5sa"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"variant": "pay-mee", "players": PLAYERS}, "unknown variant"),
        ({"variant": "play-or-pay", "players": ["A", "B"]}, "3 to 10 players"),  # Play or Pay: issue 6
        ({"variant": 3, "players": PLAYERS}, "variant"),
        ({"players": PLAYERS}, "variant"),
        ({"variant": "pay-me"}, "players"),
        ({"variant": "pay-me", "players": "Ann, Bob"}, "list of names"),
        ({"variant": "pay-me", "players": ["Ann", 7]}, "list of names"),
        ({"variant": "pay-me", "players": ["Ann"]}, "2 to 8 players"),
        ({"variant": "three-thirteen", "players": ["A", "B", "C", "D", "E"]}, "2 to 4 players"),
        ({"variant": "pay-me", "players": ["Ann", "ann"]}, "twice"),
        ({"variant": "pay-me", "players": ["\u00c5sa", "A\u030asa"]}, "twice"),  # one Å, two spellings
        ({"variant": "pay-me", "players": ["Ann", "  "]}, "name"),
        ({"variant": "pay-me", "players": ["Ann", "x" * 41]}, "40 characters"),
        ({"variant": "pay-me", "players": ["Ann", "Bob\nCy"]}, "line break"),
        ({"variant": "pay-me", "players": PLAYERS, "options": {"full_cycel": True}}, "unknown option"),
        ({"variant": "pay-me", "players": PLAYERS, "options": {"ace": "middle"}}, "Ace in runs"),
        ({"variant": "pay-me", "players": PLAYERS, "options": {"double_rounds": [12]}}, "round 12"),
        ({"variant": "pay-me", "players": PLAYERS, "options": ["ace"]}, "options"),
        ({"variant": "pay-me", "players": PLAYERS, "first_dealer": "Dee"}, "first dealer"),
        ({"variant": "pay-me", "players": PLAYERS, "first_dealer": 1}, "first_dealer"),
        ({"variant": "pay-me", "players": PLAYERS, "colour": "red"}, "unknown field"),
    ],
)
def test_create_game_rejects_bad_input(client: FlaskClient, body: dict[str, Any], words: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert words in response.get_json()["error"]
    assert every_game(client) == []


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b'"text"', b"", b"[" * 20000 + b"]" * 20000, b"\xff\xfe"])
def test_malformed_json_is_400(client: FlaskClient, raw: bytes) -> None:
    response = client.post("/api/games", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"] == "the request body must be a JSON object"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"went_out": "Dee", "scores": {"Ann": 1, "Bob": 0, "Cy": 2}}, "not a player"),
        ({"went_out": "Bob", "scores": {"Ann": 1, "Bob": 0, "Cy": 2, "Dee": 3}}, "not a player"),
        ({"went_out": "Bob", "scores": {"Ann": 1, "Bob": 0}}, "Cy has no score"),
        ({"went_out": "Bob", "scores": {"Ann": 1, "Bob": 0, "Cy": None}}, "Cy has no score"),
        ({"went_out": "Bob", "scores": {"Ann": -5, "Bob": 0, "Cy": 2}}, "negative"),
        ({"went_out": "Bob", "scores": {"Ann": 2.5, "Bob": 0, "Cy": 2}}, "whole number"),
        ({"went_out": "Bob", "scores": {"Ann": "ten", "Bob": 0, "Cy": 2}}, "not a number of points"),
        ({"went_out": "Bob", "scores": {"Ann": True, "Bob": 0, "Cy": 2}}, "whole number"),
        ({"went_out": "Bob", "scores": {"Ann": [1], "Bob": 0, "Cy": 2}}, "whole number"),
        ({"went_out": "Bob", "scores": {"Ann": 1, "Bob": 5, "Cy": 2}}, "scores 0"),
        ({"went_out": None, "scores": {"Ann": 1, "Bob": 0, "Cy": 2}}, "went_out"),
        ({"scores": {"Ann": 1, "Bob": 0, "Cy": 2}}, "went_out"),
        ({"went_out": "Bob", "scores": [1, 0, 2]}, "scores must be"),
        ({"went_out": "Bob"}, "scores must be"),
        ({"went_out": "Bob", "scores": {"Ann": 1, "Bob": 0, "Cy": 2}, "extra": 1}, "unknown field"),
        ({"went_out": "Bob", "scores": {"Ann": 1, "Bob": 0, "Cy": 2}, "version": "1"}, "version"),
    ],
)
def test_bad_rounds_are_400_and_not_stored(client: FlaskClient, app: Flask, body: dict[str, Any], words: str) -> None:
    game = create(client)
    for method, url in (("post", "rounds"), ("put", "rounds/1")):
        if method == "put":
            assert add_round(client, game).status_code == 201
        before = stored_rounds(app, game["id"])
        response = getattr(client, method)(f"/api/games/{game['id']}/{url}", json=body, headers=key_header(game))
        assert response.status_code == 400, response.get_json()
        assert words in response.get_json()["error"]
        assert stored_rounds(app, game["id"]) == before


def test_malformed_round_json_is_400(client: FlaskClient) -> None:
    game = create(client)
    response = client.post(
        f"/api/games/{game['id']}/rounds", data=b"{", content_type="application/json", headers=key_header(game)
    )
    assert response.status_code == 400
    assert "JSON object" in response.get_json()["error"]


@pytest.mark.parametrize("headers", [{}, {"X-Edit-Key": "wrong"}, {"X-Edit-Key": ""}])
def test_writes_without_the_key_are_403(client: FlaskClient, app: Flask, headers: dict[str, str]) -> None:
    game = create(client)
    add_round(client, game)
    body = {"went_out": "Bob", "scores": {"Ann": 1, "Bob": 0, "Cy": 2}}
    base = f"/api/games/{game['id']}"
    attempts = [
        client.post(f"{base}/rounds", json=body, headers=headers),
        client.put(f"{base}/rounds/1", json=body, headers=headers),
        client.delete(f"{base}/rounds/last", headers=headers),
        client.delete(base, headers=headers),
    ]
    for response in attempts:
        assert response.status_code == 403
        assert "key" in response.get_json()["error"]
    assert stored_rounds(app, game["id"]) == [(1, "Bob", {"Ann": 12, "Bob": 0, "Cy": 30})]
    assert client.get(base).status_code == 200


def test_one_games_key_does_not_open_another(client: FlaskClient) -> None:
    first = create(client)
    second = create(client)
    response = client.post(
        f"/api/games/{second['id']}/rounds",
        json={"went_out": "Bob", "scores": {"Ann": 1, "Bob": 0, "Cy": 2}},
        headers=key_header(first),
    )
    assert response.status_code == 403


def test_unknown_game_is_404_everywhere(client: FlaskClient) -> None:
    body = {"went_out": "Bob", "scores": {"Ann": 1, "Bob": 0, "Cy": 2}}
    headers = {"X-Edit-Key": "whatever"}
    for response in (
        client.get("/api/games/nope"),
        client.delete("/api/games/nope", headers=headers),
        client.post("/api/games/nope/rounds", json=body, headers=headers),
        client.put("/api/games/nope/rounds/1", json=body, headers=headers),
        client.delete("/api/games/nope/rounds/last", headers=headers),
    ):
        assert response.status_code == 404
        assert response.get_json() == {"error": "there is no game with that id"}


def test_unknown_round_is_404(client: FlaskClient) -> None:
    game = create(client)
    add_round(client, game)
    body = {"went_out": "Bob", "scores": {"Ann": 1, "Bob": 0, "Cy": 2}}
    for number in ("2", "99", "0", "x"):
        response = client.put(f"/api/games/{game['id']}/rounds/{number}", json=body, headers=key_header(game))
        assert response.status_code == 404
        assert response.get_json()["error"]


def test_stale_version_is_409_and_not_stored(client: FlaskClient, app: Flask) -> None:
    game = create(client)
    state = add_round(client, game).get_json()
    body = {"went_out": "Bob", "scores": {"Ann": 1, "Bob": 0, "Cy": 2}, "version": state["version"] - 1}
    response = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=key_header(game))
    assert response.status_code == 409
    assert "changed" in response.get_json()["error"]
    body["version"] = state["version"]
    response = client.put(f"/api/games/{game['id']}/rounds/1", json=body, headers=key_header(game))
    assert response.status_code == 200
    assert stored_rounds(app, game["id"]) == [(1, "Bob", {"Ann": 1, "Bob": 0, "Cy": 2})]


def test_concurrent_write_is_409(client: FlaskClient, app: Flask) -> None:
    """Two requests read the same game; the second one to commit is refused."""
    from companion.errors import Conflict
    from companion.services import rummy, store

    game = create(client)
    with app.app_context():
        mine = store.get_game(game["id"])
        with app.app_context():
            theirs = store.get_game(game["id"])
            rummy.add_round(theirs, "Bob", {"Ann": 1, "Bob": 0, "Cy": 2})
        with pytest.raises(Conflict):
            rummy.add_round(mine, "Cy", {"Ann": 5, "Bob": 5, "Cy": 0})
    assert stored_rounds(app, game["id"]) == [(1, "Bob", {"Ann": 1, "Bob": 0, "Cy": 2})]


def test_api_errors_are_json_for_unknown_paths_methods_and_size(client: FlaskClient) -> None:
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404
    assert missing.get_json() == {"error": "there is nothing at this address"}
    wrong_method = client.patch("/api/games")
    assert wrong_method.status_code == 405
    assert "PATCH" in wrong_method.get_json()["error"]
    huge = client.post("/api/games", data=b"x" * (65 * 1024), content_type="application/json")
    assert huge.status_code == 413
    assert huge.get_json() == {"error": "the request body is too large"}


def test_api_server_error_is_json(app: Flask) -> None:
    def boom() -> str:
        raise RuntimeError("bug")

    app.add_url_rule("/api/boom", "boom", boom)
    response = app.test_client().get("/api/boom")
    assert response.status_code == 500
    assert response.get_json() == {"error": "something went wrong on the server; nothing was changed"}


def test_an_engine_error_that_reaches_the_app_is_a_400_with_its_sentence(app: Flask) -> None:
    from engine.errors import CardError

    def refuse() -> str:
        raise CardError('the card   "ZZ" is not a card')

    app.add_url_rule("/api/refuse", "refuse", refuse)
    app.add_url_rule("/refuse", "refuse_page", refuse)
    response = app.test_client().get("/api/refuse")
    assert response.status_code == 400
    assert response.get_json() == {"error": 'the card "ZZ" is not a card'}
    page = app.test_client().get("/refuse")
    assert page.status_code == 400
    assert "The card &#34;ZZ&#34; is not a card." in page.get_data(as_text=True)


def test_api_needs_no_csrf_token(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    response = app.test_client().post("/api/games", json={"variant": "pay-me", "players": PLAYERS})
    assert response.status_code == 201


def test_openapi_document_is_valid_and_lists_every_route(client: FlaskClient, app: Flask) -> None:
    try:
        from openapi_spec_validator import validate
    except ImportError:  # pragma: no cover - the test extra should install it
        if os.environ.get("CI"):
            pytest.fail("openapi-spec-validator is missing; add it to the test extra in pyproject.toml")
        pytest.skip("openapi-spec-validator is not installed")
    document = client.get("/api/openapi.json").get_json()
    validate(document)
    api_rules = {
        (re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method.lower())  # <int:number> -> {number}
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/") and "boom" not in rule.rule
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    documented = {
        (path, method) for path, item in document["paths"].items() for method in item if method != "parameters"
    }
    assert api_rules == documented
