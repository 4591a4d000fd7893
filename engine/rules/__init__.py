"""Presets, house-rule options and decisions, as frozen data in registries (RULES.md 3-4).

>>> rules = rule_set("pay-me", {"full_cycle": "true"})
>>> rules.options.full_cycle, rules.preset.name
(True, 'Pay Me')
>>> rule_set("pay-me", {"full_cycel": True})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.OptionError: unknown option "full_cycel"; options are: full_cycle, distinct_suit_sets, ...

The package, by job: `options` (the house-rule options and reading them), `presets` (the presets
as data, with their deals and deck tables), `decisions` (RULES.md section 4 in words) and
`rule_sets` (`RuleSet`, `rule_set`: a preset with one game's options). Every public name is
re-exported here: import them from `engine.rules`.
"""

from __future__ import annotations

from engine.rules.decisions import (
    DECISIONS,
    Decision,
)
from engine.rules.options import (
    ALL_OPTION_SPECS,
    CONTRACT_OPTION_KEYS,
    CONTRACT_OPTION_SPECS,
    DEFAULT_DOUBLE_ROUNDS,
    FIVE_CROWNS_OPTION_KEYS,
    LAST_TWO_DEALS,
    OPTION_KEYS,
    OPTION_SPECS,
    RUMMY_OPTION_KEYS,
    AceRule,
    LastTwoDeals,
    Options,
    OptionSpec,
    PenaltyTable,
    WildLimit,
    parse_set_arguments,
)
from engine.rules.presets import (
    PRESETS,
    RUMMY_PRESETS,
    Deal,
    DeckRow,
    HandScoring,
    LayOffScope,
    MeldKind,
    Preset,
    can_seat,
    get_preset,
    verify_player_count,
)
from engine.rules.rule_sets import (
    RuleSet,
    parse_options,
    rule_set,
)

__all__ = [
    "ALL_OPTION_SPECS",
    "CONTRACT_OPTION_KEYS",
    "CONTRACT_OPTION_SPECS",
    "DECISIONS",
    "DEFAULT_DOUBLE_ROUNDS",
    "FIVE_CROWNS_OPTION_KEYS",
    "LAST_TWO_DEALS",
    "OPTION_KEYS",
    "OPTION_SPECS",
    "PRESETS",
    "RUMMY_OPTION_KEYS",
    "RUMMY_PRESETS",
    "AceRule",
    "Deal",
    "Decision",
    "DeckRow",
    "HandScoring",
    "LastTwoDeals",
    "LayOffScope",
    "MeldKind",
    "OptionSpec",
    "Options",
    "PenaltyTable",
    "Preset",
    "RuleSet",
    "WildLimit",
    "can_seat",
    "get_preset",
    "parse_options",
    "parse_set_arguments",
    "rule_set",
    "verify_player_count",
]
