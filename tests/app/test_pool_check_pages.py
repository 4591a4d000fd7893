"""Pool rummy's show checker and rules pages (issue 30): ``/check?variant=pool-101`` (nothing stored),
``/games/<id>/check`` of a pool game (kept in its log, one deal a round), the lay-off and cards routes
refusing a pool game, and ``/rules/pool-101``, ``/rules/pool-201``, ``/games/<id>/rules``."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Dispute
from engine.pool.rules_text import DECISIONS, rules_in_short
from engine.rules import rule_set

SHOW_1 = ["2H 3H 4H", "5S 6S JK 8S", "KC KD KH", "9D 9S 9C"]
SHOW_2 = ["2H 3H 7C", "5S 6S JK 8S", "KC KD KH", "9D 9S 9C"]
Post = Callable[..., Any]
HAND_6 = "2H 3H 4H KC KD KH 9D 9S 9C 5S 5D 5C 6H"


def plain(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def melds_query(melds: list[str]) -> dict[str, str]:
    return {f"meld-{index}": text for index, text in enumerate(melds)}


def pool_game(client: FlaskClient, variant: str = "pool-101", *, edit: bool = True, **options: Any) -> dict[str, Any]:
    body = {"variant": variant, "players": ["Asha", "Ben", "Cy"], "options": {"buy_in": 500, **options}}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    game: dict[str, Any] = response.get_json()
    if edit:
        client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    return game


def add_deal(client: FlaskClient, game: dict[str, Any], results: dict[str, Any], **cut: str) -> None:
    response = client.post(
        f"/api/games/{game['id']}/deals", json={"results": results, **cut}, headers={"X-Edit-Key": game["edit_key"]}
    )
    assert response.status_code == 201, response.get_json()


def checks(app: Flask, game_id: str) -> list[tuple[str, int, bool, str | None]]:
    with app.app_context():
        rows = db.session.scalars(db.select(Dispute).filter_by(game_id=game_id).order_by(Dispute.id)).all()
        return [(row.kind, row.round_number, row.valid, row.reason) for row in rows]


# ------------------------------------------------------------------ the standalone checker


def test_the_checker_offers_pool_rummy_with_a_cut_field_and_the_picker(client: FlaskClient) -> None:
    page = client.get("/check?variant=pool-101").get_data(as_text=True)
    assert 'id="cut"' in page and 'name="meld-4"' in page and "data-card-picker" in page
    assert '<option value="pool-201"' in page
    assert 'name="round"' not in page
    assert '<option value="pool-101"' in client.get("/check").get_data(as_text=True)


@pytest.mark.parametrize(
    ("query", "says"),
    [
        # 11.7 example 1: a pure sequence, an impure one, two sets, 13 cards
        ({"cut": "7H", **melds_query(SHOW_1)}, "A valid show: it wins the deal and scores 0."),
        # 11.7 example 2: 7♣ is wild, so neither sequence is pure
        ({"cut": "7H", **melds_query(SHOW_2)}, "A wrong show, 80 points: no pure sequence: every sequence holds"),
        ({"cut": "7", **melds_query(SHOW_2)}, "no pure sequence"),
        ({"cut": "7H", **melds_query(["2H 3H 4H", "KC KD KH", "9D 9S 9C", "5S 5D 5C 6H"])}, "meld 4 is not a meld"),
        ({"cut": "7H", **melds_query(["2H 3H 4H", "KC KD KH", "9D 9S 9C", "5S 5D 5C 5H"])}, "no second sequence"),
        ({"cut": "7H", **melds_query(["2H 3H 4H"])}, "a show holds exactly 13 cards, not 3"),
    ],
)
def test_the_checker_says_which_requirement_failed(client: FlaskClient, query: dict[str, str], says: str) -> None:
    response = client.get("/check", query_string={"variant": "pool-101", **query})
    assert response.status_code == 200
    assert says in plain(response)


def test_each_meld_shows_its_kind_purity_and_reading(client: FlaskClient) -> None:
    words = plain(client.get("/check", query_string={"variant": "pool-101", "cut": "7H", **melds_query(SHOW_1)}))
    assert "Pure sequence" in words and "Impure sequence" in words and "Set" in words
    assert "Read as 5♠ 6♠ 7♠ 8♠" in words
    assert "7♥ cut: jokers and sevens wild" in words


def test_examples_3_to_5_on_the_page(client: FlaskClient) -> None:
    def words(cut: str, melds: list[str], **options: str) -> str:
        return plain(
            client.get("/check", query_string={"variant": "pool-101", "cut": cut, **options, **melds_query(melds)})
        )

    three = words("7D", ["6H 7H 8H", "6H 7S 8H"])
    assert three.index("Pure sequence") < three.index("Impure sequence")
    assert "✓ 9♦ 9♦ 9♣ Set" in words("9S", ["9D 9D 9C"])
    assert "Not a meld" in words("7S", ["9D 9D 9C"])
    four = words("JK", ["AH 2H 3H", "5S 6S AD"])
    assert "Jokers and aces wild" in four or "jokers and aces wild" in four
    assert four.index("Pure sequence") < four.index("Impure sequence")
    assert "Not a meld" in words("JK", ["5S 6S AD"], printed_joker_cut="jokers_only")
    five = words("5C", ["QH KH AH", "KH AH 2H"])
    assert five.count("Not a meld") == 1 and "Pure sequence" in five


def test_example_6_the_count_says_why_in_one_line(client: FlaskClient) -> None:
    query = {"variant": "pool-201", "wild": "", "cut": "7", "hand": HAND_6}
    words = plain(client.get("/check", query_string=query))
    assert "80 points" in words
    assert "No two sequences with one of them pure: every card counts, 87, scored 80 (the full count)." in words
    lives = plain(
        client.get(
            "/check",
            query_string={"variant": "pool-101", "cut": "7", "hand": "2H 3H 4H KC KD KH 9D 9S 9C 5S 6S 7C 10D"},
        )
    )
    assert "Two sequences, one of them pure: only the cards outside melds count, 10." in lives


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ({"cut": "7X", "meld-0": "2H 3H 4H"}, 'The cut card "7X" is not a card.'),
        ({"meld-0": "2H 3H 4H"}, "Give the deal's cut"),
        ({"cut": "7H", "meld-0": "2H 3H 7X"}, '"7X" at position 3 is not a card'),
        ({"cut": "7H", "meld-0": "JK JK JK"}, '"🃏" appears 3 times'),
        ({"cut": "7H", **melds_query(["2H 3H 4H 5H 6H 8H"] * 3)}, "a show holds 13 cards, not 18"),
        ({"cut": "7H", "hand": "2H " * 17}, "a losing hand holds 13 cards, not 17"),
        ({"cut": "JK", "jokers_per_deck": "0", "meld-0": "2H 3H 4H"}, 'the cut card "🃏" is not in the deck'),
        ({"cut": "7H", "jokers_per_deck": "9", "meld-0": "2H 3H 4H"}, "printed jokers per deck: a whole number"),
    ],
)
def test_bad_input_on_the_checker_is_a_400_sentence_keeping_what_was_typed(
    client: FlaskClient, query: dict[str, str], says: str
) -> None:
    response = client.get("/check", query_string={"variant": "pool-101", **query})
    assert response.status_code == 400
    words = plain(response)
    assert says.lower() in words.lower(), words[:600]
    if "cut" in query and "jokers_per_deck" not in query:
        assert f'value="{html.escape(query["cut"])}"' in response.get_data(as_text=True)


# ------------------------------------------------------------------ in a game


def test_a_pool_game_checks_a_show_and_keeps_it_under_the_deal(
    app: Flask, client: FlaskClient, post_form: Post
) -> None:
    game = pool_game(client)
    add_deal(client, game, {"Asha": "win", "Ben": 70, "Cy": 20}, cut="7H")
    page = client.get(f"/games/{game['id']}/check")
    assert page.status_code == 200
    assert "deal 2" in plain(page) and "the cut is not given yet" in plain(page)
    assert "7♥ cut" in plain(client.get(f"/games/{game['id']}/check?round=1"))  # the cut entered with deal 1
    sent = post_form(
        f"/games/{game['id']}/check", {"round": "2", "action": "melds", "cut": "7D", **melds_query(SHOW_2)}
    )
    assert sent.status_code == 303
    shown = client.get(sent.headers["Location"])
    words = plain(shown)
    assert "✗ Wrong show" in words
    assert "A wrong show, 80 points: no pure sequence: every sequence holds a wild card." in words
    assert 'value="7D"' in shown.get_data(as_text=True)  # the deal's cut, kept for the next check
    assert checks(app, game["id"]) == [
        ("show", 2, False, "no pure sequence: every sequence holds a wild card"),
    ]
    counted = post_form(
        f"/games/{game['id']}/check", {"round": "2", "action": "hand", "cut": "7D", "player": "Ben", "hand": HAND_6}
    )
    assert counted.status_code == 303
    words = plain(client.get(counted.headers["Location"]))
    assert "Count · Ben" in words and "every card counts, 87, scored 80" in words
    assert [row[:3] for row in checks(app, game["id"])][-1] == ("count", 2, True)


@pytest.mark.parametrize(
    ("data", "says", "status"),
    [
        ({"round": "1", "action": "melds", "cut": "7Q", "meld-0": "2H 3H 4H"}, 'The cut card "7Q" is not a card.', 400),
        ({"round": "1", "action": "melds", "cut": "7H"}, "Give at least one meld", 400),
        ({"round": "1", "action": "melds", "meld-0": "2H 3H 4H"}, "Give the deal's cut", 400),
        ({"round": "1", "action": "hand", "cut": "7H", "hand": ""}, "Enter the cards of the hand", 400),
        (
            {"round": "1", "action": "hand", "cut": "7H", "player": "Zed", "hand": "2H"},
            "Choose one of the players",
            400,
        ),
        ({"round": "5", "action": "melds", "cut": "7H", "meld-0": "2H 3H 4H"}, "Deal 5 cannot be checked", 404),
    ],
)
def test_a_refused_check_in_a_game_stores_nothing(
    app: Flask, client: FlaskClient, post_form: Post, data: dict[str, str], says: str, status: int
) -> None:
    game = pool_game(client)
    response = post_form(f"/games/{game['id']}/check", data)
    assert response.status_code == status
    assert says in plain(response)
    assert checks(app, game["id"]) == []
    if status == 400 and data.get("cut"):
        assert f'value="{data["cut"]}"' in response.get_data(as_text=True)


def test_a_viewer_sees_the_log_but_cannot_check(client: FlaskClient, post_form: Post) -> None:
    game = pool_game(client, edit=False)
    page = client.get(f"/games/{game['id']}/check")
    assert page.status_code == 200
    assert "View only" in plain(page) and 'id="meld-form"' not in page.get_data(as_text=True)
    refused = post_form(f"/games/{game['id']}/check", {"round": "1", "cut": "7H", "meld-0": "2H 3H 4H"})
    assert refused.status_code == 403


@pytest.mark.parametrize("path", ["/rounds/1/layoffs", "/rounds/cards"])
def test_a_pool_game_has_no_lay_offs_or_cards_round(client: FlaskClient, post_form: Post, path: str) -> None:
    game = pool_game(client)
    response = client.get(f"/games/{game['id']}{path}")
    assert response.status_code == 404
    assert "pool rummy" in plain(response).lower()
    posted = post_form(f"/games/{game['id']}/rounds/1/layoffs", {"cards": "7H", "onto": "1"})
    assert posted.status_code == 404
    declarer = post_form(f"/games/{game['id']}/rounds/1/declarer", {"meld-0": "7H 8H 9H"})
    assert declarer.status_code == 404 and "no lay-offs" in plain(declarer)


# ------------------------------------------------------------------ the rules pages


@pytest.mark.parametrize("variant", ["pool-101", "pool-201"])
def test_the_pool_rules_pages_say_the_rules_in_words(client: FlaskClient, variant: str) -> None:
    response = client.get(f"/rules/{variant}")
    assert response.status_code == 200
    words = plain(response)
    for line in rules_in_short(rule_set(variant)):
        assert line.title in words and line.text in words
    page = response.get_data(as_text=True)
    for decision in DECISIONS:
        assert f'id="{decision.id}"' in page
        assert f"{decision.id} — {decision.title}" in words
        assert decision.text in words
    cutoff = "79" if variant == "pool-101" else "174"
    assert f"House rule: Rejoin cutoff , here {cutoff}" in words
    codes = re.findall(r"D-PR\d+", words)
    headings = re.findall(r"<h3>(D-PR\d+) — ", page)
    assert len(codes) == len(headings) == len(DECISIONS)  # the codes only in the headings


def test_the_query_sets_house_rules_on_the_rules_page(client: FlaskClient) -> None:
    words = plain(client.get("/rules/pool-101?eliminated_at=pass&rejoin_cutoff=off"))
    assert "House rules changed from the preset: Out at the limit" in words
    assert "A player whose total goes above 101 is out." in words
    response = client.get("/rules/pool-101?first_drop=lots")
    assert response.status_code == 400


def test_a_pool_games_rules_show_its_house_rules_and_buy_in(client: FlaskClient) -> None:
    game = pool_game(client, "pool-201", max_drops=2)
    response = client.get(f"/games/{game['id']}/rules")
    assert response.status_code == 200
    words = plain(response)
    assert "Pool Rummy 201 rules" in words and "A player whose total reaches 201 is out." in words
    assert "Buy-in $5.00 for each player, and again for each rejoin" in words
    assert "House rule: Drops per player , here 2" in words
    assert f'href="/games/{game["id"]}"' in response.get_data(as_text=True)


def test_no_decision_code_appears_on_the_checker_or_the_sheet(client: FlaskClient, post_form: Post) -> None:
    game = pool_game(client)
    add_deal(client, game, {"Asha": "win", "Ben": 70, "Cy": 20}, cut="JK")
    post_form(f"/games/{game['id']}/check", {"round": "2", "action": "melds", "cut": "7D", **melds_query(SHOW_2)})
    pages = [
        client.get("/check", query_string={"variant": "pool-101", "cut": "JK", "hand": HAND_6, **melds_query(SHOW_1)}),
        client.get(f"/games/{game['id']}/check?round=2"),
        client.get(f"/games/{game['id']}/sheet"),
        client.get("/sheets/pool-201"),
    ]
    for page in pages:
        assert page.status_code == 200
        assert not re.search(r"\bD-?(PR)?\d+\b", plain(page)), plain(page)[:300]


def test_an_imported_show_or_count_is_judged_again(app: Flask, client: FlaskClient, post_form: Post) -> None:
    from companion.services import disputes, store

    game = pool_game(client)
    post_form(f"/games/{game['id']}/check", {"round": "1", "action": "melds", "cut": "7H", **melds_query(SHOW_1)})
    with app.app_context():
        stored = store.get_game(game["id"])
        show = {"round_number": 1, "kind": "show", "cards": SHOW_2, "result": {"cut": "7H", "show": {"valid": True}}}
        judged = disputes.rejudge(stored, show)  # the file's verdict is never kept: the engine's is
        assert (judged.kind, judged.valid, judged.reason) == (
            "show",
            False,
            "no pure sequence: every sequence holds a wild card",
        )
        count = {"round_number": 1, "kind": "count", "player": "Ben", "cards": [HAND_6], "result": {"cut": "7"}}
        counted = disputes.rejudge(stored, count)
        assert counted.result is not None and (counted.result["count"], counted.result["penalty"]) == (87, 80)
        db.session.rollback()
    assert [row[0] for row in checks(app, game["id"])] == ["show"]
