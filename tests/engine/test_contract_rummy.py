"""Contract Rummy (RULES.md section 9), rule by rule; every example of the section through the CLI."""

from __future__ import annotations

import re

import pytest

from engine.api import (
    best_json,
    contract_json,
    layoff_json,
    option_specs_json,
    schedule_json,
    table_layoff,
    variants_json,
)
from engine.cards import Card, parse_cards, parse_meld
from engine.contracts import (
    buys_limit,
    can_buy,
    can_go_down,
    can_lay_off_now,
    can_swap_joker,
    check_contract,
    verify_buy,
    verify_contract,
    verify_go_down,
    verify_joker_swap,
    verify_may_lay_off,
)
from engine.errors import BuyError, ContractError, IllegalLayoff, OptionError
from engine.layoffs import table_melds
from engine.melds import check_meld
from engine.penalties import hand_penalty, held_points
from engine.rules import (
    PRESETS,
    RUMMY_OPTION_KEYS,
    HandScoring,
    LayOffScope,
    MeldKind,
    Options,
    WildLimit,
    rule_set,
)
from engine.schedule import contract_words, round_info, schedule
from engine.scoring import EXACT_CUT_POINTS, ScoreError, with_exact_cut
from tests.engine.test_cli import fails, ok, run

CR = "contract-rummy"
RULES = rule_set(CR)


def exactly(message: str) -> str:
    """A pattern for pytest.raises that matches the whole message and nothing else."""
    return f"^{re.escape(message)}$"


def contract(number: int, *melds: str, options: dict[str, object] | None = None) -> tuple[bool, str | None]:
    rules = rule_set(CR, options)
    verdict = check_contract([parse_meld(meld) for meld in melds], rules, round_info(rules, number))
    return verdict.valid, verdict.reason


# --- the preset ------------------------------------------------------------------------


def test_preset_players_decks_and_money() -> None:
    preset = PRESETS[CR]
    assert (preset.name, preset.kind, preset.money) == ("Contract Rummy", "rummy", "none")
    assert (preset.min_players, preset.max_players) == (3, 8)
    assert [(row.decks, row.jokers) for row in (preset.table_for(3), preset.table_for(4))] == [(2, 4), (2, 4)]
    assert [(row.decks, row.jokers) for row in (preset.table_for(5), preset.table_for(8))] == [(3, 6), (3, 6)]
    with pytest.raises(Exception, match="3 to 8 players, not 2"):
        preset.table_for(2)


def test_preset_text_fields_are_filled_in_plain_words() -> None:
    preset = PRESETS[CR]
    for words in (
        preset.summary,
        preset.wild_text,
        preset.going_out_text,
        preset.after_going_out_text,
        preset.penalty_text,
        preset.discard_pile_text,
    ):
        assert words and "_" not in words


def test_preset_data_min_run_scope_and_scoring() -> None:
    preset = PRESETS[CR]
    assert preset.min_run_length == 4
    assert preset.lay_off_scope is LayOffScope.TABLE
    assert preset.hand_scoring is HandScoring.IN_FULL
    assert RULES.options.wild_limit is WildLimit.AT_LEAST_ONE_NATURAL
    assert not RULES.options.no_adjacent_wilds
    for variant in ("pay-me", "pay-me-family", "three-thirteen", "3-13"):
        assert PRESETS[variant].min_run_length == 3
        assert PRESETS[variant].lay_off_scope is LayOffScope.DECLARER
        assert PRESETS[variant].option_keys == RUMMY_OPTION_KEYS


SECTION_9_DEALS = [
    (1, 10, ["set", "set"], "two sets"),
    (2, 10, ["set", "run"], "one set and one run"),
    (3, 10, ["run", "run"], "two runs"),
    (4, 10, ["set", "set", "set"], "three sets"),
    (5, 12, ["set", "set", "run"], "two sets and one run"),
    (6, 12, ["set", "run", "run"], "one set and two runs"),
    (7, 12, ["run", "run", "run"], "three runs"),
]


def test_seven_deals_with_their_cards_contracts_and_words() -> None:
    rounds = schedule(RULES)
    assert len(rounds) == RULES.rounds == 7
    for info, (number, cards, kinds, words) in zip(rounds, SECTION_9_DEALS, strict=True):
        assert (info.number, info.cards, [kind.value for kind in info.contract]) == (number, cards, kinds)
        assert info.contract_words == words
        assert info.wild_tokens == ("JK",)
        assert info.round_rank is None
        assert info.multiplier == 1
        assert info.no_final_discard is (number == 7)


def test_cli_schedule_entries_carry_the_contract() -> None:
    entries = ok("schedule", "--variant", CR, "--players", "4")
    assert [entry["contract"] for entry in entries] == [kinds for _, _, kinds, _ in SECTION_9_DEALS]
    assert [entry["cards"] for entry in entries] == [10, 10, 10, 10, 12, 12, 12]
    assert {(entry["decks"], entry["jokers"]) for entry in entries} == {(2, 4)}


@pytest.mark.parametrize("variant", ["pay-me", "pay-me-family", "three-thirteen", "3-13"])
def test_other_presets_schedules_carry_no_contract(variant: str) -> None:
    for entry in schedule_json(variant, None, None):
        assert set(entry) == {"round", "cards", "wild", "multiplier", "max_points", "discard_pile"}
    assert all(not info.contract and not info.no_final_discard for info in schedule(rule_set(variant)))


def test_variants_json_gives_seven_rounds_and_its_own_options() -> None:
    entry = next(entry for entry in variants_json() if entry["id"] == CR)
    assert entry["rounds"] == 7
    assert list(entry["options"]) == [
        "deal_sizes",
        "twos_wild",
        "joker_swap",
        "ace_points",
        "joker_points",
        "buys_per_deal",
        "exact_cut",
    ]
    pay_me = next(entry for entry in variants_json() if entry["id"] == "pay-me")
    assert pay_me["rounds"] == 11 and list(pay_me["options"]) == list(RUMMY_OPTION_KEYS)


# --- melds: runs of 4, at least one natural, aces high or low, wilds side by side --------------


def meld(cards: str, options: dict[str, object] | None = None) -> tuple[bool, str | None, str | None]:
    rules = rule_set(CR, options)
    verdict = check_meld(parse_meld(cards), rules, round_info(rules, 1))
    return verdict.valid, verdict.code, verdict.kind.value if verdict.kind else None


def test_a_run_needs_four_cards() -> None:
    assert meld("5H 6H 7H") == (False, "too_short", None)
    assert meld("5H 6H 7H 8H") == (True, None, "run")
    assert meld("5H JK 7H") == (False, "too_short", None)
    assert meld("5H 6H JK 8H") == (True, None, "run")


def test_a_set_needs_three_cards_of_one_rank() -> None:
    assert meld("9C 9D 9C") == (True, None, "set")
    assert meld("9C 9D") == (False, "too_short", None)
    assert meld("9C 9D 8C")[0] is False


def test_any_number_of_wilds_but_one_natural() -> None:
    assert meld("JK JK JK") == (False, "no_natural", None)
    assert meld("JK JK JK JK") == (False, "no_natural", None)
    assert meld("9C JK JK JK") == (True, None, "set")
    assert meld("5H JK JK JK JK") == (True, None, "set")
    assert meld("4S JK JK 7S")[0] is True


def test_wilds_may_sit_side_by_side_in_a_run() -> None:
    rules = RULES
    verdict = check_meld(parse_meld("5H JK JK 8H"), rules, round_info(rules, 3))
    assert verdict.valid and verdict.kind is MeldKind.RUN
    assert [str(card) for card in verdict.read_as or ()] == ["5H", "6H", "7H", "8H"]


def test_twos_wild_adds_the_twos_and_a_meld_of_twos_and_jokers_has_no_natural() -> None:
    assert meld("2H 2S JK") == (True, None, "set")  # 2s are natural without the option
    assert meld("2H 2S JK", {"twos_wild": True}) == (False, "no_natural", None)
    assert meld("2H 2S 9C", {"twos_wild": True}) == (True, None, "set")
    assert round_info(rule_set(CR, {"twos_wild": True}), 4).wild_tokens == ("JK", "2")


def test_aces_high_or_low_never_both_never_wrapping() -> None:
    assert meld("AH 2H 3H 4H") == (True, None, "run")
    assert meld("JH QH KH AH") == (True, None, "run")
    assert meld("QH KH AH 2H") == (False, "wrap", None)
    assert meld("KH AH 2H 3H") == (False, "wrap", None)
    thirteen = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    assert meld(thirteen) == (True, None, "run")
    assert meld(thirteen + " AS")[0] is False


# --- contracts ------------------------------------------------------------------------

VALID_CONTRACTS = [
    (1, ["5H 5S 5D", "KC KD JK"]),
    (2, ["5H 5S 5D", "9C 10C JC QC"]),
    (3, ["5H 6H 7H 8H", "9S 10S JK QS"]),
    (4, ["5H 5S 5D", "KC KD JK", "2C 2D 2H"]),
    (5, ["5H 5S 5D", "KC KD JK", "AS 2S 3S 4S"]),
    (6, ["5H 5S 5D", "JH QH KH AH", "3C 4C 5C JK"]),
    (7, ["5H 6H 7H 8H", "9C 10C JC QC", "AS 2S 3S JK"]),
]

# One wrong answer for each deal, with the reason RULES.md section 9 asks for.
WRONG_CONTRACTS = [
    (1, ["5H 5S 5D"], "deal 1 needs two sets; this is one set"),
    (2, ["5H 5S 5D", "KC KD JK"], "deal 2 needs one set and one run; these are two sets"),
    (3, ["5H 6H 7H 8H"], "deal 3 needs two runs; this is one run"),
    (4, ["5H 5S 5D", "KC KD JK", "9C 10C JC QC"], "deal 4 needs three sets; these are two sets and one run"),
    (
        5,
        ["5H 5S 5D", "9C 10C JC QC", "AS 2S 3S 4S"],
        "deal 5 needs two sets and one run; these are one set and two runs",
    ),
    (6, ["5H 5S 5D", "KC KD JK", "AS 2S 3S 4S"], "deal 6 needs one set and two runs; these are two sets and one run"),
    (7, ["5H 6H 7H 8H", "9C 10C JC QC"], "deal 7 needs three runs; these are two runs"),
]


@pytest.mark.parametrize(("number", "melds"), VALID_CONTRACTS)
def test_each_deal_accepts_exactly_its_contract(number: int, melds: list[str]) -> None:
    assert contract(number, *melds) == (True, None)
    answer = ok("contract", "--variant", CR, "--round", str(number), *melds)
    assert answer["valid"] is True and answer["reason"] is None
    assert sorted(entry["kind"] for entry in answer["melds"]) == sorted(SECTION_9_DEALS[number - 1][2])


@pytest.mark.parametrize(("number", "melds", "reason"), WRONG_CONTRACTS)
def test_each_deal_refuses_other_melds_with_a_reason(number: int, melds: list[str], reason: str) -> None:
    assert contract(number, *melds) == (False, reason)
    answer = ok("contract", "--variant", CR, "--round", str(number), *melds)
    assert answer == {**answer, "valid": False, "reason": reason}
    assert set(answer) == {"valid", "reason", "melds"}


def test_no_extra_melds() -> None:
    assert contract(1, "5H 5S 5D", "KC KD JK", "9C 9D 9H") == (False, "deal 1 needs two sets; these are three sets")


def test_melds_may_be_longer_than_their_minimum() -> None:
    assert contract(3, "3H 4H 5H 6H 7H 8H 9H", "9S 10S JK QS KS AS") == (True, None)
    assert contract(1, "5H 5S 5D 5C JK", "KC KD JK") == (True, None)


def test_a_meld_that_makes_both_kinds_fills_what_the_contract_needs() -> None:
    # 5H JK JK JK is four 5s or a run of hearts: deal 3 reads it as a run, deal 1 as a set.
    assert contract(3, "5H JK JK JK", "9S 10S JK QS") == (True, None)
    assert contract(1, "5H JK JK JK", "9S 9C 9D") == (True, None)
    verdict = check_contract([parse_meld("5H JK JK JK"), parse_meld("9S 10S JK QS")], RULES, round_info(RULES, 3))
    assert [entry.kind for entry in verdict.melds] == [MeldKind.RUN, MeldKind.RUN]


def test_an_illegal_meld_is_named_in_the_reason() -> None:
    valid, reason = contract(3, "5H 6H 7H 8H", "9S 10S JS")
    assert not valid
    assert reason == "meld 2 is not a legal meld: 9S 10S JS: a run needs at least 4 cards in this game"


def test_deal_7_goes_down_and_out_with_no_discard() -> None:
    melds = [parse_meld(text) for text in VALID_CONTRACTS[6][1]]
    info = round_info(RULES, 7)
    assert can_go_down(melds, RULES, info, left_in_hand=0)
    assert not can_go_down(melds, RULES, info, left_in_hand=1)
    answer = ok("contract", "--variant", CR, "--round", "7", "--left", "2", *VALID_CONTRACTS[6][1])
    assert answer["reason"] == (
        "in deal 7 a player goes down and out at once, with no discard; 2 cards would be left in hand"
    )
    assert contract(6, *VALID_CONTRACTS[5][1]) == (True, None)  # earlier deals keep cards in hand
    six = [parse_meld(text) for text in VALID_CONTRACTS[5][1]]
    assert can_go_down(six, RULES, round_info(RULES, 6), left_in_hand=4)


def test_verify_contract_raises_the_reason_and_api_answers_like_the_cli() -> None:
    with pytest.raises(ContractError, match=exactly("deal 3 needs two runs; this is one run")):
        verify_contract([parse_meld("5H 6H 7H 8H")], RULES, round_info(RULES, 3))
    assert contract_json(CR, None, 3, ["5H 6H 7H 8H"]) == ok("contract", "--variant", CR, "--round", "3", "5H 6H 7H 8H")


def test_contract_bad_input_exits_2_with_one_line() -> None:
    assert (
        fails("contract", "--variant", CR, "--round", "3", "5H 6X 7H 8H") == 'error: "6X" at position 2 is not a card'
    )
    assert fails("contract", "--variant", CR, "--round", "8", "5H 6H 7H 8H").startswith("error: round 8 does not exist")
    assert fails("contract", "--variant", "pay-me", "--round", "3", "5H 6H 7H") == (
        "error: Pay Me has no contracts: round 3 has none"
    )
    assert "JK" in fails("contract", "--variant", CR, "--round", "1", "--players", "4", "JK JK JK 5H", "JK JK 9C")
    with pytest.raises(ContractError):
        check_contract([parse_meld("5H 5S 5D")], rule_set("pay-me"), round_info(rule_set("pay-me"), 1))


# --- options ----------------------------------------------------------------------------


def test_deal_sizes_one_number_or_seven() -> None:
    assert [info.cards for info in schedule(rule_set(CR, {"deal_sizes": "11"}))] == [11] * 7
    seven = "10,10,11,11,12,12,13"
    assert [info.cards for info in schedule(rule_set(CR, {"deal_sizes": seven}))] == [10, 10, 11, 11, 12, 12, 13]
    assert [info.cards for info in schedule(rule_set(CR, {"deal_sizes": [9] * 7}))] == [9] * 7
    assert [entry["cards"] for entry in ok("schedule", "--variant", CR, "--set", "deal_sizes=11")] == [11] * 7
    assert fails("schedule", "--variant", CR, "--set", "deal_sizes=11,12") == (
        'error: Cards dealt: one number for every deal or 7 numbers, not "11,12"'
    )
    with pytest.raises(OptionError, match="from 6 to 15"):
        rule_set(CR, {"deal_sizes": "40"})
    with pytest.raises(OptionError, match="Cards dealt"):
        rule_set(CR, {"deal_sizes": "ten"})


def test_options_defaults_and_json() -> None:
    assert RULES.options_json() == {
        "deal_sizes": [10, 10, 10, 10, 12, 12, 12],
        "twos_wild": False,
        "joker_swap": False,
        "ace_points": 15,
        "joker_points": 15,
        "buys_per_deal": 3,
        "exact_cut": False,
    }
    assert rule_set(CR, RULES.options_json()) == RULES  # stored options read back the same
    assert [spec.key for spec in RULES.option_specs()] == list(RULES.options_json())
    assert {spec.kind for spec in RULES.option_specs()} == {"sizes", "bool", "number"}
    pay_me = rule_set("pay-me")
    assert pay_me.options_json() == pay_me.options.as_json()


def test_options_a_preset_does_not_take_are_refused_in_words() -> None:
    with pytest.raises(OptionError, match=exactly('Contract Rummy has no house rule "Full cycle"')):
        rule_set(CR, {"full_cycle": True})
    with pytest.raises(OptionError, match=exactly('Pay Me has no house rule "Twos wild"')):
        rule_set("pay-me", {"twos_wild": True})
    assert (
        fails("schedule", "--variant", CR, "--set", "ace=both")
        == 'error: Contract Rummy has no house rule "Ace in runs"'
    )
    with pytest.raises(OptionError, match=re.escape('unknown option "nope"; options are: deal_sizes, twos_wild')):
        rule_set(CR, {"nope": 1})


def test_number_options_take_whole_numbers_in_range() -> None:
    assert rule_set(CR, {"ace_points": "1", "joker_points": 25, "buys_per_deal": "0"}).options.joker_points == 25
    for key, value in (("ace_points", "-1"), ("joker_points", "abc"), ("buys_per_deal", "21"), ("ace_points", True)):
        with pytest.raises(OptionError):
            rule_set(CR, {key: value})


def test_held_cards_count_in_full() -> None:
    hand = parse_cards("2H 10S JD QC KH AH JK 5C 5D 5S")
    assert hand_penalty(hand, RULES, round_info(RULES, 1)) == 2 + 10 + 10 + 10 + 10 + 15 + 15 + 15
    assert best_json(CR, 1, None, "5C 5D 5S JK") == {"penalty": 30, "melds": [], "unmelded": ["5C", "5D", "5S", "JK"]}
    assert ok("best", "--variant", CR, "--round", "7", "AH KS 2C") == {
        "penalty": 27,
        "melds": [],
        "unmelded": ["AH", "KS", "2C"],
    }


def test_ace_and_joker_points_and_wild_twos_score_their_face() -> None:
    options = Options(ace_points=20, joker_points=25)
    assert [held_points(Card.parse(text), options) for text in ("AH", "JK", "2D")] == [20, 25, 2]
    rules = rule_set(CR, {"ace_points": 20, "joker_points": 25, "twos_wild": True})
    assert hand_penalty(parse_cards("AH JK 2D"), rules, round_info(rules, 2)) == 47
    answer = ok("best", "--variant", CR, "--round", "1", "--set", "ace_points=1", "AH AS AD")
    assert answer["penalty"] == 3


def test_buys_per_deal() -> None:
    assert buys_limit(RULES) == 3
    assert [can_buy(RULES, used) for used in range(5)] == [True, True, True, False, False]
    with pytest.raises(BuyError, match=exactly("Ann has used all 3 buys this deal")):
        verify_buy(RULES, 3, "Ann")
    verify_buy(RULES, 2, "Ann")
    one = rule_set(CR, {"buys_per_deal": 1})
    with pytest.raises(BuyError, match=exactly("Bob has used the one buy of this deal")):
        verify_buy(one, 1, "Bob")
    none = rule_set(CR, {"buys_per_deal": 0})
    assert buys_limit(none) == 0 and not can_buy(none, 0)
    assert buys_limit(rule_set("3-13")) == 0
    with pytest.raises(BuyError):
        verify_buy(RULES, -1, "Ann")


def test_exact_cut_scores_minus_50() -> None:
    rules = rule_set(CR, {"exact_cut": True})
    assert EXACT_CUT_POINTS == -50
    assert with_exact_cut({"Ann": 0, "Bob": 30}, "Ann", rules) == {"Ann": -50, "Bob": 30}
    assert with_exact_cut({"Ann": 0, "Bob": 30}, None, RULES) == {"Ann": 0, "Bob": 30}
    with pytest.raises(ScoreError, match="without the exact cut"):
        with_exact_cut({"Ann": 0}, "Ann", RULES)
    with pytest.raises(ScoreError, match='"Zed" is not a player'):
        with_exact_cut({"Ann": 0}, "Zed", rules)


# --- lay-offs onto any meld on the table, joker swap ---------------------------------------------


def test_lay_off_onto_any_meld_on_the_table() -> None:
    answer = ok(
        "layoff", "--variant", CR, "--round", "2", "--meld", "5S 5D 5C", "--meld", "9H 10H JH QH", "--onto", "2", "KH"
    )
    assert answer["valid"] is True
    assert answer["table"] == [["5S", "5D", "5C"], ["9H", "10H", "JH", "QH", "KH"]]
    assert answer["placements"] == [{"card": "KH", "meld": 2, "place": "high", "as": "KH"}]
    assert answer["swap"] is None
    assert "declarer" not in answer
    same = layoff_json(CR, 2, None, (), 2, "KH", table=["5S 5D 5C", "9H 10H JH QH"])
    assert same == answer


def test_table_lay_off_bad_meld_number_and_other_presets_refuse_table_melds() -> None:
    missing = ok("layoff", "--variant", CR, "--round", "2", "--meld", "5S 5D 5C", "--onto", "3", "5H")
    assert (missing["valid"], missing["code"]) == (False, "not_on_table")
    assert missing["reason"] == "There is no meld 3 on the table; it holds 1 meld."
    loose = fails("layoff", "--variant", CR, "--round", "2", "--declarer-hand", "5S 5D 5C", "--onto", "1", "5H")
    assert loose == "error: in Contract Rummy give each meld on the table, not a player's cards"
    assert fails("layoff", "--variant", "pay-me", "--round", "3", "--meld", "5S 5D 5C", "--onto", "1", "5H") == (
        "error: in Pay Me cards are laid off only onto the melds of the player who went out"
    )


def test_a_laid_off_card_may_not_replace_a_joker() -> None:
    args = ("layoff", "--variant", CR, "--round", "2", "--meld", "5S 5D 5C", "--meld", "5H JK 7H 8H", "--onto", "2")
    answer = ok(*args, "6H")
    assert (answer["valid"], answer["code"]) == (False, "replaces_wild")
    assert "may not replace a wild card" in answer["reason"]


def test_joker_swap_takes_the_joker_back() -> None:
    args = ("layoff", "--variant", CR, "--round", "2", "--set", "joker_swap=on", "--meld", "5H JK 7H 8H", "--onto", "1")
    answer = ok(*args, "6H")
    assert answer["valid"] is True
    assert answer["table"] == [["5H", "6H", "7H", "8H"]]
    assert answer["swap"] == {
        "card": "6H",
        "joker": "JK",
        "text": "6H takes the place of JK, and JK goes back to the player's hand",
    }
    assert ok(*args, "4H")["swap"] is None  # an ordinary lay-off at the low end
    assert ok(*args, "6S")["valid"] is False


def test_joker_swap_needs_the_option_a_run_and_the_card_the_joker_stands_for() -> None:
    rules = rule_set(CR, {"joker_swap": True})
    info = round_info(rules, 2)
    (run,) = table_melds(["5H JK 7H 8H"], rules, info)
    (group,) = table_melds(["5S 5D JK"], rules, info)
    assert can_swap_joker(run, parse_meld("6H"), rules, info)
    assert not can_swap_joker(run, parse_meld("6S"), rules, info)
    assert not can_swap_joker(run, parse_meld("6H 4H"), rules, info)
    assert not can_swap_joker(group, parse_meld("5C"), rules, info)
    with pytest.raises(IllegalLayoff, match="without joker swaps"):
        verify_joker_swap(run, parse_meld("6H"), RULES, info)


def test_contract_words() -> None:
    assert contract_words(()) == "no contract"
    assert contract_words((MeldKind.RUN, MeldKind.SET, MeldKind.SET)) == "two sets and one run"


def test_option_labels_and_descriptions_are_in_words() -> None:
    specs = {spec.key: spec for spec in RULES.option_specs()}
    assert specs["deal_sizes"].label([11] * 7) == "11 cards every deal"
    assert specs["deal_sizes"].label([10, 10, 10, 10, 12, 12, 12]) == "10, 10, 10, 10, 12, 12, 12"
    assert specs["ace_points"].label(15) == "15"
    assert specs["twos_wild"].label(True) == "on"
    keys = "|".join(specs)
    for spec in specs.values():
        for words in (spec.title, spec.effect):
            assert not re.search(rf"\b({keys})\b", words), words
    described = option_specs_json(CR)
    assert [entry["key"] for entry in described] == list(specs)
    assert described[0] | {"minimum": 6, "maximum": 15} == described[0]


def test_cli_help_documents_the_contract_command_and_table_melds() -> None:
    done = run("layoff", "--help")
    assert "--meld MELD" in done.stdout and "any meld" in done.stdout
    assert "contract" in run("--help").stdout


def test_a_player_who_is_next_draws_the_discard_and_does_not_buy() -> None:
    assert can_buy(RULES, 0) and not can_buy(RULES, 0, next_to_play=True)
    with pytest.raises(BuyError, match=exactly("Bob plays next, so Bob draws the discard instead of buying it")):
        verify_buy(RULES, 0, "Bob", next_to_play=True)


def test_going_down_once_a_deal() -> None:
    verify_go_down(RULES, round_info(RULES, 1), "Ann", already_down=False)
    with pytest.raises(ContractError, match=exactly("Ann has already gone down this deal")):
        verify_go_down(RULES, round_info(RULES, 1), "Ann", already_down=True)
    with pytest.raises(ContractError, match="has no contracts"):
        verify_go_down(rule_set("pay-me"), round_info(rule_set("pay-me"), 1), "Ann", already_down=False)


def test_lay_offs_only_after_going_down_on_a_later_turn() -> None:
    assert can_lay_off_now(RULES, gone_down=True, went_down_this_turn=False)
    assert not can_lay_off_now(RULES, gone_down=False, went_down_this_turn=False)
    assert not can_lay_off_now(RULES, gone_down=True, went_down_this_turn=True)
    with pytest.raises(ContractError, match=exactly("Cy went down this turn; lay-offs start on Cy's next turn")):
        verify_may_lay_off(RULES, "Cy", gone_down=True, went_down_this_turn=True)
    assert not can_lay_off_now(rule_set("pay-me"), gone_down=True, went_down_this_turn=False)


@pytest.mark.parametrize(
    ("options", "table", "onto", "cards"),
    [
        ({"joker_swap": True}, ["5H JK 7H 8H"], 1, "6H"),  # a natural takes the joker back
        ({}, ["5H JK 7H 8H"], 1, "6H"),  # no joker swap: refused
        ({}, ["5H 6H 7H 8H", "9C 9D 9S"], 1, "4H JK"),  # laid at both ends
        ({}, ["5H 6H 7H 8H", "9C 9D 9S"], 2, "9H"),
        ({}, ["5H 6H 7H 8H"], 3, "9H"),  # no such meld
        ({}, ["JK 6H 7H 8H", "9C 9D 9S"], 2, "9D"),  # onto a set, beside a run with a joker
    ],
)
def test_table_layoff_is_layoff_json_typed(options: dict[str, object], table: list[str], onto: int, cards: str) -> None:
    """The typed verdict on a lay-off onto the table (what the disputes service reads) says what
    layoff_json writes out, field by field."""
    typed = table_layoff("contract-rummy", 2, options, onto, cards, None, table)
    assert typed.as_json() == layoff_json("contract-rummy", 2, options, [], onto, cards, None, None, table)
    assert typed.valid == (typed.reason is None)
    assert [str(meld) for meld in typed.melds] == [" ".join(meld.as_json()) for meld in typed.melds]


def test_table_layoff_refuses_a_game_that_lays_off_onto_the_declarer_alone() -> None:
    with pytest.raises(OptionError, match="laid off only onto the melds of the player who went out"):
        table_layoff("pay-me", 2, {}, 1, "6H", None, ["5H 6H 7H"])
