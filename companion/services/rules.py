"""The rules pages: a preset's rules with a game's (or the query's) options, and Play or Pay's rules.

Every fact comes from the engine; nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import InvalidInput
from companion.services import play_or_pay
from companion.services.store import PRESETS, RUMMY_PRESETS, engine_call, rules_for
from engine import play_or_pay as pop
from engine import pot as pots
from engine.penalties import penalty_rows
from engine.rules import Decision, DeckRow, Preset, RuleSet
from engine.schedule import round_info, schedule

__all__ = ["RUMMY_PRESETS"]


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

    @property
    def changed(self) -> bool:
        return self.value != self.default


@dataclass(frozen=True)
class DecisionLine:
    decision: Decision
    option: OptionLine | None


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


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value) if value else "none"
    return str(value)


def _query_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(str(item) for item in value) or "none"
    return str(value)


def preset_rules(
    variant: str, options: Mapping[str, object] | None, round_text: object = None, players: int | None = None
) -> PresetRules:
    """The rules in short, the round table, the penalty table, the decisions and the options."""
    rules = rules_for(variant, dict(options or {}))
    rounds = schedule(rules)
    number = 1
    if isinstance(round_text, str) and round_text.strip():
        if not round_text.strip().isdecimal():
            raise InvalidInput(f'round must be a whole number, not "{round_text[:20]}"')
        number = int(round_text)
    info = engine_call(round_info, rules, number)
    current = rules.options_json()
    defaults = rules.preset.defaults.as_json(rules.preset.option_keys)
    lines = tuple(
        OptionLine(
            key,
            spec.title,
            spec.effect,
            spec.choices,
            _value_text(current[key]),
            _value_text(defaults[key]),
            _query_text(current[key]),
        )
        for key, spec in ((spec.key, spec) for spec in rules.option_specs())
    )
    by_key = {line.key: line for line in lines}
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
        decisions=tuple(
            DecisionLine(decision, by_key.get(decision.option) if decision.option else None)
            for decision in rules.decisions()
        ),
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
            stack = engine_call(pop.verify_chips, int(text) if text.isascii() and text.isdecimal() else text[:20])
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
