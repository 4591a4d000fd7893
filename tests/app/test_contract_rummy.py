"""Contract Rummy in the app (issue 15): the new-game form, the deal panel with its contract, the buy
counter (JSON API and page form), the exact cut, exports, the API state and groups."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Game, Round
from tests.app.test_openapi_responses import conforms
from tests.conftest import api_game, edit_key, read_csrf_token

Post = Callable[..., Any]
VARIANT = "contract-rummy"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
CONTRACTS = [
    ["set", "set"],
    ["set", "run"],
    ["run", "run"],
    ["set", "set", "set"],
    ["set", "set", "run"],
    ["set", "run", "run"],
    ["run", "run", "run"],
]


def text(response: Any) -> str:
    return str(response.get_data(as_text=True))


def start(client: FlaskClient, **options: Any) -> dict[str, Any]:
    game: dict[str, Any] = api_game(client, VARIANT, PLAYERS, "Ann", **options)
    return game


def buy(client: FlaskClient, game: dict[str, Any], player: str, change: int = 1, **extra: Any) -> Any:
    return client.post(
        f"/api/games/{game['id']}/buys", json={"player": player, "change": change, **extra}, headers=edit_key(game)
    )


def score(client: FlaskClient, game: dict[str, Any], went_out: str, scores: dict[str, Any], **extra: Any) -> Any:
    return client.post(
        f"/api/games/{game['id']}/rounds",
        json={"went_out": went_out, "scores": scores, **extra},
        headers=edit_key(game),
    )


def stored(app: Flask, game_id: str) -> tuple[int, dict[str, int] | None, list[tuple[int, Any, Any]]]:
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        rounds = db.session.scalars(db.select(Round).filter_by(game_id=game_id).order_by(Round.number))
        return game.version, game.buys, [(item.number, item.buys, item.exact_cut) for item in rounds]


# ---------------------------------------------------------------- new game


def test_the_home_page_and_the_new_game_page_offer_contract_rummy(client: FlaskClient) -> None:
    assert "Contract Rummy" in text(client.get("/"))
    page = text(client.get("/games/new"))
    assert 'href="/games/new?variant=contract-rummy"' in page and "3–8 players" in page


def test_the_house_rule_form_shows_only_the_presets_options(client: FlaskClient) -> None:
    contract = text(client.get("/games/new?variant=contract-rummy"))
    for key in ("deal_sizes", "twos_wild", "joker_swap", "ace_points", "joker_points", "buys_per_deal", "exact_cut"):
        assert f'name="opt_{key}"' in contract, key
    assert 'name="opt_full_cycle"' not in contract and 'name="opt_penalty_table"' not in contract
    pay_me = text(client.get("/games/new?variant=pay-me"))
    assert 'name="opt_full_cycle"' in pay_me and 'name="opt_double_rounds"' in pay_me
    assert 'name="opt_buys_per_deal"' not in pay_me and 'name="opt_deal_sizes"' not in pay_me
    # Numbers are typed in words, with the preset's default filled in.
    assert re.search(r'name="opt_buys_per_deal" type="text" value="3"', contract)


def test_the_new_game_form_starts_contract_rummy_with_options_typed_in(client: FlaskClient, app: Flask) -> None:
    token = read_csrf_token(client)
    form = {
        "csrf_token": token,
        "variant": VARIANT,
        "players": "\n".join(PLAYERS),
        "first_dealer": "0",
        "opt_buys_per_deal": " 2 ",
        "opt_exact_cut": "y",
        "opt_ace_points": "15",
        "opt_joker_points": "15",
        "opt_deal_sizes": "10, 10, 10, 10, 12, 12, 12",
    }
    answer = client.post("/games/new", data=form)
    assert answer.status_code == 303, text(answer)
    game_id = answer.headers["Location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["variant"] == VARIANT and state["options"]["buys_per_deal"] == 2 and state["options"]["exact_cut"]
    assert "full_cycle" not in state["options"]
    assert state["buy_limit"] == 2


@pytest.mark.parametrize("key, value", [("buys_per_deal", "lots"), ("ace_points", "-3"), ("deal_sizes", "10, ten")])
def test_a_bad_number_option_is_refused_in_one_sentence_and_nothing_is_stored(
    client: FlaskClient, app: Flask, key: str, value: str
) -> None:
    form = {
        "csrf_token": read_csrf_token(client),
        "variant": VARIANT,
        "players": "\n".join(PLAYERS),
        f"opt_{key}": value,
    }
    answer = client.post("/games/new", data=form)
    assert answer.status_code == 400
    alert = re.search(r'<p class="alert" role="alert">([^<]*)</p>', text(answer))
    assert alert and alert.group(1).count(". ") == 0 and "Traceback" not in alert.group(1)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == 0


def test_other_presets_keep_their_options_in_the_api(client: FlaskClient) -> None:
    pay_me = api_game(client, "pay-me", PLAYERS[:3], "Ann")
    assert "buys_per_deal" not in pay_me["options"] and "full_cycle" in pay_me["options"]
    assert "buys" not in pay_me and "contract" not in pay_me["next_round"]
    refused = client.post(
        "/api/games", json={"variant": "pay-me", "players": PLAYERS[:3], "options": {"buys_per_deal": 2}}
    )
    assert refused.status_code == 400 and refused.get_json()["error"]


# ---------------------------------------------------------------- the deal panel


def test_each_deals_panel_shows_the_contract_in_words_and_pictures(client: FlaskClient) -> None:
    game = start(client)
    assert game["next_round"]["contract"] == ["set", "set"] and game["next_round"]["cards"] == 10
    page = text(client.get(f"/games/{game['id']}"))
    assert "<strong>Contract:</strong> two sets" in page
    assert page.count('role="img" aria-label="a set: three or more cards of one rank"') == 2
    assert "10 cards each" in page and "Plays first" in page and "Dealer" in page
    assert "Go out with no discard" not in page


def test_the_last_deal_says_go_out_with_no_discard(client: FlaskClient) -> None:
    game = start(client)
    for _ in range(6):
        assert score(client, game, "Ann", {"Ann": 0, "Bob": 5, "Cy": 10, "Dee": 15}).status_code == 201
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["next_round"]["contract"] == ["run", "run", "run"] and state["next_round"]["no_final_discard"]
    page = text(client.get(f"/games/{game['id']}"))
    assert "Go out with no discard" in page and "three runs" in page
    assert page.count('aria-label="a run: four or more cards of one suit in sequence"') == 3


# ---------------------------------------------------------------- buys through the API


def test_buys_are_counted_up_to_the_limit_and_refused_beyond_it(client: FlaskClient, app: Flask) -> None:
    game = start(client)
    assert game["buys"] == dict.fromkeys(PLAYERS, 0) and game["buy_limit"] == 3
    for count in (1, 2, 3):
        answer = buy(client, game, "Ann")
        assert answer.status_code == 200 and answer.get_json()["buys"]["Ann"] == count
    before = stored(app, game["id"])
    refused = buy(client, game, "Ann")
    assert refused.status_code == 400
    error = refused.get_json()["error"]
    assert "Ann" in error and "3" in error and error.count(". ") == 0
    assert stored(app, game["id"]) == before  # nothing stored
    taken_back = buy(client, game, "Ann", -1)
    assert taken_back.get_json()["buys"]["Ann"] == 2


@pytest.mark.parametrize(
    "body, says",
    [
        ({"player": "Zed"}, "not a player"),
        ({"player": "Bob", "change": 2}, "change must be 1"),
        ({"player": "Bob", "change": -1}, "no buy to take back"),
        ({"player": "Bob", "change": "1"}, "change must be 1"),
        ({"change": 1}, "a buy needs a player"),
        ({"player": "Bob", "extra": 1}, 'unknown field "extra"'),
    ],
)
def test_bad_buys_are_refused_in_one_sentence_and_nothing_is_stored(
    client: FlaskClient, app: Flask, body: dict[str, Any], says: str
) -> None:
    game = start(client)
    before = stored(app, game["id"])
    answer = client.post(f"/api/games/{game['id']}/buys", json=body, headers=edit_key(game))
    assert answer.status_code == 400 and says in answer.get_json()["error"]
    assert stored(app, game["id"]) == before


def test_a_buy_on_a_stale_version_is_a_409_with_the_game_as_stored(client: FlaskClient, app: Flask) -> None:
    game = start(client)
    first = buy(client, game, "Bob", version=game["version"]).get_json()
    answer = buy(client, game, "Cy", version=game["version"])
    assert answer.status_code == 409
    body = conforms(client, answer, "/api/games/{game_id}/buys", "post")
    assert body["current"]["buys"]["Bob"] == 1 and body["current"]["buys"]["Cy"] == 0
    assert stored(app, game["id"])[0] == first["version"]


def test_a_buy_needs_the_edit_key_and_a_game_with_buying(client: FlaskClient) -> None:
    game = start(client)
    assert client.post(f"/api/games/{game['id']}/buys", json={"player": "Ann"}).status_code == 403
    pay_me = api_game(client, "pay-me", PLAYERS[:3], "Ann")
    answer = buy(client, pay_me, "Ann")
    assert answer.status_code == 400 and "no buying" in answer.get_json()["error"]
    assert client.post("/api/games/nope/buys", json={"player": "Ann"}, headers=edit_key(game)).status_code == 404


def test_buys_are_stored_with_the_deal_and_the_count_starts_again(client: FlaskClient, app: Flask) -> None:
    game = start(client)
    buy(client, game, "Bob")
    buy(client, game, "Bob")
    buy(client, game, "Dee")
    state = score(client, game, "Ann", {"Ann": 0, "Bob": 25, "Cy": 40, "Dee": 5}).get_json()
    assert state["rounds"][0]["buys"] == {"Ann": 0, "Bob": 2, "Cy": 0, "Dee": 1}
    assert state["buys"] == dict.fromkeys(PLAYERS, 0)
    assert stored(app, game["id"])[1:] == (None, [(1, {"Bob": 2, "Dee": 1}, None)])
    # A correction keeps the deal's buys; an undo makes them the current deal's count again.
    corrected = client.put(
        f"/api/games/{game['id']}/rounds/1",
        json={"went_out": "Ann", "scores": {"Ann": 0, "Bob": 20, "Cy": 40, "Dee": 5}},
        headers=edit_key(game),
    ).get_json()
    assert corrected["rounds"][0]["buys"]["Bob"] == 2
    buy(client, game, "Cy")  # counted in deal 2, then deal 1 is undone
    undone = client.delete(
        f"/api/games/{game['id']}/rounds/last?version={stored(app, game['id'])[0]}", headers=edit_key(game)
    )
    assert undone.status_code == 200
    assert undone.get_json()["buys"] == {"Ann": 0, "Bob": 2, "Cy": 0, "Dee": 1}
    again = score(client, game, "Ann", {"Ann": 0, "Bob": 20, "Cy": 40, "Dee": 5}).get_json()
    assert again["rounds"][0]["buys"] == {"Ann": 0, "Bob": 2, "Cy": 0, "Dee": 1}


def test_the_csv_export_has_each_players_buys_per_deal_in_a_game_with_buys(client: FlaskClient) -> None:
    game = start(client)
    buy(client, game, "Bob")
    buy(client, game, "Bob")
    buy(client, game, "Dee")
    score(client, game, "Ann", {"Ann": 0, "Bob": 25, "Cy": 40, "Dee": 5})
    score(client, game, "Cy", {"Ann": 10, "Bob": 5, "Cy": 0, "Dee": 15})
    rows = list(csv.reader(io.StringIO(text(client.get(f"/games/{game['id']}/export.csv")))))
    header = rows[0]
    assert header[6:10] == ["Ann score", "Ann points", "Ann total", "Ann buys"]
    assert [name for name in header if name.endswith(" buys")] == [f"{name} buys" for name in PLAYERS]
    buys = [{name: int(row[header.index(f"{name} buys")]) for name in PLAYERS} for row in rows[1:]]
    assert buys == [{"Ann": 0, "Bob": 2, "Cy": 0, "Dee": 1}, dict.fromkeys(PLAYERS, 0)]
    assert [int(row[header.index("Bob total")]) for row in rows[1:]] == [25, 30]


def test_the_csv_export_has_no_buys_column_without_buying(client: FlaskClient) -> None:
    game = start(client, buys_per_deal=0)
    score(client, game, "Ann", {"Ann": 0, "Bob": 25, "Cy": 40, "Dee": 5})
    header = next(csv.reader(io.StringIO(text(client.get(f"/games/{game['id']}/export.csv")))))
    assert "Bob total" in header and not any("buys" in name for name in header)
    other = api_game(client, "pay-me", PLAYERS, "Ann")
    assert "buys" not in text(client.get(f"/games/{other['id']}/export.csv")).splitlines()[0]


# ---------------------------------------------------------------- buys through the page


def test_the_buy_form_with_the_edit_key(client: FlaskClient, app: Flask, post_form: Post) -> None:
    form = {
        "variant": VARIANT,
        "players": "\n".join(PLAYERS),
        "first_dealer": "0",
    }
    made = post_form("/games/new", form)
    game_id = made.headers["Location"].rsplit("/", 1)[1]
    page = text(client.get(f"/games/{game_id}"))
    assert f'action="/games/{game_id}/buys"' in page and "js/buys.js" in page
    assert 'aria-label="+1: one buy more for Ann"' in page and 'aria-label="−1: one buy less for Ann"' in page
    version = stored(app, game_id)[0]
    answer = post_form(f"/games/{game_id}/buys", {"player": "Cy", "change": "1", "version": version})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/games/{game_id}#buys")
    assert stored(app, game_id)[1] == {"Cy": 1}
    assert "<b>1</b> of 3" in text(client.get(f"/games/{game_id}"))
    stale = post_form(f"/games/{game_id}/buys", {"player": "Cy", "change": "1", "version": version})
    assert stale.status_code == 409 and "another phone" in text(stale)
    for _ in range(2):
        post_form(f"/games/{game_id}/buys", {"player": "Cy", "change": "1"})
    beyond = post_form(f"/games/{game_id}/buys", {"player": "Cy", "change": "1"})
    assert beyond.status_code == 400 and "Not counted:" in text(beyond)
    assert stored(app, game_id)[1] == {"Cy": 3}
    no_csrf = client.post(f"/games/{game_id}/buys", data={"player": "Cy", "change": "-1"})
    assert no_csrf.status_code == 400 and stored(app, game_id)[1] == {"Cy": 3}
    viewer = text(app.test_client().get(f"/games/{game_id}"))
    assert "Buys this deal" in viewer and "buy-form" not in viewer
    assert app.test_client().post(f"/games/{game_id}/buys", data={"player": "Cy", "change": "1"}).status_code in (
        400,
        403,
    )


# ---------------------------------------------------------------- exact cut and scoring from cards


def test_the_exact_cut_scores_minus_50_that_deal(client: FlaskClient) -> None:
    game = start(client, exact_cut=True)
    state = score(client, game, "Ann", {"Ann": 0, "Bob": 25, "Cy": 40, "Dee": 5}, exact_cut="Cy").get_json()
    assert state["rounds"][0]["exact_cut"] == "Cy"
    assert state["rounds"][0]["points"]["Cy"] == 40 - 50 and state["rounds"][0]["scores"]["Cy"] == 40
    assert state["totals"]["Cy"] == -10
    page = text(client.get(f"/games/{game['id']}"))
    assert '<span class="cut-mark" aria-hidden="true">✂</span><span class="sr-only"> cut exactly</span>' in page
    assert "✂ Cy cut exactly in deal 1: 40 for cards -50 for cutting exactly = -10." in page
    unknown = score(client, game, "Ann", {"Ann": 0, "Bob": 1, "Cy": 1, "Dee": 1}, exact_cut="Zed")
    assert unknown.status_code == 400 and "not a player" in unknown.get_json()["error"]
    off = start(client)
    refused = score(client, off, "Ann", {"Ann": 0, "Bob": 1, "Cy": 1, "Dee": 1}, exact_cut="Cy")
    assert refused.status_code == 400 and refused.get_json()["error"] == "this game is played without the exact cut"


def test_score_from_cards_sums_the_cards_held(client: FlaskClient) -> None:
    game = start(client)
    state = score(client, game, "Ann", {"Ann": 0, "Bob": 0, "Dee": 0}, hands={"Cy": "7H 7S 7D KC AS JK"}).get_json()
    assert state["rounds"][0]["scores"]["Cy"] == 7 * 3 + 10 + 15 + 15


# ---------------------------------------------------------------- a whole game, exports, groups


# The melds a player lays down to go down in each deal: exactly the deal's contract.
GOING_DOWN = (
    ("5H 5S 5D", "KC KD JK"),
    ("9C 9D 9H", "4S 5S 6S 7S"),
    ("5H 6H 7H 8H", "9S 10S JK QS"),
    ("3C 3D 3H", "8S 8D 8C", "QH QS JK"),
    ("4C 4D 4H", "JS JD JC", "6H 7H 8H 9H"),
    ("2C 2D 2H", "3S 4S 5S 6S", "9D 10D JD QD"),
    ("AH 2H 3H 4H", "5C 6C 7C 8C", "10S JS QS KS"),
)


def going_down(client: FlaskClient, deal: int, melds: tuple[str, ...]) -> dict[str, Any]:
    answer = client.post("/api/contract", json={"variant": VARIANT, "round": deal, "melds": list(melds)})
    assert answer.status_code == 200, answer.get_json()
    verdict: dict[str, Any] = answer.get_json()
    return verdict


def play_whole_game(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    state = game
    for deal in range(1, 8):
        assert state["next_round"]["contract"] == CONTRACTS[deal - 1]
        # The player who goes out first goes down: the contract check agrees, and refuses one meld short.
        assert going_down(client, deal, GOING_DOWN[deal - 1]) | {"melds": []} == {
            "valid": True,
            "reason": None,
            "melds": [],
        }
        short = going_down(client, deal, GOING_DOWN[deal - 1][:-1])
        assert short["valid"] is False and short["reason"], short
        buy(client, game, PLAYERS[deal % 4])
        answer = score(
            client,
            game,
            PLAYERS[deal % 4],
            {name: 0 if name == PLAYERS[deal % 4] else 10 * deal for name in PLAYERS},
            exact_cut="Dee" if deal == 3 else None,
        )
        assert answer.status_code == 201, answer.get_json()
        state = conforms(client, answer, "/api/games/{game_id}/rounds", "post")
    return state


def test_a_whole_four_player_game_through_the_api(client: FlaskClient) -> None:
    game = start(client, exact_cut=True)
    state = play_whole_game(client, game)
    assert state["finished"] and len(state["rounds"]) == 7
    assert [played["contract"] for played in state["rounds"]] == CONTRACTS
    assert [played["cards"] for played in state["rounds"]] == [10, 10, 10, 10, 12, 12, 12]
    assert all(sum(played["buys"].values()) == 1 for played in state["rounds"])
    expected = {name: sum(0 if name == PLAYERS[deal % 4] else 10 * deal for deal in range(1, 8)) for name in PLAYERS}
    expected["Dee"] -= 50
    assert state["totals"] == expected
    assert state["winners"] == [min(expected, key=lambda name: expected[name])]
    assert buy(client, game, "Ann").status_code == 400  # the game is over
    conforms(client, client.get(f"/api/games/{game['id']}"), "/api/games/{game_id}", "get")
    sheet = text(client.get(f"/games/{game['id']}/sheet"))
    assert "Buys per deal" in sheet


def test_export_and_import_keep_buys_and_the_exact_cut(client: FlaskClient) -> None:
    game = start(client, exact_cut=True)
    buy(client, game, "Bob")
    score(client, game, "Ann", {"Ann": 0, "Bob": 25, "Cy": 40, "Dee": 5}, exact_cut="Cy")
    buy(client, game, "Dee")
    exported = client.get(f"/api/games/{game['id']}/export").get_json()
    assert (
        exported["tables"]["rounds"][0]["buys"] == {"Bob": 1} and exported["tables"]["rounds"][0]["exact_cut"] == "Cy"
    )
    assert exported["game"]["buys"] == {"Dee": 1}
    imported = conforms(client, client.post("/api/games/import", json=exported), "/api/games/import", "post")
    assert imported["rounds"][0]["buys"]["Bob"] == 1 and imported["rounds"][0]["exact_cut"] == "Cy"
    assert imported["buys"]["Dee"] == 1 and imported["totals"]["Cy"] == -10
    bad = json.loads(json.dumps(exported))
    bad["tables"]["rounds"][0]["buys"] = {"Bob": 9}
    refused = client.post("/api/games/import", json=bad)
    assert refused.status_code == 400 and "round 1" in refused.get_json()["error"]


def test_other_games_export_as_before(client: FlaskClient) -> None:
    pay_me = api_game(client, "pay-me", PLAYERS[:3], "Ann")
    client.post(
        f"/api/games/{pay_me['id']}/rounds",
        json={"went_out": "Ann", "scores": {"Ann": 0, "Bob": 3, "Cy": 4}},
        headers=edit_key(pay_me),
    )
    exported = client.get(f"/api/games/{pay_me['id']}/export").get_json()
    assert "buys" not in exported["game"]
    assert "buys" not in exported["tables"]["rounds"][0] and "exact_cut" not in exported["tables"]["rounds"][0]


def test_groups_count_contract_rummy_games(client: FlaskClient) -> None:
    group = client.post("/api/groups", json={"name": "Thursday", "players": PLAYERS}).get_json()
    made = client.post(
        "/api/games",
        json={
            "variant": VARIANT,
            "players": PLAYERS,
            "first_dealer": "Ann",
            "group": group["id"],
            "options": {"exact_cut": True},
        },
        headers={"X-Group-Key": group["edit_key"]},
    )
    assert made.status_code == 201, made.get_json()
    play_whole_game(client, made.get_json())
    figures = client.get(f"/api/groups/{group['id']}").get_json()
    assert figures["games"][0]["variant"] == VARIANT and figures["games"][0]["finished"]
    assert all(player["games"] == 1 for player in figures["players"])


# ---------------------------------------------------------------- a whole game through the pages


def test_a_whole_four_player_game_through_the_pages(client: FlaskClient, app: Flask, post_form: Post) -> None:
    made = post_form(
        "/games/new?variant=contract-rummy",
        {"variant": VARIANT, "players": "\n".join(PLAYERS), "first_dealer": "0", "opt_exact_cut": "y"},
    )
    assert made.status_code == 303, text(made)
    game_id = made.headers["Location"].rsplit("/", 1)[1]
    words = [
        "two sets",
        "one set and one run",
        "two runs",
        "three sets",
        "two sets and one run",
        "one set and two runs",
        "three runs",
    ]
    for deal in range(1, 8):
        page = text(client.get(f"/games/{game_id}"))
        assert f"<strong>Contract:</strong> {words[deal - 1]}" in page
        assert ("Go out with no discard" in page) == (deal == 7)
        assert f"{12 if deal > 4 else 10} cards each" in page
        buyer = PLAYERS[(deal + 1) % 4]
        assert post_form(f"/games/{game_id}/buys", {"player": buyer, "change": "1"}).status_code == 303
        # The player going out goes down first: the in-game checker's link judges the deal's contract.
        checker = text(client.get(f"/games/{game_id}/check"))
        link = re.search(r'id="going-down-link" href="([^"]*)"', checker)
        assert link, checker[:300]
        melds = {f"meld-{index}": cards for index, cards in enumerate(GOING_DOWN[deal - 1])}
        verdict = text(client.get(html.unescape(link.group(1)) + "&" + urlencode(melds)))
        assert "✓ Going down: this is the contract" in verdict, deal
        out = PLAYERS[deal % 4]
        data: dict[str, Any] = {"went_out": out, "exact_cut": "Bob" if deal == 2 else ""}
        data.update({f"scores-{seat}": "0" if name == out else f"{deal}+5" for seat, name in enumerate(PLAYERS)})
        saved = post_form(f"/games/{game_id}/rounds/new", data)
        assert saved.status_code == 303, text(saved)
    # A correction from the round's form: deal 2's exact cut goes to Cy instead; its buys stay.
    form = text(client.get(f"/games/{game_id}/rounds/2/edit"))
    assert (
        "Who cut exactly?" in form
        and '<input checked id="exact_cut-2" name="exact_cut" type="radio" value="Bob">' in form
    )
    data = {"went_out": PLAYERS[2], "exact_cut": "Cy"}
    data.update({f"scores-{seat}": "0" if seat == 2 else "2+5" for seat in range(4)})
    assert post_form(f"/games/{game_id}/rounds/2/edit", data).status_code == 303
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["finished"] and state["rounds"][1]["exact_cut"] == "Cy"
    assert state["rounds"][1]["buys"] == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 1}
    expected = {name: sum(0 if name == PLAYERS[deal % 4] else deal + 5 for deal in range(1, 8)) for name in PLAYERS}
    expected["Cy"] -= 50
    assert state["totals"] == expected
    page = text(client.get(f"/games/{game_id}"))
    assert "Game over" in page and "Buys this deal" not in page
    assert f"<strong>{state['winners'][0]}</strong> wins" in page
    assert stored(app, game_id)[1] is None


def test_the_pdf_sheet_shows_each_deals_buys(client: FlaskClient) -> None:
    from tests.app.test_sheet_routes import pdf_of, text_of

    game = start(client, exact_cut=True)
    buy(client, game, "Bob")
    buy(client, game, "Bob")
    score(client, game, "Ann", {"Ann": 0, "Bob": 25, "Cy": 40, "Dee": 5}, exact_cut="Cy")
    words = " ".join(text_of(pdf_of(client.get(f"/games/{game['id']}/sheet.pdf"))).split())
    assert "Buys per deal" in words and "-10" in words


def test_the_cards_page_scores_held_cards_in_full_and_takes_the_exact_cut(
    client: FlaskClient, app: Flask, post_form: Post
) -> None:
    made = post_form(
        "/games/new?variant=contract-rummy",
        {"variant": VARIANT, "players": "\n".join(PLAYERS), "first_dealer": "0", "opt_exact_cut": "y"},
    )
    game_id = made.headers["Location"].rsplit("/", 1)[1]
    page = text(client.get(f"/games/{game_id}/rounds/cards"))
    assert "Who cut exactly?" in page
    data = {
        "action": "save",
        "went_out": "Ann",
        "exact_cut": "Dee",
        "hand-1": "7H 7S 7D KC AS JK",
        "points-0": "0",
        "points-2": "4",
        "points-3": "6",
    }
    saved = post_form(f"/games/{game_id}/rounds/cards", data)
    assert saved.status_code == 303, text(saved)
    played = client.get(f"/api/games/{game_id}").get_json()["rounds"][0]
    assert played["scores"] == {"Ann": 0, "Bob": 7 * 3 + 10 + 15 + 15, "Cy": 4, "Dee": 6}
    assert played["exact_cut"] == "Dee" and played["points"]["Dee"] == 6 - 50
    without = post_form(  # a game without the exact cut: its cards page does not ask
        "/games/new?variant=contract-rummy", {"variant": VARIANT, "players": "\n".join(PLAYERS), "first_dealer": "0"}
    ).headers["Location"]
    page = client.get(f"{without}/rounds/cards")
    assert page.status_code == 200 and "Who cut exactly?" not in text(page) and "Round 1 from the cards" in text(page)


def test_a_game_without_buying_still_draws_its_contract_fans_styled(client: FlaskClient) -> None:
    game = start(client, buys_per_deal=0)
    page = text(client.get(f"/games/{game['id']}"))
    assert "/static/css/fans.css" in page and "/static/css/contract.css" in page
    assert page.count('class="fan fan-set labelled" role="img"') == 2 and "js/buys.js" not in page
    other = text(client.get(f"/games/{api_game(client, 'pay-me', PLAYERS, 'Ann')['id']}"))
    assert "fans.css" not in other and "contract.css" not in other
