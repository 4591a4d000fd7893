"""Issue 28, sections 1, 3, 5 and 6: the work one request causes is bounded, whoever sends it.

An import holds at most what a real game can hold and its checks are judged again within a budget;
game pages, the check log and the history show a page of the latest entries; the import form takes a
game's own export; only games actually created count against the create limit; no If-Match value
and no number in a form gives a 500.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from companion import bounds
from companion.extensions import db
from companion.models import Dispute, Game, RoundRevision
from companion.services import disputes, store, transfer
from tests.conftest import api_game, edit_key

PLAYERS = ["Ann", "Bob", "Cy"]
BIG_HAND = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2S 3S 4S JK"  # 16 cards, the most a hand check takes


def games_stored(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game)) or 0


def export_with_checks(app: Flask, client: FlaskClient, checks: int, hand: str = BIG_HAND) -> dict[str, Any]:
    """The export of a game whose log holds `checks` copies of one hand check."""
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    with app.app_context():
        disputes.log_hand(store.get_game(game["id"]), 1, "Bob", hand)
    document: dict[str, Any] = json.loads(client.get(f"/games/{game['id']}/export.json").get_data())
    document["tables"]["disputes"] = document["tables"]["disputes"] * checks
    return document


def test_an_import_with_more_checks_than_a_game_holds_is_refused_before_anything_is_stored(
    app: Flask, client: FlaskClient
) -> None:
    document = export_with_checks(app, client, bounds.MAX_IMPORT_CHECKS + 1, "3H 4H")
    before = games_stored(app)
    response = client.post("/api/games/import", json=document)
    assert response.status_code == 400
    assert response.get_json()["error"] == (
        f'the table "disputes" has more than {bounds.MAX_IMPORT_CHECKS} rows, more than a game can hold'
    )
    assert games_stored(app) == before


def test_the_rejudging_budget_refuses_an_import_in_one_sentence(app: Flask, client: FlaskClient) -> None:
    over = bounds.REJUDGE_BUDGET_CARDS // 16 + 1
    document = export_with_checks(app, client, over)
    before = games_stored(app)
    response = client.post("/api/games/import", json=document)
    assert response.status_code == 400
    assert response.get_json()["error"] == (
        f"the dispute log holds {over * 16} cards to check again, "
        f"more than the {bounds.REJUDGE_BUDGET_CARDS} an import may"
    )
    assert games_stored(app) == before


def test_the_largest_allowed_import_is_judged_and_stored(app: Flask, client: FlaskClient) -> None:
    document = export_with_checks(app, client, bounds.REJUDGE_BUDGET_CARDS // 16)
    assert transfer.rejudge_cost(document["tables"]["disputes"]) == bounds.REJUDGE_BUDGET_CARDS
    response = client.post("/api/games/import", json=document)
    assert response.status_code == 201, response.get_json()
    with app.app_context():
        query = select(func.count()).select_from(Dispute).where(Dispute.game_id == response.get_json()["id"])
        assert db.session.scalar(query) == bounds.REJUDGE_BUDGET_CARDS // 16


def heaviest_game(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """A game of 8 players with the most history and checks an import takes (written straight to the
    tables: a key holder could make them with PUTs)."""
    players = [f"Player number {seat}" for seat in range(8)]
    game = api_game(client, "pay-me", players, players[0])
    scores = {name: 0 if name == players[0] else 30 for name in players}
    response = client.post(
        f"/api/games/{game['id']}/rounds", json={"went_out": players[0], "scores": scores}, headers=edit_key(game)
    )
    assert response.status_code == 201
    with app.app_context():
        stored = store.get_game(game["id"])
        entry = disputes.log_hand(stored, 1, players[1], BIG_HAND)
        row = db.session.get(Dispute, entry.id)
        assert row is not None
        copies = [
            Dispute(
                game_id=game["id"],
                round_number=1,
                kind=row.kind,
                player=row.player,
                cards=row.cards,
                valid=row.valid,
                reason=row.reason,
                result=row.result,
            )
            for _ in range(bounds.MAX_IMPORT_CHECKS - 1)
        ]
        revisions = [
            RoundRevision(
                game_id=game["id"],
                number=1,
                action="corrected",
                went_out=players[0],
                scores=scores,
                hands={name: "10H 10D 10S 10C QH QD QS QC JK JK 2H 2D 2S 2C" for name in players[1:]},
            )
            for _ in range(bounds.MAX_IMPORT_REVISIONS)
        ]
        db.session.add_all([*copies, *revisions])
        db.session.commit()
    return game


def test_no_page_of_the_heaviest_game_is_over_300_kb(app: Flask, client: FlaskClient) -> None:
    game = heaviest_game(app, client)
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    for path in (
        f"/games/{game['id']}",
        f"/games/{game['id']}?history=3",
        f"/games/{game['id']}/check?round=1",
        f"/games/{game['id']}/check?round=1&page=5",
        f"/games/{game['id']}/rounds/1/layoffs",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert len(response.get_data()) < 300_000, (path, len(response.get_data()))


def test_the_history_is_shown_a_page_at_a_time_the_latest_first(app: Flask, client: FlaskClient) -> None:
    game = heaviest_game(app, client)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    history = page.split('id="history"')[1]
    assert history.count("<li>Round 1 corrected") == bounds.HISTORY_PAGE
    assert f"Changes 1–{bounds.HISTORY_PAGE} of {bounds.MAX_IMPORT_REVISIONS}" in history
    assert f"/games/{game['id']}?history=2#history" in history
    last = bounds.MAX_IMPORT_REVISIONS // bounds.HISTORY_PAGE
    page = client.get(f"/games/{game['id']}?history={last}").get_data(as_text=True)
    assert f"of {bounds.MAX_IMPORT_REVISIONS}, the latest first" in page
    assert "Older changes" not in page and "Newer changes" in page
    assert client.get(f"/games/{game['id']}?history={'9' * 5000}").status_code == 200


def test_the_check_log_is_shown_a_page_at_a_time(app: Flask, client: FlaskClient) -> None:
    game = heaviest_game(app, client)
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f"The latest {bounds.GAME_PAGE_CHECKS} of {bounds.MAX_IMPORT_CHECKS} checks" in page
    assert f"Round 1: {bounds.GAME_PAGE_CHECKS} checks" in page
    checker = client.get(f"/games/{game['id']}/check?round=1").get_data(as_text=True)
    assert checker.count('id="check-') == bounds.CHECKS_PAGE
    assert "Older checks" in checker and "Newer checks" not in checker


# ---------------------------------------------------------------- the import form (section 3)


def test_the_home_page_imports_an_export_over_64_kib_with_csrf_applied(
    app: Flask, client: FlaskClient, post_form: Any
) -> None:
    game = api_game(client, "pay-me", PLAYERS, "Ann")
    scores = {"Ann": 0, "Bob": 5, "Cy": 7}
    client.post(f"/api/games/{game['id']}/rounds", json={"went_out": "Ann", "scores": scores}, headers=edit_key(game))
    with app.app_context():
        db.session.add_all(
            RoundRevision(game_id=game["id"], number=1, action="corrected", went_out="Ann", scores=scores)
            for _ in range(1500)
        )
        db.session.commit()
    raw = client.get(f"/games/{game['id']}/export.json").get_data()
    assert len(raw) > 300 * 1024
    before = games_stored(app)
    response = post_form("/games/import", {"document": (io.BytesIO(raw), "game.json")})
    assert response.status_code == 303, response.get_data(as_text=True)[:400]
    assert games_stored(app) == before + 1
    response = client.post("/games/import", data={"document": (io.BytesIO(raw), "game.json")})
    assert response.status_code == 400  # no CSRF token
    assert games_stored(app) == before + 1


# ---------------------------------------------------------------- the create limit (section 5)


def test_only_games_actually_created_count_against_the_create_limit(app: Flask, client: FlaskClient) -> None:
    app.config.update(RATELIMIT_ENABLED=True, RATELIMIT_CREATE="3/minute", RATELIMIT_CREATE_REFUSED="6/minute")
    group = client.post("/api/groups", json={"name": "Thursday", "players": PLAYERS}).get_json()
    body = {"variant": "pay-me", "players": PLAYERS, "first_dealer": "Ann", "group": group["id"]}
    for _ in range(5):
        assert client.post("/api/games", json=body, headers={"X-Group-Key": "wrong"}).status_code == 403
    right = {"X-Group-Key": group["edit_key"]}
    assert [client.post("/api/games", json=body, headers=right).status_code for _ in range(3)] == [201, 201, 429]
    # the refusals have their own counter: past it, an address is refused too
    assert client.post("/api/games", json=body, headers={"X-Group-Key": "wrong"}).status_code == 429
    elsewhere = {"REMOTE_ADDR": "192.0.2.8"}
    assert client.post("/api/games", json=body, headers=right, environ_base=elsewhere).status_code == 201


def test_refused_creations_have_their_own_limit(app: Flask, client: FlaskClient) -> None:
    app.config.update(RATELIMIT_ENABLED=True, RATELIMIT_CREATE="30/minute", RATELIMIT_CREATE_REFUSED="3/minute")
    for _ in range(3):
        assert client.post("/api/games", json={"variant": "nope", "players": PLAYERS}).status_code == 400
    assert client.post("/api/games", json={"variant": "pay-me", "players": PLAYERS}).status_code == 429


# ---------------------------------------------------------------- small inputs (section 6)


@pytest.mark.parametrize("value", ['""', 'W/""', 'W/"3N9", W/""', '*, ""', "garbage", '"v' + "9" * 5000 + '"'])
def test_any_if_match_on_the_undo_endpoints_is_400_or_428(client: FlaskClient, value: str) -> None:
    rummy_game = api_game(client, "pay-me", PLAYERS, "Ann")
    chips = api_game(client, "play-or-pay", PLAYERS, "Ann")
    pool = api_game(client, "pool-101", PLAYERS, "Ann")
    played = {"results": dict(zip(PLAYERS, ["win", 3, 4], strict=True))}
    assert client.post(f"/api/games/{pool['id']}/deals", json=played, headers=edit_key(pool)).status_code == 201
    for game, path in ((rummy_game, "rounds/last"), (chips, "events/last"), (pool, "deals/last")):
        headers = {**edit_key(game), "If-Match": value}
        response = client.delete(f"/api/games/{game['id']}/{path}", headers=headers)
        assert response.status_code in (400, 428), (path, value, response.status_code)
        assert "error" in response.get_json()


HUGE = "9" * 5000


def test_a_number_of_thousands_of_digits_in_any_form_is_refused_without_a_500(
    client: FlaskClient, post_form: Any
) -> None:
    rummy_game = api_game(client, "contract-rummy", PLAYERS, "Ann")
    game_id = rummy_game["id"]
    scores = {name: 0 if name == "Ann" else 5 for name in PLAYERS}
    body = {"went_out": "Ann", "scores": scores}
    assert client.post(f"/api/games/{game_id}/rounds", json=body, headers=edit_key(rummy_game)).status_code == 201
    chips = api_game(client, "play-or-pay", PLAYERS, "Ann")
    client.set_cookie("edit_key", rummy_game["edit_key"], path=f"/games/{game_id}")
    client.set_cookie("edit_key", chips["edit_key"], path=f"/games/{chips['id']}")
    forms = [
        (f"/games/{game_id}/rounds/last/undo", {"version": HUGE}),
        (f"/games/{game_id}/buys", {"version": HUGE, "player": "Ann", "change": "1"}),
        (
            f"/games/{game_id}/rounds/new",
            {"version": HUGE, "went_out": "Ann", "scores-0": "0", "scores-1": "5", "scores-2": "5"},
        ),
        (
            f"/games/{game_id}/rounds/1/edit",
            {"version": HUGE, "went_out": "Ann", "scores-0": "0", "scores-1": "5", "scores-2": "5"},
        ),
        (f"/games/{game_id}/check", {"round": HUGE, "action": "hand", "hand": "3H 4H"}),
        (f"/games/{chips['id']}/hand/event", {"version": HUGE, "player": "Ann", "type": "play"}),
        (f"/games/{chips['id']}/hand/undo", {"version": HUGE}),
        (f"/games/{chips['id']}/hand/purchase", {"version": HUGE, "player": "Ann"}),
        (f"/games/{chips['id']}/hand/end", {"version": HUGE}),
        (
            f"/games/{chips['id']}/hand/quick",
            {
                "version": "1",
                "winner": "Ann",
                "cards_left-0": HUGE,
                "paid-0": HUGE,
                "cards_left-1": "1",
                "cards_left-2": "2",
            },
        ),
        (
            f"/games/{chips['id']}/hand/quick",
            {"version": "1", "winner": "Ann", "cards_left-1": "1", "paid-1": HUGE, "cards_left-2": "2"},
        ),
        (f"/games/{game_id}/rematch", {"version": HUGE}),
        (f"/games/{game_id}/delete", {"version": HUGE}),
        (
            "/games/new?variant=pay-me",
            {"variant": "pay-me", "players": "Ann\nBob", "first_dealer": HUGE, "first_dealer_method": "chosen"},
        ),
    ]
    for url, data in forms:
        response = post_form(url, data)
        assert response.status_code < 500, (url, response.status_code)
    for query in (
        f"/games/{game_id}/check?round={HUGE}",
        f"/games/{game_id}/check?round=1&entry={HUGE}&page={HUGE}",
        f"/check?variant=pay-me&round={HUGE}",
        f"/check?variant=contract-rummy&round={HUGE}&players={HUGE}",
        f"/sheets/print?preset=pay-me&blanks={HUGE}",
        f"/rules/pay-me?round={HUGE}",
    ):
        assert client.get(query).status_code < 500, query


@pytest.mark.parametrize(
    ("text", "expected"), [("12", 12), (" 7 ", 7), ("-3", -3), ("9" * 13, None), ("٣", None), ("", None), (None, None)]
)
def test_whole_number_never_converts_a_long_text(text: object, expected: int | None) -> None:
    assert bounds.whole_number(text) == expected


# ---------------------------------------------------------------- blank sheets kept (section 1)


def test_a_blank_sheet_asked_again_is_not_rendered_again(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.services import pdfs

    rendered: list[str] = []

    def render(html: str) -> bytes:
        rendered.append(html)
        return b"%PDF-1.7 blank " + str(len(rendered)).encode()

    monkeypatch.setattr(pdfs, "render", render)
    first = client.get("/sheets/pay-me.pdf?players=Ann,Bob&paper=a4")
    again = client.get("/sheets/pay-me.pdf?players=Ann,Bob&paper=a4")
    assert first.status_code == again.status_code == 200
    assert first.get_data() == again.get_data() and len(rendered) == 1
    assert client.get("/sheets/pay-me.pdf?players=Ann,Bob&paper=letter").status_code == 200
    assert len(rendered) == 2  # other parameters: another sheet
    monkeypatch.setattr(pdfs, "KEPT_BLANK_SHEETS", 2)
    for names in ("Cy,Dee", "Dee,Eve", "Eve,Fay"):
        assert client.get(f"/sheets/pay-me.pdf?players={names}").status_code == 200
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(pdfs.BlankSheetPdf)) == 2
