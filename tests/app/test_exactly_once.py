"""Issue 24, exactly-once writes: the Idempotency-Key header, and answers that tell the truth.

Every test here uses the tests' database, so CI's PostgreSQL pass runs them on PostgreSQL too.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from companion.extensions import db
from companion.models import Game, Round, WriteAnswer, utc_now
from companion.services import answers
from tests.app.test_concurrency import all_at_once
from tests.conftest import api_game, edit_key
from tests.servers import call, threaded_server

pytestmark = pytest.mark.usefixtures("database_url")

PLAYERS = ["Ann", "Bob", "Cy"]
ROUND = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 12, "Cy": 30}}


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    return api_game(client, "pay-me", PLAYERS, "Ann")  # type: ignore[no-any-return]


def keyed(game: dict[str, Any], key: str) -> dict[str, str]:
    return {**edit_key(game), "Idempotency-Key": key}


def count(app: Flask, model: type[Any]) -> int:
    with app.app_context():
        number = db.session.scalar(select(func.count()).select_from(model))
        db.session.remove()
        return int(number or 0)


def test_a_repeat_gets_the_first_answer_and_writes_nothing(
    client: FlaskClient, app: Flask, game: dict[str, Any]
) -> None:
    path = f"/api/games/{game['id']}/rounds"
    first = client.post(path, json=ROUND, headers=keyed(game, "round-1-of-ann"))
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    again = client.post(path, json=ROUND, headers=keyed(game, "round-1-of-ann"))
    assert again.status_code == 201
    assert again.get_data() == first.get_data()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert count(app, Round) == 1
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == first.get_json()["version"]


def test_the_same_key_with_another_body_is_422_and_stores_nothing(
    client: FlaskClient, app: Flask, game: dict[str, Any]
) -> None:
    path = f"/api/games/{game['id']}/rounds"
    assert client.post(path, json=ROUND, headers=keyed(game, "k")).status_code == 201
    other = {"went_out": "Bob", "scores": {"Ann": 5, "Bob": 0, "Cy": 5}}
    refused = client.post(path, json=other, headers=keyed(game, "k"))
    assert refused.status_code == 422
    assert refused.get_json() == {"error": answers.KEY_REUSED}
    elsewhere = client.put(f"{path}/1", json=ROUND, headers=keyed(game, "k"))  # same body, another address
    assert elsewhere.status_code == 422
    assert count(app, Round) == 1
    assert count(app, WriteAnswer) == 1


@pytest.mark.parametrize("key", ["", "x" * 256, '""'])
def test_an_empty_or_overlong_key_is_400(client: FlaskClient, app: Flask, game: dict[str, Any], key: str) -> None:
    answer = client.post(f"/api/games/{game['id']}/rounds", json=ROUND, headers=keyed(game, key))
    assert answer.status_code == 400
    assert answer.get_json() == {"error": answers.BAD_KEY}
    assert count(app, Round) == 0


def test_a_key_of_255_characters_and_a_quoted_key_are_taken(client: FlaskClient, game: dict[str, Any]) -> None:
    path = f"/api/games/{game['id']}/rounds"
    assert client.post(path, json=ROUND, headers=keyed(game, "k" * 255)).status_code == 201
    second = {"went_out": "Bob", "scores": {"Ann": 5, "Bob": 0, "Cy": 5}}
    first = client.post(path, json=second, headers=keyed(game, '"8e03978e-40d5-43e8"'))
    repeat = client.post(path, json=second, headers=keyed(game, "8e03978e-40d5-43e8"))
    assert (first.status_code, repeat.status_code) == (201, 201)
    assert repeat.get_data() == first.get_data()


def test_keys_are_kept_per_game(client: FlaskClient, app: Flask) -> None:
    one = api_game(client, "pay-me", PLAYERS, "Ann")
    two = api_game(client, "pay-me", PLAYERS, "Bob")
    for game in (one, two):
        answer = client.post(f"/api/games/{game['id']}/rounds", json=ROUND, headers=keyed(game, "same"))
        assert answer.status_code == 201
        assert answer.get_json()["id"] == game["id"]
    assert count(app, Round) == 2


def test_starting_a_game_twice_with_one_key_starts_one_game(client: FlaskClient, app: Flask) -> None:
    body = {"variant": "pay-me", "players": PLAYERS, "first_dealer": "Ann"}
    first = client.post("/api/games", json=body, headers={"Idempotency-Key": "new-game"})
    again = client.post("/api/games", json=body, headers={"Idempotency-Key": "new-game"})
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.get_json() == first.get_json()  # the same id and the same edit key
    assert again.headers["Location"] == first.headers["Location"]
    assert count(app, Game) == 1
    with app.app_context():  # the table keeps neither the key nor the answer readable
        kept = db.session.scalars(select(WriteAnswer)).one()
        assert first.get_json()["edit_key"].encode() not in kept.sealed
        assert kept.key_hash != "new-game"
        db.session.remove()


def test_a_repeated_delete_gets_the_first_answer(client: FlaskClient, game: dict[str, Any]) -> None:
    first = client.delete(f"/api/games/{game['id']}", headers=keyed(game, "bye"))
    again = client.delete(f"/api/games/{game['id']}", headers=keyed(game, "bye"))
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.get_json() == first.get_json() == {"deleted": game["id"]}


def test_a_refused_write_is_not_kept(client: FlaskClient, app: Flask, game: dict[str, Any]) -> None:
    path = f"/api/games/{game['id']}/rounds"
    stale = {**ROUND, "version": game["version"] + 5}
    assert client.post(path, json=stale, headers=keyed(game, "k")).status_code == 409
    assert client.post(path, json=stale, headers=keyed(game, "k")).status_code == 409  # judged again
    assert count(app, WriteAnswer) == 0


def test_answers_older_than_a_day_are_deleted_a_few_at_a_time(
    client: FlaskClient, app: Flask, game: dict[str, Any]
) -> None:
    with app.app_context():
        old = utc_now() - answers.KEEP - timedelta(minutes=1)
        recent = utc_now() - answers.KEEP + timedelta(minutes=5)
        for number in range(answers.PRUNE_BATCH + 5):
            db.session.add(
                WriteAnswer(scope="x", key_hash=f"{number}", request_hash="", status=201, sealed=b"", created_at=old)
            )
        db.session.add(
            WriteAnswer(scope="x", key_hash="recent", request_hash="", status=201, sealed=b"", created_at=recent)
        )
        db.session.commit()
        db.session.remove()
    client.post(f"/api/games/{game['id']}/rounds", json=ROUND, headers=keyed(game, "a"))
    assert count(app, WriteAnswer) == 5 + 1 + 1  # a batch gone; the recent one and the new one kept
    client.put(f"/api/games/{game['id']}/rounds/1", json=ROUND, headers=keyed(game, "b"))
    assert count(app, WriteAnswer) == 1 + 2


# ---------------------------------------------------------------- a fault after the commit


@pytest.fixture
def connection_breaks_after_commit(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The next commit is made, then its connection breaks: the app cannot know that it was made."""
    real_commit = Session.commit
    broken: list[int] = []

    def commit_then_break(session: Session) -> None:
        real_commit(session)
        if not broken:
            broken.append(1)
            raise OperationalError(
                "COMMIT", {}, Exception("server closed the connection unexpectedly"), connection_invalidated=True
            )

    monkeypatch.setattr(Session, "commit", commit_then_break)
    yield broken


def test_a_commit_with_an_unknown_outcome_is_503_and_a_retry_returns_the_stored_answer(
    client: FlaskClient, app: Flask, game: dict[str, Any], connection_breaks_after_commit: list[int]
) -> None:
    path = f"/api/games/{game['id']}/rounds"
    lost = client.post(path, json=ROUND, headers=keyed(game, "lost-answer"))
    assert connection_breaks_after_commit == [1]
    assert lost.status_code == 503
    assert lost.headers["Retry-After"].isdigit()
    assert lost.mimetype == "application/json"
    assert "may or may not have been saved" in lost.get_json()["error"]
    assert "Idempotency-Key" in lost.get_json()["error"]
    retry = client.post(path, json=ROUND, headers=keyed(game, "lost-answer"))
    assert retry.status_code == 201
    assert retry.headers["Idempotent-Replayed"] == "true"
    state = retry.get_json()
    assert state["rounds"][0]["scores"] == ROUND["scores"]
    assert state["version"] == game["version"] + 1
    assert count(app, Round) == 1
    assert count(app, WriteAnswer) == 1
    other = client.post(path, json={**ROUND, "went_out": "Bob"}, headers=keyed(game, "lost-answer"))
    assert other.status_code == 422


def test_a_new_game_whose_answer_was_lost_is_found_again(
    client: FlaskClient, app: Flask, connection_breaks_after_commit: list[int]
) -> None:
    body = {"variant": "pay-me", "players": PLAYERS, "first_dealer": "Ann"}
    assert client.post("/api/games", json=body, headers={"Idempotency-Key": "g"}).status_code == 503
    retry = client.post("/api/games", json=body, headers={"Idempotency-Key": "g"})
    assert retry.status_code == 201
    assert count(app, Game) == 1
    assert client.get(f"/api/games/{retry.get_json()['id']}").status_code == 200


def test_an_answer_holds_its_own_write_and_the_version_it_made(
    client: FlaskClient, app: Flask, game: dict[str, Any]
) -> None:
    """Another phone's write lands between this write's commit and its answer: the answer still
    shows this write's version (it was read back after the commit before issue 24)."""
    others: list[int] = []

    def another_phone_writes(_session: Session) -> None:
        if others:
            return
        others.append(1)
        games = Game.__table__
        with db.engine.begin() as connection:
            connection.execute(update(games).where(games.c.id == game["id"]).values(version=games.c.version + 1))

    event.listen(Session, "after_commit", another_phone_writes)
    try:
        answer = client.post(f"/api/games/{game['id']}/rounds", json=ROUND, headers=edit_key(game)).get_json()
    finally:
        event.remove(Session, "after_commit", another_phone_writes)
    assert others == [1]
    assert answer["version"] == game["version"] + 1
    assert answer["rounds"][-1]["scores"] == ROUND["scores"]
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == game["version"] + 2


# ---------------------------------------------------------------- one request sent several times at once


@pytest.mark.parametrize("what", ["round", "game"])
def test_eight_copies_of_one_request_at_once_write_once(app: Flask, what: str) -> None:
    """Copies in flight together: the game's version or the unique key decides; every copy gets the one answer."""
    new_game = {"variant": "pay-me", "players": PLAYERS, "first_dealer": "Ann"}
    with threaded_server(app) as server:
        status, game = call(server, "POST", "/api/games", new_game)
        assert status == 201
        path, body = (f"/api/games/{game['id']}/rounds", ROUND) if what == "round" else ("/api/games", new_game)
        headers = {"Idempotency-Key": "one-request"}
        results = all_at_once(
            [lambda: call(server, "POST", path, body, game["edit_key"], headers=headers) for _ in range(8)]
        )
    assert {status for status, _ in results} == {201}, results
    assert len({str(answer) for _, answer in results}) == 1, "every copy got the same answer"
    assert (count(app, Round), count(app, Game)) == ((1, 1) if what == "round" else (0, 2))


# ---------------------------------------------------------------- every write


def test_every_write_of_the_api_takes_the_key_in_the_document(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    judgements = {"/api/check", "/api/best", "/api/layoff", "/api/contract"}  # they store nothing
    writes = 0
    for path, item in document["paths"].items():
        for method, described in item.items():
            if method not in ("post", "put", "delete") or path in judgements:
                continue
            writes += 1
            names = [parameter.get("name") for parameter in described.get("parameters", [])]
            assert "Idempotency-Key" in names, (method, path)
            assert {"422", "503"} <= set(described["responses"]), (method, path)
    assert writes == 18  # with changing players and undoing that (issue 27), and pool deals, rejoins, undo (issue 30)
    assert "Retry-After" in document["components"]["responses"]["E503"]["headers"]


def test_a_play_or_pay_event_an_undo_and_an_ending_are_each_written_once(client: FlaskClient) -> None:
    game = api_game(client, "play-or-pay", PLAYERS, "Ann")
    path = f"/api/games/{game['id']}"
    hand = {"type": "settle", "winner": "Bob", "cards_left": {"Ann": 3, "Bob": 0, "Cy": 1}}
    first = client.post(f"{path}/events", json=hand, headers=keyed(game, "hand-1"))
    again = client.post(f"{path}/events", json=hand, headers=keyed(game, "hand-1"))
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.get_data() == first.get_data()
    version = first.get_json()["version"]
    assert version == game["version"] + 1
    ended = [client.post(f"{path}/end", json={}, headers=keyed(game, "end")) for _ in range(2)]
    assert [answer.status_code for answer in ended] == [200, 200]
    assert ended[1].get_data() == ended[0].get_data()
    undo = {**keyed(game, "reopen"), "If-Match": f'"v{version + 1}"'}
    undone = [client.delete(f"{path}/events/last", headers=undo) for _ in range(2)]
    assert [answer.status_code for answer in undone] == [200, 200]
    assert undone[1].get_data() == undone[0].get_data()
    assert client.get(path).get_json()["version"] == version + 2  # one ending, one undo


def test_an_undo_sent_twice_undoes_one_round(client: FlaskClient, game: dict[str, Any]) -> None:
    path = f"/api/games/{game['id']}/rounds"
    second = {"went_out": "Bob", "scores": {"Ann": 5, "Bob": 0, "Cy": 5}}
    for body, key in ((ROUND, "r1"), (second, "r2")):
        assert client.post(path, json=body, headers=keyed(game, key)).status_code == 201
    version = client.get(f"/api/games/{game['id']}").get_json()["version"]
    undone = [client.delete(f"{path}/last?version={version}", headers=keyed(game, "undo")) for _ in range(2)]
    assert [answer.status_code for answer in undone] == [200, 200]
    assert len(undone[1].get_json()["rounds"]) == 1
    assert len(client.get(f"/api/games/{game['id']}").get_json()["rounds"]) == 1


def test_a_group_and_an_import_are_each_made_once(client: FlaskClient, app: Flask, game: dict[str, Any]) -> None:
    group = {"name": "Fridays", "players": PLAYERS}
    made = [client.post("/api/groups", json=group, headers={"Idempotency-Key": "fridays"}) for _ in range(2)]
    assert [answer.status_code for answer in made] == [201, 201]
    assert made[1].get_json() == made[0].get_json()
    exported = client.get(f"/api/games/{game['id']}/export").get_data()
    sent = {"Idempotency-Key": "import-1", "Content-Type": "application/json"}
    imported = [client.post("/api/games/import", data=exported, headers=sent) for _ in range(2)]
    assert [answer.status_code for answer in imported] == [201, 201]
    assert imported[1].get_json() == imported[0].get_json()
    assert count(app, Game) == 2  # the game and one copy


def test_an_error_after_the_commit_never_says_that_nothing_was_changed(
    client: FlaskClient, app: Flask, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def fails() -> None:
        raise RuntimeError("a fault after the commit")

    monkeypatch.setattr(answers, "prune", fails)
    answer = client.post(f"/api/games/{game['id']}/rounds", json=ROUND, headers=keyed(game, "k"))
    assert answer.status_code == 500
    assert "nothing was changed" not in answer.get_json()["error"]
    assert "saved" in answer.get_json()["error"]
    assert count(app, Round) == 1
