"""Open readings of the declarer's melds (D13) and ties between equally good lay-offs (D11)."""

from __future__ import annotations

import ast
import io
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from engine.api import best_json, layoff_json, turn_scores_json
from engine.cards import parse_cards, parse_meld
from engine.cli import main
from engine.errors import CannotGoOut, IllegalMeld
from engine.layoffs import Place, can_lay_off, declarer_melds, lay_off, score_in_turn, table_melds
from engine.rules import rule_set
from engine.schedule import round_info


def cli(*args: str) -> Any:
    out = io.StringIO()
    assert main(list(args), out) == 0
    return json.loads(out.getvalue())


# --- D13: a meld keeps every reading until a lay-off needs one -----------------------------------


def test_bobs_three_fixes_the_joker_so_cys_eight_cannot_follow() -> None:
    rules = rule_set("pay-me-family")
    info = round_info(rules, 5)
    melds = table_melds(["5H JK 6H"], rules, info)
    assert sorted(str(reading) for reading in melds[0].readings) == ["5H 6H JK=7H", "JK=4H 5H 6H"]
    assert can_lay_off(melds, 0, parse_meld("8H"), rules, info)  # nobody has needed a reading yet
    after_bob = lay_off(melds, 0, parse_meld("3H"), rules, info)
    assert str(after_bob[0]) == "3H JK=4H 5H 6H"
    assert not can_lay_off(after_bob, 0, parse_meld("8H"), rules, info)
    assert can_lay_off(after_bob, 0, parse_meld("7H"), rules, info)


def test_the_same_chain_through_the_api_and_the_command_line() -> None:
    bob = layoff_json("pay-me-family", 5, None, ["5H JK 6H"], 1, "3H")
    assert bob["valid"] and bob["declarer"] == [["3H", "JK=4H", "5H", "6H"]]
    assert bob["placements"] == [{"card": "3H", "meld": 1, "place": "low", "as": "3H"}]
    cy = cli(
        "layoff",
        "--variant",
        "pay-me-family",
        "--round",
        "5",
        "--declarer",
        " ".join(bob["declarer"][0]),
        "--onto",
        "1",
        "8H",
    )
    assert cy["valid"] is False
    alone = cli("layoff", "--variant", "pay-me-family", "--round", "5", "--declarer", "5H JK 6H", "--onto", "1", "8H")
    assert alone["valid"] is True and alone["declarer"] == [["5H", "6H", "JK=7H", "8H"]]
    scores = turn_scores_json("pay-me-family", 5, None, ["5H JK 6H"], ["3H KS", "8H KS"])
    assert scores[0] is not None and scores[1] is not None
    assert (scores[0]["penalty"], scores[1]["penalty"]) == (10, 20)
    assert sorted(scores[1]["unmelded"]) == ["8H", "KS"]


def test_an_open_meld_is_written_out_as_laid_down() -> None:
    answer = layoff_json("pay-me-family", 5, None, ["5H JK 6H", "9C 9D 9S"], 2, "9H")
    assert answer["declarer"] == [["5H", "JK", "6H"], ["9C", "9D", "9S", "9H"]]


def test_a_role_written_with_equals_fixes_the_reading_at_once() -> None:
    rules = rule_set("pay-me-family")
    info = round_info(rules, 5)
    melds = table_melds(["5H JK=7H 6H"], rules, info)
    assert len(melds[0].readings) == 1
    assert not can_lay_off(melds, 0, parse_meld("3H"), rules, info)
    assert can_lay_off(melds, 0, parse_meld("8H"), rules, info)


def test_a_meld_both_a_set_and_a_run_stays_both_until_a_lay_off_chooses() -> None:
    rules = rule_set("3-13")
    info = round_info(rules, 5)
    melds = table_melds(["2H 3H JK"], rules, info)
    kinds = {reading.kind.value for reading in melds[0].readings}
    assert kinds == {"set", "run"}
    as_set = lay_off(melds, 0, parse_meld("3D"), rules, info)
    assert as_set[0].kind.value == "set" and not can_lay_off(as_set, 0, parse_meld("5H"), rules, info)
    as_run = lay_off(melds, 0, parse_meld("5H"), rules, info)
    assert as_run[0].kind.value == "run" and not can_lay_off(as_run, 0, parse_meld("3D"), rules, info)


def test_an_all_wild_meld_takes_its_rank_or_suit_from_the_first_natural_laid_off() -> None:
    rules = rule_set("3-13")
    info = round_info(rules, 5)
    melds = table_melds(["JK JK 2C"], rules, info)
    sevens = lay_off(melds, 0, parse_meld("7H"), rules, info)
    assert can_lay_off(sevens, 0, parse_meld("7S"), rules, info)  # still a set of sevens
    assert can_lay_off(sevens, 0, parse_meld("8H"), rules, info)  # or a run of hearts
    assert not can_lay_off(sevens, 0, parse_meld("9S"), rules, info)
    run = lay_off(sevens, 0, parse_meld("8H"), rules, info)
    assert not can_lay_off(run, 0, parse_meld("7S"), rules, info)


def test_a_loose_declarer_hand_is_split_and_each_meld_kept_open() -> None:
    rules = rule_set("pay-me-family")
    info = round_info(rules, 4)
    melds = declarer_melds("4H JK 5H 9C 9D 9S", rules, info)
    assert len(melds) == 2
    run = next(meld for meld in melds if meld.kind.value == "run")
    assert len(run.readings) == 2
    index = melds.index(run)
    assert can_lay_off(melds, index, parse_meld("3H"), rules, info) or can_lay_off(
        melds, index, parse_meld("2H"), rules, info
    )
    answer = best_json("pay-me-family", 4, None, "7H KS", declarer_hand="4H JK 5H 9C 9D 9S")
    assert answer["penalty"] == 10 and answer["placements"][0]["as"] == "7H"
    exact = best_json("pay-me-family", 4, None, "7H KS", declarer_hand="JK=3H 4H 5H | 9C 9D 9S")
    assert exact["penalty"] == 15


def test_a_loose_hand_is_split_into_the_fewest_melds() -> None:
    rules = rule_set("3-13")
    info = round_info(rules, 4)  # 6 cards; 2s and jokers wild
    melds = declarer_melds("5H 6H 7H 8H 9H 10H", rules, info)
    assert [str(meld) for meld in melds] == ["5H 6H 7H 8H 9H 10H"]


def test_declarer_cards_that_do_not_meld_are_refused() -> None:
    rules = rule_set("pay-me-family")
    with pytest.raises(IllegalMeld):
        table_melds(["5H 9C KD"], rules, round_info(rules, 5))


@pytest.mark.parametrize("alone", ["QC", "JK", "3C"])
def test_a_lone_card_written_as_a_meld_is_refused_with_the_reason(alone: str) -> None:
    rules = rule_set("pay-me")
    with pytest.raises(IllegalMeld, match=rf"meld 2 \({alone}\) is not legal: {alone}: a meld needs at least 3 cards"):
        table_melds(["5H 6H 7H", alone], rules, round_info(rules, 1))  # 3s, 2s and jokers wild


def test_jokers_written_in_a_game_without_them_are_refused_with_the_reason() -> None:
    rules = rule_set("three-thirteen")
    with pytest.raises(IllegalMeld, match=r"meld 1 \(JK JK JK\) is not legal: .*played without jokers"):
        table_melds(["JK JK JK"], rules, round_info(rules, 4))


READINGS_OF_ALL_WILDS = """
from engine.layoffs import table_melds
from engine.rules import rule_set
from engine.schedule import round_info
rules = rule_set("3-13")
(meld,) = table_melds(["JK JK JK"], rules, round_info(rules, 4))
print([str(reading) for reading in meld.readings])
"""


def test_an_all_wild_meld_has_its_readings_in_the_same_order_in_every_process() -> None:
    def readings(hash_seed: str) -> list[str]:
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run(
            [sys.executable, "-c", READINGS_OF_ALL_WILDS], capture_output=True, text=True, check=True, env=environment
        )
        return ast.literal_eval(run.stdout)

    first = readings("1")
    assert readings("2") == readings("3") == first
    runs = [reading for reading in first if len({card.split("=")[1][-1] for card in reading.split()}) == 1]
    assert [run.split()[0][-1] for run in runs] == sorted(
        (run.split()[0][-1] for run in runs), key="SHDC".index
    )  # suit by suit, in the suits' own order


# --- D11: the fewest cards laid off, then a laid-off wild at the upper end --------------------------


def test_the_player_keeps_their_own_meld_rather_than_lay_it_off() -> None:
    answer = best_json("pay-me-family", 8, {"ace": "both"}, "AS 2S 3S", ["4S 5S 6S 7S 8S 9S 10S JS QS"])
    assert answer["penalty"] == 0
    assert answer["melds"] == [["AS", "2S", "3S"]] and answer["placements"] == []


def test_a_laid_off_wild_goes_to_the_upper_end() -> None:
    answer = best_json("pay-me", 5, None, "JK", ["9H 10H JH"])
    assert answer["penalty"] == 0
    assert answer["placements"] == [{"card": "JK", "meld": 1, "place": "high", "as": "QH"}]
    assert answer["declarer"] == [["9H", "10H", "JH", "JK=QH"]]


def test_every_lay_off_is_listed_with_its_meld_and_place() -> None:
    rules = rule_set("pay-me")
    info = round_info(rules, 5)
    melds = table_melds(["9H 10H JH", "4C 4D 4S"], rules, info)
    (score,) = score_in_turn([parse_cards("8H 4H QH KS")], melds, rules, info)
    assert score is not None
    assert [(str(p.card), p.meld, p.place, str(p.stands_for)) for p in score.placements] == [
        ("8H", 0, Place.LOW, "8H"),
        ("QH", 0, Place.HIGH, "QH"),
        ("4H", 1, Place.SET, "4H"),
    ]
    assert str(score.placements[0]) == "8H on meld 1, at the low end"


def test_the_command_line_takes_the_declarers_cards() -> None:
    loose = cli("best", "--variant", "pay-me-family", "--round", "4", "--declarer-hand", "4H JK 5H 9C 9D 9S", "7H KS")
    assert loose["penalty"] == 10 and [p["card"] for p in loose["placements"]] == ["7H"]
    exact = cli(
        "layoff",
        "--variant",
        "pay-me-family",
        "--round",
        "4",
        "--declarer-hand",
        "JK=3H 4H 5H | 9C 9D 9S",
        "--onto",
        "1",
        "6H",
    )
    assert exact["valid"] is True and exact["placements"] == [{"card": "6H", "meld": 1, "place": "high", "as": "6H"}]


def test_the_declarers_melds_and_cards_are_not_both_given() -> None:
    out = io.StringIO()
    assert (
        main(
            [
                "best",
                "--variant",
                "pay-me",
                "--round",
                "4",
                "--declarer",
                "4H 5H 6H",
                "--declarer-hand",
                "4H 5H 6H 9C 9D 9S",
                "7H",
            ],
            out,
        )
        == 2
    )


def test_declarer_cards_that_do_not_go_out_are_refused_in_one_sentence() -> None:
    rules = rule_set("pay-me")
    with pytest.raises(CannotGoOut, match=r"^The declarer's cards do not go out: these cards cannot all be melded"):
        declarer_melds("4H 5H 9C 9D KS 2C", rules, round_info(rules, 4))
