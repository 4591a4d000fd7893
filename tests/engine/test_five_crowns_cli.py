"""Five Crowns through the command line (RULES.md 10.7), and every worked example of 10.8 as written."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.test_cli import fails, ok, run

FC = ("--variant", "five-crowns")


def check(round_number: int, *melds: str, options: tuple[str, ...] = ()) -> Any:
    return ok("check", *FC, "--round", str(round_number), *options, *melds)


def best(round_number: int, hand: str, *extra: str) -> Any:
    return ok("best", *FC, "--round", str(round_number), *extra, hand)


# --- 10.7 ----------------------------------------------------------------------------------------


def test_variants_lists_five_crowns() -> None:
    entry = next(entry for entry in ok("variants") if entry["id"] == "five-crowns")
    assert {key: entry[key] for key in ("id", "name", "min_players", "max_players", "rounds", "decks")} == {
        "id": "five-crowns",
        "name": "Five Crowns",
        "min_players": 2,
        "max_players": 7,
        "rounds": 11,
        "decks": [{"max_players": 7, "decks": 2, "jokers": 6}],
    }


def test_schedule_with_players() -> None:
    rounds = ok("schedule", *FC, "--players", "4")
    assert len(rounds) == 11
    trimmed = [
        {key: entry[key] for key in ("round", "cards", "wild", "multiplier", "decks", "jokers")} for entry in rounds
    ]
    assert trimmed[0] == {"round": 1, "cards": 3, "wild": ["JK", "3"], "multiplier": 1, "decks": 2, "jokers": 6}
    assert trimmed[1] == {"round": 2, "cards": 4, "wild": ["JK", "4"], "multiplier": 1, "decks": 2, "jokers": 6}
    assert trimmed[10] == {"round": 11, "cards": 13, "wild": ["JK", "K"], "multiplier": 1, "decks": 2, "jokers": 6}
    assert all(entry["max_points"] > 0 for entry in rounds)


def test_check_reads_a_run_and_a_book_with_a_star() -> None:
    answer = check(5, "9D 7C JD", "8C 8R 8S")
    assert answer["valid"] is True
    run, book = answer["melds"]
    assert (run["cards"], run["kind"], run["reading_text"]) == (["9D", "7C", "JD"], "run", "read as 9♦ 10♦ J♦")
    assert (book["cards"], book["valid"], book["kind"]) == (["8C", "8R", "8S"], True, "set")


def test_best_of_a_hand_with_no_meld() -> None:
    answer = best(2, "4H 5S 9C KR")
    assert answer["penalty"] == 47 and answer["melds"] == []
    assert sorted(answer["unmelded"]) == sorted(["4H", "5S", "9C", "KR"])


def test_best_lays_off_onto_the_declarer_only_with_the_lay_offs_option() -> None:
    answer = best(3, "9H", "--set", "lay_offs=true", "--declarer", "6H 7H 8H")
    assert answer["penalty"] == 0
    assert answer["layoffs"] == [{"meld": 1, "cards": ["9H"]}]
    without = best(3, "9H", "--declarer", "6H 7H 8H")
    assert (without["penalty"], without["layoffs"], without["unmelded"]) == (9, [], ["9H"])


def test_layoff_is_refused_without_the_option_and_judged_with_it() -> None:
    args = ("layoff", *FC, "--round", "3", "--declarer", "6H 7H 8H", "--onto", "1", "9H")
    refused = ok(*args)
    assert refused["valid"] is False and refused["code"] == "no_layoffs"
    allowed = ok(*args, "--set", "lay_offs=on")
    assert allowed["valid"] is True and allowed["declarer"] == [["6H", "7H", "8H", "9H"]]


@pytest.mark.parametrize("round_number", ["0", "12"])
def test_rounds_outside_1_to_11_exit_2(round_number: str) -> None:
    assert "Five Crowns has rounds 1 to 11" in fails("best", *FC, "--round", round_number, "5H 6H 7H")
    assert "Five Crowns has rounds 1 to 11" in fails("check", *FC, "--round", round_number, "5H 6H 7H")


def test_contract_does_not_apply() -> None:
    assert "Five Crowns has no contracts" in fails("contract", *FC, "--round", "3", "5S 5H 5D")


@pytest.mark.parametrize("option", ["full_cycle=true", "no_aces_in_runs=true", "ace=both", "penalty_table=pay-me"])
def test_options_it_does_not_take_exit_2_naming_the_option(option: str) -> None:
    message = fails("schedule", *FC, "--set", option)
    assert message.startswith('error: Five Crowns has no house rule "')


def test_an_ace_in_five_crowns_and_a_star_in_pay_me_exit_2_naming_the_card() -> None:
    assert '"AH"' in fails("best", *FC, "--round", "3", "AH 5S 9C")
    assert '"7R"' in fails("best", "--variant", "pay-me", "--round", "3", "7★ 5S 9C")


def test_best_jsonl_answers_line_by_line() -> None:
    done = ok("best", *FC, "--jsonl", stdin='{"round": 2, "hand": "4H 5S 9C KR"}\n')
    assert done["penalty"] == 47


# --- 10.8: the worked examples --------------------------------------------------------------------


def test_example_1_books_repeat_suits_and_distinct_suits_as_an_option() -> None:
    assert check(4, "KS KD KH KH")["melds"][0]["kind"] == "set"
    distinct = ("--set", "distinct_suit_sets=true")
    assert check(4, "KS KD KH KH", options=distinct)["melds"][0]["kind"] == "set"
    assert check(4, "KS KS KH", options=distinct)["valid"] is False
    assert check(4, "KS KS KH JK", options=distinct)["melds"][0]["kind"] == "set"


def test_example_2_a_wild_seven_in_a_run_and_two_wilds_side_by_side() -> None:
    run = check(5, "9D 7C JD")["melds"][0]
    assert (run["kind"], run["reading"]) == ("run", ["9D", "7C=10D", "JD"])
    side_by_side = check(5, "6D 7R 7H 9D")["melds"][0]
    assert (side_by_side["kind"], side_by_side["read_as"]) == ("run", ["6D", "7D", "8D", "9D"])


def test_example_3_an_eight_is_wild_in_round_6_and_natural_in_round_1() -> None:
    book = check(6, "8S QS QR")["melds"][0]
    assert book["kind"] == "set" and book["read_as"][0][0] == "Q"
    assert check(1, "8S QS QR")["valid"] is False


def test_example_4_a_run_holds_eleven_cards_from_3_to_king() -> None:
    run = check(11, "4H 5H 6H 7H 8H 9H 10H JH QH KH JK")["melds"][0]
    assert run["kind"] == "run"
    assert run["reading"][:2] == ["JK=3H", "4H"] and run["reading"][-1] == "KH"  # K♥ stands in its own place
    twelve = check(11, "4H 5H 6H 7H 8H 9H 10H JH QH KH JK 3H")["melds"][0]
    assert twelve["valid"] is False and twelve["kind"] is None
    assert "at most 11 cards" in twelve["reason"]


def test_example_5_two_wild_threes_make_a_book_of_kings() -> None:
    answer = best(1, "3H 3S KD")
    assert (answer["penalty"], answer["unmelded"]) == (0, [])
    assert sorted(answer["melds"][0]) == ["3H", "3S", "KD"]


def test_example_6_no_meld_scores_47() -> None:
    assert best(2, "4H 5S 9C KR")["penalty"] == 20 + 5 + 9 + 13


def test_example_7_a_king_scores_20_in_round_11_and_13_in_round_10() -> None:
    assert best(11, "KH")["penalty"] == 20
    assert best(10, "KH")["penalty"] == 13


def test_example_8_three_jokers_a_book_unless_wilds_are_limited() -> None:
    assert best(1, "JK JK JK")["penalty"] == 0
    assert best(1, "JK JK JK", "--set", "wild_limit=not_more_than_naturals")["penalty"] == 150


def test_eight_players_exit_2() -> None:
    assert "Five Crowns takes 2 to 7 players, not 8" in fails("schedule", *FC, "--players", "8")


def test_best_jsonl_answers_an_error_line_for_an_ace_only() -> None:
    lines = '{"round": 2, "hand": "AH 5S"}\n{"round": 1, "hand": "JK JK JK"}\n'
    done = run("best", *FC, "--jsonl", stdin=lines)
    assert done.returncode == 0
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert '"AH"' in first["error"] and second["penalty"] == 0
