"""Pool rummy games in a group (issue 30): started with the group's key; each finished pool game's nets
(took from the pot minus the buy-ins paid, in cents, summing to zero) count in the group's money beside
the 3-13 pot's; the players who took the pot share the win; the standings, the page and the CSV hold.

The group: Ann, Bob, Cy and Dee.
- P1 pool 101, buy-in 5.00, Ann, Bob and Cy: Bob goes out after deal 2 and rejoins; Cy goes out after
  deal 3, Bob again after deal 4, and Ann is the last one left. Pot 3 x 500 + 500 = 2000, all Ann's:
  nets Ann +1500, Bob -1000, Cy -500.
- P2 pool 201, buy-in 2.00, Ann, Bob and Dee split equally after one deal: 200 each, nets 0.
- P3 pool 101, unfinished: no money yet.
- G4 3-13 with its pot (as in test_groups_api): Ann -60, Bob +100, Cy -50, Dee +10.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask.testing import FlaskClient

from tests.app.test_groups_api import figures, group_game, new_group, players_by_name, score
from tests.app.test_pool_api import deal, post, rejoin

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def pool_in_group(client: FlaskClient, group: dict[str, Any], players: list[str], variant: str, buy_in: int) -> Any:
    return group_game(client, group, variant, players, buy_in=buy_in)


def night(client: FlaskClient) -> dict[str, Any]:
    group = new_group(client, "Pool night", FOUR)
    p1 = pool_in_group(client, group, ["Ann", "Bob", "Cy"], "pool-101", 500)
    deal(client, p1, {"Ann": "win", "Bob": 80, "Cy": 30})
    deal(client, p1, {"Ann": 10, "Bob": 21, "Cy": "win"})  # Bob 101: out, rejoins at 31
    rejoin(client, p1, "Bob")
    deal(client, p1, {"Ann": "win", "Bob": 0, "Cy": 80})  # Cy 110: out, the highest still in is 31
    deal(client, p1, {"Ann": "win", "Bob": 80})  # Bob 111: out; Ann is the last one left
    p2 = pool_in_group(client, group, ["Ann", "Bob", "Dee"], "pool-201", 200)
    deal(client, p2, {"Ann": "win", "Bob": 10, "Dee": 20})
    assert post(client, p2, "end", {"split": "equal"}).status_code == 200
    p3 = pool_in_group(client, group, ["Bob", "Cy"], "pool-101", 1000)
    deal(client, p3, {"Bob": "win", "Cy": 40})
    g4 = group_game(client, group, "3-13", FOUR)
    score(client, g4, "Dee", {"Ann": 20, "Bob": 5, "Cy": 40})
    score(client, g4, "Bob", {})
    score(client, g4, "Bob", {}, Ann=2)
    for _ in range(8):
        score(client, g4, "Bob", {})
    return {"group": group, "pool": [p1, p2, p3], "pot": g4}


def test_pool_nets_count_in_the_groups_money_beside_the_3_13_pot(client: FlaskClient) -> None:
    games = night(client)
    p1 = client.get(f"/api/games/{games['pool'][0]['id']}").get_json()
    assert p1["winner"] == "Ann" and p1["nets"] == {"Ann": 1500, "Bob": -1000, "Cy": -500}
    assert sum(p1["nets"].values()) == 0
    state = figures(client, games["group"]["id"])
    money = {name: line["money_cents"] for name, line in players_by_name(state).items()}
    pot_nets = {"Ann": -60, "Bob": 100, "Cy": -50, "Dee": 10}  # G4, as in test_groups_api
    assert money == {
        "Ann": 1500 + 0 + pot_nets["Ann"],
        "Bob": -1000 + 0 + pot_nets["Bob"],  # P3 is not over: its buy-ins are not money yet
        "Cy": -500 + pot_nets["Cy"],
        "Dee": 0 + pot_nets["Dee"],
    }
    assert sum(money.values()) == 0
    paid = {(pay["from"], pay["to"]): pay["cents"] for pay in state["settle_up"]}
    assert sum(paid.values()) == sum(cents for cents in money.values() if cents > 0)


def test_the_players_who_took_the_pot_share_the_win(client: FlaskClient) -> None:
    games = night(client)
    state = figures(client, games["group"]["id"])
    lines = {line["id"]: line for line in state["games"]}
    p1, p2, p3 = (lines[game["id"]] for game in games["pool"])
    assert (p1["name"], p1["winners"], p1["finished"]) == ("Pool Rummy 101", ["Ann"], True)
    assert (p2["name"], p2["winners"], p2["finished"]) == ("Pool Rummy 201", ["Ann", "Bob", "Dee"], True)
    assert (p3["winners"], p3["finished"]) == ([], False)
    assert [line["id"] for line in state["games"]][-1] == games["pool"][2]["id"]  # the unfinished one last
    players = players_by_name(state)
    assert {name: (line["games"], line["wins"]) for name, line in players.items()} == {
        "Ann": (3, 2),  # P1 won, P2 shared, G4 lost to Dee
        "Bob": (3, 1),
        "Cy": (2, 0),
        "Dee": (2, 2),  # P2 shared, G4 won
    }
    # Pool deals are not rounds: points per round stay those of the 3-13 game.
    assert players["Ann"]["points_per_round"] == round(20 / 11, 2) and players["Ann"]["best"] == 20
    h2h = state["head_to_head"]
    assert h2h["Ann"]["Bob"]["won"] == 1 and h2h["Ann"]["Bob"]["tied"] == 1 and h2h["Ann"]["Cy"]["won"] == 2


def test_the_group_page_and_its_csv_hold_pool_games(client: FlaskClient) -> None:
    games = night(client)
    group_id = games["group"]["id"]
    page = client.get(f"/groups/{group_id}")
    assert page.status_code == 200
    assert "Pool Rummy 101" in page.get_data(as_text=True)
    response = client.get(f"/groups/{group_id}/statistics.csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    money = {row[0]: int(row[-1]) for row in rows[1:5]}
    assert money == {"Ann": 1440, "Bob": -900, "Cy": -550, "Dee": 10}


def test_a_pool_game_needs_the_groups_key(client: FlaskClient) -> None:
    group = new_group(client, "Pool night", FOUR)
    body = {"variant": "pool-101", "players": FOUR, "group": group["id"], "options": {"buy_in": 100}}
    assert client.post("/api/games", json=body).status_code == 403
    assert client.post("/api/games", json=body, headers={"X-Group-Key": "wrong"}).status_code == 403
    assert figures(client, group["id"])["games"] == []
