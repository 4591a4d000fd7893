"""Groups through the API (issue 14): a group's games, and every figure against numbers worked out by hand.

The group: Ann, Bob and Cy, then Dee, who joins with a 3-13 money game.
- G1 Pay Me with a simple pot (25 cents each): totals Ann 0, Bob 10, Cy 20; Ann takes the 75 cents.
- G2 Pay Me: Ann 15, Bob 0, Cy 30.
- G3 Pay Me: Ann 10, Bob 25, Cy 10 (Ann and Cy tie for first).
- G4 3-13 pot (ante 50, second discard 5, knock 15): Dee goes out in round 1 (Ann 20, Bob 5, Cy 40),
  Bob in rounds 2-11 with no points; Ann takes the second discard twice in round 3.
  Pot: 200 + 10 - 11 knocks of 15 = 45, to Dee (lowest total, 0).
  Net: Ann -50-10 = -60, Bob -50+150 = +100, Cy -50, Dee -50+15+45 = +10.
- G5 Pay Me, Ann and Bob, one round: unfinished.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.app.test_groups_pages import join_group
from tests.conftest import edit_key, every_game

TRIO = ["Ann", "Bob", "Cy"]


def new_group(client: FlaskClient, name: str = "Thursday night", players: list[str] | None = None) -> Any:
    response = client.post("/api/groups", json={"name": name, "players": TRIO if players is None else players})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def group_game(client: FlaskClient, group: dict[str, Any], variant: str, players: list[str], **options: Any) -> Any:
    body: dict[str, Any] = {"variant": variant, "players": players, "first_dealer": players[0], "group": group["id"]}
    if options:
        body["options"] = options
    response = client.post("/api/games", json=body, headers={"X-Group-Key": group["edit_key"]})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def score(client: FlaskClient, game: dict[str, Any], went_out: str, points: dict[str, int], **pickups: int) -> None:
    scores = {name: points.get(name, 0) for name in game["players"]}
    body: dict[str, Any] = {"went_out": went_out, "scores": scores}
    if pickups:
        body["second_discards"] = pickups
    response = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game))
    assert response.status_code == 201, response.get_json()


def play_scored(
    client: FlaskClient, group: dict[str, Any], variant: str, rounds: list[tuple[str, dict[str, int]]], **options: Any
) -> Any:
    game = group_game(client, group, variant, list(rounds[0][1]), **options)
    for went_out, points in rounds:
        score(client, game, went_out, {name: value for name, value in points.items() if name != went_out})
    return game


def eleven(first: tuple[str, dict[str, int]], then: str, players: list[str]) -> list[tuple[str, dict[str, int]]]:
    return [first, *[(then, dict.fromkeys(players, 0)) for _ in range(10)]]


@pytest.fixture
def night(client: FlaskClient) -> dict[str, Any]:
    """The group of the module docstring, its games in order."""
    group = new_group(client)
    games = [
        play_scored(
            client, group, "pay-me", eleven(("Ann", {"Ann": 0, "Bob": 10, "Cy": 20}), "Ann", TRIO), ante=25, pot=True
        ),
        play_scored(client, group, "pay-me", eleven(("Bob", {"Ann": 15, "Bob": 0, "Cy": 30}), "Bob", TRIO)),
        # The tie: Ann and Cy both end on 10. Bob goes out in round 1, Cy in round 2.
        play_scored(
            client,
            group,
            "pay-me",
            [
                ("Bob", {"Ann": 10, "Bob": 0, "Cy": 0}),
                ("Cy", {"Ann": 0, "Bob": 25, "Cy": 0}),
                ("Ann", {"Ann": 0, "Bob": 0, "Cy": 10}),
                *[("Ann", dict.fromkeys(TRIO, 0)) for _ in range(8)],
            ],
        ),
    ]
    four = [*TRIO, "Dee"]
    game = group_game(client, group, "3-13", four)
    score(client, game, "Dee", {"Ann": 20, "Bob": 5, "Cy": 40})
    score(client, game, "Bob", {})
    score(client, game, "Bob", {}, Ann=2)
    for _ in range(8):
        score(client, game, "Bob", {})
    games.append(game)
    unfinished = group_game(client, group, "pay-me", ["Ann", "Bob"])
    score(client, unfinished, "Ann", {"Bob": 7})
    games.append(unfinished)
    return {"group": group, "games": games}


def figures(client: FlaskClient, group_id: str) -> Any:
    response = client.get(f"/api/groups/{group_id}")
    assert response.status_code == 200
    return response.get_json()


def players_by_name(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {line["name"]: line for line in state["players"]}


def test_a_group_is_created_with_its_members_and_key(client: FlaskClient) -> None:
    group = new_group(client, "  Thursday night ", ["Ann", " Bob"])
    assert (group["name"], group["players"]) == ("Thursday night", ["Ann", "Bob"])
    assert len(group["edit_key"]) > 20
    state = figures(client, group["id"])
    assert [line["name"] for line in state["players"]] == ["Ann", "Bob"]
    assert state["games"] == [] and state["settle_up"] == []
    assert state["head_to_head"]["Ann"]["Bob"] == {"won": 0, "lost": 0, "tied": 0}


def test_standings_count_finished_games_and_a_shared_win_for_each_winner(client: FlaskClient, night: Any) -> None:
    lines = players_by_name(figures(client, night["group"]["id"]))
    assert list(lines) == ["Ann", "Bob", "Cy", "Dee"]  # Dee joined with the 3-13 game
    seen = {
        name: (line["games"], line["wins"], line["win_rate"], line["points_per_round"], line["best"], line["worst"])
        for name, line in lines.items()
    }
    assert seen == {
        "Ann": (4, 2, 0.5, 1.02, 0, 20),  # 45 points over 44 rounds; wins G1 and (shared) G3
        "Bob": (4, 1, 0.25, 0.91, 0, 25),  # 10 + 0 + 25 + 5 = 40 over 44
        "Cy": (4, 1, 0.25, 2.27, 10, 40),  # 20 + 30 + 10 + 40 = 100 over 44; shared win in G3
        "Dee": (1, 1, 1.0, 0.0, 0, 0),
    }


def test_head_to_head_over_the_finished_games_both_played(client: FlaskClient, night: Any) -> None:
    h2h = figures(client, night["group"]["id"])["head_to_head"]

    def rec(won: int, lost: int, tied: int) -> dict[str, int]:
        return {"won": won, "lost": lost, "tied": tied}

    assert h2h["Ann"]["Bob"] == rec(2, 2, 0)  # the unfinished game (Ann ahead) does not count
    assert h2h["Bob"]["Ann"] == rec(2, 2, 0)
    assert h2h["Ann"]["Cy"] == rec(3, 0, 1)
    assert h2h["Cy"]["Ann"] == rec(0, 3, 1)
    assert h2h["Bob"]["Cy"] == rec(3, 1, 0)
    assert h2h["Dee"] == {"Ann": rec(1, 0, 0), "Bob": rec(1, 0, 0), "Cy": rec(1, 0, 0)}


def test_money_across_nights_and_the_fewest_payments(client: FlaskClient, night: Any) -> None:
    state = figures(client, night["group"]["id"])
    money = {name: line["money_cents"] for name, line in players_by_name(state).items()}
    # G1: Ann +50, Bob -25, Cy -25. G4: Ann -60, Bob +100, Cy -50, Dee +10.
    assert money == {"Ann": -10, "Bob": 75, "Cy": -75, "Dee": 10}
    assert state["settle_up"] == [{"from": "Ann", "to": "Dee", "cents": 10}, {"from": "Cy", "to": "Bob", "cents": 75}]


def test_games_are_listed_with_date_winners_and_the_unfinished_apart(client: FlaskClient, night: Any) -> None:
    games = figures(client, night["group"]["id"])["games"]
    ids = [game["id"] for game in night["games"]]
    assert [game["id"] for game in games] == ids
    assert [game["finished"] for game in games] == [True, True, True, True, False]
    assert [game["winners"] for game in games] == [["Ann"], ["Bob"], ["Ann", "Cy"], ["Dee"], []]
    assert games[3]["name"] == "3-13" and len(games[0]["date"]) == 10


def test_ratings_rank_the_tied_winners_above_the_player_behind(client: FlaskClient) -> None:
    group = new_group(client)
    play_scored(
        client,
        group,
        "pay-me",
        [
            ("Bob", {"Ann": 10, "Bob": 0, "Cy": 0}),
            ("Cy", {"Ann": 0, "Bob": 25, "Cy": 0}),
            ("Ann", {"Ann": 0, "Bob": 0, "Cy": 10}),
            *[("Ann", dict.fromkeys(TRIO, 0)) for _ in range(8)],
        ],
    )
    lines = players_by_name(figures(client, group["id"]))
    assert lines["Ann"]["rating"] == lines["Cy"]["rating"] > lines["Bob"]["rating"]
    assert lines["Ann"]["uncertainty"] < 25 / 3  # one game made everyone surer


def test_deleting_a_game_removes_it_from_every_figure(client: FlaskClient, night: Any) -> None:
    first = night["games"][0]
    assert client.delete(f"/api/games/{first['id']}", headers=edit_key(first)).status_code == 200
    state = figures(client, night["group"]["id"])
    lines = players_by_name(state)
    assert (lines["Ann"]["games"], lines["Ann"]["wins"], lines["Ann"]["best"]) == (3, 1, 10)
    assert {name: line["money_cents"] for name, line in lines.items()} == {"Ann": -60, "Bob": 100, "Cy": -50, "Dee": 10}
    assert state["head_to_head"]["Ann"]["Bob"] == {"won": 1, "lost": 2, "tied": 0}
    assert len(state["games"]) == 4


def test_a_game_of_the_group_carries_it_and_a_loose_game_carries_null(client: FlaskClient) -> None:
    group = new_group(client)
    game = group_game(client, group, "pay-me", ["Ann", "Eve"])
    assert game["group"] == group["id"]
    assert client.get(f"/api/games/{game['id']}").get_json()["group"] == group["id"]
    loose = client.post("/api/games", json={"variant": "pay-me", "players": ["Ann", "Bob"]}).get_json()
    assert loose["group"] is None
    assert new_group_members(client, group["id"]) == ["Ann", "Bob", "Cy", "Eve"]  # Eve joined


def new_group_members(client: FlaskClient, group_id: str) -> list[str]:
    return [line["name"] for line in figures(client, group_id)["players"]]


@pytest.mark.parametrize("headers", [{}, {"X-Group-Key": "wrong"}, {"X-Group-Key": ""}])
def test_a_game_in_a_group_needs_the_group_key(client: FlaskClient, headers: dict[str, str]) -> None:
    group = new_group(client)
    body = {"variant": "pay-me", "players": ["Ann", "Bob"], "group": group["id"]}
    response = client.post("/api/games", json=body, headers=headers)
    assert response.status_code == 403
    assert "group" in response.get_json()["error"]
    assert every_game(client) == []  # nothing stored


def test_a_game_key_of_another_game_does_not_open_the_group(client: FlaskClient) -> None:
    group = new_group(client)
    game = group_game(client, group, "pay-me", ["Ann", "Bob"])
    body = {"variant": "pay-me", "players": ["Ann", "Bob"], "group": group["id"]}
    assert client.post("/api/games", json=body, headers={"X-Group-Key": game["edit_key"]}).status_code == 403


def test_the_group_key_edits_every_game_of_the_group_but_no_other(client: FlaskClient) -> None:
    group = new_group(client)
    game = group_game(client, group, "pay-me", ["Ann", "Bob"])
    loose = client.post("/api/games", json={"variant": "pay-me", "players": ["Ann", "Bob"]}).get_json()
    body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 4}}
    group_key = {"X-Edit-Key": group["edit_key"]}
    assert client.post(f"/api/games/{game['id']}/rounds", json=body, headers=group_key).status_code == 201
    assert client.post(f"/api/games/{loose['id']}/rounds", json=body, headers=group_key).status_code == 403


def test_a_replaced_group_key_stops_working(client: FlaskClient) -> None:
    group = new_group(client)
    old = {"X-Group-Key": group["edit_key"]}
    assert client.post(f"/api/groups/{group['id']}/key").status_code == 403
    answer = client.post(f"/api/groups/{group['id']}/key", headers=old)
    assert answer.status_code == 200
    body = {"variant": "pay-me", "players": ["Ann", "Bob"], "group": group["id"]}
    assert client.post("/api/games", json=body, headers=old).status_code == 403
    fresh = {"X-Group-Key": answer.get_json()["edit_key"]}
    assert client.post("/api/games", json=body, headers=fresh).status_code == 201


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"players": ["Ann"]}, "a group needs a name"),
        ({"name": "  ", "players": []}, "the group needs a name"),
        ({"name": 5}, "the group's name must be text"),
        ({"name": "x" * 81}, "at most 80 characters"),
        ({"name": "Night", "players": ["Ann", "ann"]}, '"ann" is in the list twice'),
        ({"name": "Night", "players": "Ann"}, "players must be a list of names"),
        ({"name": "Night", "colour": "red"}, "colour"),
    ],
)
def test_a_bad_group_is_refused_with_one_sentence(client: FlaskClient, body: dict[str, Any], says: str) -> None:
    response = client.post("/api/groups", json=body)
    assert response.status_code == 400
    assert says in response.get_json()["error"]


def test_an_unknown_group_is_404(client: FlaskClient) -> None:
    assert client.get("/api/groups/nope").status_code == 404
    assert client.get("/api/groups/" + "x" * 40).status_code == 404
    body = {"variant": "pay-me", "players": ["Ann", "Bob"], "group": "nope"}
    assert client.post("/api/games", json=body, headers={"X-Group-Key": "k"}).status_code == 404


def test_the_export_carries_the_group_and_an_import_keeps_it_only_with_the_group_key(client: FlaskClient) -> None:
    group = new_group(client)
    game = group_game(client, group, "pay-me", ["Ann", "Bob"])
    exported = client.get(f"/api/games/{game['id']}/export").get_json()
    assert exported["game"]["group_id"] == group["id"]
    assert exported["derived"]["state"]["group"] == group["id"]
    without = client.post("/api/games/import", json=exported)
    assert without.status_code == 201 and without.get_json()["group"] is None
    wrong = client.post("/api/games/import", json=exported, headers={"X-Group-Key": "wrong"})
    assert wrong.status_code == 201 and wrong.get_json()["group"] is None
    kept = client.post("/api/games/import", json=exported, headers={"X-Group-Key": group["edit_key"]})
    assert kept.status_code == 201 and kept.get_json()["group"] == group["id"]
    assert len(figures(client, group["id"])["games"]) == 2


def test_a_loose_game_exports_without_a_group(client: FlaskClient) -> None:
    loose = client.post("/api/games", json={"variant": "pay-me", "players": ["Ann", "Bob"]}).get_json()
    exported = client.get(f"/api/games/{loose['id']}/export").get_json()
    assert "group_id" not in exported["game"] and "group" not in exported["derived"]["state"]


def test_a_play_or_pay_game_counts_its_chip_results_as_money(client: FlaskClient) -> None:
    group = new_group(client)
    game = group_game(client, group, "play-or-pay", TRIO, chips=10)
    hand = {"type": "settle", "winner": "Bob", "cards_left": {"Ann": 3, "Bob": 0, "Cy": 1}}
    response = client.post(f"/api/games/{game['id']}/events", json=hand, headers=edit_key(game))
    assert response.status_code == 201, response.get_json()
    results = response.get_json()["chips"]
    state = figures(client, group["id"])
    money = {name: line["money_cents"] for name, line in players_by_name(state).items()}
    assert money == {name: chips - 10 for name, chips in results.items()}
    assert sum(money.values()) == 0 and money["Bob"] > 0
    assert state["games"][0]["finished"] is False  # listed apart; no standings from it
    assert all(line["games"] == 0 for line in state["players"])


def test_wrong_group_keys_are_rate_limited_like_wrong_edit_keys(app: Any, client: FlaskClient) -> None:
    from tests.app.test_security import limited

    limited(app, RATELIMIT_WRONG_KEY="3/minute")
    group = new_group(client)
    body = {"variant": "pay-me", "players": ["Ann", "Bob"], "group": group["id"]}
    for attempt in range(3):
        assert client.post("/api/games", json=body, headers={"X-Group-Key": f"guess {attempt}"}).status_code == 403
    assert client.post("/api/games", json=body, headers={"X-Group-Key": "guess 3"}).status_code == 429
    assert join_group(client, group["id"], "guess").status_code == 429  # the join page's form counts too
    # The right key is never refused (issue 16): wrong keys slow guessing, they lock nobody out.
    assert client.post("/api/games", json=body, headers={"X-Group-Key": group["edit_key"]}).status_code == 201
