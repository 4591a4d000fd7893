"""Issue 11 in the app: how the first dealer is chosen (form and API, recorded and shown, exported), the
discard pile on each round's panel, verdicts that say how the engine read a meld, the doubled rounds the
new-game form sends, and plain words on the checker pages."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Game
from tests.conftest import api_game, every_game

PLAYERS = ["Ann", "Bob", "Cy"]
ROOT = Path(__file__).resolve().parents[2]


def plain(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def new_game(client: FlaskClient, **body: Any) -> Any:
    return client.post("/api/games", json={"players": PLAYERS, **body})


def stored(app: Flask, game_id: str) -> Game:
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        db.session.expunge(game)
        return game


# ---------------------------------------------------------------- first dealer: the API


@pytest.mark.parametrize(
    ("body", "dealer", "record"),
    [
        ({"first_dealer": "Bob"}, 1, {"method": "chosen"}),
        ({"first_dealer": "Cy", "first_dealer_method": "chosen"}, 2, {"method": "chosen"}),
        ({"first_dealer": "Cy", "first_dealer_method": "high_card"}, 2, {"method": "high_card"}),
        (
            {"first_dealer_method": "left_of_scorekeeper", "scorekeeper": "Cy"},
            0,
            {"method": "left_of_scorekeeper", "scorekeeper": "Cy"},
        ),
        (
            {"first_dealer_method": "left_of_scorekeeper", "scorekeeper": "Ann"},
            1,
            {"method": "left_of_scorekeeper", "scorekeeper": "Ann"},
        ),
    ],
)
def test_the_api_records_how_the_first_dealer_was_chosen(
    app: Flask, client: FlaskClient, body: dict[str, Any], dealer: int, record: dict[str, str]
) -> None:
    response = new_game(client, variant="3-13", **body)
    assert response.status_code == 201, response.get_json()
    answer = response.get_json()
    assert answer["next_round"]["dealer"] == PLAYERS[dealer]
    assert stored(app, answer["id"]).dealing == record


def test_a_random_first_dealer_is_recorded_as_random(app: Flask, client: FlaskClient) -> None:
    for body in ({}, {"first_dealer_method": "random"}):
        answer = new_game(client, variant="pay-me", **body).get_json()
        assert answer["next_round"]["dealer"] in PLAYERS
        assert stored(app, answer["id"]).dealing == {"method": "random"}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (
            {"variant": "pay-me", "first_dealer_method": "left_of_scorekeeper", "scorekeeper": "Ann"},
            'Pay Me does not pick the first dealer "left of the score keeper": only 3-13 does',
        ),
        ({"variant": "3-13", "first_dealer_method": "coin"}, '"coin" is not a way to pick the first dealer'),
        ({"variant": "3-13", "first_dealer_method": "high_card"}, "name the player who won the high-card draw"),
        ({"variant": "3-13", "first_dealer_method": "left_of_scorekeeper"}, "name the score keeper"),
        (
            {"variant": "3-13", "first_dealer_method": "left_of_scorekeeper", "scorekeeper": "Zed"},
            'the score keeper "Zed" is not one of the players',
        ),
        (
            {"variant": "3-13", "first_dealer_method": "random", "first_dealer": "Ann"},
            'first_dealer does not go with the first dealer "at random"',
        ),
        ({"variant": "3-13", "scorekeeper": "Ann"}, "scorekeeper goes with the first dealer left of the score keeper"),
        ({"variant": "3-13", "first_dealer_method": 3}, 'first_dealer_method must be "chosen", "random"'),
        (
            {"variant": "3-13", "first_dealer_method": "left_of_scorekeeper", "scorekeeper": 1},
            "scorekeeper must be a player's name",
        ),
        (
            {"variant": "play-or-pay", "first_dealer_method": "left_of_scorekeeper", "scorekeeper": "Ann"},
            "only 3-13 does",
        ),
    ],
)
def test_a_bad_first_dealer_choice_is_a_400_and_stores_nothing(
    client: FlaskClient, body: dict[str, Any], words: str
) -> None:
    response = new_game(client, **body)
    assert response.status_code == 400
    assert words in response.get_json()["error"]
    assert every_game(client) == []


def test_play_or_pay_takes_a_high_card_draw(app: Flask, client: FlaskClient) -> None:
    answer = new_game(client, variant="play-or-pay", first_dealer="Bob", first_dealer_method="high_card").get_json()
    assert answer["first_dealer"] == "Bob"
    assert stored(app, answer["id"]).dealing == {"method": "high_card"}


def test_the_dealing_record_is_exported_and_imported(app: Flask, client: FlaskClient) -> None:
    game = new_game(client, variant="3-13", first_dealer_method="left_of_scorekeeper", scorekeeper="Bob").get_json()
    exported = client.get(f"/api/games/{game['id']}/export").get_json()
    assert exported["game"]["dealing"] == {"method": "left_of_scorekeeper", "scorekeeper": "Bob"}
    copy = client.post("/api/games/import", json=exported)
    assert copy.status_code == 201, copy.get_json()
    assert stored(app, copy.get_json()["id"]).dealing == exported["game"]["dealing"]
    exported["game"]["dealing"] = {"method": "left_of_scorekeeper", "scorekeeper": "Ann"}
    refused = client.post("/api/games/import", json=exported)
    assert refused.status_code == 400
    assert "does not match its first dealer" in refused.get_json()["error"]
    exported["game"]["dealing"] = {"method": "coin"}
    refused = client.post("/api/games/import", json=exported)
    assert refused.status_code == 400
    assert "dealing record" in refused.get_json()["error"]


# ---------------------------------------------------------------- first dealer: the form and the game page


def test_the_new_game_form_offers_the_ways_of_the_preset(client: FlaskClient) -> None:
    three_thirteen = plain(client.get("/games/new?variant=3-13"))
    for words in (
        "Chosen by the table",
        "At random",
        "High-card draw",
        "King is high, Ace is low",
        "players who tie draw again",
        "Left of the score keeper",
        "Score keeper",
    ):
        assert words in three_thirteen, words
    pay_me = plain(client.get("/games/new?variant=pay-me"))
    assert "High-card draw" in pay_me and "Left of the score keeper" not in pay_me


def test_without_a_way_the_first_dealer_select_decides(
    app: Flask, client: FlaskClient, post_form: Callable[..., Any]
) -> None:
    response = post_form("/games/new", {"variant": "pay-me", "players": "Ann\nBob\nCy", "first_dealer": "1"})
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    assert stored(app, game_id).dealing == {"method": "chosen"}
    assert "Bob dealt first, chosen by the table." in plain(client.get(f"/games/{game_id}"))


def test_the_play_or_pay_form_offers_the_high_card_draw(
    app: Flask, client: FlaskClient, post_form: Callable[..., Any]
) -> None:
    page = plain(client.get("/games/new/chips"))
    assert "High-card draw" in page and "Left of the score keeper" not in page
    fields = {"players": "Ann\nBob\nCy", "chips": "20", "first_dealer_method": "high_card", "first_dealer": "2"}
    response = post_form("/games/new/chips", fields)
    assert response.status_code == 303
    game_id = response.headers["Location"].split("/")[2]
    assert stored(app, game_id).dealing == {"method": "high_card"}
    refused = post_form("/games/new/chips", {**fields, "first_dealer": "random"})
    assert refused.status_code == 400
    assert "Choose the player who won the high-card draw." in plain(refused)


@pytest.mark.parametrize(
    ("fields", "dealer", "says"),
    [
        ({"first_dealer_method": "high_card", "first_dealer": "2"}, "Cy", "Cy dealt first, having won the high-card"),
        ({"first_dealer_method": "chosen", "first_dealer": "1"}, "Bob", "Bob dealt first, chosen by the table"),
        (
            {"first_dealer_method": "left_of_scorekeeper", "scorekeeper": "1"},
            "Cy",
            "Cy dealt first, sitting left of the score keeper, Bob",
        ),
    ],
)
def test_the_form_records_the_way_and_the_game_page_says_it(
    client: FlaskClient, post_form: Callable[..., Any], fields: dict[str, str], dealer: str, says: str
) -> None:
    response = post_form("/games/new", {"variant": "3-13", "players": "Ann\nBob\nCy", **fields})
    assert response.status_code == 303
    page = plain(client.get(response.headers["Location"]))
    assert says in page
    assert f"Dealer {dealer}" in page


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"first_dealer_method": "high_card", "first_dealer": "random"}, "Choose the player who won the high-card"),
        ({"first_dealer_method": "chosen"}, "Choose who deals first."),
        ({"first_dealer_method": "coin"}, '"coin" is not a way to pick the first dealer'),
        ({"first_dealer_method": "left_of_scorekeeper", "scorekeeper": "x"}, "Score keeper: not a valid choice"),
    ],
)
def test_an_incomplete_first_dealer_choice_is_a_400(
    client: FlaskClient, post_form: Callable[..., Any], fields: dict[str, str], words: str
) -> None:
    response = post_form("/games/new", {"variant": "3-13", "players": "Ann\nBob\nCy", **fields})
    assert response.status_code == 400
    assert words in plain(response)
    assert every_game(client) == []


# ---------------------------------------------------------------- the discard pile and the doubled rounds


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        ("three-thirteen", "The dealer turns the last card dealt face up to start the discard pile."),
        ("3-13", "Start the discard pile staggered so that two cards show"),
        ("pay-me", "Turn the top card of the stock face up to start the discard pile."),
    ],
)
def test_each_rounds_panel_says_how_to_start_the_discard_pile(client: FlaskClient, variant: str, words: str) -> None:
    game = api_game(client, variant, PLAYERS, "Ann")
    page = plain(client.get(f"/games/{game['id']}"))
    assert f"Discard pile {words}" in page


def test_the_form_leaves_doubled_rounds_to_the_preset_unless_the_table_changes_them(
    client: FlaskClient, post_form: Callable[..., Any]
) -> None:
    form = client.get("/games/new?variant=3-13").get_data(as_text=True)
    ticked = re.findall(r'<input checked[^>]*name="opt_double_rounds"[^>]*value="(\d+)"', form)
    assert ticked == ["10", "11"]
    base = {"variant": "3-13", "players": "Ann\nBob\nCy", "opt_double_rounds": ticked, "opt_pot": "y"}
    full = post_form("/games/new", {**base, "opt_full_cycle": "y"})
    assert full.status_code == 303
    game_id = full.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").get_json()["options"]["double_rounds"] == [22, 23]
    named = post_form("/games/new", {**base, "opt_full_cycle": "y", "opt_double_rounds": ["5", "6"]})
    game_id = named.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").get_json()["options"]["double_rounds"] == [5, 6]
    standard = post_form("/games/new", base)
    game_id = standard.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").get_json()["options"]["double_rounds"] == [10, 11]


# ---------------------------------------------------------------- verdicts and plain words


def test_api_check_says_how_the_engine_read_the_meld(client: FlaskClient) -> None:
    response = client.post("/api/check", json={"variant": "pay-me", "round": 5, "melds": ["5H 6H JK 2C"]})
    assert response.status_code == 200
    meld = response.get_json()["melds"][0]
    assert meld["valid"] is True
    assert meld["reading"] == ["JK=4H", "5H", "6H", "2C=7H"]
    assert meld["reading_text"] == "read as 4♥ 5♥ 6♥ 7♥"


def test_the_openapi_document_names_the_reading(client: FlaskClient) -> None:
    described = client.get("/api/openapi.json").get_json()
    says = described["paths"]["/api/check"]["post"]["responses"]["200"]["description"]
    assert "reading_text" in says and "read as 4♥ 5♥ 6♥ 7♥" in says


def test_the_checker_page_says_how_it_read_the_meld(client: FlaskClient) -> None:
    page = client.get("/check", query_string={"variant": "pay-me", "round": "5", "meld-0": "5H 6H JK 2C"})
    assert page.status_code == 200
    assert "Read as 4♥ 5♥ 6♥ 7♥" in plain(page)


DECISION_CODE = re.compile(r"\(D\d+\)|overrides D\d|seed 0\d\d|not_more_than_naturals")


def test_no_page_template_outside_the_rules_pages_shows_decision_codes_or_option_keys() -> None:
    from engine.rules import ALL_OPTION_SPECS

    keys = re.compile("|".join(key for key in ALL_OPTION_SPECS if "_" in key))
    offending = []
    for template in (ROOT / "templates").rglob("*.html"):
        if template.parent.name == "rules":
            continue
        text = re.sub(r"\{#.*?#\}", "", template.read_text(encoding="utf-8"), flags=re.S)
        offending += [f"{template.name}: {found}" for found in DECISION_CODE.findall(text)]
        # The words a reader sees: no tags (field names may be keys), no template code.
        words = re.sub(r"\{%.*?%\}|\{\{.*?\}\}|<[^>]*>", " ", text, flags=re.S)
        offending += [f"{template.name}: {found}" for found in keys.findall(words)]
    assert offending == []


RULES_PAGES = [
    "/rules",
    "/rules/pay-me?full_cycle=true&wild_limit=not_more_than_naturals&ace=both",
    "/rules/pay-me-family",
    "/rules/three-thirteen?double_rounds=10,11",
    "/rules/3-13?lay_offs=false&penalty_table=pay-me-family",
    "/rules/contract-rummy?twos_wild=true&buys_per_deal=1&exact_cut=true",
    "/rules/play-or-pay?chips=30",
]


@pytest.mark.parametrize("url", RULES_PAGES)
def test_the_rules_pages_show_decision_codes_only_in_headings_and_house_rules_in_words(
    client: FlaskClient, url: str
) -> None:
    """Outside the headings a rules page names no decision code, no option key or value key, no seed number."""
    from engine.rules import ALL_OPTION_SPECS

    response = client.get(url)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    body = re.sub(r"<h([23])\b.*?</h\1>", " ", page, flags=re.S)
    words = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))
    assert re.findall(r"\bD\d+\b|seed \d+", words, flags=re.I) == []
    key_words = [key for key in ALL_OPTION_SPECS if "_" in key]
    key_words += [choice for spec in ALL_OPTION_SPECS.values() for choice in spec.choices if "_" in choice]
    assert [key for key in key_words if key in words] == []
    assert re.findall(r"<code>[^<]*</code>", body) == []


def test_a_decision_on_a_rules_page_leaves_out_a_house_rule_the_preset_does_not_take(client: FlaskClient) -> None:
    contract = plain(client.get("/rules/contract-rummy"))
    assert "not a legal meld." in contract and "Wild in its own place is natural" not in contract
    pay_me = plain(client.get("/rules/pay-me"))
    assert "The house rule Wild in its own place is natural lets a wild card" in pay_me


def test_a_game_sheet_names_house_rule_choices_in_words(client: FlaskClient) -> None:
    options = {"penalty_table": "three-thirteen", "wild_limit": "none", "ace": "both"}
    game = new_game(client, variant="pay-me", options=options).get_json()
    words = plain(client.get(f"/games/{game['id']}/sheet"))
    assert "Penalty table: Three Thirteen" in words and "Ace in runs: Both" in words
    assert "Wild cards per meld: Any number, all-wild melds too" in words
    assert "three-thirteen" not in words


def test_a_refused_new_game_form_names_the_house_rule_in_words(
    client: FlaskClient, post_form: Callable[..., Any]
) -> None:
    """The engine's refusal reaches the form as it is: it names the option by its title, not its key."""
    from engine.rules import OPTION_SPECS

    body = {"variant": "3-13", "players": "Ann\nBob\nCy", "opt_double_rounds": ["11", "12"], "opt_pot": "y"}
    refused = post_form("/games/new", body)
    assert refused.status_code == 400
    page = plain(refused)
    assert "Doubled rounds: round 12 is beyond the game's 11 rounds" in page
    keys = [key for key in OPTION_SPECS if "_" in key]
    assert [key for key in keys if key in page] == []
    assert every_game(client) == []
