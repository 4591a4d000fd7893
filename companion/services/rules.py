"""The rules pages: a preset's rules with a game's (or the query's) options, and Play or Pay's rules.

Every fact comes from the engine; nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.bounds import whole_number
from companion.errors import InvalidInput
from companion.services import play_or_pay
from companion.services.contract import Fan, contract_fans
from companion.services.store import PRESETS, RUMMY_PRESETS, deck_words, engine_call, rules_for
from engine import play_or_pay as pop
from engine import pot as pots
from engine.contracts import buys_limit
from engine.penalties import penalty_rows
from engine.pool.rules_text import DECISIONS as POOL_DECISIONS
from engine.pool.rules_text import PoolDecision, RuleLine, rules_in_short
from engine.rules import Decision, DeckRow, Preset, RuleSet, rule_set
from engine.schedule import RoundInfo, round_info, schedule
from engine.scoring import EXACT_CUT_POINTS

__all__ = ["RUMMY_PRESETS", "has_contracts", "option_keys"]


@dataclass(frozen=True)
class RoundRow:
    number: int
    cards: int
    wild_words: str
    wild_tokens: tuple[str, ...]
    multiplier: int


@dataclass(frozen=True)
class OptionLine:
    key: str
    title: str
    effect: str
    choices: tuple[str, ...]
    value: str
    default: str
    query: str = ""  # the value as a query-string option (true, 10,11)
    kind: str = ""  # the option's kind: "bool", "choice", "rounds", "number" or "sizes" (for forms)

    @property
    def changed(self) -> bool:
        return self.value != self.default


@dataclass(frozen=True)
class DecisionLine:
    decision: Decision
    option: OptionLine | None
    text: str = ""  # the decision in words for this preset (its house rule's sentence only if it takes it)


@dataclass(frozen=True)
class PresetRules:
    """A preset's rules page, with a game's (or the query's) options applied; every fact from the engine."""

    preset: Preset
    rules: RuleSet
    deck_table: tuple[DeckRow, ...]
    players: int | None
    rounds: tuple[RoundRow, ...]
    penalty_round: int
    penalties: tuple[tuple[str, int], ...]
    decisions: tuple[DecisionLine, ...]
    options: tuple[OptionLine, ...]
    pot_lines: tuple[str, ...] = ()
    """The 3-13 pot in words (ante, second discards, knocks, the booby prize, the payout)."""

    @property
    def changed_options(self) -> tuple[OptionLine, ...]:
        return tuple(line for line in self.options if line.changed)

    @property
    def deck_words(self) -> str:
        return deck_words(self.preset)


def _query_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(str(item) for item in value) or "none"
    return str(value)


def option_lines(rules: RuleSet) -> tuple[OptionLine, ...]:
    """The house rules a game of the preset may set (the preset's own), with the values chosen, in words."""
    current = rules.options_json()
    defaults = rules.preset.defaults.as_json(rules.preset.option_keys)
    return tuple(
        OptionLine(
            spec.key,
            spec.title,
            spec.effect,
            spec.labels or spec.choices,
            spec.label(current[spec.key]),
            spec.label(defaults[spec.key]),
            _query_text(current[spec.key]),
            spec.kind,
        )
        for spec in rules.option_specs()
    )


def decision_lines(rules: RuleSet, lines: tuple[OptionLine, ...]) -> tuple[DecisionLine, ...]:
    """The decisions of a rule set, each with its house rule (if the preset takes it) and its text for the preset."""
    by_key = {line.key: line for line in lines}
    return tuple(
        DecisionLine(decision, by_key.get(decision.option or ""), decision.text_for(rules.preset))
        for decision in rules.decisions()
    )


def preset_rules(
    variant: str, options: Mapping[str, object] | None, round_text: object = None, players: int | None = None
) -> PresetRules:
    """The rules in short, the round table, the penalty table, the decisions and the options."""
    rules = rules_for(variant, dict(options or {}))
    rounds = schedule(rules)
    number = 1
    if isinstance(round_text, str) and round_text.strip():
        wanted = whole_number(round_text, 4) if round_text.strip().isdecimal() else None
        if wanted is None:
            raise InvalidInput(f'round must be a whole number, not "{round_text[:20]}"')
        number = wanted
    info = engine_call(round_info, rules, number)
    lines = option_lines(rules)
    return PresetRules(
        preset=rules.preset,
        rules=rules,
        deck_table=rules.preset.deck_table,
        players=players,
        rounds=tuple(
            RoundRow(item.number, item.cards, item.wild_words, item.wild_tokens, item.multiplier) for item in rounds
        ),
        penalty_round=number,
        penalties=tuple(penalty_rows(rules, info)),
        decisions=decision_lines(rules, lines),
        options=lines,
        pot_lines=pots.pot_rules() if rules.preset.money == "pot" else (),
    )


@dataclass(frozen=True)
class PlayOrPayRules:
    """The Play or Pay rules page, with a game's (or the query's) starting chips; every fact from the engine."""

    preset: Preset
    rules: tuple[pop.RuleLine, ...]
    deal: tuple[pop.DealRow, ...]
    chips_option: pop.ChipsOption
    chips: int
    players: int | None
    companion: tuple[pop.RuleLine, ...]

    @property
    def chips_changed(self) -> bool:
        return self.chips != self.chips_option.default


def play_or_pay_rules(chips: object = None, players: int | None = None) -> PlayOrPayRules:
    """The rules page of Play or Pay; `chips` is the starting stack (a number, or the query's text)."""
    stack = pop.DEFAULT_CHIPS
    if isinstance(chips, str):
        text = chips.strip()
        if text:
            number = whole_number(text, 6) if text.isascii() and text.isdecimal() else None
            stack = engine_call(pop.verify_chips, text[:20] if number is None else number)
    elif chips is not None:
        stack = engine_call(pop.verify_chips, chips)
    return PlayOrPayRules(
        preset=PRESETS[play_or_pay.PLAY_OR_PAY],
        rules=pop.RULES_IN_SHORT,
        deal=pop.deal_table(),
        chips_option=pop.CHIPS_OPTION,
        chips=stack,
        players=players,
        companion=pop.COMPANION_RULES,
    )


# ---------------------------------------------------------------- Contract Rummy: deals with contracts


@dataclass(frozen=True)
class ContractDeal:
    """One deal of a contract game: its cards, its contract in words and pictures."""

    number: int
    cards: int
    words: str
    kinds: tuple[str, ...]
    fans: tuple[Fan, ...]
    no_final_discard: bool


@dataclass(frozen=True)
class ContractRules:
    """The rules page of a preset played in deals with contracts (Contract Rummy), with a game's (or the
    query's) options applied; every fact from the engine."""

    preset: Preset
    rules: RuleSet
    deck_table: tuple[DeckRow, ...]
    players: int | None
    deals: tuple[ContractDeal, ...]
    wild_words: str
    set_length: int
    run_length: int
    buys: int
    joker_swap: bool
    exact_cut: bool
    exact_cut_points: int
    """What the exact cut adds to a deal's score (-50)."""
    penalties: tuple[tuple[str, int], ...]
    decisions: tuple[DecisionLine, ...]
    options: tuple[OptionLine, ...]

    @property
    def changed_options(self) -> tuple[OptionLine, ...]:
        return tuple(line for line in self.options if line.changed)

    def option(self, key: str) -> OptionLine:
        """One house rule of the page, by its key."""
        return next(line for line in self.options if line.key == key)

    @property
    def no_discard_deals(self) -> tuple[int, ...]:
        """The deals whose last card must be played, not discarded."""
        return tuple(deal.number for deal in self.deals if deal.no_final_discard)


SET_LENGTH = 3  # RULES.md 2: a set is three or more cards of one rank, in every preset


def has_contracts(variant: str) -> bool:
    """Whether a preset is played in deals with contracts (its own rules page and checker)."""
    preset = PRESETS.get(variant)
    return preset is not None and preset.has_contracts


def option_keys(variant: str) -> tuple[str, ...]:
    """The house rules a preset takes (the keys a query or a form may set)."""
    preset = PRESETS.get(variant)
    return preset.option_keys if preset is not None else ()


def contract_deal(info: RoundInfo, run_length: int) -> ContractDeal:
    kinds = tuple(kind.value for kind in info.contract)
    return ContractDeal(
        info.number,
        info.cards,
        info.contract_words,
        kinds,
        contract_fans(kinds, run_length, SET_LENGTH),
        info.no_final_discard,
    )


def contract_rules(variant: str, options: Mapping[str, object] | None, players: int | None = None) -> ContractRules:
    """Deals and contracts, melds, going down, lay-offs, buying, scoring, decisions and house rules."""
    rules = rules_for(variant, dict(options or {}))
    deals = schedule(rules)
    lines = option_lines(rules)
    run_length = rules.preset.min_run_length
    return ContractRules(
        preset=rules.preset,
        rules=rules,
        deck_table=rules.preset.deck_table,
        players=players,
        deals=tuple(contract_deal(info, run_length) for info in deals),
        wild_words=deals[0].wild_words,
        set_length=SET_LENGTH,
        run_length=run_length,
        buys=buys_limit(rules),
        joker_swap=rules.options.joker_swap,
        exact_cut=rules.options.exact_cut,
        exact_cut_points=EXACT_CUT_POINTS,
        penalties=tuple(penalty_rows(rules, deals[0])),
        decisions=decision_lines(rules, lines),
        options=lines,
    )


# ---------------------------------------------------------------- pool rummy: deals, a knock-out and a pot

POOL_DECISION_OPTIONS: dict[str, tuple[str, ...]] = {
    "D-PR1": ("jokers_per_deck",),
    "D-PR2": ("cut_joker",),
    "D-PR3": ("printed_joker_cut",),
    "D-PR5": ("long_sets",),
    "D-PR7": ("wild_limit",),
    "D-PR9": ("full_count",),
    "D-PR10": ("first_drop", "middle_drop"),
    "D-PR11": ("wrong_show",),
    "D-PR12": ("eliminated_at", "pool_limit"),
    "D-PR13": ("rejoin_cutoff", "max_rejoins"),
    "D-PR15": ("split",),
    "D-PR17": ("max_drops",),
}
"""The house rules (RULES.md 11.5) a table may set against each decision, shown under its heading."""


@dataclass(frozen=True)
class PoolDecisionLine:
    decision: PoolDecision
    options: tuple[OptionLine, ...]


@dataclass(frozen=True)
class PoolRules:
    """The rules page of pool rummy 101 or 201, with a game's (or the query's) house rules applied;
    the rules in words come from engine.pool.rules_text."""

    preset: Preset
    rules: RuleSet
    players: int | None
    lines: tuple[RuleLine, ...]
    decisions: tuple[PoolDecisionLine, ...]
    options: tuple[OptionLine, ...]
    buy_in: int | None = None
    """A game's buy-in (cents); None on the preset's page."""

    @property
    def changed_options(self) -> tuple[OptionLine, ...]:
        return tuple(line for line in self.options if line.changed)


def is_pool(variant: object) -> bool:
    preset = PRESETS.get(variant) if isinstance(variant, str) else None
    return preset is not None and preset.kind == "pool"


def pool_rules(
    variant: str, options: Mapping[str, object] | None, players: int | None = None, buy_in: int | None = None
) -> PoolRules:
    """The rules in short, the decisions (each with its house rules) and the house rules of a pool preset."""
    rules: RuleSet = engine_call(rule_set, variant, dict(options or {}))
    lines = option_lines(rules)
    by_key = {line.key: line for line in lines}
    decisions = tuple(
        PoolDecisionLine(decision, tuple(by_key[key] for key in POOL_DECISION_OPTIONS.get(decision.id, ())))
        for decision in POOL_DECISIONS
    )
    return PoolRules(rules.preset, rules, players, rules_in_short(rules), decisions, lines, buy_in)
