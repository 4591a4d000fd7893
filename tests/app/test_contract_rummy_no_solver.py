"""Contract Rummy never reaches the solver (issue 15): every card held counts in full and the player
who went out holds no cards; lay-offs are judged onto the melds on the table. The API refuses the
declarer's melds in words, the round pages with no meaning for the game are not offered (a 404 in one
sentence by direct URL), and score from the cards counts the held cards in full."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Dispute, Round
from tests.conftest import api_game, edit_key

Post = Callable[..., Any]
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
REFUSAL = "in Contract Rummy every card held counts in full and the player who went out holds no cards"
NO_CHAIN = "Contract Rummy has no lay-offs after going out: every card held counts in full"


def text(response: Any) -> str:
    return str(response.get_data(as_text=True))


def plain(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def start(client: FlaskClient, variant: str = "contract-rummy") -> dict[str, Any]:
    game: dict[str, Any] = api_game(client, variant, PLAYERS, "Ann")
    return game


def page_game(post_form: Post, variant: str = "contract-rummy") -> str:
    """A game started from the new-game form: this browser holds its edit key."""
    form = {"variant": variant, "players": "\n".join(PLAYERS), "first_dealer": "0"}
    made = post_form(f"/games/new?variant={variant}", form)
    assert made.status_code == 303, text(made)
    return str(made.headers["Location"].rsplit("/", 1)[1])


def counts(app: Flask) -> tuple[int, int]:
    with app.app_context():
        rounds = db.session.scalar(db.select(db.func.count()).select_from(Round))
        checks = db.session.scalar(db.select(db.func.count()).select_from(Dispute))
        return int(rounds or 0), int(checks or 0)


# ---------------------------------------------------------------- the JSON API


def test_api_best_refuses_the_declarers_melds_and_cards_in_words(client: FlaskClient) -> None:
    body = {"variant": "contract-rummy", "round": 1, "hand": "7H 7S KC"}
    assert client.post("/api/best", json=body).get_json()["penalty"] == 24
    for extra in ({"declarer": ["5H 5S 5D", "9C 9D 9S"]}, {"declarer_hand": "5H 5S 5D 9C 9D 9S"}):
        refused = client.post("/api/best", json=body | extra)
        assert refused.status_code == 400 and refused.get_json()["error"].startswith(REFUSAL), extra


def test_api_layoff_judges_the_table_and_refuses_a_declarers_hand(client: FlaskClient) -> None:
    body = {"variant": "contract-rummy", "round": 2, "onto": 2, "cards": "KH"}
    answer = client.post("/api/layoff", json=body | {"table": ["5S 5D 5C", "9H 10H JH QH"]}).get_json()
    assert answer["valid"] is True and answer["table"][1] == ["9H", "10H", "JH", "QH", "KH"]
    refused = client.post("/api/layoff", json=body | {"declarer_hand": "5S 5D 5C 9H 10H JH QH"})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == "in Contract Rummy give each meld on the table, not a player's cards"


# ---------------------------------------------------------------- scoring a deal from the cards


def test_api_round_from_cards_gives_the_player_who_went_out_0_and_counts_held_cards_in_full(
    client: FlaskClient,
) -> None:
    game = start(client)
    body = {"went_out": "Ann", "scores": {"Bob": 0, "Dee": 5}, "hands": {"Cy": "7H 7S 7D KC AS JK"}}
    state = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game)).get_json()
    assert state["rounds"][0]["scores"] == {"Ann": 0, "Bob": 0, "Cy": 7 * 3 + 10 + 15 + 15, "Dee": 5}


def test_api_round_refuses_cards_or_melds_for_the_player_who_went_out(client: FlaskClient, app: Flask) -> None:
    game = start(client)
    url, headers = f"/api/games/{game['id']}/rounds", edit_key(game)
    others = {"Bob": 0, "Dee": 5}
    for extra in (
        {"hands": {"Ann": "5H 5S 5D 9C 9D 9S"}},
        {"hands": {"Ann": "5H 5S 5D | 9C 9D 9S"}},
        {"declarer": ["5H 5S 5D", "9C 9D 9S"], "hands": {"Cy": "7H"}},
    ):
        refused = client.post(url, json={"went_out": "Ann", "scores": others, **extra}, headers=headers)
        assert refused.status_code == 400, extra
        assert refused.get_json()["error"] == "Ann went out, so they hold no cards: leave their cards and melds empty"
    assert counts(app) == (0, 0)


def test_the_cards_page_asks_no_melds_and_says_held_cards_count_in_full(client: FlaskClient, post_form: Post) -> None:
    game_id = page_game(post_form)
    page = text(client.get(f"/games/{game_id}/rounds/cards"))
    words = plain(page)
    assert "Every card held counts in full; the player who went out holds no cards and scores 0." in words
    assert "Their melds" not in words and "data-declarer-meld" not in page and "best arrangement" not in words
    assert "2. Each player's cards or points" in words
    url = f"/games/{game_id}/rounds/cards"
    refused = post_form(url, {"action": "preview", "went_out": "Ann", "hand-0": "5H 5S 5D", "hand-1": "7H KC"})
    assert refused.status_code == 400
    assert "Ann went out, so they hold no cards: leave their cards and melds empty" in plain(text(refused))
    shown = post_form(url, {"action": "preview", "went_out": "Ann", "hand-1": "7H KC"})
    assert shown.status_code == 200 and "Best: 17" in plain(text(shown))
    saved = post_form(url, {"action": "save", "went_out": "Ann", "hand-1": "7H KC", "points-2": "4", "points-3": "6"})
    assert saved.status_code == 303, text(saved)
    played = client.get(f"/api/games/{game_id}").get_json()["rounds"][0]
    assert played["scores"] == {"Ann": 0, "Bob": 17, "Cy": 4, "Dee": 6}


def test_other_presets_keep_their_melds_on_the_cards_page(client: FlaskClient, post_form: Post) -> None:
    game_id = page_game(post_form, "pay-me")
    words = plain(text(client.get(f"/games/{game_id}/rounds/cards")))
    assert "Their melds" in words and "3. Each player's cards or points" in words


# ---------------------------------------------------------------- the lay-off chain page


def test_the_lay_off_chain_is_not_offered_and_its_urls_are_a_404_in_one_sentence(
    client: FlaskClient, app: Flask, post_form: Post
) -> None:
    game_id = page_game(post_form)
    for url in (f"/games/{game_id}", f"/games/{game_id}/check"):
        page = text(client.get(url))
        assert "Check a meld or a hand" in page or "Checks in round 1" in page, url
        assert "/rounds/1/layoffs" not in page and "Going out and lay-offs" not in page, url
    missing = client.get(f"/games/{game_id}/rounds/1/layoffs")
    assert missing.status_code == 404
    assert f"{NO_CHAIN}, and the checker judges going down and lay-offs onto the table." in plain(text(missing))
    for path, data in (("declarer", {"declarer": "Ann", "meld-0": "5H 5S 5D"}), ("layoffs", {"player": "Bob"})):
        posted = post_form(f"/games/{game_id}/rounds/1/{path}", data)
        assert posted.status_code == 404 and NO_CHAIN in plain(text(posted)), path
    assert counts(app) == (0, 0)
    other = page_game(post_form, "pay-me")
    assert "/rounds/1/layoffs" in text(client.get(f"/games/{other}"))
    assert client.get(f"/games/{other}/rounds/1/layoffs").status_code == 200


def test_an_imported_going_out_check_or_lay_off_chain_is_refused_for_contract_rummy(
    client: FlaskClient, app: Flask
) -> None:
    game = start(client)
    with app.app_context():
        from companion.services import disputes, store

        disputes.log_hand(store.get_game(game["id"]), 1, "Bob", "7H KC")
    document = client.get(f"/games/{game['id']}/export.json").get_json()
    assert [row["kind"] for row in document["tables"]["disputes"]] == ["hand"]
    assert client.post("/api/games/import", json=document).status_code == 201  # a held-cards check comes back
    before = counts(app)
    row = document["tables"]["disputes"][0]
    row |= {"kind": "declarer", "player": "Ann", "cards": ["5H 5S 5D", "9C 9D 9S"], "result": {}}
    refused = client.post("/api/games/import", json=document)
    assert refused.status_code == 400
    assert f"check 1 of the dispute log: {REFUSAL}" in refused.get_json()["error"]
    row |= {"kind": "layoff", "player": "Bob", "cards": ["5H"], "result": {"onto": 1}}
    refused = client.post("/api/games/import", json=document)
    assert refused.status_code == 400 and NO_CHAIN in refused.get_json()["error"]
    assert counts(app) == before
