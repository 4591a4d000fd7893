"""Meld validation (RULES.md sections 1-4): sets, runs, wild cards, options and reason codes."""

from __future__ import annotations

import pytest

from engine.cards import parse_meld
from engine.errors import IllegalMeld
from engine.melds import MeldKind, Reason, Verdict, can_meld, check_meld, meld_readings, open_readings, verify_meld
from engine.rules import rule_set
from engine.schedule import round_info


def judge(variant: str, number: int, meld: str, **options: object) -> Verdict:
    rules = rule_set(variant, options)
    return check_meld(parse_meld(meld), rules, round_info(rules, number))


def assert_valid(verdict: Verdict, kind: str, read_as: str | None = None) -> None:
    assert verdict.valid, verdict.reason
    assert verdict.code is None and verdict.reason is None
    assert verdict.kind is MeldKind(kind)
    if read_as is not None:
        assert verdict.read_as_text == read_as


def assert_invalid(verdict: Verdict, code: str) -> None:
    assert not verdict.valid
    assert verdict.code == code, verdict.reason
    assert verdict.kind is None
    assert verdict.reason  # a sentence for players


# --- plain sets and runs --------------------------------------------------------------


def test_set_of_three() -> None:
    assert_valid(judge("pay-me", 5, "9H 9S 9D"), "set", "9H 9S 9D")


def test_set_of_four_and_more() -> None:
    assert_valid(judge("pay-me", 5, "9H 9S 9D 9C"), "set")
    assert_valid(judge("pay-me", 5, "9H 9S 9D 9C 9H 9S"), "set")


def test_set_suits_may_repeat_with_several_decks() -> None:
    assert_valid(judge("pay-me", 5, "8H 8H 8H"), "set")
    assert_valid(judge("pay-me-family", 5, "10S 10C 10S"), "set")


def test_run_of_three_and_longer() -> None:
    assert_valid(judge("pay-me", 5, "3H 4H 5H"), "run", "3H 4H 5H")
    assert_valid(judge("pay-me", 5, "3H 4H 5H 6H"), "run")
    assert_valid(judge("pay-me", 5, "8S 9S 10S JS QS KS"), "run")


def test_run_written_descending() -> None:
    assert_valid(judge("pay-me", 5, "6H 5H 4H 3H"), "run")


def test_thirteen_card_run_and_no_longer() -> None:
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    assert_valid(judge("three-thirteen", 5, full), "run")
    assert_invalid(judge("three-thirteen", 5, full + " 7S", ace="both"), "too_long")


# --- reason codes -----------------------------------------------------------------------


@pytest.mark.parametrize("meld", ["", "JK", "3H 4H", "9S 9D"])
def test_too_short(meld: str) -> None:
    assert_invalid(judge("pay-me", 5, meld), "too_short")


def test_mixed_ranks() -> None:
    assert_invalid(judge("pay-me", 5, "3H 3S 4H"), "mixed_ranks")
    assert_invalid(judge("pay-me", 5, "3H 3S 3D 4D"), "mixed_ranks")


def test_mixed_suits() -> None:
    assert_invalid(judge("pay-me", 5, "3H 4S 5H"), "mixed_suits")
    assert_invalid(judge("pay-me", 5, "3H 4S 9D"), "mixed_suits")


def test_gap() -> None:
    assert_invalid(judge("pay-me", 5, "3H 5H 6H"), "gap")
    assert_invalid(judge("pay-me", 5, "9H JK QH"), "gap")  # the gap needs two wilds


def test_duplicate_in_run() -> None:
    assert_invalid(judge("pay-me", 5, "3H 3H 4H"), "duplicate_in_run")
    assert_invalid(judge("pay-me", 5, "5H 6H 6H 8H"), "duplicate_in_run")


def test_ace_not_allowed_high_in_a_low_game() -> None:
    assert_invalid(judge("pay-me-family", 5, "QH KH AH"), "ace_not_allowed")


def test_ace_not_allowed_low_in_a_high_game() -> None:
    assert_invalid(judge("3-13", 5, "AH 3H 2H"), "ace_not_allowed")


def test_too_many_wilds() -> None:
    assert_invalid(judge("pay-me", 5, "8H JK 2D"), "too_many_wilds")
    assert_invalid(judge("pay-me", 5, "8H JK JK"), "too_many_wilds")


def test_adjacent_wilds() -> None:
    assert_invalid(judge("pay-me", 5, "9C JK 2D QC"), "adjacent_wilds")


def test_repeated_suit() -> None:
    assert_invalid(judge("pay-me", 5, "10S 10C 10S", distinct_suit_sets=True), "repeated_suit")


def test_aces_not_in_runs() -> None:
    assert_invalid(judge("pay-me-family", 5, "AH 2H 3H", no_aces_in_runs=True), "aces_not_in_runs")


@pytest.mark.parametrize("meld", ["KH AH 2H", "QH KH AH 2H", "KS AS 2S 3S"])
def test_wrap_k_a_2(meld: str) -> None:
    assert_invalid(judge("three-thirteen", 5, meld), "wrap")
    assert_invalid(judge("pay-me-family", 5, meld, ace="both"), "wrap")


def test_not_wild_role_on_a_natural() -> None:
    assert_invalid(judge("pay-me", 5, "9H 8H=10H JH"), "not_wild")
    assert_invalid(judge("pay-me-family", 5, "2H=3H 4H 5H"), "not_wild")  # D3: twos are natural


def test_every_reason_code_is_stable() -> None:
    codes = {reason.value for reason in Reason}
    for code in [
        "too_short",
        "mixed_ranks",
        "mixed_suits",
        "gap",
        "ace_not_allowed",
        "too_many_wilds",
        "adjacent_wilds",
        "repeated_suit",
        "aces_not_in_runs",
        "wrap",
        "not_wild",
        "duplicate_in_run",
    ]:
        assert code in codes


def test_verify_meld_raises_with_code_and_can_meld() -> None:
    rules = rule_set("pay-me")
    info = round_info(rules, 5)
    with pytest.raises(IllegalMeld) as caught:
        verify_meld(parse_meld("9C JK 2D QC"), rules, info)
    assert caught.value.code == "adjacent_wilds"
    assert verify_meld(parse_meld("9C JK JC"), rules, info).valid
    assert can_meld(parse_meld("9C JK JC"), rules, info)
    assert not can_meld(parse_meld("9C JK 2D QC"), rules, info)


# --- the issue's acceptance example ---------------------------------------------------


def test_acceptance_example_two_wilds_side_by_side() -> None:
    verdict = judge("pay-me", 5, "9C JK 2D QC")
    assert_invalid(verdict, "adjacent_wilds")
    assert verdict.reason is not None
    assert "JK" in verdict.reason and "2D" in verdict.reason
    assert "side by side" in verdict.reason


def test_verdict_json() -> None:
    payload = judge("pay-me", 5, "9C JK JC").as_json()
    assert payload["cards"] == ["9C", "JK", "JC"]
    assert payload["valid"] is True
    assert payload["kind"] == "run"
    assert payload["reason"] is None
    assert payload["read_as"] == ["9C", "10C", "JC"]
    bad = judge("pay-me", 5, "9C JK 2D QC").as_json()
    assert bad["valid"] is False and bad["kind"] is None and isinstance(bad["reason"], str)


# --- aces: the seeds' own examples ----------------------------------------------------


@pytest.mark.parametrize("variant", ["pay-me", "pay-me-family", "three-thirteen"])
def test_ace_low_presets(variant: str) -> None:
    assert_valid(judge(variant, 4, "AH 2H 3H 4H"), "run")  # round 4: 6s wild everywhere
    assert_invalid(judge(variant, 4, "QH KH AH"), "ace_not_allowed")
    assert_invalid(judge(variant, 4, "JH QH KH AH"), "ace_not_allowed")


def test_ace_low_in_pay_me_with_a_wild_two() -> None:
    assert_valid(judge("pay-me", 4, "AH 2H 3H"), "run", "AH 2H 3H")
    assert_valid(judge("pay-me", 4, "AH JK 3H"), "run", "AH JK=2H 3H")


def test_three_13_ace_high() -> None:
    assert_valid(judge("3-13", 4, "JH QH KH AH"), "run")
    assert_valid(judge("3-13", 4, "QH KH AH"), "run")
    assert_valid(judge("3-13", 4, "AH KH QH JH"), "run")
    assert_invalid(judge("3-13", 4, "AH 2H 3H"), "ace_not_allowed")


def test_ace_option_both() -> None:
    assert_valid(judge("pay-me-family", 5, "QH KH AH", ace="both"), "run")
    assert_valid(judge("pay-me-family", 5, "AH 2H 3H", ace="both"), "run")
    assert_invalid(judge("pay-me-family", 5, "KH AH 2H", ace="both"), "wrap")


def test_ace_option_high_in_a_low_preset() -> None:
    assert_valid(judge("pay-me-family", 5, "QH KH AH", ace="high"), "run")
    assert_invalid(judge("pay-me-family", 5, "AH 2H 3H", ace="high"), "ace_not_allowed")


def test_ace_option_low_in_three_13() -> None:
    assert_valid(judge("3-13", 5, "AH 2H 3H", ace="low"), "run")
    assert_invalid(judge("3-13", 5, "QH KH AH", ace="low"), "ace_not_allowed")


def test_no_aces_in_runs_option() -> None:
    assert_invalid(judge("pay-me-family", 6, "AH 2H 3H", no_aces_in_runs=True), "aces_not_in_runs")
    assert_invalid(judge("pay-me-family", 6, "QH KH AH", no_aces_in_runs=True, ace="both"), "aces_not_in_runs")
    assert_valid(judge("pay-me-family", 6, "AH AS AD", no_aces_in_runs=True), "set")
    # a wild may not stand as an ace either
    assert_invalid(judge("pay-me-family", 6, "JK=AH 2H 3H", no_aces_in_runs=True), "aces_not_in_runs")
    low = judge("pay-me-family", 6, "2H 3H JK", no_aces_in_runs=True)
    assert_valid(low, "run", "2H 3H JK=4H")
    high = judge("pay-me-family", 6, "JK QH KH", no_aces_in_runs=True, ace="both")
    assert_valid(high, "run", "JK=JH QH KH")


def test_a_wild_written_where_no_card_may_stand_is_read_at_the_other_end() -> None:
    # RULES.md 1: "a wild written at an end stands at that end", but where that is no sequence
    # (it would stand as an ace the game does not allow, or beyond the ace), the naturals are
    # sorted and the wild fills the other end: J-Q-K-🃏 is 10-J-Q-K at any table.
    assert_valid(judge("pay-me-family", 6, "JK 2H 3H", no_aces_in_runs=True), "run", "JK=4H 2H 3H")
    assert_valid(judge("pay-me-family", 6, "QH KH JK", no_aces_in_runs=True, ace="both"), "run", "QH KH JK=JH")
    assert_valid(judge("pay-me", 5, "QH KH JK"), "run", "QH KH JK=JH")  # aces low: never Q-K-A
    assert_valid(judge("pay-me", 3, "JC QC KC JK"), "run", "JC QC KC JK=10C")
    assert_valid(judge("3-13", 5, "KH AH 2H"), "run", "KH AH 2H=QH")  # 2H is wild; nothing follows the ace
    # 2H is wild in 3-13 but may stand in its own place below the 3; 2D then takes the upper end.
    assert_valid(judge("3-13", 4, "2D 2H 3H 4H 5H"), "run", "2D=6H 2H 3H 4H 5H")
    # Where the wild stands at a legal end as written, it stays there.
    assert_valid(judge("pay-me", 5, "JK QH KH"), "run", "JK=JH QH KH")
    assert_valid(judge("3-13", 6, "QH KH JK"), "run", "QH KH JK=AH")
    # A role given explicitly is never moved.
    assert_invalid(judge("pay-me", 5, "QH KH JK=AH"), "ace_not_allowed")
    assert_invalid(judge("pay-me-family", 6, "JK=AH 2H 3H", no_aces_in_runs=True), "aces_not_in_runs")


# --- D1: a wild card is always wild ---------------------------------------------------


def test_d1_three_fives_in_round_three_of_pay_me() -> None:
    assert_invalid(judge("pay-me", 3, "5H 5S 5D"), "too_many_wilds")
    assert_invalid(judge("pay-me", 3, "5H 5S 5D 5C"), "too_many_wilds")


def test_d1_family_round_rank_set_is_all_wild() -> None:
    assert_invalid(judge("pay-me-family", 5, "7H 7S 7D"), "too_many_wilds")


def test_d1_wild_in_its_own_place_still_counts_as_wild() -> None:
    # round 5: 7s wild; 7H stands for itself, 7S for 8H: two wilds side by side
    assert_invalid(judge("pay-me", 5, "6H 7H 7S 9H"), "adjacent_wilds")
    # round 1: 2s and 3s wild: A-2-3 is one natural and two wilds
    assert_invalid(judge("pay-me", 1, "AH 2H 3H"), "too_many_wilds")


def test_wild_in_place_natural_overrides_d1() -> None:
    assert_valid(judge("pay-me", 3, "5H 5S 5D", wild_in_place_natural=True), "set", "5H 5S 5D")
    assert_valid(judge("pay-me", 5, "6H 7H 7S 9H", wild_in_place_natural=True), "run", "6H 7H 7S=8H 9H")
    assert_valid(judge("pay-me", 1, "AH 2H 3H", wild_in_place_natural=True), "run")
    assert_valid(judge("pay-me", 3, "5H 5S JK", wild_in_place_natural=True), "set")


def test_wild_in_place_natural_only_for_a_wild_standing_for_itself() -> None:
    # round 2, 4s wild: 4H and 4S stand for 8s, not for themselves, so they stay wild
    assert_invalid(judge("pay-me-family", 2, "4H 4S 8D", wild_in_place_natural=True), "too_many_wilds")
    assert_invalid(judge("pay-me", 5, "8H 7S 2H", wild_in_place_natural=True), "too_many_wilds")
    assert_valid(judge("pay-me", 5, "8H 7H 2H", wild_in_place_natural=True), "run", "8H 7H 2H=6H")


# --- all-wild melds and wild limits ---------------------------------------------------


@pytest.mark.parametrize(("number", "meld"), [(1, "3H 3S 3D"), (5, "7H 7S 7D"), (11, "KH KS KD KC")])
def test_three_thirteen_all_wild_sets(number: int, meld: str) -> None:
    assert_valid(judge("three-thirteen", number, meld), "set")


@pytest.mark.parametrize("meld", ["JK JK JK", "2H 2S 2D", "JK 2H 2S"])
def test_three_13_all_wild_melds(meld: str) -> None:
    assert_valid(judge("3-13", 10, meld), "set")


def test_three_thirteen_any_number_of_wilds() -> None:
    assert_valid(judge("three-thirteen", 5, "8H 7S 7D 7C"), "set")
    assert_valid(judge("three-thirteen", 5, "9C 7D 7S QC"), "run", "9C 7D=10C 7S=JC QC")


def test_jokers_and_twos_wild_in_pay_me() -> None:
    assert_valid(judge("pay-me", 5, "8H 8S JK"), "set")
    assert_valid(judge("pay-me", 5, "8H 8S 2C"), "set")
    assert_valid(judge("pay-me", 5, "8H JK 2D 8S"), "set")  # two wilds, two naturals
    assert_valid(judge("pay-me", 5, "9C JK JC"), "run", "9C JK=10C JC")
    assert_valid(judge("pay-me", 5, "9C 2D JC"), "run", "9C 2D=10C JC")


def test_never_more_wilds_than_naturals_in_pay_me() -> None:
    assert_invalid(judge("pay-me", 5, "8H JK 2D"), "too_many_wilds")
    assert_invalid(judge("pay-me-family", 5, "8H JK JK"), "too_many_wilds")
    assert_invalid(judge("pay-me", 5, "9C JK=10C 2D=JC"), "too_many_wilds")


def test_wild_limit_option() -> None:
    assert_valid(judge("pay-me", 5, "8H JK JK", wild_limit="none"), "set")
    assert_valid(judge("pay-me", 3, "5H 5S 5D", wild_limit="none"), "set")
    assert_invalid(judge("three-thirteen", 5, "8H 7S 7D", wild_limit="not_more_than_naturals"), "too_many_wilds")
    assert_invalid(judge("3-13", 5, "JK JK JK", wild_limit="not_more_than_naturals"), "too_many_wilds")


def test_sets_have_no_adjacency_rule() -> None:
    assert_valid(judge("pay-me", 5, "8H JK 2D 8S"), "set")


def test_adjacent_wilds_at_an_end() -> None:
    # D10: written at one end the two wilds would stand side by side, but the cards can be laid out
    # with a wild at each end, so the meld is legal; the wild written outermost keeps its end.
    assert_valid(judge("pay-me", 5, "9C 10C JK 2D"), "run", "9C 10C JK=8C 2D=JC")
    assert_valid(judge("pay-me", 5, "JK 2D 9C 10C"), "run", "JK=8C 2D=JC 9C 10C")
    # Where no layout keeps them apart, the meld is refused.
    assert_invalid(judge("pay-me", 5, "9C 10C JK=JC 2D=QC"), "adjacent_wilds")
    assert_invalid(judge("pay-me", 5, "9C JK 2D QC"), "adjacent_wilds")


def test_adjacent_wilds_in_gaps_after_sorting() -> None:
    # naturals 5 and 8, the gap 6-7 is filled by 7H (as itself) and JK: side by side
    assert_invalid(judge("pay-me", 5, "5H 8H 7H JK"), "adjacent_wilds")
    assert_valid(judge("pay-me", 5, "5H 8H 7H JK", wild_in_place_natural=True), "run", "5H 8H 7H JK=6H")


def test_no_adjacent_wilds_option() -> None:
    assert_valid(judge("pay-me", 5, "9C JK 2D QC", no_adjacent_wilds=False), "run", "9C JK=10C 2D=JC QC")
    assert_valid(judge("three-thirteen", 5, "9C 7D 7S QC"), "run")
    assert_valid(judge("3-13", 5, "9C JK 2D QC"), "run")
    assert_invalid(judge("3-13", 5, "9C JK 2D QC", no_adjacent_wilds=True), "adjacent_wilds")
    assert_invalid(judge("three-thirteen", 5, "9C 7D 7S QC", no_adjacent_wilds=True), "adjacent_wilds")


# --- distinct_suit_sets: seed 001's aunt ----------------------------------------------


def test_aunts_three_suit_variant() -> None:
    on = {"distinct_suit_sets": True}
    assert_invalid(judge("pay-me-family", 5, "10S 10C 10S", **on), "repeated_suit")
    assert_valid(judge("pay-me-family", 5, "10S 10C 10D 10S", **on), "set")
    assert_valid(judge("pay-me-family", 5, "10S 10C 10S JK", **on), "set")
    assert_valid(judge("pay-me-family", 5, "10S 10C JK", **on), "set")
    assert_invalid(judge("pay-me-family", 5, "10S 10C 10S 10S", **on), "repeated_suit")
    assert_invalid(judge("pay-me-family", 5, "10S 10S JK", **on), "repeated_suit")


def test_aunts_variant_is_off_by_default() -> None:
    assert_valid(judge("pay-me-family", 5, "10S 10C 10S"), "set")
    assert_valid(judge("pay-me", 5, "10S 10C 10S"), "set")


def test_distinct_suit_sets_with_an_explicit_role() -> None:
    verdict = judge("pay-me", 5, "10S 10S JK=10S", distinct_suit_sets=True)
    assert_invalid(verdict, "repeated_suit")
    assert_valid(judge("pay-me", 5, "10S 10C JK=10D", distinct_suit_sets=True), "set", "10S 10C JK=10D")


def test_distinct_suit_sets_do_not_touch_runs() -> None:
    assert_valid(judge("pay-me", 5, "3H 4H 5H", distinct_suit_sets=True), "run")


# --- written order and explicit roles (RULES.md section 1) -----------------------------


@pytest.mark.parametrize(
    ("meld", "read_as"),
    [
        ("9C JK JC", "9C JK=10C JC"),  # between two naturals: in that gap
        ("JC JK 9C", "JC JK=10C 9C"),  # descending
        ("JK 9C 10C", "JK=8C 9C 10C"),  # at the low end
        ("9C 10C JK", "9C 10C JK=JC"),  # at the high end
        ("10C 9C JK", "10C 9C JK=8C"),  # descending: the end after 9 is 8
        ("JK 10C 9C", "JK=JC 10C 9C"),  # descending: the end before 10 is J
    ],
)
def test_wild_stands_where_it_is_written(meld: str, read_as: str) -> None:
    verdict = judge("pay-me", 5, meld)
    assert_valid(verdict, "run", read_as)


def test_three_13_wild_at_either_end_of_a_high_run() -> None:
    assert_valid(judge("3-13", 6, "JK QH KH"), "run", "JK=JH QH KH")
    assert_valid(judge("3-13", 6, "QH KH JK"), "run", "QH KH JK=AH")


@pytest.mark.parametrize(
    ("meld", "read_as"),
    [
        ("10C JK 9C", "10C JK=JC 9C"),  # not a sequence as written: sorted, the wild at an end
        ("9C QC JK JC", "9C QC JK=10C JC"),  # the gap is filled first
        ("JK=JH 9H 10H", "JK=JH 9H 10H"),  # an explicit role wins over the written place
    ],
)
def test_non_sequence_order_gets_sorted(meld: str, read_as: str) -> None:
    assert_valid(judge("pay-me", 5, meld), "run", read_as)


def test_sorted_reading_that_avoids_adjacent_wilds() -> None:
    verdict = judge("pay-me", 5, "9C JK 10C 2D")
    assert verdict.valid
    assert verdict.read_as is not None
    ranks = sorted(card.rank for card in verdict.read_as if card.rank is not None)
    assert [int(rank) for rank in ranks] == [8, 9, 10, 11]


def test_explicit_role_places_the_wild() -> None:
    assert_valid(judge("pay-me", 5, "2H=5H 3H 4H"), "run", "2H=5H 3H 4H")
    assert_valid(judge("pay-me", 5, "3H 4H 2H=5H"), "run", "3H 4H 2H=5H")
    assert_valid(judge("pay-me", 5, "JK=3D 3H 3S"), "set", "JK=3D 3H 3S")


def test_explicit_role_that_leaves_a_gap() -> None:
    assert_invalid(judge("pay-me", 5, "3H 4H 2H=6H"), "gap")
    assert_invalid(judge("pay-me", 5, "9H JK=QH JH"), "gap")


def test_explicit_roles_keep_adjacency() -> None:
    assert_invalid(judge("pay-me", 5, "2D=JC 9C JK QC"), "adjacent_wilds")


def test_explicit_role_in_another_suit_or_same_place() -> None:
    assert_invalid(judge("pay-me", 5, "9H 10H JK=JS"), "mixed_suits")
    assert_invalid(judge("pay-me", 5, "9H 10H JK=10H"), "duplicate_in_run")


def test_wild_read_as_itself_shown_plainly() -> None:
    verdict = judge("pay-me", 5, "2H=2H 3H 4H")
    assert_valid(verdict, "run", "2H 3H 4H")


def test_set_reading_shows_each_wild() -> None:
    verdict = judge("pay-me", 5, "8H 8S JK")
    assert verdict.read_as is not None
    assert [str(card)[0] for card in verdict.read_as] == ["8", "8", "8"]
    assert verdict.read_as_text.startswith("8H 8S JK=8")


def test_invalid_meld_reads_as_written() -> None:
    verdict = judge("pay-me", 5, "9C JK 2D QC")
    assert verdict.read_as is None
    assert verdict.read_as_text == "9C JK 2D QC"


def test_d3_twos_per_preset() -> None:
    assert_invalid(judge("pay-me", 1, "2H 2S 2D"), "too_many_wilds")  # jokers and 2s are wild
    assert_valid(judge("pay-me-family", 1, "2H 2S 2D"), "set", "2H 2S 2D")  # D3: twos are natural
    assert_valid(judge("pay-me-family", 4, "AH 2H 3H"), "run", "AH 2H 3H")
    assert_valid(judge("3-13", 1, "2H 2S 2D"), "set")  # all wild, allowed


def test_full_cycle_aces_wild_round() -> None:
    # round 12 of the full cycle: 14 cards, aces wild; A-2-3 is one natural and two wilds
    assert_invalid(judge("pay-me", 12, "AH 2H 3H", full_cycle=True), "too_many_wilds")
    assert_valid(judge("pay-me", 12, "AH KS KD", full_cycle=True), "set", "AH=KH KS KD")
    assert_invalid(judge("pay-me", 12, "AH AS AD", full_cycle=True), "too_many_wilds")
    assert_valid(judge("pay-me", 11, "AH AS AD", full_cycle=True), "set")


@pytest.mark.parametrize(
    ("number", "meld", "read_as"),
    [
        (1, "2D 3D JK", "2D 3D JK=4D"),  # round 1: 2s and 3s wild; 2D and 3D stand for themselves
        (1, "JK 2D 3D", "JK=AD 2D 3D"),
        (2, "2D JK 4D", "2D JK=3D 4D"),  # round 2: 2s and 4s wild
    ],
)
def test_wild_in_place_natural_run_of_wild_cards(number: int, meld: str, read_as: str) -> None:
    # RULES.md D1: "Option wild_in_place_natural lets a wild card that stands exactly for itself count
    # as natural": two naturals and one wild, within the limit of "never more wilds than naturals".
    assert_valid(judge("pay-me", number, meld, wild_in_place_natural=True), "run", read_as)


def test_wild_in_place_natural_run_with_explicit_roles() -> None:
    assert_valid(judge("pay-me", 1, "2D=2D 3D=3D JK", wild_in_place_natural=True), "run", "2D 3D JK=4D")


# --- D10: the cards decide, not the written order ----------------------------------------


def test_d10_the_issue_example() -> None:
    # Pay Me round 5: jokers, 2s and 7s wild, no wilds side by side. Written as 5-6-7-8 the two
    # wilds would touch, but the cards can be laid out 4-5-6-7.
    verdict = judge("pay-me", 5, "5H 6H JK 2C")
    assert_valid(verdict, "run", "5H 6H JK=4H 2C=7H")
    assert verdict.arranged_text == "JK=4H 5H 6H 2C=7H"
    assert verdict.reading_text == "read as 4♥ 5♥ 6♥ 7♥"
    assert verdict.positions == (5, 6, 4, 7)
    assert verdict.wild == (False, False, True, True)


@pytest.mark.parametrize(
    "meld",
    ["6H 5H 2C JK", "JK 2C 5H 6H", "2C 6H JK 5H", "JK 5H 2C 6H", "6H JK 5H 2C"],
)
def test_d10_any_order_of_the_same_cards_is_legal(meld: str) -> None:
    verdict = judge("pay-me", 5, meld)
    assert verdict.valid, verdict.reason
    assert verdict.reading_text == "read as 4♥ 5♥ 6♥ 7♥"


def test_d10_naturals_out_of_order() -> None:
    assert_valid(judge("pay-me", 5, "6H 4H 5H"), "run", "6H 4H 5H")
    assert judge("pay-me", 5, "6H 4H 5H").reading_text == "read as 4♥ 5♥ 6♥"
    assert_valid(judge("pay-me", 5, "KS 9S JS 10S QS"), "run")
    assert judge("3-13", 5, "AH QH KH").reading_text == "read as Q♥ K♥ A♥"


def test_d10_roles_are_binding() -> None:
    # With the roles written, the wilds stand side by side: refused, though 4-5-6-7 would do.
    assert_invalid(judge("pay-me", 5, "5H 6H JK=7H 2C=8H"), "adjacent_wilds")
    # One role fixes that wild; the other wild still goes where the cards allow.
    assert_valid(judge("pay-me", 5, "5H 6H JK=7H 2C"), "run", "5H 6H JK=7H 2C=4H")
    assert_valid(judge("pay-me", 5, "5H 6H JK 2C=4H"), "run", "5H 6H JK=7H 2C=4H")
    assert_invalid(judge("pay-me", 5, "JK=8H 5H 6H"), "gap")
    assert_invalid(judge("pay-me", 5, "8H 8S JK=9H"), "mixed_ranks")


def test_d10_a_run_written_as_a_sequence_is_read_that_way() -> None:
    assert_valid(judge("pay-me", 5, "4H 5H JK"), "run", "4H 5H JK=6H")  # not 3-4-5
    assert_valid(judge("pay-me", 5, "JK 4H 5H"), "run", "JK=3H 4H 5H")  # not 4-5-6
    assert_valid(judge("pay-me", 5, "5H 4H JK"), "run", "5H 4H JK=3H")  # descending
    assert_valid(judge("pay-me", 5, "JK 5H 4H"), "run", "JK=6H 5H 4H")  # descending
    assert_valid(judge("pay-me", 5, "8C JK 10C JK QC"), "run", "8C JK=9C 10C JK=JC QC")


def test_d10_descending_runs() -> None:
    assert_valid(judge("pay-me", 5, "KS QS JK 10S"), "run", "KS QS JK=JS 10S")
    assert judge("pay-me", 5, "KS QS JK 10S").reading_text == "read as 10♠ J♠ Q♠ K♠"
    assert_valid(judge("3-13", 5, "AD KD QD JK"), "run", "AD KD QD JK=JD")
    assert_valid(judge("pay-me-family", 5, "3D 2D AD", ace="both"), "run", "3D 2D AD")


def test_d10_a_wild_written_between_two_naturals_stands_in_that_gap() -> None:
    # Not a sequence as written (9 then 7 then 5), but each wild stays in its gap.
    assert_valid(judge("three-thirteen", 6, "9H 8S 7H 5H 8D"), "run", "9H 8S=8H 7H 5H 8D=6H")
    assert_valid(judge("pay-me", 4, "9H 2C 7H 5H JK"), "run", "9H 2C=8H 7H 5H JK=6H")


def test_d10_a_wild_written_at_an_end_stands_at_that_end_when_it_can() -> None:
    # As written (2-3-4-6 or 4-5-6-7) the wilds would touch; laid out 3-4-5-6, the joker keeps its end.
    assert_valid(judge("pay-me", 5, "JK 2C 4H 6H"), "run", "JK=3H 2C=5H 4H 6H")
    # Written after the naturals, the outermost wild keeps the end.
    assert_valid(judge("pay-me", 5, "4H 6H 2C JK"), "run", "4H 6H 2C=5H JK=7H")
    # The written end is beyond the King where aces are low: the other end, as the cards allow.
    assert_valid(judge("pay-me", 5, "QH JH KH JK"), "run", "QH JH KH JK=10H")


def test_d10_a_wild_with_no_gap_between_its_naturals_takes_the_upper_end() -> None:
    verdict = judge("pay-me", 5, "5H JK 6H")
    assert_valid(verdict, "run", "5H JK=7H 6H")
    assert verdict.arranged_text == "5H 6H JK=7H"


def test_d10_refusals_still_quote_the_cards_and_say_why() -> None:
    verdict = judge("pay-me", 5, "5H 6H JK=7H 2C=8H")
    assert verdict.reason is not None
    assert "JK and 2C" in verdict.reason and "side by side" in verdict.reason
    assert "layout" not in verdict.reason  # the roles were written: no other layout to try
    free = judge("pay-me", 5, "QC 9C 2D JK").reason
    assert free is not None and free.endswith("and no other layout of these cards keeps them apart.")
    gap = judge("pay-me", 5, "3H 9H JK")
    assert gap.reason == "3H 9H JK: the gaps between the naturals need 5 wild cards, but there is 1."


def test_d10_verdict_json_shows_the_reading() -> None:
    payload = judge("pay-me", 5, "5H 6H JK 2C").as_json()
    assert payload["read_as"] == ["5H", "6H", "4H", "7H"]  # unchanged: in the order written
    assert payload["reading"] == ["JK=4H", "5H", "6H", "2C=7H"]
    assert payload["reading_text"] == "read as 4♥ 5♥ 6♥ 7♥"
    bad = judge("pay-me", 5, "5H 6H JK=7H 2C=8H").as_json()
    assert bad["reading"] is None and bad["reading_text"] is None


def test_d10_sets_in_any_order() -> None:
    verdict = judge("pay-me", 5, "JK 8H 2C 8S")
    assert_valid(verdict, "set", "JK=8D 8H 2C=8C 8S")
    assert verdict.reading_text == "read as 8♦ 8♥ 8♣ 8♠"


# --- D12: wild aces in runs ----------------------------------------------------------------


FULL_CYCLE_NO_ACES = {"full_cycle": True, "no_aces_in_runs": True}


def test_d12_a_wild_ace_stands_for_any_rank_in_a_run() -> None:
    # Round 12 of the full cycle deals 14 cards: aces are wild.
    assert_valid(judge("pay-me", 12, "5H 6H AS", **FULL_CYCLE_NO_ACES), "run", "5H 6H AS=7H")
    assert_valid(judge("pay-me", 12, "AS 5H 6H", **FULL_CYCLE_NO_ACES), "run", "AS=4H 5H 6H")
    assert_valid(judge("pay-me", 12, "QH KH AH", **FULL_CYCLE_NO_ACES), "run", "QH KH AH=JH")
    assert_valid(judge("pay-me-family", 12, "JK 5H AS 7H", **FULL_CYCLE_NO_ACES), "run", "JK=4H 5H AS=6H 7H")
    assert_valid(judge("three-thirteen", 12, "AS AD 7H", **FULL_CYCLE_NO_ACES), "set")


def test_d12_no_card_stands_for_an_ace_in_a_run() -> None:
    assert_invalid(judge("pay-me", 12, "AS=AH 2H 3H", **FULL_CYCLE_NO_ACES), "aces_not_in_runs")
    assert_invalid(judge("pay-me", 12, "QH KH AH=AH", **FULL_CYCLE_NO_ACES), "aces_not_in_runs")
    # Standing for itself (as a natural, with that option) would make it an ace in a run: it moves.
    on = {**FULL_CYCLE_NO_ACES, "wild_in_place_natural": True}
    assert_valid(judge("pay-me", 12, "AH 2H 3H", **on), "run", "AH=4H 2H 3H")


def test_d12_without_the_option_a_wild_ace_still_stands_anywhere() -> None:
    assert_valid(judge("pay-me", 12, "9C AS JC", full_cycle=True), "run", "9C AS=10C JC")


# --- D14: one ace per run ------------------------------------------------------------------


def test_d14_a_run_may_start_or_end_with_an_ace() -> None:
    assert_valid(judge("pay-me-family", 5, "AH 2H 3H", ace="both"), "run")
    assert_valid(judge("pay-me-family", 5, "QH KH AH", ace="both"), "run")
    long_low = judge("pay-me-family", 4, "AH 2H 3H 4H 5H 7H 8H 9H 10H JH QH KH JK", ace="both")
    assert_valid(long_low, "run")
    assert long_low.reading_text == "read as A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"


def test_d14_never_both_ends() -> None:
    cards = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    verdict = judge("pay-me-family", 5, cards, ace="both")
    assert_invalid(verdict, "duplicate_in_run")
    assert verdict.reason == f"{cards}: a run cannot hold AH twice; it may start or end with an ace, but never both."
    # 7H is wild in round 5, so it could stand for any card: still no second ace.
    assert_invalid(judge("pay-me-family", 5, "JK 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", ace="both"), "too_long")
    assert_invalid(
        judge("pay-me-family", 5, "JK=AH 2H 3H 4H 5H 6H 8H 9H 10H JH QH KH AH", ace="both"), "duplicate_in_run"
    )


def test_d14_a_run_has_at_most_thirteen_cards() -> None:
    verdict = judge("pay-me-family", 4, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", ace="both")
    assert_invalid(verdict, "too_long")
    assert verdict.reason is not None and "at most 13 cards" in verdict.reason and "never both" in verdict.reason


# --- every reading, and the readings the writing leaves open (for D13) ---------------------


def words(variant: str, number: int, meld: str, *, opened: bool = False, **options: object) -> list[str]:
    rules = rule_set(variant, options)
    listing = open_readings if opened else meld_readings
    return [reading.words for reading in listing(parse_meld(meld), rules, round_info(rules, number))]


def test_meld_readings_lists_every_legal_reading() -> None:
    assert words("pay-me", 5, "5H 6H JK") == ["5♥ 6♥ 7♥", "4♥ 5♥ 6♥"]
    assert words("pay-me", 5, "6H JK 5H") == ["5♥ 6♥ 7♥", "4♥ 5♥ 6♥"]
    assert words("pay-me", 5, "9C 10C JK 2D") == ["8♣ 9♣ 10♣ J♣"]
    assert words("pay-me", 5, "9C JK 2D QC") == []
    assert words("pay-me-family", 5, "QH KH JK", ace="both") == ["Q♥ K♥ A♥", "J♥ Q♥ K♥"]
    assert len(words("3-13", 5, "JK JK JK")) == 13 + 4 * 11  # every rank; every suit and span, 2-3-4 to Q-K-A


def test_open_readings_keep_what_the_writing_does_not_fix() -> None:
    # RULES.md D13: 5H JK 6H leaves the joker's end open; 5H 6H JK does not.
    assert words("pay-me", 5, "5H JK 6H", opened=True) == ["5♥ 6♥ 7♥", "4♥ 5♥ 6♥"]
    assert words("pay-me", 5, "5H 6H JK", opened=True) == ["5♥ 6♥ 7♥"]
    assert words("pay-me", 5, "JK 5H 6H", opened=True) == ["4♥ 5♥ 6♥"]
    assert words("pay-me", 5, "5H 6H JK=4H", opened=True) == ["4♥ 5♥ 6♥"]  # a role fixes it at once
    # A meld that is both a set and a run: the 3s, or 2-3-4 as written.
    assert words("3-13", 1, "2H 3H JK", opened=True) == ["3♠ 3♥ 3♦", "2♥ 3♥ 4♥"]
    # A meld of wild cards only stays open to every rank.
    assert len(words("3-13", 5, "JK JK JK", opened=True)) > 13
    assert words("pay-me", 5, "9C JK 2D QC", opened=True) == []


def test_open_readings_start_with_the_verdicts_reading() -> None:
    rules = rule_set("pay-me")
    info = round_info(rules, 5)
    for meld in ("5H 6H JK 2C", "5H JK 6H", "8H JK 8S", "10C JK 9C"):
        cards = parse_meld(meld)
        assert open_readings(cards, rules, info)[0] == check_meld(cards, rules, info).reading
