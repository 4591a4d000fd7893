"""The dispute pages (issue 5): the meld checker, the in-game checker and its log, the declarer
check and lay-off chain, and scoring a round from the cards. Every route and its errors."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Dispute, Round

Post = Callable[..., Any]


def text(response: Any) -> str:
    body: str = response.get_data(as_text=True)
    return body


def plain(response: Any) -> str:
    """The page's words, without tags, on one line."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text(response))).replace(" :", ":")


def new_game(
    client: FlaskClient,
    variant: str = "pay-me",
    players: tuple[str, ...] = ("Ann", "Bob", "Cy"),
    *,
    edit: bool = True,
    **options: Any,
) -> tuple[str, dict[str, str]]:
    body: dict[str, Any] = {"variant": variant, "players": list(players), "first_dealer": players[0]}
    if options:
        body["options"] = options
    game = client.post("/api/games", json=body).get_json()
    if edit:
        client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    return game["id"], {"X-Edit-Key": game["edit_key"]}


def checks(app: Flask, game_id: str) -> list[tuple[str, bool, str | None]]:
    with app.app_context():
        rows = db.session.scalars(db.select(Dispute).filter_by(game_id=game_id).order_by(Dispute.id)).all()
        return [(row.kind, row.valid, row.reason) for row in rows]


# ------------------------------------------------------------------ standalone checker


def test_the_checker_page_offers_every_preset_and_the_picker(client: FlaskClient) -> None:
    page = text(client.get("/check"))
    for preset in ("pay-me", "pay-me-family", "three-thirteen", "3-13"):
        assert f'<option value="{preset}"' in page
    assert "play-or-pay" not in page
    assert page.count("data-card-picker") == 5
    assert 'data-decks="3" data-jokers="6"' in page  # the preset's largest table
    assert 'data-wild-ranks="2 3"' in page
    assert "js/picker.js" in page and "css/picker.css" in page and "js/disputes.js" in page
    assert "<script>" not in page and 'style="' not in page


def test_checking_a_disputed_meld_shows_verdicts_and_how_wilds_were_read(client: FlaskClient) -> None:
    response = client.get("/check?variant=pay-me&round=5&meld-0=9C+JK+2D+QC&meld-1=9c+jk+jc&meld-2=5H+5S+5D")
    assert response.status_code == 200
    words = plain(response)
    assert "✗ Not all legal" in words
    assert "two wild cards may not be next to each other in a run" in words
    assert "Legal run" in words
    assert "Read as 9♣ 10♣ J♣ (🃏 as 10♣)" in words  # how the engine read the meld, and its wild
    assert "Pay Me, round 5: 7 cards · Jokers, 2s and Sevens wild" in words
    d1 = plain(client.get("/check?variant=pay-me&round=3&meld-0=5H+5S+5D"))
    assert "3 wild cards and 0 naturals" in d1
    assert 'class="dp-card red wild"' in text(client.get("/check?variant=pay-me&round=3&meld-0=5H+5S+5D"))


def test_the_checker_scores_a_hand(client: FlaskClient) -> None:
    words = plain(client.get("/check?variant=3-13&round=10&hand=AH+7C+JK"))
    assert "22 points (×2 on the sheet: 44)" in words
    assert "Left in hand: A♥ 7♣ 🃏" in words or "Left in hand: 🃏 A♥ 7♣" in words or "A♥" in words


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ("variant=pay-me&round=1&meld-0=3H+7X", 400, "&#34;7X&#34; at position 2 is not a card."),
        ("variant=pay-me&round=x&meld-0=3H", 400, "Round must be a whole number"),
        ("variant=pay-me&round=12&meld-0=3H", 400, "Round 12 does not exist: Pay Me has rounds 1 to 11."),
        ("variant=pay-me&round=1&hand=3H=4H", 400, "a hand takes plain cards"),
        ("variant=three-thirteen&round=1&meld-0=JK+4H+5H", 400, "this game uses no jokers"),
        ("variant=nope", 404, "There is no preset"),
        ("variant=play-or-pay", 404, "There is no preset"),
    ],
)
def test_bad_checker_input_is_a_4xx_with_one_sentence(
    client: FlaskClient, query: str, status: int, message: str
) -> None:
    response = client.get("/check?" + query)
    assert response.status_code == status
    assert message in text(response)


# ------------------------------------------------------------------ in-game checker and log


def test_in_game_checks_use_the_round_and_house_rules_and_are_logged(
    client: FlaskClient, app: Flask, post_form: Post
) -> None:
    game_id, _ = new_game(client, wild_in_place_natural=True)
    page = client.get(f"/games/{game_id}/check")
    assert page.status_code == 200
    assert 'data-decks="2" data-jokers="4"' in text(page)
    response = post_form(
        f"/games/{game_id}/check", {"round": "1", "action": "melds", "meld-0": "3H 3S 3D", "meld-1": "4C 5C JK"}
    )
    assert response.status_code == 303
    assert re.search(rf"/games/{game_id}/check\?round=1&entry=\d+#result$", response.headers["Location"])
    words = plain(client.get(response.headers["Location"]))
    # With wild_in_place_natural, 3s standing for themselves are naturals (D1 overridden).
    assert "✓ Meld" in words
    assert "🃏 as 6♣" in words
    assert checks(app, game_id) == [("meld", True, None)]

    response = post_form(f"/games/{game_id}/check", {"round": "1", "action": "melds", "meld-0": "4C 5C 7C"})
    assert checks(app, game_id)[-1][0:2] == ("meld", False)
    assert "Meld 1:" in (checks(app, game_id)[-1][2] or "")

    response = post_form(
        f"/games/{game_id}/check", {"round": "1", "action": "hand", "player": "Ann", "hand": "7H 8C KS"}
    )
    assert response.status_code == 303
    words = plain(client.get(response.headers["Location"]))
    assert "Hand · Ann" in words and "25 points" in words

    game_page = plain(client.get(f"/games/{game_id}"))
    assert "Checks and cards" in game_page
    assert "Round 1: 3 checks" in game_page
    assert "Check a meld or a hand" in game_page


def test_in_game_check_errors(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id, _ = new_game(client)
    bad = post_form(f"/games/{game_id}/check", {"round": "1", "action": "melds", "meld-0": "4C 5C 7X"})
    assert bad.status_code == 400
    assert "&#34;7X&#34; at position 3 is not a card." in text(bad)
    assert 'value="4C 5C 7X"' in text(bad)
    empty = post_form(f"/games/{game_id}/check", {"round": "1", "action": "melds"})
    assert empty.status_code == 400 and "Enter at least one meld." in text(empty)
    no_hand = post_form(f"/games/{game_id}/check", {"round": "1", "action": "hand", "hand": " "})
    assert no_hand.status_code == 400 and "Enter the cards of the hand." in text(no_hand)
    stranger = post_form(f"/games/{game_id}/check", {"round": "1", "action": "hand", "player": "Dee", "hand": "7H"})
    assert stranger.status_code == 400
    assert client.get(f"/games/{game_id}/check?round=2").status_code == 404  # not played yet
    assert client.get(f"/games/{game_id}/check?round=x").status_code == 404
    assert client.get("/games/nope/check").status_code == 404
    no_token = client.post(f"/games/{game_id}/check", data={"round": "1", "meld-0": "4C 5C 6C"})
    assert no_token.status_code == 400
    assert checks(app, game_id) == []


def test_other_phones_see_the_log_but_cannot_record(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id, _ = new_game(client)
    post_form(f"/games/{game_id}/check", {"round": "1", "action": "melds", "meld-0": "4C 5C 6C"})
    viewer = app.test_client()
    page = viewer.get(f"/games/{game_id}/check")
    assert page.status_code == 200
    assert "View only" in text(page)
    assert "4♣" in text(page)
    assert 'id="meld-form"' not in text(page)
    refused = post_form(f"/games/{game_id}/check", {"round": "1", "meld-0": "4C 5C 6C"}, browser=viewer)
    assert refused.status_code == 403
    assert viewer.get(f"/games/{game_id}/rounds/cards").status_code == 403
    refused = post_form(
        f"/games/{game_id}/rounds/1/declarer", {"declarer": "Ann", "meld-0": "4C 5C 6C"}, browser=viewer
    )
    assert refused.status_code == 403
    assert len(checks(app, game_id)) == 1


# ------------------------------------------------------------------ declarer check and lay-off chain


def test_a_chain_of_layoffs_in_turn_order(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id, _ = new_game(client, players=("Ann", "Bob", "Cy", "Dee"))
    url = f"/games/{game_id}/rounds/1"
    assert "Who went out and their melds" in plain(client.get(url + "/layoffs"))
    early = post_form(url + "/layoffs", {"player": "Cy", "onto": "1", "cards": "7H"})
    assert early.status_code == 400 and "Enter the declarer&#39;s melds first." in text(early)

    response = post_form(url + "/declarer", {"declarer": "Bob", "meld-0": "4H 5H 6H", "discard": "KS"})
    assert response.status_code == 303
    page = plain(client.get(response.headers["Location"]))
    assert "✓ Bob goes out" in page
    assert "Cy → Dee → Ann" in page  # starting left of the declarer

    assert post_form(url + "/layoffs", {"player": "Cy", "onto": "1", "cards": "7H"}).status_code == 303
    page = client.get(url + "/layoffs")
    assert "4♥ 5♥ 6♥ 7♥" in plain(page)  # the next player sees the extended meld
    assert '<option value="Cy" selected>' in text(page)
    refused = post_form(url + "/layoffs", {"player": "Dee", "onto": "1", "cards": "7H"})
    assert refused.status_code == 303
    words = plain(client.get(url + "/layoffs"))
    assert "refused — 7♥ cannot be laid off on 4♥ 5♥ 6♥ 7♥: that place (7♥) is already filled." in words
    assert post_form(url + "/layoffs", {"player": "Ann", "onto": "1", "cards": "8H JK"}).status_code == 303
    words = plain(client.get(url + "/layoffs"))
    assert "4♥ 5♥ 6♥ 7♥ 8♥ 🃏" in words
    assert [kind for kind, _, _ in checks(app, game_id)] == ["declarer", "layoff", "layoff", "layoff"]
    assert [valid for _, valid, _ in checks(app, game_id)] == [True, True, False, True]

    # Lay-off errors: not a player of the chain, not a meld, not cards.
    assert post_form(url + "/layoffs", {"player": "Bob", "onto": "1", "cards": "9H"}).status_code == 400
    assert post_form(url + "/layoffs", {"player": "Dee", "onto": "x", "cards": "9H"}).status_code == 400
    assert post_form(url + "/layoffs", {"player": "Dee", "onto": "1", "cards": ""}).status_code == 400
    wrong_meld = post_form(url + "/layoffs", {"player": "Dee", "onto": "2", "cards": "9H"})
    assert wrong_meld.status_code == 303  # the engine's verdict: not one of the declarer's melds
    assert "Meld 2 is not one of the declarer" in plain(client.get(url + "/layoffs"))


def test_the_declarer_check_says_why_not(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id, _ = new_game(client)
    url = f"/games/{game_id}/rounds/1"
    post_form(url + "/declarer", {"declarer": "Bob", "meld-0": "4H 5H"})
    words = plain(client.get(url + "/layoffs"))
    assert "✗ Bob does not go out" in words
    post_form(url + "/declarer", {"declarer": "Bob", "meld-0": "4H 5H 6H", "meld-1": "9C 9D 9S"})
    words = plain(client.get(url + "/layoffs"))
    assert "the melds of a player going out hold 3 cards, or 4 when going out without a discard; 6 were given." in words
    assert [valid for _, valid, _ in checks(app, game_id)] == [False, False]
    bad = post_form(url + "/declarer", {"declarer": "Zed", "meld-0": "4H 5H 6H"})
    assert bad.status_code == 400 and "Choose the player who went out." in text(bad)
    bad = post_form(url + "/declarer", {"declarer": "Bob", "meld-0": "4H 5H 6H", "discard": "KS QS"})
    assert bad.status_code == 400 and "discards at most one card" in text(bad)
    assert client.get(f"/games/{game_id}/rounds/2/layoffs").status_code == 404


def test_three_thirteen_needs_a_discard_and_has_no_layoffs(client: FlaskClient, post_form: Post) -> None:
    game_id, _ = new_game(client, "three-thirteen", ("Ann", "Bob"))
    url = f"/games/{game_id}/rounds/1"
    post_form(url + "/declarer", {"declarer": "Ann", "meld-0": "4H 5H 6H", "discard": "KS"})
    words = plain(client.get(url + "/layoffs"))
    assert "✓ Ann goes out" in words
    assert "Three Thirteen has no lay-offs" in words


# ------------------------------------------------------------------ scoring a round from the cards


def test_scoring_a_round_from_cards(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id, _ = new_game(client)
    url = f"/games/{game_id}/rounds/1"
    post_form(url + "/declarer", {"declarer": "Bob", "meld-0": "4H 5H 6H"})
    form = client.get(f"/games/{game_id}/rounds/cards")
    assert form.status_code == 200
    page = text(form)
    assert 'value="4H 5H 6H"' in page  # the declarer's melds come from the round's chain
    assert 'value="Bob" required checked' in page
    assert page.count("data-card-picker") == 6 + 3
    assert 'data-max-cards="4"' in page

    data = {"went_out": "Bob", "meld-0": "4H 5H 6H", "hand-0": "7H 8H KS", "points-2": "12", "version": "1"}
    preview = post_form(f"/games/{game_id}/rounds/cards", {**data, "action": "preview"})
    assert preview.status_code == 200
    assert "Best: 10 — on meld 1: 7♥ 8♥ · left: K♠" in plain(preview)
    too_high = post_form(f"/games/{game_id}/rounds/cards", {**data, "points-0": "25", "action": "save"})
    assert too_high.status_code == 400
    assert "Ann: these cards can score 10: on meld 1: 7♥ 8♥ · left: K♠ (typed: 25)" in text(too_high)
    too_low = post_form(f"/games/{game_id}/rounds/cards", {**data, "points-0": "5", "action": "save"})
    assert too_low.status_code == 400 and "these cards score at least 10" in text(too_low)
    missing = post_form(f"/games/{game_id}/rounds/cards", {**data, "points-2": "", "action": "save"})
    assert missing.status_code == 400 and "Cy has no score." in text(missing)
    nobody = post_form(f"/games/{game_id}/rounds/cards", {**data, "went_out": "", "action": "save"})
    assert nobody.status_code == 400 and "Choose who went out." in text(nobody)
    with app.app_context():
        assert db.session.scalars(db.select(Round)).all() == []

    saved = post_form(f"/games/{game_id}/rounds/cards", {**data, "points-0": "10", "action": "save"})
    assert saved.status_code == 303
    assert saved.headers["Location"].endswith(f"/games/{game_id}#standings")
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["rounds"][0]["scores"] == {"Ann": 10, "Bob": 0, "Cy": 12}
    assert state["rounds"][0]["hands"] == {"Bob": "4H 5H 6H", "Ann": "7H 8H KS"}
    words = plain(client.get(f"/games/{game_id}"))
    assert "Round 1: cards entered" in words and "7H 8H KS" in words


def test_a_stale_form_is_a_409_and_a_finished_game_has_no_next_round(client: FlaskClient, post_form: Post) -> None:
    game_id, key = new_game(client, players=("Ann", "Bob"))
    client.post(f"/api/games/{game_id}/rounds", json={"went_out": "Ann", "scores": {"Ann": 0, "Bob": 5}}, headers=key)
    stale = post_form(
        f"/games/{game_id}/rounds/cards", {"went_out": "Ann", "hand-1": "7H", "version": "1", "action": "save"}
    )
    assert stale.status_code == 409
    for _ in range(10):
        client.post(
            f"/api/games/{game_id}/rounds", json={"went_out": "Ann", "scores": {"Ann": 0, "Bob": 5}}, headers=key
        )
    assert client.get(f"/games/{game_id}/rounds/cards").status_code == 303
    assert client.get("/games/nope/rounds/cards").status_code == 404


def test_the_round_form_and_game_page_link_the_tools(client: FlaskClient) -> None:
    game_id, _ = new_game(client)
    round_form = text(client.get(f"/games/{game_id}/rounds/new"))
    assert f'href="/games/{game_id}/rounds/cards"' in round_form
    game_page = text(client.get(f"/games/{game_id}"))
    assert f'href="/games/{game_id}/rounds/cards"' in game_page
    assert f'href="/games/{game_id}/check"' in game_page
    assert f'href="/games/{game_id}/rounds/1/layoffs"' in game_page
    assert f'href="/games/{game_id}/rules"' in game_page
    assert 'href="/check"' in game_page and 'href="/rules"' in game_page


def test_a_hands_score_shows_its_parts(client: FlaskClient, post_form: Post) -> None:
    game_id, _ = new_game(client)
    data = {"went_out": "Bob", "meld-0": "4H 5H 6H", "hand-0": "7H KS 5C", "points-2": "12", "version": "1"}
    preview = post_form(f"/games/{game_id}/rounds/cards", {**data, "action": "preview"})
    assert preview.status_code == 200
    page = text(preview)
    shown = r'<details class="dp-points dp-parts">\s*<summary><strong>15</strong> points</summary>(.*?)</details>'
    parts = re.search(shown, page, re.S)
    assert parts, "the score opens onto its parts in one tap"
    assert re.sub(r"<[^>]+>", "", parts.group(1)).split() == ["K♠", "10", "+", "5♣", "5", "=", "15"]
