"""The pages, through the Flask test client: forms, edit keys, corrections, end of game."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.models import Game, Round

Post = Callable[..., Any]


def start_game(post_form: Post, variant: str = "pay-me", players: str = "Ann\nBob\nCy", **extra: Any) -> str:
    """Start a game through the new-game form; returns its id."""
    data = {"variant": variant, "players": players, "first_dealer": "0", **extra}
    response = post_form(f"/games/new?variant={variant}", data)
    assert response.status_code == 303, response.get_data(as_text=True)
    match = re.fullmatch(r"/games/([\w-]+)", response.headers["Location"])
    assert match
    return match.group(1)


def enter_round(post_form: Post, game_id: str, went_out: str, *scores: str, version: str = "") -> Any:
    data = {"went_out": went_out, "version": version}
    data.update({f"scores-{seat}": points for seat, points in enumerate(scores)})
    return post_form(f"/games/{game_id}/rounds/new", data)


def text(response: Any) -> str:
    body: str = response.get_data(as_text=True)
    return body


def rounds_of(app: Flask, game_id: str) -> list[tuple[int, str, dict[str, int]]]:
    with app.app_context():
        stored = db.session.scalars(db.select(Round).filter_by(game_id=game_id).order_by(Round.number))
        return [(item.number, item.went_out, dict(item.scores)) for item in stored]


def version_of(app: Flask, game_id: str) -> int:
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        return game.version


def game_count(app: Flask) -> int:
    with app.app_context():
        return len(db.session.scalars(db.select(Game)).all())


# ------------------------------------------------------------------ games list and new game


def test_the_home_page_lists_only_what_this_phone_remembers(client: FlaskClient, post_form: Post) -> None:
    """Issue 27, section 4: no game of anyone else on the home page; each game page tells the phone
    what to remember (static/js/my-games.js lists it from the phone's own storage)."""
    game_id = start_game(post_form, players="Ann\nBob")
    page = text(client.get("/"))
    assert f"/games/{game_id}" not in page and "Delete" not in page
    assert "data-my-games" in page and "js/my-games.js" in page
    assert 'href="/games/new"' in page
    game_page = text(client.get(f"/games/{game_id}"))
    assert re.search(
        rf'<span hidden id="remember" data-kind="game" data-id="{game_id}" data-name="Pay Me" '
        rf'data-url="/games/{game_id}" data-players="Ann, Bob" data-finished="false" '
        r'data-played-at="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"></span>',
        game_page,
    )


def test_new_game_form_offers_the_four_presets_and_preset_defaults(client: FlaskClient) -> None:
    page = text(client.get("/games/new"))
    for variant in ("pay-me", "pay-me-family", "three-thirteen", "3-13"):
        assert f"/games/new?variant={variant}" in page
    assert "play-or-pay" not in page
    assert 'name="players"' in page
    assert 'value="random"' in page
    page = text(client.get("/games/new?variant=3-13"))
    assert 'aria-current="true"' in page
    box = r'<input checked id="opt_double_rounds-\d+" name="opt_double_rounds" type="checkbox" value="(\d+)">'
    checked = re.findall(box, page)
    assert checked == ["10", "11"]  # doubled rounds are a choice of rounds, not typed
    assert page.count('name="opt_double_rounds" type="checkbox"') == 23
    assert '<option selected value="high">High: Q-K-A, never A-2-3</option>' in page
    assert re.search(r'id="opt_discard_to_go_out" name="opt_discard_to_go_out" type="checkbox" value="y"', page)
    for key in ("full_cycle", "distinct_suit_sets", "no_aces_in_runs", "ace", "wild_limit", "no_adjacent_wilds"):
        assert f'name="opt_{key}"' in page
    page = text(client.get("/games/new?variant=pay-me"))
    assert 'name="opt_double_rounds"' in page and '<input checked id="opt_double_rounds' not in page
    assert '<option selected value="low">Low: A-2-3, never Q-K-A</option>' in page
    assert "Pay Me" in text(client.get("/games/new?variant=nonsense"))


def test_creating_a_game_sets_an_http_only_edit_key_cookie(client: FlaskClient, post_form: Post) -> None:
    response = post_form("/games/new", {"variant": "pay-me", "players": " Ann \nBob\n\nCy", "first_dealer": "1"})
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    assert len(game_id) >= 16
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("edit_key=")
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert f"Path=/games/{game_id}" in cookie
    page = text(client.get(f"/games/{game_id}"))
    assert "Ann · Bob · Cy" in page
    assert re.search(r"<dt>Dealer</dt><dd>Bob</dd>", page)
    assert re.search(r"<dt>Plays first</dt><dd>Cy</dd>", page)
    assert "Enter round 1 scores" in page


def test_random_first_dealer(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form, first_dealer="random")
    page = text(client.get(f"/games/{game_id}"))
    dealer = re.search(r"<dt>Dealer</dt><dd>(\w+)</dd>", page)
    assert dealer and dealer.group(1) in ("Ann", "Bob", "Cy")


def test_house_rules_from_the_form(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(
        post_form,
        opt_full_cycle="y",
        opt_ace="both",
        opt_wild_limit="none",
        opt_penalty_table="pay-me",
    )  # no doubled round ticked: the browser sends no opt_double_rounds
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["options"]["full_cycle"] is True
    assert state["options"]["ace"] == "both"
    assert state["options"]["lay_offs"] is False  # an unticked box is off
    page = text(client.get(f"/games/{game_id}"))
    assert "of 23" in page


@pytest.mark.parametrize(
    ("players", "extra", "message"),
    [
        ("Ann", {}, "Pay Me takes 2 to 8 players, not 1"),
        ("Ann\nann", {}, "in the list twice"),
        ("Ann\n" + "x" * 41, {}, "longer than 40 characters"),
        ("", {}, "one name per line: enter the players"),
        ("A\nB\nC\nD\nE\nF\nG\nH\nI", {}, "not 9"),
        ("Ann\nBob", {"first_dealer": "4"}, "first dealer"),
        ("Ann\nBob", {"opt_double_rounds": "twelve"}, "not a valid choice"),
        ("Ann\nBob", {"opt_double_rounds": "30"}, "not a valid choice"),
        ("Ann\nBob", {"opt_double_rounds": "12"}, "round 12"),
        ("Ann\nBob", {"opt_ace": "middle"}, "Ace in runs: not a valid choice"),
    ],
)
def test_new_game_errors_are_shown_and_nothing_is_stored(
    client: FlaskClient, app: Flask, post_form: Post, players: str, extra: dict[str, str], message: str
) -> None:
    data = {"variant": "pay-me", "players": players, "first_dealer": "random", **extra}
    response = post_form("/games/new", data)
    assert response.status_code == 400
    page = text(response)
    assert 'role="alert"' in page
    assert message in page or message in page.replace("&#34;", '"')
    assert game_count(app) == 0


# ------------------------------------------------------------------ the game page


def test_game_page_shows_the_round_wilds_dealer_and_decks(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form, players="Ann\nBob\nCy\nDee\nEd")
    page = text(client.get(f"/games/{game_id}"))
    assert "Round 1" in page
    assert "3 cards each" in page
    assert "Jokers, 2s and Threes" in page
    assert "🃏" in page
    assert '<span class="suit red">♥</span>' in page
    assert '<span class="suit red">♦</span>' in page
    assert "3 decks + 6 jokers" in page
    assert re.search(r"<dt>Dealer</dt><dd>Ann</dd>", page)
    assert re.search(r"<dt>Plays first</dt><dd>Bob</dd>", page)


def test_round_entry_updates_standings_and_grid(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id = start_game(post_form)
    form = text(client.get(f"/games/{game_id}/rounds/new"))
    assert 'inputmode="tel"' in form
    assert 'pattern="' in form and r"\+" in form
    assert form.count("required") >= 4
    assert 'name="went_out" required type="radio" value="Bob"' in form
    response = enter_round(post_form, game_id, "Bob", "10+5+5", "0", "7")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}#standings"
    assert rounds_of(app, game_id) == [(1, "Bob", {"Ann": 20, "Bob": 0, "Cy": 7})]
    page = text(client.get(f"/games/{game_id}"))
    assert "Round 2" in page
    assert re.search(r'class="leader">\s*<span class="place">1</span>\s*<span class="name">Bob', page)
    assert "leader</span>" in page
    assert re.search(r"<td>20</td>", page)
    mark = '<span class="out-mark" aria-hidden="true">•</span><span class="sr-only"> went out</span>'
    assert re.search(r'<td class="out"[^>]*>0' + re.escape(mark) + "</td>", page)
    assert "• went out" in page  # the mark is explained below the sheet
    assert re.search(r"<tfoot>.*<td>20</td><td>0</td><td>7</td>", page, re.S)


def test_missing_entries_are_named_and_nothing_is_saved(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id = start_game(post_form)
    response = post_form(f"/games/{game_id}/rounds/new", {"scores-0": "", "scores-1": "0", "scores-2": ""})
    assert response.status_code == 400
    page = text(response)
    assert "Not saved. Missing: who went out and points for Ann, Cy." in page
    assert 'aria-invalid="true"' in page
    assert rounds_of(app, game_id) == []


@pytest.mark.parametrize(
    ("went_out", "scores", "message"),
    [
        ("Bob", ("5", "3", "7"), "Bob went out, so Bob scores 0, not 3"),
        ("Bob", ("-5", "0", "7"), "is not a number of points"),
        ("Bob", ("4.5", "0", "7"), "is not a number of points"),
        ("Dee", ("4", "0", "7"), "is not a player in this game"),
    ],
)
def test_bad_scores_are_refused_with_the_engine_message(
    client: FlaskClient, app: Flask, post_form: Post, went_out: str, scores: tuple[str, ...], message: str
) -> None:
    game_id = start_game(post_form)
    response = enter_round(post_form, game_id, went_out, *scores)
    assert response.status_code == 400
    assert message in text(response).replace("&#34;", '"')
    assert rounds_of(app, game_id) == []


def test_multiplier_is_shown_and_applied(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form, variant="3-13", players="Ann\nBob", opt_double_rounds=["10", "11"])
    for _ in range(9):
        assert enter_round(post_form, game_id, "Ann", "0", "1").status_code == 303
    page = text(client.get(f"/games/{game_id}"))
    assert '<span class="badge">×2</span>' in page
    assert "points count double" in page
    form = text(client.get(f"/games/{game_id}/rounds/new"))
    assert 'data-multiplier="2"' in form
    assert "This round counts ×2" in form
    enter_round(post_form, game_id, "Ann", "0", "12")
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["rounds"][9]["points"] == {"Ann": 0, "Bob": 24}
    assert "<td>24</td>" in text(client.get(f"/games/{game_id}"))


def test_stale_form_is_a_conflict_that_shows_the_current_values(
    client: FlaskClient, app: Flask, post_form: Post
) -> None:
    game_id = start_game(post_form)
    assert enter_round(post_form, game_id, "Bob", "1", "0", "2", version="1").status_code == 303
    response = enter_round(post_form, game_id, "Cy", "7", "9", "0", version="1")
    assert response.status_code == 409
    page = text(response)
    assert "another phone changed this game meanwhile" in page
    assert "Round 1 now reads: Bob went out; Ann 1, Bob 0, Cy 2." in page
    assert 'value="7"' in page and 'value="9"' in page  # this phone's entries are kept
    assert 'name="version" type="hidden" value="2"' in page  # saving again is now deliberate
    assert len(rounds_of(app, game_id)) == 1


def test_losing_the_race_for_a_new_round_never_offers_to_save_it_as_the_next(
    client: FlaskClient, app: Flask, post_form: Post
) -> None:
    game_id = start_game(post_form)
    form = text(client.get(f"/games/{game_id}/rounds/new"))
    assert 'name="round_number" type="hidden" value="1"' in form
    assert enter_round(post_form, game_id, "Bob", "1", "0", "2", version="1").status_code == 303
    response = post_form(
        f"/games/{game_id}/rounds/new",
        {"went_out": "Cy", "version": "1", "round_number": "1", "scores-0": "7", "scores-1": "9", "scores-2": "0"},
    )
    assert response.status_code == 409
    page = text(response)
    assert "Not saved: another phone saved round 1 first. Round 1 now reads: Bob went out; Ann 1, Bob 0, Cy 2." in page
    assert "Your entries were: Cy went out; Ann 7, Bob 9, Cy 0." in page
    assert "Save round 2" not in page and 'name="scores-0"' not in page
    assert len(rounds_of(app, game_id)) == 1


def test_stale_correction_is_a_conflict_that_shows_the_current_values(
    client: FlaskClient, app: Flask, post_form: Post
) -> None:
    game_id = start_game(post_form)
    enter_round(post_form, game_id, "Bob", "1", "0", "2")
    stale = {"went_out": "Bob", "version": "2", "scores-0": "4", "scores-1": "0", "scores-2": "6"}
    assert post_form(f"/games/{game_id}/rounds/1/edit", stale).status_code == 303
    response = post_form(f"/games/{game_id}/rounds/1/edit", {**stale, "scores-0": "8"})
    assert response.status_code == 409
    assert "Round 1 now reads: Bob went out; Ann 4, Bob 0, Cy 6." in text(response)
    assert rounds_of(app, game_id) == [(1, "Bob", {"Ann": 4, "Bob": 0, "Cy": 6})]


# ------------------------------------------------------------------ corrections and undo


def test_correcting_a_round_keeps_the_old_values_in_the_history(
    client: FlaskClient, app: Flask, post_form: Post
) -> None:
    game_id = start_game(post_form)
    enter_round(post_form, game_id, "Bob", "12", "0", "30")
    enter_round(post_form, game_id, "Cy", "5", "5", "0")
    form = text(client.get(f"/games/{game_id}/rounds/1/edit"))
    assert "Correct round 1" in form
    assert 'checked id="went_out-1"' in form or re.search(r'checked[^>]*value="Bob"', form)
    assert 'value="30"' in form
    response = post_form(
        f"/games/{game_id}/rounds/1/edit", {"went_out": "Ann", "scores-0": "0", "scores-1": "8", "scores-2": "30"}
    )
    assert response.status_code == 303
    assert rounds_of(app, game_id)[0] == (1, "Ann", {"Ann": 0, "Bob": 8, "Cy": 30})
    page = text(client.get(f"/games/{game_id}"))
    assert 'id="history"' in page
    assert "Round 1 corrected" in page
    assert "It was: Bob went out; Ann 12, Bob 0, Cy 30." in page


def test_correction_errors(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id = start_game(post_form)
    enter_round(post_form, game_id, "Bob", "12", "0", "30")
    bad = {"went_out": "Ann", "scores-0": "3", "scores-1": "8", "scores-2": "30"}
    response = post_form(f"/games/{game_id}/rounds/1/edit", bad)
    assert response.status_code == 400
    assert "Ann went out, so Ann scores 0" in text(response)
    missing = post_form(f"/games/{game_id}/rounds/1/edit", {"went_out": "Ann", "scores-0": "0"})
    assert missing.status_code == 400
    assert "points for Bob, Cy" in text(missing)
    assert client.get(f"/games/{game_id}/rounds/2/edit").status_code == 404
    assert rounds_of(app, game_id) == [(1, "Bob", {"Ann": 12, "Bob": 0, "Cy": 30})]


def test_undo_last_round(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id = start_game(post_form)
    assert "Undo round" not in text(client.get(f"/games/{game_id}"))
    enter_round(post_form, game_id, "Bob", "12", "0", "30")
    enter_round(post_form, game_id, "Cy", "5", "5", "0")
    page = text(client.get(f"/games/{game_id}"))
    assert "Undo round 2" in page
    response = post_form(f"/games/{game_id}/rounds/last/undo", {"version": version_of(app, game_id)})
    assert response.status_code == 303
    assert len(rounds_of(app, game_id)) == 1
    page = text(client.get(f"/games/{game_id}"))
    assert "Round 2 undone" in page
    assert "Enter round 2 scores" in page
    post_form(f"/games/{game_id}/rounds/last/undo", {"version": version_of(app, game_id)})
    response = post_form(f"/games/{game_id}/rounds/last/undo", {"version": version_of(app, game_id)})
    assert response.status_code == 404
    assert "There is no round to undo yet." in text(response)


# ------------------------------------------------------------------ end of game and rematch


def test_end_of_game_winners_and_rematch(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id = start_game(post_form, variant="three-thirteen", players="Ann\nBob\nCy")
    assert post_form(f"/games/{game_id}/rematch", {}).status_code == 400
    for number in range(11):
        scores = ("0", "0", "3") if number else ("0", "3", "0")
        assert enter_round(post_form, game_id, "Ann", *scores).status_code == 303
    assert client.get(f"/games/{game_id}/rounds/new").status_code == 303
    page = text(client.get(f"/games/{game_id}"))
    assert "Game over" in page
    assert "<strong>Ann</strong> wins with 0 points" in page
    assert "Final standings" in page
    assert "Enter round" not in page
    response = post_form(f"/games/{game_id}/rematch", {})
    assert response.status_code == 303
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    assert new_id != game_id
    state = client.get(f"/api/games/{new_id}").get_json()
    assert state["players"] == ["Ann", "Bob", "Cy"]
    assert state["variant"] == "three-thirteen"
    # Ann dealt round 1, so Bob dealt round 11; the rematch starts with the next seat (engine.next_first_dealer).
    assert state["next_round"]["dealer"] == "Cy"
    assert "Enter round 1 scores" in text(client.get(f"/games/{new_id}"))


def test_shared_win(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form, variant="three-thirteen", players="Ann\nBob\nCy")
    for _ in range(11):
        enter_round(post_form, game_id, "Ann", "0", "0", "3")
    assert "<strong>Ann and Bob</strong> share the win" in text(client.get(f"/games/{game_id}"))


# ------------------------------------------------------------------ delete


def test_delete_asks_for_confirmation_then_deletes(client: FlaskClient, app: Flask, post_form: Post) -> None:
    game_id = start_game(post_form)
    page = text(client.get(f"/games/{game_id}/delete"))
    assert "Delete this game?" in page
    assert 'method="post"' in page
    assert game_count(app) == 1
    response = post_form(f"/games/{game_id}/delete", {})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    assert game_count(app) == 0
    assert client.get(f"/games/{game_id}").status_code == 404


# ------------------------------------------------------------------ read-only access and errors


def test_without_the_key_a_game_is_read_only(app: Flask, client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form)
    enter_round(post_form, game_id, "Bob", "12", "0", "30")
    viewer = app.test_client()
    page = text(viewer.get(f"/games/{game_id}"))
    assert "View only" in page
    assert "<td>12</td>" in page
    assert "Enter round" not in page
    assert "Undo round" not in page
    assert "/edit" not in page
    assert "Delete this game" not in page
    assert f'data-live="/api/games/{game_id}/version"' in page
    assert viewer.get(f"/games/{game_id}/rounds/new").status_code == 403
    assert viewer.get(f"/games/{game_id}/rounds/1/edit").status_code == 403
    assert viewer.get(f"/games/{game_id}/delete").status_code == 403
    attempts = [
        (f"/games/{game_id}/rounds/new", {"went_out": "Bob", "scores-0": "1", "scores-1": "0", "scores-2": "1"}),
        (f"/games/{game_id}/rounds/1/edit", {"went_out": "Bob", "scores-0": "1", "scores-1": "0", "scores-2": "1"}),
        (f"/games/{game_id}/rounds/last/undo", {}),
        (f"/games/{game_id}/rematch", {}),
        (f"/games/{game_id}/delete", {}),
    ]
    for url, data in attempts:
        assert post_form(url, data, browser=viewer).status_code == 403
    viewer.set_cookie("edit_key", "guess", path=f"/games/{game_id}")
    assert viewer.get(f"/games/{game_id}/rounds/new").status_code == 403
    assert rounds_of(app, game_id) == [(1, "Bob", {"Ann": 12, "Bob": 0, "Cy": 30})]


def test_post_without_csrf_token_is_rejected(client: FlaskClient, app: Flask, post_form: Post) -> None:
    assert app.config.get("WTF_CSRF_ENABLED", True) is True
    response = client.post("/games/new", data={"variant": "pay-me", "players": "Ann\nBob", "first_dealer": "0"})
    assert response.status_code == 400
    assert "expired" in text(response)
    assert game_count(app) == 0
    game_id = start_game(post_form)
    for url in (f"/games/{game_id}/rounds/new", f"/games/{game_id}/delete", f"/games/{game_id}/rounds/last/undo"):
        assert client.post(url, data={"went_out": "Bob"}).status_code == 400
    assert game_count(app) == 1


def test_unknown_pages_are_404_pages(client: FlaskClient) -> None:
    for url in ("/games/nope", "/games/nope/rounds/new", "/games/nope/delete", "/nothing"):
        response = client.get(url)
        assert response.status_code == 404
        assert "Not found" in text(response)
    assert client.delete("/games/new").status_code == 405
    assert client.get("/games/x/rematch").status_code == 405


def test_page_server_error_is_a_page(app: Flask) -> None:
    def boom() -> str:
        raise RuntimeError("bug")

    app.add_url_rule("/boom", "boom", boom)
    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert "Nothing was changed" in text(response)


def test_pages_work_offline_with_no_inline_script(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form)
    enter_round(post_form, game_id, "Bob", "12", "0", "30")
    for url in ("/", "/games/new", f"/games/{game_id}", f"/games/{game_id}/rounds/new", f"/games/{game_id}/delete"):
        page = text(client.get(url))
        assert re.findall(r'<(?:script|link|img|iframe)[^>]+(?:src|href)="(?:https?:)?//', page) == []
        assert "@import" not in page and "url(http" not in page
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
        assert not re.search(r"<[^>]+\son[a-z]+=", page)
        assert 'name="viewport"' in page
        assert 'lang="en"' in page
    for asset in ("app.css", "app.js", "icon.svg"):
        response = client.get(f"/static/{asset}")
        assert response.status_code == 200
        assert "http" not in text(response).replace("http://www.w3.org/2000/svg", "")


def test_stylesheet_supports_dark_mode_tap_targets_and_red_suits(client: FlaskClient) -> None:
    css = client.get("/static/app.css").get_data(as_text=True).replace(" ", "")  # served minified
    assert "prefers-color-scheme:dark" in css
    assert "min-height:48px" in css
    assert ".red{color:var(--red)}" in css
    assert "max-width:44rem" in css


def test_game_page_offers_the_address_for_other_phones(
    client: FlaskClient, post_form: Post, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.sharing import links

    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.23")
    game_id = start_game(post_form)
    page = text(client.get(f"/games/{game_id}", base_url="http://127.0.0.1:5000"))
    assert f"http://192.168.1.23:5000/games/{game_id}" in page
    page = text(client.get(f"/games/{game_id}", base_url="http://cards.example"))
    assert f"http://192.168.1.23/games/{game_id}" in page  # never the Host header
