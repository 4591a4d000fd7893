"""Decisions D18, D19, D22 and D24-D26 (RULES.md sections 4 and 9), one test each, through the
engine's functions and its command line. D23 (the joker swap) is in test_joker_swap_reference."""

from __future__ import annotations

import pytest

from engine.api import best_json, check_json, layoff_json
from engine.cards import parse_cards, parse_meld
from engine.contracts import check_contract
from engine.errors import IllegalLayoff, OptionError
from engine.layoffs import lay_off, score_in_turn, table_melds
from engine.melds import check_meld
from engine.penalties import hand_penalty
from engine.rules import rule_set
from engine.schedule import round_info
from engine.scoring import with_exact_cut
from tests.engine.test_cli import ok

CR = "contract-rummy"
THIRTEEN_KINGS = "KS KH KD KC KS KH KD KC KS KH KD KC JK"


# --- D18: at most 13 cards in a 3-13 meld ----------------------------------------------------


def test_d18_the_issue_example_a_14th_card_is_refused_with_that_reason() -> None:
    args = ("layoff", "--variant", "3-13", "--round", "11", "--declarer", THIRTEEN_KINGS, "--onto", "1", "2C")
    answer = ok(*args)
    assert (answer["valid"], answer["code"]) == (False, "too_long")
    assert answer["reason"].endswith("in 3-13 no meld holds more than 13 cards, and this lay-off would make 14.")
    assert answer["placements"] == []


def test_d18_a_meld_of_14_cards_is_not_legal_in_3_13_and_13_are() -> None:
    fourteen = check_json("3-13", 11, None, [THIRTEEN_KINGS + " 2C"])["melds"][0]
    assert (fourteen["valid"], fourteen["code"]) == (False, "too_long")
    assert fourteen["reason"].endswith("has 14 cards; in 3-13 no meld holds more than 13.")
    assert check_json("3-13", 11, None, [THIRTEEN_KINGS])["valid"] is True


def test_d18_other_presets_set_no_limit_on_sets() -> None:
    assert check_json("pay-me", 3, None, ["KS KH KD KC KS KH KD KC KS KH KD KC JK JK"])["valid"] is True
    rules = rule_set("pay-me")
    info = round_info(rules, 3)
    melds = table_melds(["KS KH KD KC KS KH KD KC KS KH KD KC JK"], rules, info)
    assert len(lay_off(melds, 0, parse_meld("JK"), rules, info)[0].cards) == 14


def test_d18_a_hand_scored_with_lay_offs_keeps_a_card_that_would_be_a_14th() -> None:
    declarer = "KS KH KD KC KS KH KD KC JK JK 2C 2D 2H"  # 13 cards; 3 decks hold 3 of each
    answer = best_json("3-13", 11, None, "KC 7H", [declarer])
    assert answer["layoffs"] == []
    assert answer["penalty"] == (10 + 7) * 2  # round 11 scores double
    rules = rule_set("3-13")
    info = round_info(rules, 11)
    melds = table_melds([declarer], rules, info)
    with pytest.raises(IllegalLayoff, match="no meld holds more than 13 cards"):
        lay_off(melds, 0, parse_meld("KC"), rules, info)
    shorter = table_melds(["KS KH KD KC KS KH KD KC JK JK 2C 2D"], rules, info)
    assert best_json("3-13", 11, None, "KC 7H", ["KS KH KD KC KS KH KD KC JK JK 2C 2D"])["penalty"] == 7 * 2
    assert len(lay_off(shorter, 0, parse_meld("KC"), rules, info)[0].cards) == 13


# --- D19: lay-offs narrow open readings ------------------------------------------------------


def test_d19_a_lay_off_keeps_every_reading_that_still_fits() -> None:
    rules = rule_set("3-13")
    info = round_info(rules, 3)
    melds = table_melds(["JK 2S 2D"], rules, info)
    after_bob = lay_off(melds, 0, parse_meld("9C 10C"), rules, info)
    after_cy = lay_off(after_bob, 0, parse_meld("AC"), rules, info)  # J-Q-K-A: the wilds above 10♣
    assert [str(card) for card in after_cy[0].read_as] == ["9C", "10C", "JC", "QC", "KC", "AC"]
    below = lay_off(after_bob, 0, parse_meld("5C"), rules, info)  # or 6-7-8 below 9♣
    assert [str(card) for card in below[0].read_as] == ["5C", "6C", "7C", "8C", "9C", "10C"]
    # The three wilds stay side by side, as the run was laid: 6♣ would replace one of them.
    with pytest.raises(IllegalLayoff, match="may not replace a wild card"):
        lay_off(after_bob, 0, parse_meld("6C"), rules, info)
    with pytest.raises(IllegalLayoff):  # the set readings no longer fit the clubs laid
        lay_off(after_bob, 0, parse_meld("5S"), rules, info)
    with pytest.raises(IllegalLayoff):  # and Cy's A♣ fixed J-Q-K: the wilds no longer stand at 6-7-8
        lay_off(after_cy, 0, parse_meld("5C"), rules, info)


def test_d19_in_turn_a_later_player_scores_on_what_still_fits() -> None:
    rules = rule_set("3-13")
    info = round_info(rules, 3)
    melds = table_melds(["JK 2S 2D"], rules, info)
    bob, cy = score_in_turn([parse_cards("9C 10C"), parse_cards("AC")], melds, rules, info)
    assert bob is not None and cy is not None
    assert (bob.arrangement.penalty, cy.arrangement.penalty) == (0, 0)


# --- D22: the exact cut ----------------------------------------------------------------------


def test_d22_the_exact_cut_takes_50_off_the_card_points() -> None:
    rules = rule_set(CR, {"exact_cut": True})
    assert with_exact_cut({"Ann": 15, "Bob": 30}, "Ann", rules) == {"Ann": -35, "Bob": 30}
    assert with_exact_cut({"Ann": 0, "Bob": 30}, "Ann", rules) == {"Ann": -50, "Bob": 30}


# --- D24: contracts with two melds of a kind -------------------------------------------------


def test_d24_two_sets_of_one_rank_and_two_runs_of_one_suit_count_twice() -> None:
    rules = rule_set(CR)
    sets = check_contract([parse_meld(m) for m in ("7S 7H 7D", "7S 7H 7C", "9C 9D 9H")], rules, round_info(rules, 4))
    assert (sets.valid, sets.reason) == (True, None)
    runs = check_contract([parse_meld(m) for m in ("3H 4H 5H 6H", "7H 8H 9H 10H")], rules, round_info(rules, 3))
    assert (runs.valid, runs.reason) == (True, None)
    answer = ok("contract", "--variant", CR, "--round", "3", "3H 4H 5H 6H", "7H 8H 9H 10H")
    assert answer["valid"] is True


# --- D25: wild 2s held -----------------------------------------------------------------------


def test_d25_a_wild_two_held_scores_2_and_joker_points_apply_to_jokers_only() -> None:
    rules = rule_set(CR, {"twos_wild": True, "joker_points": 25})
    info = round_info(rules, 1)
    assert check_meld(parse_meld("7S 7H 2C"), rules, info).valid  # the 2 is wild here
    assert hand_penalty(parse_cards("2C"), rules, info) == 2
    assert hand_penalty(parse_cards("2C JK"), rules, info) == 2 + 25
    assert ok("best", "--variant", CR, "--round", "1", "--set", "twos_wild=on", "2H 2D")["penalty"] == 4


# --- D26: option ranges ----------------------------------------------------------------------


def test_d26_deal_sizes_6_to_15_and_buys_0_to_20() -> None:
    for size in (6, 15):
        assert rule_set(CR, {"deal_sizes": str(size)}).options.deal_sizes == (size,) * 7
    for size in ("5", "16"):
        with pytest.raises(OptionError, match="Cards dealt"):
            rule_set(CR, {"deal_sizes": size})
    for buys in (0, 20):
        assert rule_set(CR, {"buys_per_deal": buys}).options.buys_per_deal == buys
    with pytest.raises(OptionError, match="Buys per deal"):
        rule_set(CR, {"buys_per_deal": 21})
    # 15 cards for 8 players fit in 3 decks and 6 jokers.
    answer = layoff_json(CR, 1, {"deal_sizes": "15"}, (), 1, "7C", players=8, table=["7S 7H 7D"])
    assert answer["valid"] is True
