"""A rule set: a preset with the house-rule options one game plays by, read and checked (`rule_set`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import OptionError
from engine.rules.decisions import DECISIONS, Decision, decision_order
from engine.rules.options import (
    ALL_OPTION_SPECS,
    DEFAULT_DOUBLE_ROUNDS,
    LAST_TWO_DEALS,
    OPTION_SPECS,
    LastTwoDeals,
    Options,
    OptionSpec,
)
from engine.rules.presets import Deal, LayOffScope, Preset, get_preset

_LAY_OFF_DECISIONS = ("D5", "D6", "D11", "D13", "D19")


_FULL_CYCLE_DECISIONS = ("D2", "D12")


@dataclass(frozen=True)
class RuleSet:
    """A preset with the options one game plays by."""

    preset: Preset
    options: Options

    @property
    def rounds(self) -> int:
        return len(self.deals)

    @property
    def deals(self) -> tuple[Deal, ...]:
        """The deals this game plays: the preset's, or its full cycle, with the cards dealt the
        options set where the preset takes them."""
        deals = _deals_of(self.preset, self.options.full_cycle)
        if "deal_sizes" in self.preset.option_keys:
            deals = tuple(
                replace(deal, cards=cards) for deal, cards in zip(deals, self.options.deal_sizes, strict=True)
            )
        return deals

    def option_specs(self) -> tuple[OptionSpec, ...]:
        """The house-rule options a game of this preset may set, in order.

        >>> [spec.key for spec in rule_set("contract-rummy").option_specs()][:3]
        ['deal_sizes', 'twos_wild', 'joker_swap']
        """
        return tuple(ALL_OPTION_SPECS[key] for key in self.preset.option_keys)

    def options_json(self) -> dict[str, Any]:
        """The preset's own options as JSON values, to store with a game and read back with rule_set.

        >>> rule_set("contract-rummy", {"deal_sizes": "11"}).options_json()["deal_sizes"]
        [11, 11, 11, 11, 11, 11, 11]
        """
        return self.options.as_json(self.preset.option_keys)

    def decisions(self) -> tuple[Decision, ...]:
        """The decisions that apply to this rule set, for the rules pages, in order.

        The preset's own, plus the full cycle's when it is on and the lay-offs' when they are allowed;
        without lay-offs or with no aces in runs, the decisions about them are left out.

        >>> [decision.id for decision in rule_set("three-thirteen", {"lay_offs": "true"}).decisions()]
        ['D1', 'D5', 'D6', 'D7', 'D8', 'D9', 'D10', 'D11', 'D13', 'D14', 'D15', 'D16', 'D19', 'D21']
        """
        ids = set(self.preset.decisions)
        if self.preset.kind == "rummy":
            if self.options.full_cycle:
                ids.update(_FULL_CYCLE_DECISIONS)
            if not self.options.lay_offs:
                ids.difference_update(_LAY_OFF_DECISIONS)
            elif self.preset.lay_off_scope is LayOffScope.DECLARER:  # D5, D6 and D11 speak of the declarer's melds
                ids.update(_LAY_OFF_DECISIONS)
            if self.options.no_aces_in_runs:
                ids.discard("D14")
        return tuple(DECISIONS[decision] for decision in sorted(ids, key=decision_order))


def parse_options(overrides: Mapping[str, object], preset: Preset | None = None) -> dict[str, Any]:
    """Validate option overrides; raise OptionError naming an unknown key, an option the preset
    does not take, or a bad value.

    >>> from engine.rules import PRESETS
    >>> parse_options({"full_cycle": "yes"}, PRESETS["contract-rummy"])
    Traceback (most recent call last):
    ...
    engine.errors.OptionError: Contract Rummy has no house rule "Full cycle"
    """
    keys = preset.option_keys if preset is not None else tuple(ALL_OPTION_SPECS)
    parsed = {}
    for key, value in overrides.items():
        spec = ALL_OPTION_SPECS.get(str(key).strip())
        if spec is None:
            raise OptionError(f'unknown option "{key}"; options are: {", ".join(keys)}')
        if spec.key not in keys:
            assert preset is not None
            raise OptionError(f'{preset.name} has no house rule "{spec.title}"')
        parsed[spec.key] = spec.parse(value)
    return parsed


def rule_set(variant: str, overrides: Mapping[str, object] | None = None) -> RuleSet:
    """The rule set for a preset id with validated house-rule overrides.

    Doubled rounds given as true, or left at the 3-13 default, are the last two deals actually
    played (D15); rounds a table names stay as named.

    >>> sorted(rule_set("3-13", {"full_cycle": True}).options.double_rounds)
    [22, 23]
    >>> sorted(rule_set("3-13", {"full_cycle": True, "double_rounds": "10,11"}).options.double_rounds)
    [10, 11]
    """
    preset = get_preset(variant)
    parsed = parse_options(overrides or {}, preset)
    full_cycle = parsed.get("full_cycle", preset.defaults.full_cycle)
    rounds = len(_deals_of(preset, full_cycle))
    doubled = parsed.get("double_rounds", _preset_double_rounds(preset))
    if doubled is LAST_TWO_DEALS:
        parsed["double_rounds"] = frozenset({rounds - 1, rounds})
    if "deal_sizes" in parsed:
        parsed["deal_sizes"] = _sizes_for(parsed["deal_sizes"], rounds, overrides or {})
    options = replace(preset.defaults, **parsed)
    _verify_rounds_exist(options, rounds)
    return RuleSet(preset, options)


def _deals_of(preset: Preset, full_cycle: bool) -> tuple[Deal, ...]:
    return preset.full_cycle_deals if full_cycle and preset.full_cycle_deals else preset.deals


def _sizes_for(sizes: tuple[int, ...], rounds: int, overrides: Mapping[str, object]) -> tuple[int, ...]:
    """One number for every deal, or one per deal."""
    if len(sizes) == 1:
        return sizes * rounds
    if len(sizes) != rounds:
        given = overrides.get("deal_sizes", sizes)
        shown = ",".join(str(item) for item in given) if isinstance(given, list | tuple) else given
        raise OptionError(
            f'{ALL_OPTION_SPECS["deal_sizes"].title}: one number for every deal or {rounds} numbers, not "{shown}"'
        )
    return sizes


def _preset_double_rounds(preset: Preset) -> frozenset[int] | LastTwoDeals:
    """A preset's doubled rounds; the 3-13 default is the last two deals, however many are played."""
    default = preset.defaults.double_rounds
    return LAST_TWO_DEALS if default == DEFAULT_DOUBLE_ROUNDS else default


def _verify_rounds_exist(options: Options, rounds: int) -> None:
    beyond = sorted(number for number in options.double_rounds if number > rounds)
    if beyond:
        title = OPTION_SPECS["double_rounds"].title
        raise OptionError(f"{title}: round {beyond[0]} is beyond the game's {rounds} rounds")
