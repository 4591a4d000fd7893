"""Pool rummy through the JSON API (issue 30, RULES.md 11.3-11.7): starting a game with its buy-in and
options, deals, rejoins, the split and undo, every refusal of RULES.md 11.6 as a 400 with its sentence
and nothing stored, the version check, Idempotency-Key, the edit key, the worked examples 7-9 and a
property: the API answers as the command line's ``pool-game`` for random games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from openapi_schema_validator import OAS31Validator

from engine.pool.answers import game_json
from tests.app.test_database_faults import assert_api_503, disk_full
from tests.conftest import app_on, edit_key

NAMES = ["Asha", "Ben", "Cy"]
STANDINGS = ("totals", "in", "out", "rejoins", "drops_left", "pot", "paid", "dealer", "winner", "split", "nets")


def new_pool(
    client: FlaskClient, players: list[str] | None = None, variant: str = "pool-101", buy_in: int = 500, **options: Any
) -> Any:
    body = {"variant": variant, "players": players or NAMES, "first_dealer": (players or NAMES)[0]}
    body["options"] = {"buy_in": buy_in, **options}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def post(client: FlaskClient, game: dict[str, Any], path: str, body: dict[str, Any], **headers: str) -> Any:
    return client.post(f"/api/games/{game['id']}/{path}", json=body, headers={**edit_key(game), **headers})


def deal(client: FlaskClient, game: dict[str, Any], results: dict[str, Any], **extra: Any) -> Any:
    response = post(client, game, "deals", {"results": results, **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def rejoin(client: FlaskClient, game: dict[str, Any], player: str) -> Any:
    response = post(client, game, "rejoins", {"player": player})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def state(client: FlaskClient, game: dict[str, Any]) -> Any:
    response = client.get(f"/api/games/{game['id']}")
    assert response.status_code == 200
    return response.get_json()


class Documented:
    """Checks a state against the document: the answer of GET /api/games/{game_id}, and PoolGame itself."""

    def __init__(self, client: FlaskClient) -> None:
        document = client.get("/api/openapi.json").get_json()
        answer = document["paths"]["/api/games/{game_id}"]["get"]["responses"]["200"]["content"]["application/json"]
        components = document["components"]
        self.any_game = OAS31Validator({**answer["schema"], "components": components})
        self.pool_game = OAS31Validator({"$ref": "#/components/schemas/PoolGame", "components": components})
        self.rummy_game = OAS31Validator({"$ref": "#/components/schemas/Game", "components": components})

    def validate(self, answer: dict[str, Any]) -> None:
        self.any_game.validate(answer)
        self.pool_game.validate(answer)
        assert not self.rummy_game.is_valid(answer)


def validator(client: FlaskClient) -> Documented:
    return Documented(client)


def record_of(game: dict[str, Any], deals: list[dict[str, Any]], end: dict[str, Any] | None = None) -> str:
    record: dict[str, Any] = {
        "variant": game["variant"],
        "options": {key: value for key, value in game["options"].items() if key != "buy_in"},
        "players": game["players"],
        "buy_in": game["options"]["buy_in"],
        "first_dealer": game["first_dealer"],
        "deals": deals,
    }
    if end is not None:
        record["end"] = end
    return json.dumps(record)


def standings(answer: dict[str, Any]) -> dict[str, Any]:
    return {key: answer[key] for key in STANDINGS}


# ---------------------------------------------------------------- starting a game


def test_a_pool_game_starts_with_its_buy_in_and_house_options(client: FlaskClient) -> None:
    game = new_pool(client, buy_in=2500, rejoin_cutoff=70, max_drops=3)
    assert game["variant"] == "pool-101" and game["edit_key"]
    assert game["options"]["buy_in"] == 2500
    assert game["options"]["rejoin_cutoff"] == 70 and game["options"]["max_drops"] == 3
    assert game["pot"] == 7500 and game["paid"] == dict.fromkeys(NAMES, 2500)
    assert game["totals"] == dict.fromkeys(NAMES, 0) and game["dealer"] == "Asha" and game["deals"] == []
    assert game["finished"] is False and game["group"] is None
    validator(client).validate(state(client, game))
    two = new_pool(client, ["Ann", "Bob"], "pool-201", buy_in=0)
    assert two["options"]["pool_limit"] == 201 and two["options"]["rejoin_cutoff"] == 174 and two["pot"] == 0


@pytest.mark.parametrize(
    ("options", "players", "sentence"),
    [
        ({"buy_in": -5}, NAMES, 'Buy-in: a whole number of cents from 0 to 10000000, not "-5"'),
        ({"buy_in": "5.00"}, NAMES, 'Buy-in: a whole number of cents from 0 to 10000000, not "5.00"'),
        ({"buy_in": 10**8 + 1}, NAMES, 'Buy-in: a whole number of cents from 0 to 10000000, not "100000001"'),
        ({"buy_in": 2.5}, NAMES, 'Buy-in: a whole number of cents from 0 to 10000000, not "2.5"'),
        ({"pool_limit": 5000}, NAMES, 'Pool limit: a whole number from 20 to 1000, not "5000"'),
        ({"jokers_per_deck": 3}, NAMES, 'Printed jokers per deck: a whole number from 0 to 2, not "3"'),
        ({"sparkle": True}, NAMES, 'unknown option "sparkle"'),
        ({"pot": True}, NAMES, 'unknown option "pot"'),  # the 3-13 pot (section 6): pool has its own
        ({"full_cycle": True}, NAMES, 'Pool Rummy 101 has no house rule "Full cycle'),  # section 3
        ({"deal_sizes": 11}, NAMES, 'Pool Rummy 101 has no house rule "Cards dealt"'),  # section 9
        ({}, ["Asha"], "Pool Rummy 101 takes 2 to 6 players, not 1"),
        ({}, ["A", "B", "C", "D", "E", "F", "G"], "Pool Rummy 101 takes 2 to 6 players, not 7"),
        ({}, ["Asha", "Asha"], "Asha"),
    ],
)
def test_a_pool_game_is_refused_in_one_sentence(
    client: FlaskClient, options: dict[str, Any], players: list[str], sentence: str
) -> None:
    response = client.post("/api/games", json={"variant": "pool-101", "players": players, "options": options})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert sentence in error and "\n" not in error
    config = client.application.config
    config["PUBLIC_GAME_LIST"] = True
    assert client.get("/api/games").get_json()["games"] == []


def test_the_options_of_other_games_are_refused_naming_the_option(client: FlaskClient) -> None:
    """Sections 3 and 9: the engine names the option by its title, as the new-game form shows it."""
    for key, title in {"distinct_suit_sets": "Sets need different suits", "deal_sizes": "Cards dealt"}.items():
        body = {"variant": "pool-201", "players": NAMES, "options": {key: True}}
        response = client.post("/api/games", json=body)
        assert response.status_code == 400
        assert response.get_json()["error"] == f'Pool Rummy 201 has no house rule "{title}"'


# ---------------------------------------------------------------- deals, rejoins, the split, undo


def test_worked_example_7_a_rejoin_at_the_highest_total_plus_one(client: FlaskClient) -> None:
    game = new_pool(client)
    deal(client, game, {"Asha": "win", "Ben": 70, "Cy": 20}, cut="7H")
    after = deal(client, game, {"Asha": 35, "Ben": 40, "Cy": "win"}, wild="7")
    assert after["out"] == ["Ben"] and after["may_rejoin"] == {"Ben": None}
    assert after["deals"][1]["put_out"] == ["Ben"] and after["deals"][0]["cut"] == "7H"
    back = rejoin(client, game, "Ben")
    assert back["totals"] == {"Asha": 35, "Ben": 36, "Cy": 20} and back["pot"] == 2000
    assert back["paid"]["Ben"] == 1000 and back["rejoins"]["Ben"] == 1
    assert back["deals"][1]["rejoined"] == ["Ben"]
    record = record_of(
        game,
        [
            {"results": {"Asha": "win", "Ben": 70, "Cy": 20}},
            {"results": {"Asha": 35, "Ben": 40, "Cy": "win"}, "rejoin": ["Ben"]},
        ],
    )
    assert standings(back) == standings(game_json(record))
    validator(client).validate(state(client, game))


def test_worked_example_8_no_rejoin_above_the_cutoff_and_out_at_exactly_201(client: FlaskClient) -> None:
    game = new_pool(client)
    deal(client, game, {"Asha": 80, "Ben": 60, "Cy": "win"})
    deal(client, game, {"Asha": "win", "Ben": 41, "Cy": 0})  # Ben 101: out; the highest still in is 80
    refused = post(client, game, "rejoins", {"player": "Ben"})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == "the highest total still in is 80, above 79: no one may rejoin"
    assert state(client, game)["may_rejoin"] == {"Ben": "the highest total still in is 80, above 79: no one may rejoin"}
    big = new_pool(client, variant="pool-201")
    deal(client, big, {"Asha": 80, "Ben": 80, "Cy": "win"})
    deal(client, big, {"Asha": 80, "Ben": 41, "Cy": "win"})
    after = deal(client, big, {"Asha": 41, "Ben": "win", "Cy": 5})
    assert after["totals"]["Asha"] == 201 and after["out"] == ["Asha"]
    assert big["options"]["rejoin_cutoff"] == 174


DEALS_OF_EXAMPLE_9: list[dict[str, Any]] = [
    {"Asha": 25, "Ben": 75, "Cy": 80, "Dev": 80, "Eli": 80, "Fay": "win"},
    {"Asha": "win", "Ben": 0, "Cy": 15, "Dev": 80, "Eli": 21, "Fay": 80},
    {"Asha": "win", "Ben": 0, "Cy": 0, "Fay": 21},
]


def test_worked_example_9_the_split_by_drops(client: FlaskClient) -> None:
    six = ["Asha", "Ben", "Cy", "Dev", "Eli", "Fay"]
    game = new_pool(client, six, buy_in=2500)
    # Dev, Eli and Fay go out (a count scores at most 80); Asha 25, Ben 75 and Cy 95 remain.
    for results in DEALS_OF_EXAMPLE_9:
        after = deal(client, game, results)
    assert after["in"] == ["Asha", "Ben", "Cy"] and after["pot"] == 15000
    assert after["drops_left"] == {"Asha": 3, "Ben": 1, "Cy": 0}
    ended = post(client, game, "end", {"split": "drops"})
    assert ended.status_code == 200, ended.get_json()
    answer = ended.get_json()
    assert answer["split"] == {"method": "drops", "shares": {"Asha": 9167, "Ben": 4167, "Cy": 1666}}
    assert answer["finished"] is True and answer["dealer"] is None
    assert sum(answer["nets"].values()) == 0 and answer["nets"]["Asha"] == 9167 - 2500
    record = record_of(
        game,
        [{"results": results} for results in DEALS_OF_EXAMPLE_9],
        {"split": "drops"},
    )
    assert standings(answer) == standings(game_json(record))
    validator(client).validate(state(client, game))


def test_the_last_player_left_takes_the_pot(client: FlaskClient) -> None:
    game = new_pool(client, ["Ann", "Bob"], buy_in=1000)
    deal(client, game, {"Ann": "win", "Bob": 80})
    after = deal(client, game, {"Ann": "win", "Bob": 21})
    assert after["winner"] == "Ann" and after["finished"] is True
    assert after["nets"] == {"Ann": 1000, "Bob": -1000} and after["may_rejoin"] == {}


def refused_deal(client: FlaskClient, game: dict[str, Any], results: dict[str, Any]) -> str:
    before = state(client, game)
    response = post(client, game, "deals", {"results": results})
    assert response.status_code == 400, response.get_json()
    assert state(client, game) == before  # nothing stored
    error: str = response.get_json()["error"]
    return error


def test_every_refusal_of_a_deal_is_a_400_with_its_sentence(client: FlaskClient) -> None:
    game = new_pool(client, ["Ann", "Bob", "Cy"], max_drops=1)
    deal(client, game, {"Ann": "win", "Bob": "drop", "Cy": 80})  # Bob used his one drop
    deal(client, game, {"Ann": "win", "Bob": 0, "Cy": 21})  # Cy 101: out
    assert refused_deal(client, game, {"Ann": "win", "Bob": 3, "Zed": 4}) == '"Zed" is not a player in this game'
    assert refused_deal(client, game, {"Ann": "win", "Bob": 3, "Cy": 4}) == (
        "Cy is out of the game and has no result in this deal"
    )
    assert refused_deal(client, game, {"Ann": "win"}) == "Bob has no result in this deal"
    assert refused_deal(client, game, {"Ann": "win", "Bob": "lots"}) == (
        'Bob: "lots" is not a result: win, drop, middle, full, wrong or a count from 0'
    )
    assert refused_deal(client, game, {"Ann": "win", "Bob": -3}) == 'Bob: a count is a whole number from 0, not "-3"'
    assert refused_deal(client, game, {"Ann": "win", "Bob": "win"}) == "a deal has exactly one win, not 2"
    assert refused_deal(client, game, {"Ann": 5, "Bob": 7}) == "a deal has exactly one win, not 0"
    assert refused_deal(client, game, {"Ann": "win", "Bob": "middle"}) == "Bob has taken all 1 drops this game allows"
    assert refused_deal(client, game, {"Ann": "win", "Bob": 3.5}) == (
        'Bob: "3.5" is not a result: win, drop, middle, full, wrong or a count from 0'
    )
    deal(client, game, {"Ann": "win", "Bob": 80})
    deal(client, game, {"Ann": "win", "Bob": 1})  # Bob 101: Ann is the last one left
    assert refused_deal(client, game, {"Ann": "win", "Bob": 3}) == "the game is over: no more deals"


@pytest.mark.parametrize(
    ("body", "sentence"),
    [
        ({}, "a deal needs results: one for every player still in"),
        ({"results": ["win", 3]}, "results must be an object of each player's result"),
        ({"results": {"Ann": "win", "Bob": 3}, "cut": "1Z"}, "1Z"),
        (
            {"results": {"Ann": "win", "Bob": 3}, "cut": "7H", "wild": "7"},
            "give the card cut or the wild rank, not both",
        ),
        ({"results": {"Ann": "win", "Bob": 3}, "wild": "Q♥"}, "Q♥"),
        ({"results": {"Ann": "win", "Bob": 3}, "version": "2"}, "version"),
        ({"results": {"Ann": "win", "Bob": 3}, "shown": True}, "shown"),
    ],
)
def test_a_deal_of_the_wrong_shape_is_refused(client: FlaskClient, body: dict[str, Any], sentence: str) -> None:
    game = new_pool(client, ["Ann", "Bob"])
    response = post(client, game, "deals", body)
    assert response.status_code == 400
    assert sentence in response.get_json()["error"]
    assert state(client, game)["version"] == game["version"]


def test_a_deal_without_a_cut_joker_takes_no_cut(client: FlaskClient) -> None:
    game = new_pool(client, ["Ann", "Bob"], cut_joker=False)
    response = post(client, game, "deals", {"results": {"Ann": "win", "Bob": 3}, "cut": "7H"})
    assert response.status_code == 400 and "cut" in response.get_json()["error"]
    assert deal(client, game, {"Ann": "win", "Bob": 3})["deals"][0]["cut"] is None


def refused_rejoin(client: FlaskClient, game: dict[str, Any], player: str) -> str:
    before = state(client, game)
    response = post(client, game, "rejoins", {"player": player})
    assert response.status_code == 400, response.get_json()
    assert state(client, game) == before
    error: str = response.get_json()["error"]
    return error


def test_every_refusal_of_a_rejoin_is_a_400_with_its_sentence(client: FlaskClient) -> None:
    game = new_pool(client, ["Ann", "Bob", "Cy", "Dee"], max_rejoins=1, rejoin_cutoff="off")
    assert refused_rejoin(client, game, "Bob") == "Bob is not out of the game, so cannot rejoin"
    assert refused_rejoin(client, game, "Zed") == '"Zed" is not a player in this game, so cannot rejoin'
    deal(client, game, {"Ann": "win", "Bob": 80, "Cy": 10, "Dee": 20})
    deal(client, game, {"Ann": "win", "Bob": 21, "Cy": 0, "Dee": 0})  # Bob 101: out
    assert rejoin(client, game, "Bob")["totals"]["Bob"] == 21
    deal(client, game, {"Ann": "win", "Bob": 80, "Cy": 10, "Dee": 20})  # Bob 101 again
    assert refused_rejoin(client, game, "Bob") == "Bob has rejoined 1 times, the most this game allows"
    deal(client, game, {"Ann": "win", "Cy": 80, "Dee": 5})
    deal(client, game, {"Ann": "win", "Cy": 1, "Dee": 0})  # Cy 101: out; Bob let two deals pass
    assert refused_rejoin(client, game, "Bob") == "Bob may rejoin only straight after the deal that put them out"
    assert rejoin(client, game, "Cy")["totals"]["Cy"] == 46
    deal(client, game, {"Ann": "win", "Cy": 55, "Dee": 80})  # Cy 101 and Dee 125: Ann is the last one left
    assert refused_rejoin(client, game, "Dee") == "the game is over: no one may rejoin"


def test_a_rejoin_at_the_limit_itself_is_refused(client: FlaskClient) -> None:
    game = new_pool(client, ["Ann", "Bob", "Cy"], rejoin_cutoff="off")
    deal(client, game, {"Ann": 80, "Bob": 80, "Cy": "win"})
    deal(client, game, {"Ann": 20, "Bob": 21, "Cy": "win"})  # Ann 100 stays in, Bob 101 is out
    assert refused_rejoin(client, game, "Bob") == "Bob would come back at 101, which is itself out"


def test_every_refusal_of_a_split_is_a_400_with_its_sentence(client: FlaskClient) -> None:
    game = new_pool(client, ["Ann", "Bob", "Cy"], buy_in=100)
    deal(client, game, {"Ann": "win", "Bob": 80, "Cy": 0})  # drops left 5, 1, 5: 400 + 0 + 400 > 300 - 100
    for body, sentence in [
        ({"split": "drops"}, "the split by drops would leave less than one buy-in to share"),
        ({"split": "amounts", "shares": {"Ann": 300}}, "the shares must name every player still in, and only them"),
        (
            {"split": "amounts", "shares": {"Ann": 100, "Bob": 100, "Cy": 50}},
            "the shares sum to 250, not the pot of 300",
        ),
        ({"split": "amounts", "shares": {"Ann": 400, "Bob": -100, "Cy": 0}}, "whole"),
        ({"split": "amounts", "shares": {"Ann": 100, "Bob": 100, "Zed": 100}}, "only them"),
        ({"split": "amounts"}, "shares must be an object of cents by the name of each player still in"),
        ({"split": "equal", "shares": {"Ann": 300}}, 'shares go only with the split "amounts"'),
        ({"split": "halves"}, 'split must be "drops", "equal" or "amounts"'),
    ]:
        before = state(client, game)
        response = post(client, game, "end", body)
        assert response.status_code == 400, (body, response.get_json())
        assert sentence in response.get_json()["error"], body
        assert state(client, game) == before
    ended = post(client, game, "end", {"split": "amounts", "shares": {"Ann": 150, "Bob": 0, "Cy": 150}})
    assert ended.status_code == 200 and ended.get_json()["nets"] == {"Ann": 50, "Bob": -100, "Cy": 50}
    again = post(client, game, "end", {"split": "equal"})
    assert again.status_code == 400 and again.get_json()["error"] == "the game is over already"


def test_undo_takes_back_the_last_step_with_the_version_seen(client: FlaskClient) -> None:
    game = new_pool(client)
    url = f"/api/games/{game['id']}/deals/last"
    nothing = client.delete(f"{url}?version={game['version']}", headers=edit_key(game))
    assert nothing.status_code == 404 and nothing.get_json()["error"] == "there is no deal to undo yet"
    deal(client, game, {"Asha": "win", "Ben": 70, "Cy": 20})
    second = deal(client, game, {"Asha": 35, "Ben": 40, "Cy": "win"})
    back = rejoin(client, game, "Ben")
    assert client.delete(url, headers=edit_key(game)).status_code == 428
    stale = client.delete(f"{url}?version={second['version']}", headers=edit_key(game))
    assert stale.status_code == 409 and stale.get_json()["current"]["version"] == back["version"]
    undone = client.delete(f"{url}?version={back['version']}", headers=edit_key(game))
    assert undone.status_code == 200
    assert standings(undone.get_json()) == standings(second) and undone.get_json()["may_rejoin"] == {"Ben": None}
    by_header = client.delete(url, headers={**edit_key(game), "If-Match": f'"v{undone.get_json()["version"]}"'})
    assert by_header.status_code == 200 and len(by_header.get_json()["deals"]) == 1
    ended = new_pool(client, ["Ann", "Bob"])
    deal(client, ended, {"Ann": "win", "Bob": 3})
    finished = post(client, ended, "end", {"split": "equal"}).get_json()
    reopened = client.delete(
        f"/api/games/{ended['id']}/deals/last?version={finished['version']}", headers=edit_key(ended)
    ).get_json()
    assert reopened["finished"] is False and reopened["split"] is None and reopened["events"] == 1


def test_a_stale_version_is_a_409_with_the_current_state(client: FlaskClient) -> None:
    game = new_pool(client)
    first = deal(client, game, {"Asha": "win", "Ben": 70, "Cy": 20}, version=game["version"])
    for path, body in [
        ("deals", {"results": {"Asha": "win", "Ben": 7, "Cy": 2}}),
        ("rejoins", {"player": "Ben"}),
        ("end", {"split": "equal"}),
    ]:
        response = post(client, game, path, {**body, "version": game["version"]})
        assert response.status_code == 409, path
        assert response.get_json()["current"] == state(client, game) and response.get_json()["current"] == {
            **first,
            "group": None,
        }


def test_a_repeated_idempotency_key_answers_the_same_and_stores_once(client: FlaskClient) -> None:
    game = new_pool(client)
    body = {"results": {"Asha": "win", "Ben": 70, "Cy": 20}}
    first = post(client, game, "deals", body, **{"Idempotency-Key": "deal-1"})
    again = post(client, game, "deals", body, **{"Idempotency-Key": "deal-1"})
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    assert len(state(client, game)["deals"]) == 1
    other = post(
        client, game, "deals", {"results": {"Asha": "win", "Ben": 5, "Cy": 5}}, **{"Idempotency-Key": "deal-1"}
    )
    assert other.status_code == 422 and len(state(client, game)["deals"]) == 1
    split = {"split": "equal"}
    assert post(client, game, "end", split, **{"Idempotency-Key": "end"}).get_json() == (
        post(client, game, "end", split, **{"Idempotency-Key": "end"}).get_json()
    )
    assert state(client, game)["events"] == 2


def test_writes_need_the_edit_key(client: FlaskClient) -> None:
    game = new_pool(client)
    for method, url, body in [
        ("post", "deals", {"results": {"Asha": "win", "Ben": 70, "Cy": 20}}),
        ("post", "rejoins", {"player": "Ben"}),
        ("post", "end", {"split": "equal"}),
        ("delete", "deals/last?version=1", None),
    ]:
        for headers in ({}, {"X-Edit-Key": "not-the-key"}):
            response = getattr(client, method)(f"/api/games/{game['id']}/{url}", json=body, headers=headers)
            assert response.status_code == 403, (url, headers)
            assert "edit key" in response.get_json()["error"]
    assert state(client, game)["events"] == 0 and state(client, game)["version"] == game["version"]


# ---------------------------------------------------------------- the other endpoints refuse a pool game


def test_the_endpoints_of_other_games_refuse_a_pool_game_in_its_words(client: FlaskClient) -> None:
    game = new_pool(client)
    deal(client, game, {"Asha": "win", "Ben": 70, "Cy": 20})
    before = state(client, game)
    deals_not_rounds = "Pool Rummy 101 is played in deals, not rounds"
    events = "only a Play or Pay game takes events; a pool rummy game takes deals, rejoins and a split"
    seats = "a pool rummy game keeps the players it started with"
    for method, url, body, sentence in [
        ("post", "rounds", {"went_out": "Asha", "scores": {"Ben": 5, "Cy": 5}}, deals_not_rounds),
        ("put", "rounds/1", {"went_out": "Asha", "scores": {"Ben": 5, "Cy": 5}}, deals_not_rounds),
        ("delete", f"rounds/last?version={before['version']}", None, deals_not_rounds),
        ("post", "events", {"type": "play", "player": "Ben", "card": "7H"}, events),
        ("delete", f"events/last?version={before['version']}", None, events),
        ("post", "buys", {"player": "Ben", "change": 1}, "this game has no buying"),
        ("post", "players", {"add": "Dee"}, seats),
        ("post", "players", {"remove": "Cy"}, seats),
    ]:
        response = getattr(client, method)(f"/api/games/{game['id']}/{url}", json=body, headers=edit_key(game))
        assert response.status_code == 400, (url, response.get_json())
        assert response.get_json()["error"].startswith(sentence), (url, response.get_json())
    assert state(client, game) == before


def test_a_split_is_refused_for_a_game_of_another_kind(client: FlaskClient) -> None:
    for variant, sentence in [
        (
            "pay-me",
            "only a Play or Pay game is ended, or a pool rummy game's pot split, by the table; a game in rounds",
        ),
        ("play-or-pay", "split and shares go only with a pool rummy game; Play or Pay ends with its chips"),
    ]:
        game = client.post("/api/games", json={"variant": variant, "players": ["Ann", "Bob", "Cy"]}).get_json()
        response = post(client, game, "end", {"split": "equal"})
        assert response.status_code == 400 and response.get_json()["error"].startswith(sentence)
        for path, body in [("deals", {"results": {"Ann": "win", "Bob": 3, "Cy": 4}}), ("rejoins", {"player": "Bob"})]:
            refused = post(client, game, path, body)
            assert refused.status_code == 400
            assert refused.get_json()["error"] == "only a pool rummy game takes deals, rejoins and splits"
        undo = client.delete(f"/api/games/{game['id']}/deals/last?version=1", headers=edit_key(game))
        assert undo.status_code == 400


def test_a_misspelt_player_is_renamed_in_every_deal_and_the_rename_undone(client: FlaskClient) -> None:
    game = new_pool(client, ["Asha", "Bne", "Cy"])
    deal(client, game, {"Asha": "win", "Bne": 70, "Cy": 20})
    deal(client, game, {"Asha": 35, "Bne": 40, "Cy": "win"})
    rejoin(client, game, "Bne")
    renamed = post(client, game, "players", {"rename": {"from": "Bne", "to": "Ben"}})
    assert renamed.status_code == 200, renamed.get_json()
    answer = renamed.get_json()
    assert answer["players"] == NAMES and answer["totals"] == {"Asha": 35, "Ben": 36, "Cy": 20}
    assert answer["deals"][0]["results"]["Ben"] == 70 and answer["deals"][1]["rejoined"] == ["Ben"]
    assert answer["paid"]["Ben"] == 1000
    (change,) = answer["player_changes"]
    assert (change["words"], change["round"], change["unit"]) == ("Bne was renamed Ben", 3, "deal")
    validator(client).validate(answer)
    taken = post(client, game, "players", {"rename": {"from": "Ben", "to": "Cy"}})
    assert taken.status_code == 400 and "Cy" in taken.get_json()["error"]
    undone = client.delete(f"/api/games/{game['id']}/players/last?version={answer['version']}", headers=edit_key(game))
    assert undone.status_code == 200, undone.get_json()
    assert undone.get_json()["players"] == ["Asha", "Bne", "Cy"] and undone.get_json()["rejoins"]["Bne"] == 1
    assert undone.get_json()["player_changes"][0]["undone_at"]
    again = client.delete(
        f"/api/games/{game['id']}/players/last?version={undone.get_json()['version']}", headers=edit_key(game)
    )
    assert again.status_code == 404


# ---------------------------------------------------------------- reads


def test_the_state_is_read_from_the_cache_with_its_etag(client: FlaskClient) -> None:
    game = new_pool(client)
    url = f"/api/games/{game['id']}"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    version = client.get(f"{url}/version", headers={"If-None-Match": etag})
    assert version.status_code == 304
    played = deal(client, game, {"Asha": "win", "Ben": 70, "Cy": 20})
    fresh = client.get(url, headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and fresh.headers["ETag"] == f'"v{played["version"]}"'
    assert fresh.get_json() == {**played, "group": None}


def test_the_games_list_names_a_pool_game_with_its_deals(client: FlaskClient) -> None:
    game = new_pool(client)
    deal(client, game, {"Asha": "win", "Ben": 70, "Cy": 20})
    client.application.config["PUBLIC_GAME_LIST"] = True
    (line,) = client.get("/api/games").get_json()["games"]
    assert line["variant"] == "pool-101" and line["rounds_played"] == 1 and line["finished"] is False


# ---------------------------------------------------------------- the API answers as pool-game


PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
RESULTS = st.one_of(st.integers(min_value=0, max_value=90), st.sampled_from(["drop", "middle", "full", "wrong"]))
OPTIONS = st.fixed_dictionaries(
    {
        "buy_in": st.sampled_from([0, 500, 2500]),
        "max_drops": st.sampled_from(["unlimited", 2]),
        "max_rejoins": st.sampled_from(["unlimited", 1]),
        "eliminated_at": st.sampled_from(["reach", "pass"]),
        "rejoin_cutoff": st.sampled_from([None, "off"]),  # None: the preset's (79 or 174)
    }
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    data=st.data(),
    variant=st.sampled_from(["pool-101", "pool-201"]),
    options=OPTIONS,
    count=st.integers(min_value=2, max_value=4),
)
def test_the_api_answers_as_the_command_lines_pool_game(
    client: FlaskClient, data: st.DataObject, variant: str, options: dict[str, Any], count: int
) -> None:
    """Random deals (mostly those a table plays, now and then a refused one), rejoins of the players put
    out (now and then of another), and maybe a split: the API's standings are pool-game's for the record
    of what was sent, which stops where the API refused."""
    chosen = {key: value for key, value in options.items() if value is not None}
    game = new_pool(client, PLAYERS[:count], variant, **chosen)
    record = json.loads(record_of(game, []))
    answer = state(client, game)
    refused = False
    for _ in range(data.draw(st.integers(min_value=1, max_value=12), label="deals")):
        if answer["finished"] and data.draw(st.integers(0, 4), label="deal after the end"):
            break
        results = {name: data.draw(RESULTS) for name in answer["in"]}
        results[data.draw(st.sampled_from(answer["in"]), label="winner")] = "win"
        if data.draw(st.integers(0, 19), label="odd deal") == 0:  # a deal the rules refuse
            results = {**results, data.draw(st.sampled_from(PLAYERS[:count])): "win"}
        record["deals"].append({"results": results, "rejoin": []})
        response = post(client, game, "deals", {"results": results})
        if response.status_code != 201:
            assert response.status_code == 400
            refused = True
            break
        answer = response.get_json()
        candidates = list(answer["may_rejoin"])
        if data.draw(st.integers(0, 9), label="odd rejoin") == 0:
            candidates.append(data.draw(st.sampled_from(PLAYERS[:count])))
        least = 1 if data.draw(st.integers(0, 3), label="rejoin at all") else 0  # mostly a table buys back in
        rejoining = st.lists(st.sampled_from(candidates), unique=True, min_size=least) if candidates else st.just([])
        for name in data.draw(rejoining, label="rejoins"):
            record["deals"][-1]["rejoin"].append(name)
            response = post(client, game, "rejoins", {"player": name})
            if response.status_code != 201:
                assert response.status_code == 400
                refused = True
                break
            answer = response.get_json()
        if refused:
            break
    end = data.draw(st.sampled_from([None, {"split": "drops"}, {"split": "equal"}, "amounts"]), label="end")
    if not refused and end is not None:
        if end == "amounts":
            shares = {name: answer["pot"] // len(answer["in"]) for name in answer["in"]}
            shares[answer["in"][0]] += answer["pot"] - sum(shares.values()) + data.draw(st.sampled_from([0, 0, 1]))
            end = {"split": "amounts", "shares": shares}
        record["end"] = end
        response = post(client, game, "end", end)
        assert response.status_code in (200, 400)
        refused = response.status_code == 400
    expected = game_json(json.dumps(record))
    final = state(client, game)
    event(f"refused: {expected['refused'] and expected['refused']['code']}; finished: {final['finished']}")
    event(f"rejoins: {sum(final['rejoins'].values()) > 0}")
    assert standings(final) == standings(expected)
    assert (expected["refused"] is not None) == refused
    validator(client).validate(final)


# ---------------------------------------------------------------- database trouble


def test_a_full_disk_is_a_503_for_every_pool_write_and_nothing_is_saved(tmp_path: Path) -> None:
    with app_on(tmp_path, f"sqlite:///{tmp_path / 'games.sqlite3'}") as app:
        client = app.test_client()
        game = new_pool(client)
        deal(client, game, {"Asha": "win", "Ben": 80, "Cy": 20})
        second = deal(client, game, {"Asha": 30, "Ben": 21, "Cy": "win"})
        with disk_full(app):
            assert_api_503(post(client, game, "deals", {"results": {"Asha": "win", "Cy": 3}}))
            assert_api_503(post(client, game, "rejoins", {"player": "Ben"}))
            assert_api_503(post(client, game, "end", {"split": "equal"}))
            url = f"/api/games/{game['id']}/deals/last?version={second['version']}"
            assert_api_503(client.delete(url, headers=edit_key(game)))
            assert_api_503(client.post("/api/games", json={"variant": "pool-201", "players": NAMES}))
        assert (
            standings(state(client, game)) == standings(second) and state(client, game)["version"] == second["version"]
        )
