"""Several phones, one game: eight writers at once against a real server.

Each test runs twice: behind werkzeug's threaded server in this process, and behind gunicorn
with several worker processes. The database is the tests' database: SQLite (WAL mode) by
default, PostgreSQL when TEST_DATABASE_URL is set (see tests/conftest.py).

Checked: exactly one write wins per contested version and the others get 409 with the current
values; every answer holds its own write and the version it made, none shares one (issue 24); no
update is lost, no round is duplicated, the rounds stay consecutive, the history keeps
every replaced value, and the totals are the sums of the stored rounds.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.extensions import db
from companion.models import Round, RoundRevision
from tests.servers import call, gunicorn, threaded_server

WRITERS = 8
PLAYERS = [f"P{seat}" for seat in range(1, 9)]
ROUNDS = 11  # pay-me


@pytest.fixture(params=["threads", "workers"])
def server(request: pytest.FixtureRequest, app: Flask, database_url: str, tmp_path: Path) -> Iterator[str]:
    if request.param == "threads":
        with threaded_server(app) as base_url:
            yield base_url
    else:
        with gunicorn(tmp_path / "gunicorn", database_url, workers=3, threads=3) as base_url:
            yield base_url


def new_game(server: str) -> tuple[str, str]:
    status, game = call(server, "POST", "/api/games", {"variant": "pay-me", "players": PLAYERS, "first_dealer": "P1"})
    assert status == 201, game
    return game["id"], game["edit_key"]


def round_body(writer: int, tag: int, version: int | None) -> dict[str, Any]:
    """Scores that say who wrote them: the writer's player went out, the others hold `tag` written in
    base 40, a digit each from 1 to 40 (3 cards in round 1 score at most 45)."""
    went_out = PLAYERS[writer % len(PLAYERS)]
    others = [name for name in PLAYERS if name != went_out]
    scores = {name: 0 if name == went_out else 1 + tag // 40 ** others.index(name) % 40 for name in PLAYERS}
    body: dict[str, Any] = {"went_out": went_out, "scores": scores}
    if version is not None:
        body["version"] = version
    return body


def all_at_once(tasks: list[Callable[[], Any]]) -> list[Any]:
    """Run the tasks in parallel threads, released together by a barrier."""
    barrier = threading.Barrier(len(tasks))

    def run(task: Callable[[], Any]) -> Any:
        barrier.wait(timeout=30)
        return task()

    with ThreadPoolExecutor(len(tasks)) as pool:
        return list(pool.map(run, tasks))


def stored(app: Flask, game_id: str) -> tuple[list[tuple[int, str, dict[str, int]]], list[tuple[int, str, str, dict]]]:
    with app.app_context():
        rounds = db.session.scalars(db.select(Round).filter_by(game_id=game_id).order_by(Round.number, Round.id))
        revisions = db.session.scalars(db.select(RoundRevision).filter_by(game_id=game_id).order_by(RoundRevision.id))
        result = (
            [(item.number, item.went_out, dict(item.scores)) for item in rounds],
            [(item.number, item.action, item.went_out, dict(item.scores)) for item in revisions],
        )
        db.session.remove()
        return result


def check_totals(state: dict[str, Any]) -> None:
    assert [item["round"] for item in state["rounds"]] == list(range(1, len(state["rounds"]) + 1))
    for item in state["rounds"]:
        assert item["points"] == {name: score * item["multiplier"] for name, score in item["scores"].items()}
    assert state["totals"] == {name: sum(item["points"][name] for item in state["rounds"]) for name in PLAYERS}


def test_one_winner_per_contested_version(server: str, app: Flask) -> None:
    game_id, key = new_game(server)
    path = f"/api/games/{game_id}"
    history: dict[int, list[tuple[str, dict[str, int]]]] = {}
    for number in range(1, 5):
        version = call(server, "GET", path)[1]["version"]
        bodies = [round_body(writer, 100 * number + 10 * writer, version) for writer in range(WRITERS)]
        answers = all_at_once(
            [lambda body=body: call(server, "POST", f"{path}/rounds", body, key) for body in bodies]  # type: ignore[misc]
        )
        statuses = sorted(status for status, _ in answers)
        assert statuses == [201] + [409] * (WRITERS - 1), answers
        winner = next(index for index, (status, _) in enumerate(answers) if status == 201)
        won = answers[winner][1]
        assert won["version"] > version
        assert won["rounds"][-1]["round"] == number
        assert won["rounds"][-1]["scores"] == bodies[winner]["scores"]
        history[number] = [(bodies[winner]["went_out"], bodies[winner]["scores"])]
        for status, answer in answers:
            if status == 409:
                assert "changed" in answer["error"]
                current = answer["current"]  # the conflict shows the values now stored
                assert current["version"] == won["version"]
                assert current["rounds"] == won["rounds"]

    for attempt in range(3):  # eight phones correct round 2 from the same version
        version = call(server, "GET", path)[1]["version"]
        bodies = [round_body(writer, 1000 * (attempt + 1) + 10 * writer, version) for writer in range(WRITERS)]
        answers = all_at_once(
            [lambda body=body: call(server, "PUT", f"{path}/rounds/2", body, key) for body in bodies]  # type: ignore[misc]
        )
        assert sorted(status for status, _ in answers) == [200] + [409] * (WRITERS - 1), answers
        winner = next(index for index, (status, _) in enumerate(answers) if status == 200)
        history[2].append((bodies[winner]["went_out"], bodies[winner]["scores"]))
        for status, answer in answers:
            if status == 409:
                assert answer["current"]["rounds"][1]["scores"] == bodies[winner]["scores"]

    rounds, revisions = stored(app, game_id)
    assert [(number, went_out, scores) for number, went_out, scores in rounds] == [
        (number, *values[-1]) for number, values in sorted(history.items())
    ]
    assert revisions == [(2, "corrected", went_out, scores) for went_out, scores in history[2][:-1]]
    state = call(server, "GET", path)[1]
    check_totals(state)
    assert state["version"] == 1 + 4 + 3


Write = tuple[int, str, int, dict[str, Any]]  # version answered, "add" or "fix", round number, body sent


def race_writers(
    servers: Sequence[str], path: str, key: str, after_write: Callable[[int, int, dict[str, Any]], None] | None = None
) -> tuple[list[Write], int]:
    """WRITERS phones add and correct rounds at once until every round is played, each retrying from
    the 409's current state; writer n starts on servers[n] and moves to the next server at every
    attempt. Every answer must hold its own write. ``after_write(writer, attempt, answer)`` runs
    after each acknowledged write. Answers the acknowledged writes and the number of 409s."""
    lock = threading.Lock()
    acknowledged: list[Write] = []
    without_own_write: list[tuple[int, int, int]] = []
    conflicts = [0]

    def writer(number: int) -> None:
        chooser = random.Random(number)
        state = call(servers[number % len(servers)], "GET", path)[1]
        after_the_end = 0
        for attempt in range(300):
            server = servers[(number + attempt) % len(servers)]
            played = len(state["rounds"])
            correcting = played > 0 and (played >= ROUNDS or chooser.random() < 0.3)
            if played >= ROUNDS:
                after_the_end += 1
                if after_the_end > 3:
                    return
            body = round_body(number, 1000 * number + attempt, state["version"])
            if correcting:
                target = chooser.randint(1, played)
                status, answer = call(server, "PUT", f"{path}/rounds/{target}", body, key)
            else:
                target = played + 1
                status, answer = call(server, "POST", f"{path}/rounds", body, key)
            if status in (200, 201):
                with lock:
                    acknowledged.append((answer["version"], "add" if status == 201 else "fix", target, body))
                    if answer["rounds"][target - 1]["scores"] != body["scores"]:
                        without_own_write.append((status, target, answer["version"]))
                state = answer
                if after_write is not None:
                    after_write(number, attempt, answer)
            elif status == 409:
                with lock:
                    conflicts[0] += 1
                state = answer["current"]
            else:
                raise AssertionError((status, answer))

    all_at_once([lambda number=number: writer(number) for number in range(WRITERS)])  # type: ignore[misc]
    assert without_own_write == [], "answers that do not hold their own write (status, round, version)"
    return acknowledged, conflicts[0]


def check_answers_tell_the_truth(acknowledged: Sequence[Write]) -> None:
    """Each answer carries the version its own write made (issue 24): no two share one."""
    versions = sorted(version for version, *_ in acknowledged)
    assert len(set(versions)) == len(versions), "two writes were acknowledged with the same version"


def check_every_write_kept(app: Flask, game_id: str, acknowledged: Sequence[Write]) -> None:
    """One acknowledged add per round, none twice, and every acknowledged correction in the round's history."""
    adds = {number: body for _, kind, number, body in acknowledged if kind == "add"}
    assert sorted(adds) == list(range(1, ROUNDS + 1)), "one successful add per round, none twice"
    assert len(adds) == sum(1 for _, kind, _, _ in acknowledged if kind == "add"), "a round was added twice"
    rounds, revisions = stored(app, game_id)
    assert [number for number, _, _ in rounds] == list(range(1, ROUNDS + 1))
    for number, went_out, scores in rounds:
        # The round's values, oldest first: the history, then what is stored now.
        chain = [(old_out, old_scores) for n, _, old_out, old_scores in revisions if n == number]
        chain.append((went_out, scores))
        assert chain[0] == (adds[number]["went_out"], adds[number]["scores"])
        fixes = [
            (body["went_out"], body["scores"]) for _, kind, n, body in acknowledged if (kind, n) == ("fix", number)
        ]
        assert sorted(map(str, chain[1:])) == sorted(map(str, fixes)), f"round {number} lost an acknowledged write"
    assert {action for _, action, _, _ in revisions} <= {"corrected"}


def test_eight_phones_racing_to_the_end_lose_nothing(server: str, app: Flask) -> None:
    """Free for all: eight phones add and correct rounds, retrying from the 409's current state."""
    game_id, key = new_game(server)
    acknowledged, conflicts = race_writers([server], f"/api/games/{game_id}", key)
    assert conflicts > 0
    check_every_write_kept(app, game_id, acknowledged)
    check_answers_tell_the_truth(acknowledged)
    state = call(server, "GET", f"/api/games/{game_id}")[1]
    assert state["finished"] is True
    assert state["version"] == 1 + len(acknowledged), "every success raised the version once"
    check_totals(state)


def test_writes_without_a_version_are_serialised(server: str, app: Flask) -> None:
    """Phones that send no version: each write either lands whole or gets 409; none is lost."""
    game_id, key = new_game(server)
    path = f"/api/games/{game_id}"
    bodies = [round_body(writer, 50 * writer, None) for writer in range(WRITERS)]
    answers = all_at_once(
        [lambda body=body: call(server, "POST", f"{path}/rounds", body, key) for body in bodies]  # type: ignore[misc]
    )
    assert {status for status, _ in answers} <= {201, 409}, answers
    won = [bodies[index] for index, (status, _) in enumerate(answers) if status == 201]
    assert won
    rounds, _ = stored(app, game_id)
    assert [number for number, _, _ in rounds] == list(range(1, len(won) + 1))
    assert sorted(str(scores) for _, _, scores in rounds) == sorted(str(body["scores"]) for body in won)
    check_totals(call(server, "GET", path)[1])


def test_a_write_checks_the_rounds_of_the_version_it_read(app: Flask) -> None:
    """Bug found by the eight-phone tests: a write read the game's version, then its rounds a moment
    later; when another phone scored the last round in between, the write answered 400 "the game is
    over" instead of 409. The game and its rounds are now read in one statement."""
    from companion.errors import Conflict
    from companion.services import kinds, rummy, store

    with app.app_context():
        game, key = kinds.create_game("pay-me", ["Ann", "Bob"], None, "Ann")
        for _ in range(ROUNDS - 1):
            rummy.add_round(game, "Ann", {"Ann": 0, "Bob": 5})
        game_id, version = game.id, game.version
        db.session.remove()
    with app.app_context():
        mine = store.get_game(game_id)
        with app.app_context():
            theirs = store.get_game(game_id)
            rummy.add_round(theirs, "Bob", {"Ann": 7, "Bob": 0}, version)
        with pytest.raises(Conflict):
            rummy.add_round(mine, "Ann", {"Ann": 0, "Bob": 9}, version)
        db.session.rollback()
        assert len(store.get_game(game_id).rounds) == ROUNDS
    assert key
