"""Presets, house-rule options and decisions as data (RULES.md sections 3 and 4)."""

from __future__ import annotations

import re

import pytest

from engine.errors import OptionError, PlayerCountError, VariantError
from engine.rules import (
    DECISIONS,
    OPTION_SPECS,
    POOL_PRESETS,
    PRESETS,
    RUMMY_PRESETS,
    AceRule,
    PenaltyTable,
    WildLimit,
    get_preset,
    parse_set_arguments,
    rule_set,
)

OPTION_KEYS_IN_SPEC = [
    "full_cycle",
    "distinct_suit_sets",
    "no_aces_in_runs",
    "ace",
    "wild_limit",
    "no_adjacent_wilds",
    "wild_in_place_natural",
    "lay_offs",
    "discard_to_go_out",
    "penalty_table",
    "double_rounds",
]


def test_registry_holds_every_preset() -> None:
    assert set(PRESETS) == {
        *("pay-me", "pay-me-family", "three-thirteen", "3-13", "play-or-pay", "contract-rummy", "five-crowns"),
        *("pool-101", "pool-201"),
    }
    assert set(RUMMY_PRESETS) == {"pay-me", "pay-me-family", "three-thirteen", "3-13", "contract-rummy", "five-crowns"}
    assert set(POOL_PRESETS) == {"pool-101", "pool-201"}
    for preset_id, preset in POOL_PRESETS.items():
        assert preset.id == preset_id and preset.kind == "pool"
        assert get_preset(preset_id) is preset
    for preset_id, preset in PRESETS.items():
        assert preset.id == preset_id
        assert get_preset(preset_id) is preset


@pytest.mark.parametrize(
    ("preset_id", "seed"),
    [
        ("pay-me", "000_846ffe8787e014f0.txt"),
        ("pay-me-family", "001_e66f4e8c7e0f68e1.txt"),
        ("three-thirteen", "002_b0494917e5d528f7.txt"),
        ("3-13", "003_564429eeed7c9619.txt"),
        ("play-or-pay", "004_86746446384aefff.txt"),
    ],
)
def test_each_preset_names_its_seed(preset_id: str, seed: str) -> None:
    assert PRESETS[preset_id].seed == seed


@pytest.mark.parametrize(
    ("preset_id", "low", "high"),
    [("pay-me", 2, 8), ("pay-me-family", 2, 6), ("three-thirteen", 2, 4), ("3-13", 2, 9), ("play-or-pay", 3, 10)],
)
def test_player_limits(preset_id: str, low: int, high: int) -> None:
    preset = PRESETS[preset_id]
    assert (preset.min_players, preset.max_players) == (low, high)


@pytest.mark.parametrize(
    ("preset_id", "jokers", "twos", "round_rank"),
    [
        ("pay-me", True, True, True),
        ("pay-me-family", True, False, True),  # D3
        ("three-thirteen", False, False, True),
        ("3-13", True, True, False),
    ],
)
def test_wild_cards_per_preset(preset_id: str, jokers: bool, twos: bool, round_rank: bool) -> None:
    preset = PRESETS[preset_id]
    assert (preset.wild_jokers, preset.wild_twos, preset.wild_round_rank) == (jokers, twos, round_rank)


def test_pay_me_defaults() -> None:
    options = rule_set("pay-me").options
    assert options.full_cycle is False
    assert options.distinct_suit_sets is False
    assert options.no_aces_in_runs is False
    assert options.ace is AceRule.LOW
    assert options.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS
    assert options.no_adjacent_wilds is True
    assert options.wild_in_place_natural is False
    assert options.lay_offs is True
    assert options.discard_to_go_out is False
    assert options.penalty_table is PenaltyTable.PAY_ME
    assert options.double_rounds == frozenset()


def test_pay_me_family_defaults() -> None:
    options = rule_set("pay-me-family").options
    assert options.ace is AceRule.LOW
    assert options.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS
    assert options.no_adjacent_wilds is True
    assert options.lay_offs is True
    assert options.discard_to_go_out is False
    assert options.penalty_table is PenaltyTable.PAY_ME_FAMILY
    assert options.distinct_suit_sets is False  # the aunt's variant is not the default (seed 001 Q&A)
    assert options.no_aces_in_runs is False  # "Not in this version of the game" (seed 001 Q&A)


def test_three_thirteen_defaults() -> None:
    options = rule_set("three-thirteen").options
    assert options.ace is AceRule.LOW
    assert options.wild_limit is WildLimit.NONE
    assert options.no_adjacent_wilds is False
    assert options.lay_offs is False
    assert options.discard_to_go_out is True
    assert options.penalty_table is PenaltyTable.THREE_THIRTEEN
    assert options.double_rounds == frozenset()


def test_three_13_defaults() -> None:
    options = rule_set("3-13").options
    assert options.ace is AceRule.HIGH
    assert options.wild_limit is WildLimit.NONE
    assert options.no_adjacent_wilds is False
    assert options.lay_offs is True
    assert options.discard_to_go_out is True
    assert options.penalty_table is PenaltyTable.THREE_13
    assert options.double_rounds == frozenset({10, 11})


def test_every_option_of_the_spec_exists() -> None:
    assert list(OPTION_SPECS) == OPTION_KEYS_IN_SPEC
    assert list(rule_set("pay-me").options.as_json()) == OPTION_KEYS_IN_SPEC


def test_option_choices() -> None:
    assert OPTION_SPECS["ace"].choices == ("low", "high", "both")
    assert OPTION_SPECS["wild_limit"].choices == ("none", "not_more_than_naturals")
    assert set(OPTION_SPECS["penalty_table"].choices) == {"pay-me", "pay-me-family", "three-thirteen", "3-13"}


def test_overrides_replace_defaults_and_keep_the_rest() -> None:
    rules = rule_set(
        "pay-me",
        {
            "full_cycle": "true",
            "distinct_suit_sets": "yes",
            "no_aces_in_runs": "on",
            "ace": "BOTH",
            "wild_limit": "none",
            "no_adjacent_wilds": "false",
            "wild_in_place_natural": "1",
            "lay_offs": "no",
            "discard_to_go_out": True,
            "penalty_table": "3-13",
            "double_rounds": "10,11",
        },
    )
    options = rules.options
    assert options.full_cycle and options.distinct_suit_sets and options.no_aces_in_runs
    assert options.ace is AceRule.BOTH
    assert options.wild_limit is WildLimit.NONE
    assert options.no_adjacent_wilds is False
    assert options.wild_in_place_natural is True
    assert options.lay_offs is False
    assert options.discard_to_go_out is True
    assert options.penalty_table is PenaltyTable.THREE_13
    assert options.double_rounds == frozenset({10, 11})
    assert rules.preset is PRESETS["pay-me"]
    # the preset's own defaults are untouched
    assert rule_set("pay-me").options.ace is AceRule.LOW


@pytest.mark.parametrize(
    ("value", "rounds"),
    [
        ("true", {10, 11}),
        (True, {10, 11}),
        ("false", set()),
        ("none", set()),
        ("", set()),
        ("9", {9}),
        ("3, 7 9", {3, 7, 9}),
        ([1, 2], {1, 2}),
    ],
)
def test_double_rounds_values(value: object, rounds: set[int]) -> None:
    assert rule_set("pay-me", {"double_rounds": value}).options.double_rounds == frozenset(rounds)


def test_unknown_variant_names_it() -> None:
    with pytest.raises(VariantError, match='unknown variant "gin-rummy"'):
        rule_set("gin-rummy")


def test_unknown_option_names_it() -> None:
    with pytest.raises(OptionError, match='unknown option "full_cycel"'):
        rule_set("pay-me", {"full_cycel": "true"})


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"full_cycle": "maybe"}, 'Full cycle: on or off, not "maybe"'),
        ({"distinct_suit_sets": 2}, 'Sets need different suits: on or off, not "2"'),
        ({"ace": "sideways"}, 'Ace in runs: low, high or both, not "sideways"'),
        ({"double_rounds": "10,x"}, 'Doubled rounds: round numbers such as 10, 11, not "10,x"'),
        ({"double_rounds": [12]}, "Doubled rounds: round 12 is beyond the game's 11 rounds"),
        ({"double_rounds": [24], "full_cycle": True}, "Doubled rounds: round 24 is beyond the game's 23 rounds"),
    ],
)
def test_a_bad_option_value_is_named_in_words_and_quoted(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError) as refused:
        rule_set("3-13", overrides)
    assert str(refused.value) == message


@pytest.mark.parametrize("key", list(OPTION_SPECS))
def test_no_bad_option_value_message_quotes_the_options_key(key: str) -> None:
    """A web form can reach these messages: they name the option by its title, never by its key."""
    with pytest.raises(OptionError) as refused:
        OPTION_SPECS[key].parse("nonsense")
    title, message = OPTION_SPECS[key].title, str(refused.value)
    assert message.startswith(title + ": ")
    assert key not in message.removeprefix(title)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("full_cycle", "maybe"),
        ("ace", "middle"),
        ("wild_limit", "two"),
        ("penalty_table", "bridge"),
        ("double_rounds", "ten"),
        ("double_rounds", "0,5"),
        ("no_adjacent_wilds", "2"),
    ],
)
def test_bad_option_value_names_option_and_value(key: str, value: str) -> None:
    with pytest.raises(OptionError) as caught:
        rule_set("pay-me", {key: value})
    assert str(caught.value).startswith(OPTION_SPECS[key].title + ": ")
    assert f'"{value}"' in str(caught.value)


def test_double_round_beyond_the_game() -> None:
    with pytest.raises(OptionError, match="round 12"):
        rule_set("pay-me", {"double_rounds": "12"})
    assert rule_set("pay-me", {"full_cycle": "true", "double_rounds": "23"}).options.double_rounds == {23}


def test_set_arguments() -> None:
    assert parse_set_arguments(["ace=both", " lay_offs = false "]) == {"ace": "both", "lay_offs": "false"}
    with pytest.raises(OptionError, match='"ace" is not KEY=VALUE'):
        parse_set_arguments(["ace"])
    with pytest.raises(OptionError):
        parse_set_arguments(["=low"])


def test_rule_set_rounds() -> None:
    assert rule_set("pay-me").rounds == 11
    assert rule_set("pay-me", {"full_cycle": "true"}).rounds == 23


@pytest.mark.parametrize("decision", ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9"])
def test_decision_texts_available(decision: str) -> None:
    entry = DECISIONS[decision]
    assert entry.id == decision
    assert entry.title
    assert len(entry.text) > 20


def test_decision_texts_say_what_rules_md_decides() -> None:
    assert "5♥ 5♠ 5♦" in DECISIONS["D1"].text
    assert DECISIONS["D1"].option == "wild_in_place_natural"
    assert "23" in DECISIONS["D2"].text and "22" in DECISIONS["D2"].text
    assert "Aces wild" in DECISIONS["D2"].text
    assert "Twos are natural" in DECISIONS["D3"].text
    assert "tier" in DECISIONS["D4"].text
    assert "replace a wild" in DECISIONS["D5"].text
    assert "4♥" in DECISIONS["D5"].text
    assert "turn order" in DECISIONS["D6"].title.lower() or "one after another" in DECISIONS["D6"].text
    assert "minimum" in DECISIONS["D7"].text
    assert "0" in DECISIONS["D8"].title
    assert "share the win" in DECISIONS["D9"].text


def test_presets_list_their_decisions() -> None:
    assert "D3" in PRESETS["pay-me-family"].decisions
    assert "D4" in PRESETS["pay-me-family"].decisions
    assert "D1" in PRESETS["pay-me"].decisions
    assert "D2" in PRESETS["pay-me"].decisions
    assert "D3" not in PRESETS["pay-me"].decisions


def test_rule_set_decisions_follow_options() -> None:
    three = [decision.id for decision in rule_set("three-thirteen").decisions()]
    assert "D5" not in three and "D6" not in three  # no lay-offs in Three Thirteen
    family = [decision.id for decision in rule_set("pay-me-family").decisions()]
    assert "D2" not in family
    cycled = [decision.id for decision in rule_set("pay-me-family", {"full_cycle": "true"}).decisions()]
    assert "D2" in cycled
    no_layoffs = [decision.id for decision in rule_set("pay-me", {"lay_offs": "false"}).decisions()]
    assert "D5" not in no_layoffs and "D6" not in no_layoffs


@pytest.mark.parametrize(
    ("preset_id", "players", "decks", "jokers"),
    [
        ("pay-me", 2, 1, 2),
        ("pay-me", 3, 2, 4),
        ("pay-me", 4, 2, 4),
        ("pay-me", 5, 3, 6),
        ("pay-me", 8, 3, 6),
        ("pay-me-family", 2, 1, 2),
        ("pay-me-family", 4, 1, 2),
        ("pay-me-family", 5, 2, 4),
        ("pay-me-family", 6, 2, 4),
        ("three-thirteen", 2, 1, 0),
        ("three-thirteen", 3, 2, 0),
        ("three-thirteen", 4, 2, 0),
        ("3-13", 2, 2, 4),
        ("3-13", 5, 2, 4),
        ("3-13", 6, 3, 6),
        ("3-13", 9, 3, 6),
    ],
)
def test_decks_and_jokers_per_player_count(preset_id: str, players: int, decks: int, jokers: int) -> None:
    row = PRESETS[preset_id].table_for(players)
    assert (row.decks, row.jokers) == (decks, jokers)


@pytest.mark.parametrize(
    ("preset_id", "players"),
    [("pay-me", 1), ("pay-me", 9), ("pay-me-family", 7), ("three-thirteen", 5), ("3-13", 10), ("3-13", 1)],
)
def test_player_count_outside_limits(preset_id: str, players: int) -> None:
    with pytest.raises(PlayerCountError, match=str(players)):
        PRESETS[preset_id].table_for(players)


@pytest.mark.parametrize(
    ("preset_id", "decks", "jokers"),
    [("pay-me", 3, 6), ("pay-me-family", 2, 4), ("three-thirteen", 2, 0), ("3-13", 3, 6)],
)
def test_largest_table(preset_id: str, decks: int, jokers: int) -> None:
    row = PRESETS[preset_id].largest_table
    assert (row.decks, row.jokers) == (decks, jokers)


@pytest.mark.parametrize("decision", [f"D{number}" for number in range(10, 18)])
def test_the_new_decisions_are_data_with_words(decision: str) -> None:
    entry = DECISIONS[decision]
    assert entry.id == decision and entry.title and len(entry.text) > 60
    assert entry.option is None or entry.option in OPTION_SPECS
    assert not re.search(r"\bD\d+\b", entry.text)  # the id is the heading's, not the text's
    assert not re.search(r"[a-z]+_[a-z_]+", entry.text)  # no option keys


def test_the_new_decision_texts_say_what_rules_md_decides() -> None:
    assert "JK=4♥ 5♥ 6♥ 2♣=7♥" in DECISIONS["D10"].text and "binding" in DECISIONS["D10"].text
    assert "as few cards as possible" in DECISIONS["D11"].text and "upper end" in DECISIONS["D11"].text
    assert "14-card round" in DECISIONS["D12"].text and "No aces in runs" in DECISIONS["D12"].text
    assert "Cy can no longer lay off 8♥" in DECISIONS["D13"].text and "fewest melds" in DECISIONS["D13"].text
    assert "A-2-…-K-A" in DECISIONS["D14"].text and "13 cards" in DECISIONS["D14"].text
    assert "22 and 23" in DECISIONS["D15"].text and "a joker left in hand scores 15" in DECISIONS["D15"].text
    assert "shuffled" in DECISIONS["D16"].text and "misdeal" in DECISIONS["D16"].text
    assert "minus the chips they bought" in DECISIONS["D17"].text and "zero" in DECISIONS["D17"].text


def ids(variant: str, options: dict[str, object] | None = None) -> list[str]:
    return [decision.id for decision in rule_set(variant, options).decisions()]


def test_every_rummy_preset_states_the_decisions_about_melds_aces_options_and_the_stock() -> None:
    for variant in ("pay-me", "pay-me-family", "three-thirteen", "3-13"):
        assert {"D10", "D14", "D15", "D16"} <= set(PRESETS[variant].decisions)
        assert "D17" not in PRESETS[variant].decisions
    assert PRESETS["play-or-pay"].decisions == ("D17",)
    assert ids("play-or-pay", None) == ["D17"]


def test_lay_off_decisions_follow_the_lay_offs() -> None:
    for variant in ("pay-me", "pay-me-family", "3-13"):
        assert {"D5", "D6", "D11", "D13"} <= set(ids(variant))
        assert not {"D5", "D6", "D11", "D13"} & set(ids(variant, {"lay_offs": "false"}))
    assert not {"D11", "D13"} & set(ids("three-thirteen"))
    assert {"D5", "D6", "D11", "D13"} <= set(ids("three-thirteen", {"lay_offs": "true"}))


def test_wild_aces_in_runs_show_with_the_full_cycle_only() -> None:
    assert "D12" in PRESETS["pay-me"].decisions  # the seed's Full Cycle variation, like D2
    assert "D12" not in ids("pay-me-family") and "D12" not in ids("3-13")
    assert {"D2", "D12"} <= set(ids("3-13", {"full_cycle": "true"}))


def test_one_ace_per_run_goes_when_aces_never_stand_in_runs() -> None:
    assert "D14" in ids("pay-me", {"ace": "both"})
    assert "D14" not in ids("pay-me", {"no_aces_in_runs": "true"})


def test_decisions_come_in_order_and_each_preset_page_shows_its_own() -> None:
    for variant in PRESETS:
        shown = ids(variant)
        # Section 4's decisions by number, then a game's own (D-FC1 …) by number.
        assert shown == sorted(shown, key=lambda decision: (decision[1] == "-", int(decision.lstrip("D-FC"))))
        assert set(PRESETS[variant].decisions) <= set(shown)


def test_option_words_name_no_decision_codes_and_no_option_keys() -> None:
    keys = "|".join(key for key in [*OPTION_SPECS, "not_more_than_naturals"] if "_" in key)
    for spec in OPTION_SPECS.values():
        for words in (spec.title, spec.effect, *spec.labels):
            assert not re.search(r"\bD\d+\b", words), words
            assert not re.search(rf"\b({keys})\b", words), words


@pytest.mark.parametrize("variant", list(PRESETS))
def test_preset_words_name_no_decision_codes(variant: str) -> None:
    preset = PRESETS[variant]
    for words in (
        preset.summary,
        preset.wild_text,
        preset.going_out_text,
        preset.after_going_out_text,
        preset.penalty_text,
        preset.discard_pile_text,
    ):
        assert not re.search(r"\bD\d+\b", words), words


def test_a_decision_mentions_its_house_rule_only_for_presets_that_take_it() -> None:
    d1 = DECISIONS["D1"]
    assert "Wild in its own place is natural" in d1.text_for(PRESETS["pay-me"])
    assert "Wild in its own place is natural" not in d1.text_for(PRESETS["contract-rummy"])
    assert d1.text_for(PRESETS["contract-rummy"]).endswith("not a legal meld.")
    for preset in PRESETS.values():
        for decision in DECISIONS.values():
            if decision.option_text:
                assert (decision.option_text in decision.text_for(preset)) == (decision.option in preset.option_keys)


def test_decision_texts_name_the_original_rules_in_words_not_by_seed_number() -> None:
    for decision in DECISIONS.values():
        assert "seed" not in f"{decision.text} {decision.option_text}".lower(), decision.id
