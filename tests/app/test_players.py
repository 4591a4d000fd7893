"""Issue 27, section 3: players who come, go, or were misspelt, through the API and the game page.

`POST /api/games/<id>/players` renames a player everywhere, seats a late player left of the next
round's dealer (a 3-13 pot collects their ante) or takes a player out from the next round;
`DELETE /api/games/<id>/players/last` undoes the last change. Every branch and refusal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Dispute, Game, GroupMember, Round, RoundRevision
from companion.services.store import PRESETS
from tests.app.test_database_faults import assert_api_503, disk_full
from tests.conftest import CSRF_INPUT, api_game, app_on, edit_key

Post = Callable[..., Any]


def players_url(game: dict[str, Any]) -> str:
    return f"/api/games/{game['id']}/players"


def change(client: FlaskClient, game: dict[str, Any], body: dict[str, Any], **headers: str) -> Any:
    return client.post(players_url(game), json=body, headers={**edit_key(game), **headers})


def state(client: FlaskClient, game: dict[str, Any]) -> Any:
    return client.get(f"/api/games/{game['id']}").get_json()


def score(client: FlaskClient, game: dict[str, Any], went_out: str, points: dict[str, int], **extra: Any) -> Any:
    answer = client.post(
        f"/api/games/{game['id']}/rounds",
        json={"went_out": went_out, "scores": points, **extra},
        headers=edit_key(game),
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def refused(answer: Any, status: int, words: str) -> None:
    assert answer.status_code == status, answer.get_json()
    assert words in answer.get_json()["error"]


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    """A Pay Me game of three after one round (Ann dealt round 1, Bob deals round 2)."""
    made = api_game(client, "pay-me", ["Ann", "Bbo", "Cy"], "Ann")
    score(client, made, "Ann", {"Ann": 0, "Bbo": 10, "Cy": 4})
    return made


# ---------------------------------------------------------------- rename


def test_a_rename_reaches_every_round_the_history_the_checks_the_export_and_the_sheet(
    client: FlaskClient, app: Flask, game: dict[str, Any]
) -> None:
    seen = state(client, game)
    corrected = client.put(
        f"/api/games/{game['id']}/rounds/1",
        json={"went_out": "Bbo", "scores": {"Ann": 5, "Bbo": 0, "Cy": 4}},
        headers=edit_key(game),
    )
    assert corrected.status_code == 200
    with app.app_context():
        db.session.add(Dispute(game_id=game["id"], round_number=1, kind="hand", player="Bbo", cards=["7H"]))
        db.session.commit()
    seen = state(client, game)
    answer = change(client, game, {"rename": {"from": "Bbo", "to": "Bob"}, "version": seen["version"]})
    assert answer.status_code == 200, answer.get_json()
    after = answer.get_json()
    assert after["version"] == seen["version"] + 1
    assert after["players"] == ["Ann", "Bob", "Cy"]
    assert after["totals"] == {"Ann": 5, "Bob": 0, "Cy": 4}
    assert after["rounds"][0]["went_out"] == "Bob"
    assert after["player_changes"][0]["words"] == "Bbo was renamed Bob"
    with app.app_context():
        assert db.session.get(Game, game["id"]).players == ["Ann", "Bob", "Cy"]
        assert [revision.scores for revision in db.session.query(RoundRevision)] == [{"Ann": 0, "Bob": 10, "Cy": 4}]
        assert [revision.went_out for revision in db.session.query(RoundRevision)] == ["Ann"]
        assert [dispute.player for dispute in db.session.query(Dispute)] == ["Bob"]
    export = client.get(f"/api/games/{game['id']}/export").get_json()
    assert export["game"]["players"] == ["Ann", "Bob", "Cy"]
    assert "Bbo" not in str([export["tables"], export["game"]["seating"]["table"]])
    csv = client.get(f"/games/{game['id']}/export.csv").get_data(as_text=True)
    assert "Bob score" in csv
    assert "Bbo" not in csv
    sheet = client.get(f"/games/{game['id']}/sheet").get_data(as_text=True)
    assert "Bob" in sheet
    assert "Bbo" not in sheet


def test_names_stay_unique_whatever_their_case(client: FlaskClient, game: dict[str, Any]) -> None:
    refused(change(client, game, {"rename": {"from": "Bbo", "to": "ann"}}), 400, '"Ann" is already at this table')
    refused(change(client, game, {"rename": {"from": "Zed", "to": "Zoe"}}), 400, '"Zed" is not a player')
    refused(change(client, game, {"rename": {"from": "Bbo", "to": "  "}}), 400, "every player needs a name")
    refused(change(client, game, {"rename": {"from": "Bbo", "to": "x" * 41}}), 400, "longer than 40")
    refused(change(client, game, {"rename": {"from": "Bbo", "to": "Bbo"}}), 400, 'already called "Bbo"')
    assert state(client, game)["players"] == ["Ann", "Bbo", "Cy"]
    assert change(client, game, {"rename": {"from": "Bbo", "to": " bbo "}}).get_json()["players"][1] == "bbo"


def test_a_finished_game_can_still_fix_a_name(client: FlaskClient) -> None:
    made = api_game(client, "three-thirteen", ["Ann", "Bbo"], "Ann")
    for _ in range(11):
        score(client, made, "Ann", {"Ann": 0, "Bbo": 3})
    assert state(client, made)["finished"]
    answer = change(client, made, {"rename": {"from": "Bbo", "to": "Bob"}})
    assert answer.get_json()["winners"] == ["Ann"]
    assert answer.get_json()["totals"] == {"Ann": 0, "Bob": 33}
    refused(change(client, made, {"add": "Eve"}), 400, "the game is over")
    refused(change(client, made, {"remove": "Bob"}), 400, "the game is over")


def test_a_rename_in_a_group_game_makes_the_new_name_a_member(client: FlaskClient) -> None:
    group = client.post("/api/groups", json={"name": "Thursdays", "players": ["Ann", "Bbo"]}).get_json()
    made = client.post(
        "/api/games",
        json={"variant": "pay-me", "players": ["Ann", "Bbo"], "group": group["id"]},
        headers={"X-Group-Key": group["edit_key"]},
    ).get_json()
    assert change(client, made, {"rename": {"from": "Bbo", "to": "Bob"}}).status_code == 200
    members = client.get(f"/api/groups/{group['id']}").get_json()["players"]
    assert "Bob" in [line["name"] for line in members]


# ---------------------------------------------------------------- a late player


@pytest.mark.parametrize(("start", "points"), [("highest", 10), ("average", 5), ("zero", 0), (7, 7), (None, 0)])
def test_a_late_player_sits_left_of_the_next_dealer_from_the_table_s_choice(
    client: FlaskClient, game: dict[str, Any], start: object, points: int
) -> None:
    body: dict[str, Any] = {"add": "Eve", **({"start": start} if start is not None else {})}
    after = change(client, game, body).get_json()
    assert after["players"] == ["Ann", "Bbo", "Eve", "Cy"]
    assert after["totals"]["Eve"] == points
    assert after["next_round"]["dealer"] == "Bbo"
    assert after["next_round"]["first_player"] == "Eve"
    assert after["next_round"]["decks"] == 2
    nxt = score(client, game, "Eve", {"Ann": 1, "Bbo": 2, "Eve": 0, "Cy": 3})
    assert nxt["next_round"]["dealer"] == "Eve"
    assert nxt["totals"]["Eve"] == points
    assert nxt["rounds"][0]["scores"] == {"Ann": 0, "Bbo": 10, "Cy": 4}
    assert nxt["rounds"][1]["scores"] == {"Ann": 1, "Bbo": 2, "Eve": 0, "Cy": 3}


def test_the_deck_count_follows_the_number_of_players(client: FlaskClient) -> None:
    made = api_game(client, "pay-me", ["Ann", "Bob"], "Ann")
    assert state(client, made)["next_round"]["decks"] == 1
    after = change(client, made, {"add": "Cy"}).get_json()
    assert after["next_round"]["decks"] == 2
    assert after["next_round"]["jokers"] == 4


def test_the_3_13_ante_is_collected_from_a_late_player(client: FlaskClient) -> None:
    made = api_game(client, "3-13", ["Ann", "Bob", "Cy"], "Ann")
    before = score(client, made, "Ann", {"Ann": 0, "Bob": 10, "Cy": 5}, second_discards={"Bob": 1})
    assert before["pot"]["balance"] == 150 + 5 - 15
    after = change(client, made, {"add": "Eve", "start": "average"}).get_json()
    assert after["pot"]["balance"] == before["pot"]["balance"] + 50
    assert after["pot"]["net"]["Eve"] == -50
    assert {"round": None, "player": "Eve", "kind": "ante", "amount": 50} in after["pot"]["ledger"]
    assert after["totals"]["Eve"] == 5
    ledger = client.get(f"/games/{made['id']}/pot").get_data(as_text=True)
    assert "Late ante (round 2)" in ledger


def test_the_preset_s_player_limit_holds_and_names_stay_unique(client: FlaskClient) -> None:
    most = PRESETS["3-13"].max_players
    made = api_game(client, "3-13", [f"P{seat}" for seat in range(most)], "P0")
    refused(change(client, made, {"add": "Eve"}), 400, f"takes at most {most} players")
    other = api_game(client, "pay-me", ["Ann", "Bob"], "Ann")
    refused(change(client, other, {"add": "BOB"}), 400, '"Bob" is already at this table')
    refused(change(client, other, {"add": "Eve", "start": "lowest"}), 400, '"highest", "average", "zero"')
    refused(change(client, other, {"add": "Eve", "start": 10**6}), 400, "from -100000 to 100000")
    refused(change(client, other, {"start": "zero"}), 400, "start goes with add")
    assert state(client, other)["players"] == ["Ann", "Bob"]


# ---------------------------------------------------------------- a player who leaves


def test_a_player_who_leaves_keeps_their_rounds_and_is_skipped_from_the_next_round(
    client: FlaskClient, game: dict[str, Any]
) -> None:
    after = change(client, game, {"remove": "Bbo"}).get_json()
    assert after["players"] == ["Ann", "Cy"]
    assert after["left"] == ["Bbo"]
    assert after["totals"] == {"Ann": 0, "Bbo": 10, "Cy": 4}
    assert after["next_round"]["dealer"] == "Cy"  # Bbo was to deal round 2
    refused(
        client.post(
            f"/api/games/{game['id']}/rounds",
            json={"went_out": "Ann", "scores": {"Ann": 0, "Bbo": 1, "Cy": 4}},
            headers=edit_key(game),
        ),
        400,
        "Bbo",
    )
    nxt = score(client, game, "Ann", {"Ann": 0, "Cy": 4})
    assert nxt["next_round"]["dealer"] == "Ann"
    assert nxt["totals"] == {"Ann": 0, "Bbo": 10, "Cy": 8}
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert re.search(r"Bbo <span class=\"muted small\">left</span>", page)


def test_too_few_players_or_a_stranger_cannot_leave(client: FlaskClient, game: dict[str, Any]) -> None:
    refused(change(client, game, {"remove": "Zed"}), 400, '"Zed" is not a player')
    change(client, game, {"remove": "Cy"})
    refused(change(client, game, {"remove": "Cy"}), 400, "they do not play round 2")
    refused(change(client, game, {"remove": "Bbo"}), 400, "needs at least 2 players")


def test_the_3_13_pot_pays_out_among_those_still_at_the_table(client: FlaskClient) -> None:
    made = api_game(client, "3-13", ["Ann", "Bob", "Cy"], "Ann")
    score(client, made, "Cy", {"Ann": 10, "Bob": 10, "Cy": 0})
    change(client, made, {"remove": "Cy"})
    last: Any = None
    for _ in range(10):
        last = score(client, made, "Ann", {"Ann": 0, "Bob": 5})
    assert last["finished"]
    assert last["winners"] == ["Ann"]
    assert last["pot"]["balance"] == 0
    assert set(last["pot"]["net"]) == {"Ann", "Bob", "Cy"}
    assert last["pot"]["net"]["Cy"] == -50 + 15
    assert sum(last["pot"]["net"].values()) == 0


# ---------------------------------------------------------------- undo


def test_each_change_can_be_undone_and_stays_in_the_history(client: FlaskClient, game: dict[str, Any]) -> None:
    for body in ({"rename": {"from": "Bbo", "to": "Bob"}}, {"add": "Eve", "start": 3}, {"remove": "Cy"}):
        assert change(client, game, body).status_code == 200
    url = f"/api/games/{game['id']}/players/last"
    version = state(client, game)["version"]
    assert client.delete(url, headers=edit_key(game)).status_code == 428
    refused(client.delete(f"{url}?version={version - 1}", headers=edit_key(game)), 409, "changed since")
    after = client.delete(f"{url}?version={version}", headers=edit_key(game)).get_json()
    assert after["players"] == ["Ann", "Bob", "Eve", "Cy"]
    assert after["player_changes"][-1]["undone_at"]
    after = client.delete(url, headers={**edit_key(game), "If-Match": f'"v{after["version"]}"'}).get_json()
    assert after["players"] == ["Ann", "Bob", "Cy"]
    after = client.delete(f"{url}?version={after['version']}", headers=edit_key(game)).get_json()
    assert after["players"] == ["Ann", "Bbo", "Cy"]
    assert after["rounds"][0]["scores"] == {"Ann": 0, "Bbo": 10, "Cy": 4}
    assert [item["words"] for item in after["player_changes"]] == [
        "Bbo was renamed Bob",
        "Eve joined before round 2, starting from 3 points",
        "Cy left before round 2",
    ]
    assert all(item["undone_at"] for item in after["player_changes"])
    refused(client.delete(f"{url}?version={after['version']}", headers=edit_key(game)), 404, "no change of players")


def test_a_join_cannot_be_undone_after_a_round_nor_that_round_before_it(
    client: FlaskClient, game: dict[str, Any]
) -> None:
    seen = change(client, game, {"add": "Eve"}).get_json()
    refused(
        client.delete(f"/api/games/{game['id']}/rounds/last?version={seen['version']}", headers=edit_key(game)),
        400,
        "Eve joined before round 2, starting from 0 points (zero), after round 1: undo that change of players first",
    )
    seen = score(client, game, "Eve", {"Ann": 1, "Bbo": 2, "Eve": 0, "Cy": 3})
    refused(
        client.delete(f"/api/games/{game['id']}/players/last?version={seen['version']}", headers=edit_key(game)),
        400,
        "rounds were scored since",
    )
    assert state(client, game)["players"] == ["Ann", "Bbo", "Eve", "Cy"]


# ---------------------------------------------------------------- the request


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, "send one change at a time"),
        ({"add": "Eve", "remove": "Cy"}, "send one change at a time"),
        ({"rename": "Bob"}, "rename must be an object"),
        ({"rename": {"from": "Bbo"}}, "rename must be an object"),
        ({"rename": {"from": "Bbo", "to": "Bob", "as": 1}}, "as"),
        ({"add": 5}, "add must be the new player's name"),
        ({"add": "Eve", "start": 2.5}, "start must be"),
        ({"remove": ["Cy"]}, "remove must be the name"),
        ({"swap": "Cy"}, "swap"),
        ({"add": "Eve", "version": "1"}, "version must be a whole number"),
    ],
)
def test_a_malformed_change_is_400_and_changes_nothing(
    client: FlaskClient, game: dict[str, Any], body: dict[str, Any], words: str
) -> None:
    version = state(client, game)["version"]
    refused(change(client, game, body), 400, words)
    assert state(client, game)["version"] == version


def test_a_stale_version_is_409_with_the_game_as_stored(client: FlaskClient, game: dict[str, Any]) -> None:
    version = state(client, game)["version"]
    answer = change(client, game, {"add": "Eve", "version": version - 1})
    assert answer.status_code == 409
    assert answer.get_json()["current"]["players"] == ["Ann", "Bbo", "Cy"]


def test_without_the_key_or_for_no_game_nothing_changes(client: FlaskClient, game: dict[str, Any]) -> None:
    assert client.post(players_url(game), json={"add": "Eve"}).status_code == 403
    assert client.post(players_url(game), json={"add": "Eve"}, headers={"X-Edit-Key": "guess"}).status_code == 403
    assert client.post("/api/games/nope/players", json={"add": "Eve"}, headers=edit_key(game)).status_code == 404
    assert state(client, game)["players"] == ["Ann", "Bbo", "Cy"]


def test_a_repeat_with_the_same_key_changes_once_and_another_body_is_422(
    client: FlaskClient, game: dict[str, Any]
) -> None:
    first = change(client, game, {"add": "Eve"}, **{"Idempotency-Key": "eve-joins"})
    again = change(client, game, {"add": "Eve"}, **{"Idempotency-Key": "eve-joins"})
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert first.get_json()["version"] == state(client, game)["version"]
    other = change(client, game, {"add": "Fay"}, **{"Idempotency-Key": "eve-joins"})
    assert other.status_code == 422
    assert state(client, game)["players"] == ["Ann", "Bbo", "Eve", "Cy"]


def test_play_or_pay_players_change_between_hands_and_each_change_can_be_undone(
    client: FlaskClient, app: Flask
) -> None:
    made = api_game(client, "play-or-pay", ["Ann", "Bbo", "Cy"], "Ann")
    events = f"/api/games/{made['id']}/events"
    settle = {"type": "settle", "winner": "Bbo", "cards_left": {"Ann": 3, "Cy": 2}}
    assert client.post(events, json=settle, headers=edit_key(made)).status_code == 201
    after = change(client, made, {"rename": {"from": "Bbo", "to": "Bob"}}).get_json()
    assert after["players"] == ["Ann", "Bob", "Cy"]
    assert after["hands"][0]["winner"] == "Bob"
    with app.app_context():
        assert [event.data["winner"] for event in db.session.get(Game, made["id"]).events] == ["Bob"]
    refused(change(client, made, {"add": "Eve", "start": "highest"}), 400, "starting chips; send no start")
    after = change(client, made, {"add": "Eve"}).get_json()
    assert after["players"] == ["Ann", "Bob", "Eve", "Cy"]  # left of Bob, who deals hand 2
    assert after["hand"]["dealer"] == "Bob"
    assert after["hand"]["turn"] == "Eve"
    assert after["chips"]["Eve"] == 20
    after = change(client, made, {"remove": "Cy"}).get_json()
    assert after["players"] == ["Ann", "Bob", "Eve"]
    assert after["left"] == ["Cy"]
    assert after["results"]["Cy"] == -2
    assert sum(after["results"].values()) == 0
    assert [item["words"] for item in after["player_changes"]] == [
        "Bbo was renamed Bob",
        "Eve joined before hand 2, buying the starting 20 chips",
        "Cy left before hand 2",
    ]
    play = client.post(events, json={"type": "play", "player": "Eve", "card": "7H"}, headers=edit_key(made))
    assert play.status_code == 201, play.get_json()
    refused(change(client, made, {"add": "Fay"}), 400, "hand 2 is being played; players change only between hands")
    refused(change(client, made, {"remove": "Ann"}), 400, "hand 2 is being played")
    version = state(client, made)["version"]
    refused(
        client.delete(f"/api/games/{made['id']}/players/last?version={version}", headers=edit_key(made)),
        400,
        "cards or chips were recorded since",
    )
    undone = client.delete(f"{events}/last?version={version}", headers=edit_key(made)).get_json()
    undone = client.delete(f"/api/games/{made['id']}/players/last?version={undone['version']}", headers=edit_key(made))
    assert undone.get_json()["players"] == ["Ann", "Bob", "Eve", "Cy"]
    undone = client.delete(f"{events}/last?version={undone.get_json()['version']}", headers=edit_key(made)).get_json()
    assert undone["players"] == ["Ann", "Bob", "Cy"]  # the event undo takes a join back too
    assert [bool(item.get("undone_at")) for item in undone["player_changes"]] == [False, True, True]
    undone = client.delete(f"/api/games/{made['id']}/players/last?version={undone['version']}", headers=edit_key(made))
    assert undone.get_json()["players"] == ["Ann", "Bbo", "Cy"]
    assert undone.get_json()["hands"][0]["winner"] == "Bbo"


def test_a_play_or_pay_export_with_changed_players_imports_as_the_same_game(client: FlaskClient) -> None:
    made = api_game(client, "play-or-pay", ["Ann", "Bob", "Cy"], "Ann")
    events = f"/api/games/{made['id']}/events"
    client.post(
        events, json={"type": "settle", "winner": "Bob", "cards_left": {"Ann": 3, "Cy": 2}}, headers=edit_key(made)
    )
    change(client, made, {"add": "Eve"})
    change(client, made, {"remove": "Ann"})
    client.post(
        events, json={"type": "settle", "winner": "Eve", "cards_left": {"Bob": 1, "Cy": 2}}, headers=edit_key(made)
    )
    exported = client.get(f"/api/games/{made['id']}/export").get_json()
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    original = state(client, made)
    for key in ("players", "left", "results", "chips", "hand", "hands"):
        assert imported.get_json()[key] == original[key]
    csv = client.get(f"/games/{made['id']}/export.csv").get_data(as_text=True)
    assert csv.splitlines()[0].endswith("Eve chips,Eve balance,Cy chips,Cy balance,Ann chips,Ann balance")
    exported["game"]["players"] = ["Bob", "Cy", "Ann"]
    refused(client.post("/api/games/import", json=exported), 400, "those at the table after its events")
    exported["game"]["players"] = original["players"]
    exported["tables"]["game_events"][1]["data"] = {"player": "Bob"}
    refused(client.post("/api/games/import", json=exported), 400, "the events cannot be replayed")


def test_a_full_disk_is_503_and_nothing_is_saved(tmp_path: Path) -> None:
    with app_on(tmp_path, f"sqlite:///{tmp_path / 'games.sqlite3'}") as app:
        client = app.test_client()
        made = api_game(client, "pay-me", ["Ann", "Bob"], "Ann")
        with disk_full(app):
            assert_api_503(change(client, made, {"add": "Eve"}))
        assert state(client, made)["players"] == ["Ann", "Bob"]


# ---------------------------------------------------------------- export and import


def test_an_export_with_changed_players_imports_as_the_same_game(client: FlaskClient, game: dict[str, Any]) -> None:
    change(client, game, {"add": "Eve", "start": "highest"})
    change(client, game, {"remove": "Cy"})
    score(client, game, "Eve", {"Ann": 2, "Bbo": 4, "Eve": 0})
    exported = client.get(f"/api/games/{game['id']}/export").get_json()
    imported = client.post("/api/games/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    copy, original = imported.get_json(), state(client, game)
    for key in ("players", "left", "totals", "next_round", "rounds"):
        assert copy[key] == original[key]
    exported["game"]["seating"]["table"]["seats"][0]["joined"] = 0
    refused(client.post("/api/games/import", json=exported), 400, "must join at round 1 or later")
    exported["game"]["seating"] = {"table": {}, "changes": []}
    refused(client.post("/api/games/import", json=exported), 400, "the seating's table must list seats")
    exported["game"]["seating"] = "yes"
    refused(client.post("/api/games/import", json=exported), 400, '"seating" must be null or an object')


def test_an_import_whose_players_do_not_match_its_seating_is_refused(client: FlaskClient, game: dict[str, Any]) -> None:
    change(client, game, {"remove": "Cy"})
    exported = client.get(f"/api/games/{game['id']}/export").get_json()
    exported["game"]["players"] = ["Ann", "Bbo", "Cy"]
    refused(client.post("/api/games/import", json=exported), 400, "the seating has at the table for the next round")


# ---------------------------------------------------------------- the game page


@pytest.fixture
def page_game(client: FlaskClient) -> Iterator[tuple[str, Post]]:
    """A game started through the form (this browser holds its key), after one round."""
    token = CSRF_INPUT.search(client.get("/games/new").get_data(as_text=True))
    assert token
    started = client.post(
        "/games/new?variant=3-13",
        data={"csrf_token": token.group(1), "variant": "3-13", "players": "Ann\nBbo\nCy", "first_dealer": "0"},
    )
    game_id = started.headers["Location"].rsplit("/", 1)[1]

    def post(url: str, data: dict[str, Any]) -> Any:
        page = client.get(f"/games/{game_id}/players").get_data(as_text=True)  # the Players panel's forms
        csrf = CSRF_INPUT.search(page)
        version = re.search(r'name="version" value="(\d+)"', page)
        assert csrf and version
        return client.post(url, data={"csrf_token": csrf.group(1), "version": version.group(1), **data})

    yield game_id, post


def test_the_panel_renames_adds_removes_and_undoes(client: FlaskClient, page_game: tuple[str, Post]) -> None:
    game_id, post = page_game
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    panel = f'<details class="card players-panel" id="players" data-panel="/games/{game_id}/players">'
    assert panel in page and "The highest total (0)" not in page  # the forms come when the panel opens
    page = client.get(f"/games/{game_id}/players").get_data(as_text=True)
    assert '<details class="card players-panel" id="players" open>' in page
    assert "The highest total (0)" in page and "Enter round 1 scores" in page
    url = f"/games/{game_id}/players"
    answer = post(url, {"change": "rename", "old": "Bbo", "new": "Bob"})
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"/games/{game_id}#players")
    answer = post(url, {"change": "add", "name": "Eve", "start": "points", "points": "12"})
    assert answer.status_code == 303
    answer = post(url, {"change": "remove", "leaving": "Cy"})
    assert answer.status_code == 303
    page = client.get(f"/games/{game_id}/players").get_data(as_text=True)
    assert "Bbo was renamed Bob" in page
    assert "Eve joined before round 1, starting from 12 points." in page
    assert "Cy left before round 1" in page
    assert "Undo: Cy left before round 1" in page
    assert post(f"/games/{game_id}/players/last/undo", {}).status_code == 303
    page = client.get(f"/games/{game_id}/players").get_data(as_text=True)
    assert "Cy left before round 1 (undone)." in page
    assert "Undo: Eve joined" in page


def test_a_refused_change_comes_back_with_its_sentence_and_what_was_typed(
    client: FlaskClient, page_game: tuple[str, Post]
) -> None:
    game_id, post = page_game
    url = f"/games/{game_id}/players"
    answer = post(url, {"change": "add", "name": "Eve", "start": "points", "points": "lots"})
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert "Not changed: Type the points the new player starts from as a whole number" in page
    assert 'id="add-name" name="name" maxlength="40" required autocomplete="off" value="Eve"' in page
    assert '<details class="card players-panel" id="players" open>' in page
    answer = post(url, {"change": "rename", "old": "Bbo", "new": "ANN"})
    assert answer.status_code == 400
    assert "Ann" in answer.get_data(as_text=True)
    assert 'value="ANN"' in answer.get_data(as_text=True)
    answer = post(url, {"change": "swap"})
    assert answer.status_code == 400
    stale = client.post(
        url,
        data={
            "csrf_token": CSRF_INPUT.search(client.get("/games/new").get_data(as_text=True)).group(1),  # type: ignore[union-attr]
            "version": "999",
            "change": "remove",
            "leaving": "Cy",
        },
    )
    assert stale.status_code == 409
    assert "another phone changed this game meanwhile" in stale.get_data(as_text=True)
    assert post(f"/games/{game_id}/players/last/undo", {}).status_code == 404


def test_a_viewer_sees_no_forms_and_cannot_post(app: Flask, client: FlaskClient, page_game: tuple[str, Post]) -> None:
    game_id, post = page_game
    post(f"/games/{game_id}/players", {"change": "remove", "leaving": "Cy"})
    viewer = app.test_client()
    page = viewer.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Cy left before round 1" in page
    assert 'id="rename-form"' not in page
    token = CSRF_INPUT.search(viewer.get("/games/new").get_data(as_text=True))
    assert token
    answer = viewer.post(f"/games/{game_id}/players", data={"csrf_token": token.group(1), "change": "add", "name": "X"})
    assert answer.status_code == 403
    with app.app_context():
        assert db.session.get(Game, game_id).players == ["Ann", "Bbo"]
        assert db.session.query(Round).count() == 0


def test_the_round_forms_ask_for_the_players_of_their_round(client: FlaskClient, page_game: tuple[str, Post]) -> None:
    game_id, post = page_game
    assert post(f"/games/{game_id}/rounds/new", {"went_out": "Ann", "scores-0": "0", "scores-1": "9", "scores-2": "4"})
    post(f"/games/{game_id}/players", {"change": "add", "name": "Eve", "start": "zero"})
    post(f"/games/{game_id}/players", {"change": "remove", "leaving": "Cy"})
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    labels = re.findall(r'<label for="scores-\d">([^<]+)</label>', page)
    assert labels == ["Ann", "Bbo", "Eve"]
    answer = post(
        f"/games/{game_id}/rounds/new", {"went_out": "Eve", "scores-0": "3", "scores-1": "5", "scores-2": "0"}
    )
    assert answer.status_code == 303, answer.get_data(as_text=True)
    with client.application.app_context():
        stored = db.session.get(Game, game_id).rounds
        assert [item.scores for item in stored] == [{"Ann": 0, "Bbo": 9, "Cy": 4}, {"Ann": 3, "Bbo": 5, "Eve": 0}]
    edit = client.get(f"/games/{game_id}/rounds/1/edit").get_data(as_text=True)
    assert re.findall(r'<label for="scores-\d">([^<]+)</label>', edit) == ["Ann", "Bbo", "Cy"]
    answer = post(
        f"/games/{game_id}/rounds/1/edit", {"went_out": "Ann", "scores-0": "0", "scores-1": "9", "scores-2": "6"}
    )
    assert answer.status_code == 303, answer.get_data(as_text=True)
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert re.search(r"Cy <span class=\"muted small\">left</span>", sheet)


def test_contract_rummy_keeps_buys_and_exact_cuts_under_the_new_names_and_counts_decks(client: FlaskClient) -> None:
    made = api_game(client, "contract-rummy", ["Ann", "Bbo", "Cy", "Dee"], "Ann", buys_per_deal=2, exact_cut=True)
    score(client, made, "Ann", {"Ann": 0, "Bbo": 10, "Cy": 5, "Dee": 5}, exact_cut="Bbo")
    bought = client.post(f"/api/games/{made['id']}/buys", json={"player": "Bbo"}, headers=edit_key(made)).get_json()
    assert bought["buys"]["Bbo"] == 1
    after = change(client, made, {"rename": {"from": "Bbo", "to": "Bob"}}).get_json()
    assert after["buys"] == {"Ann": 0, "Bob": 1, "Cy": 0, "Dee": 0}
    assert after["rounds"][0]["exact_cut"] == "Bob"
    assert after["rounds"][0]["points"]["Bob"] == 10 - 50
    assert after["next_round"]["decks"] == 2
    after = change(client, made, {"add": "Eve", "start": "average"}).get_json()
    assert after["next_round"]["decks"] == 3
    assert after["buys"]["Eve"] == 0
    assert after["totals"]["Eve"] == -7  # the average of 0, -40, 5 and 5, -7.5, rounds half up
    after = change(client, made, {"remove": "Cy"}).get_json()
    assert after["next_round"]["decks"] == 2
    assert "Cy" not in after["buys"]
    nxt = score(client, made, "Eve", {"Ann": 5, "Bob": 5, "Dee": 5, "Eve": 0}, exact_cut="Eve")
    assert nxt["rounds"][1]["points"]["Eve"] == -50
    assert nxt["rounds"][1]["buys"] == {"Ann": 0, "Bob": 1, "Dee": 0, "Eve": 0}


def test_the_hand_screen_s_players_panel_adds_removes_renames_and_undoes(client: FlaskClient) -> None:
    token = CSRF_INPUT.search(client.get("/games/new").get_data(as_text=True))
    assert token
    started = client.post(
        "/games/new/chips",
        data={"csrf_token": token.group(1), "players": "Ann\nBbo\nCy", "chips": "20", "first_dealer": "0"},
    )
    assert started.status_code == 303, started.get_data(as_text=True)[:2000]
    game_id = started.headers["Location"].split("/")[2]

    def post(url: str, data: dict[str, Any]) -> Any:
        page = client.get(f"/games/{game_id}/hand").get_data(as_text=True)
        csrf = CSRF_INPUT.search(page)
        version = re.search(r'name="version" value="(\d+)"', page)
        assert csrf and version
        return client.post(url, data={"csrf_token": csrf.group(1), "version": version.group(1), **data})

    page = client.get(f"/games/{game_id}/hand").get_data(as_text=True)
    assert 'id="change-players"' in page
    answer = post(f"/games/{game_id}/players", {"change": "add", "name": "Eve"})
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"/games/{game_id}/hand#change-players")
    assert post(f"/games/{game_id}/players", {"change": "remove", "leaving": "Cy"}).status_code == 303
    assert post(f"/games/{game_id}/players", {"change": "rename", "old": "Bbo", "new": "Bob"}).status_code == 303
    page = client.get(f"/games/{game_id}/hand").get_data(as_text=True)
    assert "Eve joined before hand 1, buying the starting 20 chips." in page
    assert "Left the table: Cy." in page
    refused_page = post(f"/games/{game_id}/players", {"change": "add", "name": "eve"})
    assert refused_page.status_code == 400
    assert "Not changed: &#34;eve&#34; cannot join: &#34;Eve&#34; is already at this table." in refused_page.get_data(
        as_text=True
    )
    assert post(f"/games/{game_id}/players/last/undo", {}).status_code == 303
    assert "Bbo was renamed Bob (undone)." in client.get(f"/games/{game_id}/hand").get_data(as_text=True)


@pytest.mark.parametrize("variant", ["pay-me", "play-or-pay"])
def test_the_group_s_records_keep_players_who_joined_or_left(client: FlaskClient, variant: str) -> None:
    group = client.post("/api/groups", json={"name": "Fridays", "players": ["Ann", "Bob", "Cy"]}).get_json()
    made = client.post(
        "/api/games",
        json={"variant": variant, "players": ["Ann", "Bob", "Cy"], "group": group["id"]},
        headers={"X-Group-Key": group["edit_key"]},
    ).get_json()
    assert change(client, made, {"add": "Eve"}).status_code == 200
    assert change(client, made, {"remove": "Cy"}).status_code == 200
    records = client.get(f"/api/groups/{group['id']}")
    assert records.status_code == 200
    assert {"Ann", "Bob", "Cy", "Eve"} <= {line["name"] for line in records.get_json()["players"]}
    assert client.get(f"/groups/{group['id']}").status_code == 200
    with client.application.app_context():
        assert [member.name for member in db.session.query(GroupMember)] == ["Eve"]  # a member now
