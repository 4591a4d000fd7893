"""Pool rummy on the command line (RULES.md 11.6): every worked example of 11.7 answers as written."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from engine.cli import main
from tests.engine.test_cli import fails as fails_in_subprocess
from tests.engine.test_cli import ok as ok_in_subprocess

SHOW = ["2H 3H 4H", "5S 6S JK 8S", "KC KD KH", "9D 9S 9C"]


def ok(*args: str, stdin: str | None = None, monkeypatch: pytest.MonkeyPatch | None = None) -> Any:
    out = io.StringIO()
    assert main(list(args), out) == 0
    return json.loads(out.getvalue())


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    out = io.StringIO()
    assert main(list(args), out) == 2
    assert out.getvalue() == ""
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    return lines[0]


def game(record: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record)))
    return ok("pool-game")


# --- 11.6 -------------------------------------------------------------------------------------


def test_variants_list_both_pools() -> None:
    by_id = {entry["id"]: entry for entry in ok_in_subprocess("variants")}
    for variant, name in (("pool-101", "Pool Rummy 101"), ("pool-201", "Pool Rummy 201")):
        entry = by_id[variant]
        assert (entry["name"], entry["min_players"], entry["max_players"]) == (name, 2, 6)
        assert entry["decks"] == [{"max_players": 6, "decks": 2, "jokers": 2}]
    assert by_id["pool-201"]["options"]["pool_limit"] == 201
    assert by_id["pool-201"]["options"]["rejoin_cutoff"] == 174


def test_schedule_is_one_entry_for_every_deal() -> None:
    entry = {"round": None, "cards": 13, "wild": ["JK"], "cut_joker": True, "multiplier": 1}
    assert ok("schedule", "--variant", "pool-101") == [entry]
    assert ok("schedule", "--variant", "pool-201", "--players", "6") == [entry | {"decks": 2, "jokers": 2}]
    no_jokers = ok("schedule", "--variant", "pool-101", "--set", "jokers_per_deck=0", "--set", "cut_joker=off")
    assert no_jokers[0]["wild"] == [] and no_jokers[0]["cut_joker"] is False


def test_the_check_example_of_11_6() -> None:
    answer = ok_in_subprocess("check", "--variant", "pool-101", "--cut", "7H", *SHOW)
    assert answer["valid"] is True
    assert [(meld["kind"], meld["pure"]) for meld in answer["melds"]] == [
        ("run", True),
        ("run", False),
        ("set", False),
        ("set", False),
    ]
    assert answer["melds"][1]["reading_text"] == "read as 5♠ 6♠ 7♠ 8♠"
    assert answer["show"] == {"valid": True, "code": None, "reason": None, "cards": 13, "penalty": 0}


def test_the_best_example_of_11_6() -> None:
    hand = "2H 3H 4H KC KD KH 9D 9S 9C 5S 5D 5C 6H"
    answer = ok_in_subprocess("best", "--variant", "pool-201", "--wild", "7", hand)
    assert answer == {"penalty": 80, "count": 87, "lives": False, "melds": [], "unmelded": hand.split()}


def test_the_deal_example_of_11_6() -> None:
    assert ok_in_subprocess("deal", "--variant", "pool-101", "win", "drop", "middle", "37", "wrong") == {
        "points": [0, 20, 40, 37, 80],
        "winner": 1,
    }
    assert ok("deal", "--variant", "pool-201", "drop", "middle", "full", "win", "95") == {
        "points": [25, 50, 80, 0, 80],
        "winner": 4,
    }


# --- 11.7, the worked examples ---------------------------------------------------------------


def test_example_1_a_valid_show() -> None:
    assert ok("check", "--variant", "pool-101", "--cut", "7H", *SHOW)["show"]["valid"] is True


def test_example_2_no_pure_sequence_is_a_wrong_show() -> None:
    answer = ok("check", "--variant", "pool-101", "--cut", "7H", "2H 3H 7C", *SHOW[1:])
    assert [meld["pure"] for meld in answer["melds"][:2]] == [False, False]
    assert answer["melds"][0]["reading"] == ["2H", "3H", "7C=4H"]
    assert answer["show"] == {
        "valid": False,
        "code": "no_pure_sequence",
        "reason": "no pure sequence: every sequence holds a wild card",
        "cards": 13,
        "penalty": 80,
    }


def test_example_3_a_wild_in_its_own_place() -> None:
    melds = ok("check", "--variant", "pool-101", "--cut", "7D", "6H 7H 8H", "6H 7S 8H")["melds"]
    assert [(meld["valid"], meld["pure"]) for meld in melds] == [(True, True), (True, False)]
    nines = ok("check", "--variant", "pool-101", "--cut", "9S", "9D 9D 9C")["melds"][0]
    assert (nines["valid"], nines["kind"]) == (True, "set")
    sevens = ok("check", "--variant", "pool-101", "--cut", "7S", "9D 9D 9C")["melds"][0]
    assert (sevens["valid"], sevens["pure"], sevens["code"]) == (False, None, "repeated_suit")


def test_example_4_a_printed_joker_cut_makes_aces_wild() -> None:
    melds = ok("check", "--variant", "pool-101", "--cut", "JK", "AH 2H 3H", "5S 6S AD")["melds"]
    assert [(meld["valid"], meld["kind"], meld["pure"]) for meld in melds] == [
        (True, "run", True),
        (True, "run", False),
    ]
    only = ok("check", "--variant", "pool-101", "--set", "printed_joker_cut=jokers_only", "--cut", "JK", "5S 6S AD")
    assert only["melds"][0]["valid"] is False


def test_example_5_aces_low_or_high_never_around_the_corner() -> None:
    melds = [
        ok("check", "--variant", "pool-101", "--wild", "7", meld)["melds"][0]
        for meld in ("QH KH AH", "KH AH 2H", "KH AH JK")
    ]
    assert [meld["valid"] for meld in melds] == [True, False, True]
    assert melds[1]["code"] == "wrap"
    assert melds[2]["reading"] == ["JK=QH", "KH", "AH"]


def test_example_6_a_lone_pure_sequence_counts_every_card() -> None:
    hand = "2H 3H 4H KC KD KH 9D 9S 9C 5S 5D 5C 6H"
    answer = ok("best", "--variant", "pool-201", "--cut", "7C", hand)
    assert (answer["count"], answer["penalty"], answer["lives"]) == (87, 80, False)


def test_example_7_a_rejoin_at_the_highest_total_plus_one(monkeypatch: pytest.MonkeyPatch) -> None:
    record = {
        "variant": "pool-101",
        "players": ["Asha", "Ben", "Cy"],
        "buy_in": 500,
        "deals": [
            {"results": {"Asha": "win", "Ben": 70, "Cy": 20}},
            {"results": {"Asha": 35, "Ben": 40, "Cy": "win"}, "rejoin": ["Ben"]},
        ],
    }
    answer = game(record, monkeypatch)
    assert answer["totals"] == {"Asha": 35, "Ben": 36, "Cy": 20}
    assert answer["pot"] == 2000 and answer["rejoins"]["Ben"] == 1 and answer["paid"]["Ben"] == 1000
    assert answer["out"] == [] and answer["refused"] is None
    assert answer["dealer"] == "Cy"  # Asha dealt the first deal, Ben the second


def test_example_8_the_rejoin_cutoff_and_reaching_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    record: dict[str, Any] = {
        "variant": "pool-101",
        "players": ["Asha", "Ben", "Cy"],
        "buy_in": 500,
        "deals": [
            {"results": {"Asha": "win", "Ben": 70, "Cy": 40}},
            {"results": {"Asha": 80, "Ben": 40, "Cy": "win"}, "rejoin": ["Ben"]},
        ],
    }
    answer = game(record, monkeypatch)
    assert answer["refused"]["at"] == 2 and answer["refused"]["code"] == "rejoin_cutoff"
    assert answer["out"] == ["Ben"] and answer["pot"] == 1500
    record["variant"] = "pool-201"
    record["deals"] = [
        {"results": {"Asha": "win", "Ben": 80, "Cy": 80}},
        {"results": {"Asha": 80, "Ben": 80, "Cy": "win"}},
        {"results": {"Asha": 41, "Ben": 41, "Cy": "win"}},
    ]
    answer = game(record, monkeypatch)
    assert answer["totals"] == {"Asha": 121, "Ben": 201, "Cy": 80}
    assert answer["out"] == ["Ben"]
    assert ok("variants")[-1]["options"]["rejoin_cutoff"] == 174


def test_example_9_the_split_by_drops(monkeypatch: pytest.MonkeyPatch) -> None:
    players = ["Asha", "Ben", "Cy", "Dev", "Eli", "Fay"]
    record = {
        "variant": "pool-101",
        "options": {"rejoin_cutoff": "off"},
        "players": players,
        "buy_in": 2500,
        "deals": [
            {"results": {"Asha": 25, "Ben": 75, "Cy": 80, "Dev": 80, "Eli": 80, "Fay": "win"}},
            {"results": {"Asha": "win", "Ben": 0, "Cy": 15, "Dev": 30, "Eli": 30, "Fay": 80}},
            {"results": {"Asha": 0, "Ben": "win", "Cy": 0, "Fay": 80}},
        ],
        "end": {"split": "drops"},
    }
    answer = game(record, monkeypatch)
    assert answer["refused"] is None
    assert answer["in"] == ["Asha", "Ben", "Cy"] and answer["pot"] == 15000
    assert answer["drops_left"] == {"Asha": 3, "Ben": 1, "Cy": 0}
    assert answer["split"] == {"method": "drops", "shares": {"Asha": 9167, "Ben": 4167, "Cy": 1666}}
    assert answer["nets"] == {"Asha": 6667, "Ben": 1667, "Cy": -834, "Dev": -2500, "Eli": -2500, "Fay": -2500}
    assert answer["dealer"] is None and answer["winner"] is None


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("check", "--variant", "pool-101", "2H 3H 4H"), "give the deal's wild rank"),
        (("check", "--variant", "pool-101", "--cut", "7H", "--wild", "7", "2H 3H 4H"), "not both"),
        (("check", "--variant", "pool-101", "--cut", "7X", "2H 3H 4H"), '"7X" is not a card'),
        (
            ("check", "--variant", "pool-101", "--set", "jokers_per_deck=0", "--cut", "JK", "2H 3H 4H"),
            "not in the deck",
        ),
        (
            ("check", "--variant", "pool-101", "--set", "cut_joker=off", "--wild", "7", "2H 3H 4H"),
            "--wild is not allowed",
        ),
        (("check", "--variant", "pool-101", "--wild", "11", "2H 3H 4H"), '"11" is not a rank'),
        (("check", "--variant", "pool-101", "--wild", "7", "2H 2H 2H"), '"2H" appears 3 times'),
        (("check", "--variant", "pay-me", "--round", "3", "--cut", "7H", "2H 3H 4H"), "pool rummy only"),
        (("best", "--variant", "pool-101", "--wild", "7", "--declarer", "2H 3H 4H", "5H"), "no lay-offs"),
        (("best", "--variant", "pool-101", "--wild", "7", "--jsonl"), "no lay-offs"),
        (
            ("layoff", "--variant", "pool-101", "--round", "1", "--onto", "1", "--declarer", "2H 3H 4H", "5H"),
            "no lay-offs",
        ),
        (("contract", "--variant", "pool-101", "--round", "1", "2H 3H 4H"), "no contracts"),
        (("deal", "--variant", "pool-101", "win", "win"), "exactly one win, not 2"),
        (("deal", "--variant", "pool-101", "drop", "37"), "exactly one win, not 0"),
        (("deal", "--variant", "pool-101", "win", "pass"), '"pass" is not a result'),
        (("deal", "--variant", "pool-101", "win"), "not 1"),
        (("deal", "--variant", "pool-101", *["win"] + ["drop"] * 6), "not 7"),
        (("deal", "--variant", "pay-me", "win", "drop"), "not pool rummy"),
        (("schedule", "--variant", "pool-101", "--set", "full_cycle=on"), 'no house rule "Full cycle"'),
        (("schedule", "--variant", "pool-101", "--set", "rejoin_cutoff=soon"), "a whole number or off"),
        (("schedule", "--variant", "pool-101", "--players", "7"), "2 to 6 players, not 7"),
    ],
)
def test_bad_input_exits_2_with_one_sentence(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str
) -> None:
    assert words in fails(capsys, *args)


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ("{not json", "not JSON"),
        ('{"variant": "pool-301", "players": ["A", "B"]}', 'unknown variant "pool-301"'),
        ('{"variant": "pool-101", "options": {"pot": 5}, "players": ["A", "B"]}', 'unknown option "pot"'),
        ('{"variant": "pool-101", "players": ["A"]}', "2 to 6 players, not 1"),
        ('{"variant": "pool-101", "players": ["A", "B", "A"]}', '"A" is named twice'),
        ('{"variant": "pool-101", "players": ["A", "B"], "buy_in": -5}', '"buy_in" is a whole number'),
    ],
)
def test_a_bad_game_record_exits_2(record: str, words: str) -> None:
    assert words in fails_in_subprocess("pool-game", stdin=record)
