"""House-rule options (RULES.md 3): `Options`, the `OptionSpec` registries, and reading values typed in words."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from engine.errors import OptionError


class AceRule(Enum):
    """Where an ace may stand in a run."""

    LOW = "low"
    HIGH = "high"
    BOTH = "both"


class WildLimit(Enum):
    """How many wild cards a meld may hold."""

    NONE = "none"
    NOT_MORE_THAN_NATURALS = "not_more_than_naturals"
    AT_LEAST_ONE_NATURAL = "at_least_one_natural"  # any number of wilds, but never a meld of wilds only


class PenaltyTable(Enum):
    """The penalty tables, named after the preset that defines each."""

    PAY_ME = "pay-me"
    PAY_ME_FAMILY = "pay-me-family"
    THREE_THIRTEEN = "three-thirteen"
    THREE_13 = "3-13"
    CONTRACT_RUMMY = "contract-rummy"  # every card held counts in full; not a choice of penalty_table
    FIVE_CROWNS = "five-crowns"  # its own deck's table; not a choice of penalty_table


@dataclass(frozen=True)
class Options:
    """The house-rule options of a game; each preset has its own defaults."""

    full_cycle: bool = False
    distinct_suit_sets: bool = False
    no_aces_in_runs: bool = False
    ace: AceRule = AceRule.LOW
    wild_limit: WildLimit = WildLimit.NOT_MORE_THAN_NATURALS
    no_adjacent_wilds: bool = True
    wild_in_place_natural: bool = False
    lay_offs: bool = True
    discard_to_go_out: bool = False
    penalty_table: PenaltyTable = PenaltyTable.PAY_ME
    double_rounds: frozenset[int] = frozenset()
    deal_sizes: tuple[int, ...] = (10, 10, 10, 10, 12, 12, 12)
    twos_wild: bool = False
    joker_swap: bool = False
    ace_points: int = 15
    joker_points: int = 15
    buys_per_deal: int = 3
    exact_cut: bool = False

    def as_json(self, keys: Iterable[str] | None = None) -> dict[str, Any]:
        """The options as JSON values, in the order RULES.md lists them: by default the options of
        the four original rummy presets; ``RuleSet.options_json`` gives a preset's own."""
        chosen = OPTION_SPECS if keys is None else {key: ALL_OPTION_SPECS[key] for key in keys}
        return {spec.key: spec.to_json(getattr(self, spec.key)) for spec in chosen.values()}


@dataclass(frozen=True)
class OptionSpec:
    """What an option means, and how to read and write its values."""

    key: str
    kind: str  # "bool", "choice", "rounds", "number" or "sizes"
    title: str
    effect: str
    choices: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()  # a choice in words, for people, in the order of `choices`
    minimum: int | None = None  # "number" and "sizes": the smallest value allowed
    maximum: int | None = None  # "number" and "sizes": the largest value allowed

    def label(self, value: object) -> str:
        """A value of this option in words.

        >>> OPTION_SPECS["ace"].label("both")
        'Both: A-2-3 and Q-K-A, never K-A-2'
        >>> OPTION_SPECS["lay_offs"].label(False), OPTION_SPECS["double_rounds"].label([10, 11])
        ('off', 'rounds 10, 11')
        """
        if isinstance(value, bool):
            return "on" if value else "off"
        if self.kind == "sizes" and isinstance(value, (list, tuple)):
            return _sizes_label(value)
        if isinstance(value, (list, tuple)):
            return "rounds " + ", ".join(str(item) for item in value) if value else "none"
        text = getattr(value, "value", value)
        return dict(zip(self.choices, self.labels, strict=True)).get(str(text), str(text))

    def parse(self, value: object) -> Any:
        """Read a value given as JSON or as a ``--set KEY=VALUE`` string."""
        if self.kind == "bool":
            return _parse_bool(self.title, value)
        if self.kind == "rounds":
            return _parse_rounds(self.title, value)
        if self.kind == "number":
            return _parse_number(self, value)
        if self.kind == "sizes":
            return _parse_sizes(self, value)
        return _parse_choice(self, value)

    def to_json(self, value: Any) -> Any:
        if self.kind == "rounds":
            return sorted(value)
        if self.kind == "sizes":
            return list(value)
        if isinstance(value, Enum):
            return value.value
        return value


_TRUE = {"true", "yes", "on", "1"}


_FALSE = {"false", "no", "off", "0"}


def _parse_bool(title: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise OptionError(f'{title}: on or off, not "{value}"')


def _sizes_label(value: Sequence[object]) -> str:
    """Cards dealt in words: ``10 cards every deal`` or ``10, 10, 10, 10, 12, 12, 12``."""
    if len(set(value)) == 1:
        return f"{value[0]} cards every deal"
    return ", ".join(str(item) for item in value)


def _whole_number(spec: OptionSpec, value: object, shown: object) -> int:
    text = str(value).strip()
    if isinstance(value, bool) or not (isinstance(value, int) or text.isdecimal()):
        raise OptionError(f'{spec.title}: {_number_words(spec)}, not "{shown}"')
    number = int(text)
    if (spec.minimum is not None and number < spec.minimum) or (spec.maximum is not None and number > spec.maximum):
        raise OptionError(f'{spec.title}: {_number_words(spec)}, not "{shown}"')
    return number


def _number_words(spec: OptionSpec) -> str:
    if spec.minimum is not None and spec.maximum is not None:
        return f"a whole number from {spec.minimum} to {spec.maximum}"
    return "a whole number"


def _parse_number(spec: OptionSpec, value: object) -> int:
    return _whole_number(spec, value, value)


def _parse_sizes(spec: OptionSpec, value: object) -> tuple[int, ...]:
    """Cards dealt: one number for every deal, or one number per deal (``10,10,10,10,12,12,12``)."""
    if isinstance(value, list | tuple):
        items: list[object] = list(value)
    else:
        items = [item for item in str(value).replace(" ", ",").split(",") if item]
    if not items:
        raise OptionError(f'{spec.title}: one number for every deal or one number per deal, not "{value}"')
    return tuple(_whole_number(spec, item, value) for item in items)


def _parse_choice(spec: OptionSpec, value: object) -> Any:
    text = str(value).strip().lower()
    if text not in spec.choices:
        raise OptionError(f'{spec.title}: {_either(spec.choices)}, not "{value}"')
    enum_type = _CHOICE_TYPES[spec.key]
    return enum_type(text)


def _either(choices: tuple[str, ...]) -> str:
    """The values a choice takes, as typed: ``low, high or both``."""
    return " or ".join(filter(None, (", ".join(choices[:-1]), choices[-1])))


class LastTwoDeals(Enum):
    """`double_rounds` set to true: the last two deals of the schedule actually played (D15)."""

    LAST_TWO = "last_two"


LAST_TWO_DEALS = LastTwoDeals.LAST_TWO


def _parse_rounds(title: str, value: object) -> frozenset[int] | LastTwoDeals:
    """Doubled rounds: a list of round numbers, ``10,11``, true (the last two deals) or false/none."""
    if isinstance(value, bool):
        return LAST_TWO_DEALS if value else frozenset()
    if isinstance(value, list | tuple):
        items = [str(item) for item in value]
    else:
        text = str(value).strip().lower()
        if text in _TRUE:
            return LAST_TWO_DEALS
        if text in _FALSE | {"none", ""}:
            return frozenset()
        items = [item for item in text.replace(" ", ",").split(",") if item]
    rounds = set()
    for item in items:
        if not item.strip().isdecimal() or int(item) < 1:
            raise OptionError(f'{title}: round numbers such as 10, 11, not "{value}"')
        rounds.add(int(item))
    return frozenset(rounds)


DEFAULT_DOUBLE_ROUNDS = frozenset({10, 11})  # the last two of the standard 11 deals


_OWN_TABLES = (PenaltyTable.CONTRACT_RUMMY, PenaltyTable.FIVE_CROWNS)  # tables only their own game plays


_CHOICE_TYPES: dict[str, type[Enum]] = {
    "ace": AceRule,
    "wild_limit": WildLimit,
    "penalty_table": PenaltyTable,
}


OPTION_SPECS: dict[str, OptionSpec] = {
    spec.key: spec
    for spec in (
        OptionSpec(
            "full_cycle",
            "bool",
            "Full cycle",
            "Deal up to 14 cards (Aces wild) and back down to 3: 23 rounds instead of 11.",
        ),
        OptionSpec(
            "distinct_suit_sets",
            "bool",
            "Sets need different suits",
            "A set must show at least three different suits; a wild may supply a missing suit.",
        ),
        OptionSpec(
            "no_aces_in_runs",
            "bool",
            "No aces in runs",
            "Aces meld only in sets: no card, natural or wild, stands as an ace in a run.",
        ),
        OptionSpec(
            "ace",
            "choice",
            "Ace in runs",
            "Low: A-2-3 only; high: Q-K-A only; both: either, but never K-A-2.",
            tuple(rule.value for rule in AceRule),
            ("Low: A-2-3, never Q-K-A", "High: Q-K-A, never A-2-3", "Both: A-2-3 and Q-K-A, never K-A-2"),
        ),
        OptionSpec(
            "wild_limit",
            "choice",
            "Wild cards per meld",
            "Any number of wild cards, even melds of wild cards only; "
            "or never more wild cards than natural cards in a meld.",
            tuple(limit.value for limit in WildLimit if limit is not WildLimit.AT_LEAST_ONE_NATURAL),
            ("Any number, all-wild melds too", "Never more wilds than naturals"),
        ),
        OptionSpec(
            "no_adjacent_wilds",
            "bool",
            "No wilds side by side",
            "Two wild cards may not stand next to each other in a run.",
        ),
        OptionSpec(
            "wild_in_place_natural",
            "bool",
            "Wild in its own place is natural",
            "A wild card that stands exactly for itself counts as a natural card; "
            "otherwise a wild card is always wild.",
        ),
        OptionSpec(
            "lay_offs",
            "bool",
            "Lay-offs",
            "After someone goes out, the others may add cards to that player's melds.",
        ),
        OptionSpec(
            "discard_to_go_out",
            "bool",
            "Must discard to go out",
            "On: going out needs a final discard; off: with or without a final discard.",
        ),
        OptionSpec(
            "penalty_table",
            "choice",
            "Penalty table",
            "Which preset's table scores the cards left in hand.",
            tuple(table.value for table in PenaltyTable if table not in _OWN_TABLES),
            ("Pay Me", "Pay Me (family rules)", "Three Thirteen", "3-13"),
        ),
        OptionSpec(
            "double_rounds",
            "rounds",
            "Doubled rounds",
            "Rounds whose penalties count double, such as 10, 11. Switched on without naming rounds, "
            "it doubles the last two deals: 10 and 11, or 22 and 23 with the full cycle.",
        ),
    )
}


# The options of Contract Rummy (RULES.md 9); the four original rummy presets take OPTION_SPECS.
CONTRACT_OPTION_SPECS: dict[str, OptionSpec] = {
    spec.key: spec
    for spec in (
        OptionSpec(
            "deal_sizes",
            "sizes",
            "Cards dealt",
            "How many cards each player is dealt: one number for every deal, or one number per deal, "
            "such as 10, 10, 10, 10, 12, 12, 12.",
            minimum=6,
            maximum=15,
        ),
        OptionSpec("twos_wild", "bool", "Twos wild", "The 2s are wild as well as the jokers."),
        OptionSpec(
            "joker_swap",
            "bool",
            "Joker swap",
            "A player who has gone down may take a joker from any meld on the table by playing the card it "
            "stands for in its place.",
        ),
        OptionSpec(
            "ace_points", "number", "Points for an ace", "What an ace left in hand scores.", minimum=0, maximum=100
        ),
        OptionSpec(
            "joker_points",
            "number",
            "Points for a joker",
            "What a joker left in hand scores.",
            minimum=0,
            maximum=100,
        ),
        OptionSpec(
            "buys_per_deal",
            "number",
            "Buys per deal",
            "How many times a deal each player may buy the top discard with an extra card from the stock; "
            "0 means no buying.",
            minimum=0,
            maximum=20,
        ),
        OptionSpec(
            "exact_cut",
            "bool",
            "Exact cut",
            "A player who cuts exactly the cards needed for the deal scores -50 that deal: "
            "50 points come off what their cards score.",
        ),
    )
}


ALL_OPTION_SPECS: dict[str, OptionSpec] = {**OPTION_SPECS, **CONTRACT_OPTION_SPECS}


RUMMY_OPTION_KEYS = tuple(OPTION_SPECS)


CONTRACT_OPTION_KEYS = tuple(CONTRACT_OPTION_SPECS)


# The house options of Five Crowns (RULES.md 10.6): those of section 3 that fit a deck with no aces,
# its own penalty table and no doubled rounds.
FIVE_CROWNS_OPTION_KEYS = (
    "distinct_suit_sets",
    "wild_limit",
    "no_adjacent_wilds",
    "wild_in_place_natural",
    "lay_offs",
    "discard_to_go_out",
)


OPTION_KEYS = tuple(field.name for field in fields(Options))


def parse_set_arguments(pairs: list[str]) -> dict[str, str]:
    """Read ``KEY=VALUE`` strings from the command line.

    >>> parse_set_arguments(["ace=both", "full_cycle=true"])
    {'ace': 'both', 'full_cycle': 'true'}
    """
    overrides = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            raise OptionError(f'"{pair}" is not KEY=VALUE')
        overrides[key.strip()] = value.strip()
    return overrides
