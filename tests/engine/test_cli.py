"""The engine's command line (RULES.md section 8), run as ``python -m engine`` in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )


def ok(*args: str, stdin: str | None = None) -> Any:
    done = run(*args, stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


def fails(*args: str, stdin: str | None = None) -> str:
    """Bad input: exit status 2, nothing on stdout, exactly one line on stderr; returns that line."""
    done = run(*args, stdin=stdin)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert done.stderr.endswith("\n")
    return lines[0]


# --- variants ----------------------------------------------------------------------------


def test_variants_lists_every_preset() -> None:
    variants = ok("variants")
    assert isinstance(variants, list)
    by_id = {entry["id"]: entry for entry in variants}
    assert set(by_id) == {
        "pay-me",
        "pay-me-family",
        "three-thirteen",
        "3-13",
        "play-or-pay",
        "contract-rummy",
        "five-crowns",
    }
    for entry in variants:
        assert {"id", "name", "min_players", "max_players"} <= set(entry)
        assert isinstance(entry["name"], str) and entry["name"]
    assert (by_id["pay-me"]["min_players"], by_id["pay-me"]["max_players"]) == (2, 8)
    assert (by_id["pay-me-family"]["min_players"], by_id["pay-me-family"]["max_players"]) == (2, 6)
    assert (by_id["three-thirteen"]["min_players"], by_id["three-thirteen"]["max_players"]) == (2, 4)
    assert (by_id["3-13"]["min_players"], by_id["3-13"]["max_players"]) == (2, 9)
    assert by_id["pay-me"]["name"] == "Pay Me"


def test_variants_carry_their_parameters() -> None:
    by_id = {entry["id"]: entry for entry in ok("variants")}
    assert by_id["3-13"]["options"]["ace"] == "high"
    assert by_id["3-13"]["options"]["double_rounds"] == [10, 11]
    assert by_id["three-thirteen"]["options"]["lay_offs"] is False
    assert by_id["pay-me"]["options"]["no_adjacent_wilds"] is True
    assert "D3" in by_id["pay-me-family"]["decisions"]


# --- schedule ---------------------------------------------------------------------------


STOCK_CARD_UP = "Turn the top card of the stock face up to start the discard pile."


def test_schedule_entries() -> None:
    rounds = ok("schedule", "--variant", "pay-me")
    assert len(rounds) == 11
    up = {"discard_pile": STOCK_CARD_UP}
    assert rounds[0] == {"round": 1, "cards": 3, "wild": ["JK", "2", "3"], "multiplier": 1, "max_points": 45, **up}
    assert rounds[8] == {"round": 9, "cards": 11, "wild": ["JK", "2", "J"], "multiplier": 1, "max_points": 165, **up}
    assert rounds[10] == {"round": 11, "cards": 13, "wild": ["JK", "2", "K"], "multiplier": 1, "max_points": 195, **up}
    for entry in rounds:
        assert set(entry) == {"round", "cards", "wild", "multiplier", "max_points", "discard_pile"}


def test_schedule_max_points_follows_the_players_and_the_options() -> None:
    """Two players of Pay Me share one deck and 2 jokers: 13 cards hold at most 10 wild ones."""
    assert ok("schedule", "--variant", "pay-me", "--players", "2")[10]["max_points"] == 10 * 15 + 3 * 10
    three_13 = ok("schedule", "--variant", "3-13", "--players", "4")
    assert [entry["max_points"] for entry in three_13][-2:] == [(8 * 15 + 4 * 10) * 2, (8 * 15 + 5 * 10) * 2]
    no_buys = ok("schedule", "--variant", "contract-rummy", "--set", "buys_per_deal=0")
    assert no_buys[0]["max_points"] == 10 * 15


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        ("pay-me", STOCK_CARD_UP),
        ("pay-me-family", STOCK_CARD_UP),
        ("three-thirteen", "The dealer turns the last card dealt face up to start the discard pile."),
        ("3-13", "staggered so that two cards show; taking the lower one costs the second-discard fee"),
    ],
)
def test_schedule_says_how_to_start_the_discard_pile(variant: str, words: str) -> None:
    rounds = ok("schedule", "--variant", variant)
    assert all(words in entry["discard_pile"] for entry in rounds)
    by_id = {entry["id"]: entry for entry in ok("variants")}
    assert words in by_id[variant]["discard_pile"]


def test_variants_list_the_ways_to_pick_the_first_dealer() -> None:
    by_id = {entry["id"]: entry for entry in ok("variants")}
    three_13 = [way["method"] for way in by_id["3-13"]["first_dealer"]]
    assert three_13 == ["chosen", "random", "high_card", "left_of_scorekeeper"]
    assert [way["method"] for way in by_id["pay-me"]["first_dealer"]] == ["chosen", "random", "high_card"]
    high_card = by_id["pay-me"]["first_dealer"][2]
    assert high_card["label"] == "High-card draw" and "King is high, Ace is low" in high_card["how"]


def test_schedule_wild_tokens_per_preset() -> None:
    assert ok("schedule", "--variant", "pay-me-family")[7]["wild"] == ["JK", "10"]
    assert ok("schedule", "--variant", "three-thirteen")[9]["wild"] == ["Q"]
    three_13 = ok("schedule", "--variant", "3-13")
    assert all(entry["wild"] == ["JK", "2"] for entry in three_13)
    assert [entry["multiplier"] for entry in three_13] == [1] * 9 + [2, 2]


def test_schedule_full_cycle_d2() -> None:
    rounds = ok("schedule", "--variant", "pay-me", "--set", "full_cycle=true")
    assert len(rounds) == 23
    assert [entry["cards"] for entry in rounds] == [*range(3, 15), *range(13, 2, -1)]
    assert rounds[11] == {
        "round": 12,
        "cards": 14,
        "wild": ["JK", "2", "A"],
        "multiplier": 1,
        "max_points": 14 * 15,
        "discard_pile": STOCK_CARD_UP,
    }


def test_schedule_with_players_adds_decks_and_jokers() -> None:
    rounds = ok("schedule", "--variant", "pay-me", "--players", "5")
    assert rounds[0] == {
        "round": 1,
        "cards": 3,
        "wild": ["JK", "2", "3"],
        "multiplier": 1,
        "max_points": 45,
        "discard_pile": STOCK_CARD_UP,
        "decks": 3,
        "jokers": 6,
    }
    keys = {"round", "cards", "wild", "multiplier", "max_points", "discard_pile", "decks", "jokers"}
    assert all(set(entry) == keys for entry in rounds)
    two = ok("schedule", "--variant", "three-thirteen", "--players", "2")
    assert (two[0]["decks"], two[0]["jokers"]) == (1, 0)


def test_schedule_double_rounds_option() -> None:
    rounds = ok("schedule", "--variant", "pay-me", "--set", "double_rounds=3,4")
    assert [entry["round"] for entry in rounds if entry["multiplier"] == 2] == [3, 4]


# --- check ------------------------------------------------------------------------------


def test_acceptance_example() -> None:
    answer = ok("check", "--variant", "pay-me", "--round", "5", "9C JK 2D QC")
    assert answer["valid"] is False
    assert len(answer["melds"]) == 1
    meld = answer["melds"][0]
    assert meld["cards"] == ["9C", "JK", "2D", "QC"]
    assert meld["valid"] is False
    assert meld["kind"] is None
    assert "JK" in meld["reason"] and "2D" in meld["reason"]
    assert "side by side" in meld["reason"]


def test_check_shape_for_several_melds() -> None:
    answer = ok("check", "--variant", "pay-me", "--round", "5", "9c jk jc", "8H 8S 8D", "3H 4S 5H")
    assert set(answer) == {"valid", "melds"}
    assert answer["valid"] is False
    assert [meld["valid"] for meld in answer["melds"]] == [True, True, False]
    assert [meld["kind"] for meld in answer["melds"]] == ["run", "set", None]
    assert answer["melds"][0]["cards"] == ["9C", "JK", "JC"]  # canonical notation
    assert answer["melds"][0]["reason"] is None
    assert isinstance(answer["melds"][2]["reason"], str)
    for meld in answer["melds"]:
        assert {"cards", "valid", "kind", "reason"} <= set(meld)


def test_check_all_valid() -> None:
    answer = ok("check", "--variant", "three-thirteen", "--round", "3", "5H 5S 5D", "AH 2H 3H")
    assert answer["valid"] is True
    assert all(meld["valid"] for meld in answer["melds"])


def test_check_d1_in_pay_me() -> None:
    answer = ok("check", "--variant", "pay-me", "--round", "3", "5H 5S 5D")
    assert answer["valid"] is False
    again = ok("check", "--variant", "pay-me", "--round", "3", "--set", "wild_in_place_natural=true", "5H 5S 5D")
    assert again["valid"] is True


def test_check_symbols_and_options() -> None:
    answer = ok("check", "--variant", "pay-me-family", "--round", "5", "--set", "ace=both", "Q♥ K♥ A♥")
    assert answer["valid"] is True
    assert answer["melds"][0]["cards"] == ["QH", "KH", "AH"]
    plain = ok("check", "--variant", "pay-me-family", "--round", "5", "Q♥ K♥ A♥")
    assert plain["valid"] is False


def test_check_explicit_role() -> None:
    answer = ok("check", "--variant", "pay-me", "--round", "5", "JK=JH 9H 10H")
    assert answer["valid"] is True
    assert answer["melds"][0]["cards"] == ["JK=JH", "9H", "10H"]


def test_check_d10_reads_the_cards_not_their_order() -> None:
    answer = ok("check", "--variant", "pay-me", "--round", "5", "5H 6H JK 2C")
    assert answer["valid"] is True
    meld = answer["melds"][0]
    assert meld["cards"] == ["5H", "6H", "JK", "2C"]
    assert meld["kind"] == "run"
    assert meld["read_as"] == ["5H", "6H", "4H", "7H"]
    assert meld["reading"] == ["JK=4H", "5H", "6H", "2C=7H"]
    assert meld["reading_text"] == "read as 4♥ 5♥ 6♥ 7♥"
    roles = ok("check", "--variant", "pay-me", "--round", "5", "5H 6H JK=7H 2C=8H")
    assert roles["valid"] is False
    assert "side by side" in roles["melds"][0]["reason"]
    assert roles["melds"][0]["reading"] is None


def test_check_copies_within_the_decks() -> None:
    assert ok("check", "--variant", "pay-me", "--round", "5", "8H 8H 8H")["valid"] is True
    line = fails("check", "--variant", "pay-me", "--round", "5", "8H 8H 8H 8H")
    assert "8H" in line
    line = fails("check", "--variant", "pay-me", "--round", "5", "--players", "2", "8H 8H 8S")
    assert "8H" in line


def test_check_jokers_in_a_preset_without_jokers() -> None:
    line = fails("check", "--variant", "three-thirteen", "--round", "3", "JK 5H 5S")
    assert "JK" in line


# --- best -------------------------------------------------------------------------------


def test_best_shape() -> None:
    answer = ok("best", "--variant", "pay-me", "--round", "4", "7H 8H JK 9S 9D KC")
    assert set(answer) == {"penalty", "melds", "unmelded"}
    assert answer["penalty"] == 25
    assert [sorted(meld) for meld in answer["melds"]] == [["9D", "9S", "JK"]]
    assert sorted(answer["unmelded"]) == ["7H", "8H", "KC"]


def test_best_multiplier_applied() -> None:
    assert ok("best", "--variant", "3-13", "--round", "10", "AH 7C JK")["penalty"] == 44
    assert ok("best", "--variant", "3-13", "--round", "9", "AH 7C JK")["penalty"] == 22


def test_best_jsonl() -> None:
    lines = [
        json.dumps({"round": 1, "hand": "8H 8S 8D"}),
        json.dumps({"round": 1, "hand": "3H 7X"}),
        json.dumps({"round": 3, "hand": "5H 5S 5D"}),
        "",
        json.dumps({"round": 99, "hand": "3H"}),
        "not json",
        json.dumps({"round": 2, "hand": "KH KS KD 4C"}),
    ]
    done = run("best", "--variant", "pay-me", "--jsonl", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 6
    assert answers[0] == {"penalty": 0, "melds": [answers[0]["melds"][0]], "unmelded": []}
    assert sorted(answers[0]["melds"][0]) == ["8D", "8H", "8S"]
    assert set(answers[1]) == {"error"}
    assert "7X" in answers[1]["error"] and "position 2" in answers[1]["error"]
    assert answers[2]["penalty"] == 45  # D1
    assert set(answers[3]) == {"error"} and "99" in answers[3]["error"]
    assert set(answers[4]) == {"error"}
    assert answers[5]["penalty"] == 0


def test_best_jsonl_missing_fields() -> None:
    stdin = json.dumps({"round": 1}) + "\n" + json.dumps([1, 2]) + "\n" + json.dumps({"round": 1, "hand": "8H"}) + "\n"
    done = run("best", "--variant", "pay-me", "--jsonl", stdin=stdin)
    assert done.returncode == 0
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [set(answer) for answer in answers[:2]] == [{"error"}, {"error"}]
    assert answers[2]["penalty"] == 10


# --- layoff -----------------------------------------------------------------------------


def test_layoff_second_four_of_hearts() -> None:
    args = ("layoff", "--variant", "pay-me-family", "--round", "5", "--declarer", "AH 2H 3H", "--onto", "1")
    first = ok(*args, "4H")
    assert first["valid"] is True
    assert first["declarer"] == [["AH", "2H", "3H", "4H"]]
    both = ok(*args, "4H 4H")
    assert both["valid"] is False
    assert both["code"] == "position_filled"


# --- bad input: exit status 2 and one line --------------------------------------------


def test_bad_card() -> None:
    line = fails("check", "--variant", "pay-me", "--round", "5", "9C JK 7X QC")
    assert '"7X" at position 3 is not a card' in line


def test_bad_card_in_best() -> None:
    assert "7X" in fails("best", "--variant", "pay-me", "--round", "5", "9C 7X")


def test_unknown_variant() -> None:
    assert "gin" in fails("schedule", "--variant", "gin")
    assert "gin" in fails("check", "--variant", "gin", "--round", "1", "8H 8S 8D")


def test_unknown_option() -> None:
    assert "full_cycel" in fails("schedule", "--variant", "pay-me", "--set", "full_cycel=true")


@pytest.mark.parametrize(
    ("pair", "word"), [("ace=middle", "middle"), ("full_cycle=perhaps", "perhaps"), ("ace", "ace")]
)
def test_bad_option_value(pair: str, word: str) -> None:
    assert word in fails("schedule", "--variant", "pay-me", "--set", pair)


@pytest.mark.parametrize("number", ["0", "12", "-1"])
def test_round_out_of_range(number: str) -> None:
    line = fails("check", "--variant", "pay-me", "--round", number, "8H 8S 8D")
    assert number in line


def test_round_not_a_number() -> None:
    assert "round" in fails("check", "--variant", "pay-me", "--round", "five", "8H 8S 8D")


def test_round_beyond_eleven_exists_only_in_full_cycle() -> None:
    fails("best", "--variant", "pay-me", "--round", "23", "8H")
    assert ok("best", "--variant", "pay-me", "--round", "23", "--set", "full_cycle=true", "8H")["penalty"] == 10


@pytest.mark.parametrize("players", ["1", "9", "0"])
def test_bad_player_count(players: str) -> None:
    assert players in fails("schedule", "--variant", "pay-me", "--players", players)


def test_bad_player_count_in_check() -> None:
    assert "5" in fails("check", "--variant", "three-thirteen", "--players", "5", "--round", "1", "8H 8S 8D")


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("schedule",),
        ("check", "--variant", "pay-me", "--round", "1"),
        ("check", "--variant", "pay-me", "8H 8S 8D"),
        ("best", "--variant", "pay-me", "--round", "1"),
        ("best", "--variant", "pay-me", "8H"),
        ("frobnicate",),
    ],
)
def test_missing_arguments(args: tuple[str, ...]) -> None:
    fails(*args)


def test_empty_meld() -> None:
    fails("check", "--variant", "pay-me", "--round", "1", " ")


def test_layoff_onto_a_meld_the_declarer_does_not_have() -> None:
    answer = ok("layoff", "--variant", "pay-me", "--round", "5", "--declarer", "9H 10H JH", "--onto", "2", "QH")
    assert answer["valid"] is False
    assert answer["code"] == "not_declarers_meld"


def test_layoff_in_three_thirteen() -> None:
    answer = ok("layoff", "--variant", "three-thirteen", "--round", "5", "--declarer", "9H 10H JH", "--onto", "1", "QH")
    assert answer["valid"] is False
    assert answer["code"] == "no_layoffs"


def test_best_with_the_declarers_melds() -> None:
    answer = ok("best", "--variant", "pay-me-family", "--round", "5", "--declarer", "AH 2H 3H", "4H 4H KS")
    assert answer["penalty"] == 15
    assert sorted(answer["unmelded"]) == ["4H", "KS"]
    assert answer["layoffs"] == [{"meld": 1, "cards": ["4H"]}]


def test_best_jsonl_round_from_the_command_line_and_deck_limits() -> None:
    stdin = json.dumps({"hand": "8H 8S 8D"}) + "\n" + json.dumps({"hand": "JK JK JK JK JK JK JK"}) + "\n"
    done = run("best", "--variant", "pay-me", "--round", "1", "--jsonl", stdin=stdin)
    assert done.returncode == 0
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["penalty"] == 0
    assert set(second) == {"error"} and "JK" in second["error"]


def test_three_thirteen_copies_assume_the_largest_table() -> None:
    assert ok("check", "--variant", "three-thirteen", "--round", "1", "8H 8H 8S")["valid"] is True
    assert "8H" in fails("check", "--variant", "three-thirteen", "--round", "1", "8H 8H 8H")
    assert "8H" in fails("check", "--variant", "three-thirteen", "--round", "1", "8H 8H 8S", "8H 8D 8C")
