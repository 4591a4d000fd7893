"""Presets, house-rule options and decisions, as frozen data in registries (RULES.md 3-4).

>>> rules = rule_set("pay-me", {"full_cycle": "true"})
>>> rules.options.full_cycle, rules.preset.name
(True, 'Pay Me')
>>> rule_set("pay-me", {"full_cycel": True})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.OptionError: unknown option "full_cycel"; options are: full_cycle, distinct_suit_sets, ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from engine.cards import Rank
from engine.errors import OptionError, PlayerCountError, VariantError


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


class MeldKind(Enum):
    """A set (cards of one rank) or a run (cards of one suit in sequence)."""

    SET = "set"
    RUN = "run"


class LayOffScope(Enum):
    """Onto which melds a player may lay off cards."""

    DECLARER = "declarer"  # only the melds of the player who went out (D6)
    TABLE = "table"  # any meld on the table, once the player has gone down
    NONE = "none"


class HandScoring(Enum):
    """How the cards left in a hand score."""

    ARRANGED = "arranged"  # the lowest penalty over every arrangement into melds and lay-offs (D7)
    IN_FULL = "in_full"  # every card held counts in full, melded or not


@dataclass(frozen=True)
class Deal:
    """One deal of a preset's schedule, as data.

    ``wild_rank`` is the round's rank when the deal has one; ``contract`` the melds a player must
    lay down to go down (empty: no contract); ``no_final_discard`` that going out takes every card,
    with no discard.
    """

    cards: int
    wild_rank: Rank | None = None
    contract: tuple[MeldKind, ...] = ()
    multiplier: int = 1
    no_final_discard: bool = False


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
            tuple(table.value for table in PenaltyTable if table is not PenaltyTable.CONTRACT_RUMMY),
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


@dataclass(frozen=True)
class DeckRow:
    """How many decks and jokers a table of up to `max_players` uses."""

    max_players: int
    decks: int
    jokers: int


@dataclass(frozen=True)
class Preset:
    """A rule set as the seed text gives it: fixed facts plus default options."""

    id: str
    name: str
    seed: str
    kind: str  # "rummy" or "stops"
    min_players: int
    max_players: int
    deck_table: tuple[DeckRow, ...]
    wild_jokers: bool
    wild_twos: bool
    wild_round_rank: bool
    defaults: Options
    summary: str
    wild_text: str
    going_out_text: str
    after_going_out_text: str
    penalty_text: str
    money: str  # "none", "pot" or "chips"
    decisions: tuple[str, ...]
    discard_pile_text: str = ""  # how to start the discard pile (RULES.md 5)
    left_of_scorekeeper_deals: bool = False  # a way to pick the first dealer that only 3-13 has
    deals: tuple[Deal, ...] = ()  # the schedule, deal by deal
    full_cycle_deals: tuple[Deal, ...] = ()  # the schedule with the full cycle on, where the preset has one
    option_keys: tuple[str, ...] = RUMMY_OPTION_KEYS  # the house rules a game of this preset may set
    min_run_length: int = 3
    lay_off_scope: LayOffScope = LayOffScope.DECLARER  # with the lay_offs option on
    hand_scoring: HandScoring = HandScoring.ARRANGED
    max_meld_cards: int | None = None  # the most cards a meld may hold, where the seed sets a limit (D18)

    @property
    def has_contracts(self) -> bool:
        """Whether the deals carry contracts (a player must go down with them)."""
        return any(deal.contract for deal in self.deals)

    def table_for(self, players: int) -> DeckRow:
        """Decks and jokers for a number of players.

        >>> PRESETS["pay-me"].table_for(4)
        DeckRow(max_players=4, decks=2, jokers=4)
        """
        verify_player_count(self, players)
        return next(row for row in self.deck_table if players <= row.max_players)

    @property
    def largest_table(self) -> DeckRow:
        return self.deck_table[-1]


def verify_player_count(preset: Preset, players: int) -> None:
    """Raise PlayerCountError unless the preset allows that many players."""
    if not preset.min_players <= players <= preset.max_players:
        raise PlayerCountError(
            f"{preset.name} takes {preset.min_players} to {preset.max_players} players, not {players}"
        )


def can_seat(preset: Preset, players: int) -> bool:
    """Whether the preset allows that many players."""
    return preset.min_players <= players <= preset.max_players


def _rising_deals(round_rank: bool) -> tuple[Deal, ...]:
    """The standard eleven deals, 3 to 13 cards; the round's rank is the number of cards dealt."""
    return tuple(Deal(cards, Rank(cards) if round_rank else None) for cards in range(3, 14))


def _full_cycle_deals(round_rank: bool) -> tuple[Deal, ...]:
    """3 to 14 cards and back to 3: 23 deals, Aces the rank of the 14-card deal (D2)."""
    rising = _rising_deals(round_rank)
    return (*rising, Deal(14, Rank.ACE if round_rank else None), *rising[::-1])


_SET, _RUN = MeldKind.SET, MeldKind.RUN
_CONTRACTS = (
    (_SET, _SET),
    (_SET, _RUN),
    (_RUN, _RUN),
    (_SET, _SET, _SET),
    (_SET, _SET, _RUN),
    (_SET, _RUN, _RUN),
    (_RUN, _RUN, _RUN),
)
_CONTRACT_DEALS = tuple(
    Deal(cards, None, contract, no_final_discard=number == len(_CONTRACTS))
    for number, (cards, contract) in enumerate(zip(Options().deal_sizes, _CONTRACTS, strict=True), start=1)
)

_RUMMY_DECISIONS = ("D1", "D5", "D6", "D7", "D8", "D9", "D10", "D11", "D13", "D14", "D15", "D16")
_STOCK_CARD_UP = "Turn the top card of the stock face up to start the discard pile."
_NO_LAY_OFF_DECISIONS = ("D1", "D7", "D8", "D9", "D10", "D14", "D15", "D16")

PRESETS: dict[str, Preset] = {
    preset.id: preset
    for preset in (
        Preset(
            id="pay-me",
            name="Pay Me",
            seed="000_846ffe8787e014f0.txt",
            kind="rummy",
            min_players=2,
            max_players=8,
            deck_table=(DeckRow(2, 1, 2), DeckRow(4, 2, 4), DeckRow(8, 3, 6)),
            wild_jokers=True,
            wild_twos=True,
            wild_round_rank=True,
            defaults=Options(),
            summary="Eleven rounds of contract rummy, 3 to 13 cards. Meld sets and runs; "
            'the first to meld every card declares "Pay Me". Lowest total wins.',
            wild_text="Jokers, all 2s and the round's rank are wild.",
            going_out_text="Declare with or without a final discard.",
            after_going_out_text="Each other player has one last turn, drawing from the stock only.",
            penalty_text="A-7 score 5; 8-K score 10; jokers, 2s and the round's rank score 15.",
            money="none",
            decisions=("D1", "D2", "D5", "D6", "D7", "D8", "D9", "D10", "D11", "D12", "D13", "D14", "D15", "D16"),
            discard_pile_text=_STOCK_CARD_UP,
            deals=_rising_deals(round_rank=True),
            full_cycle_deals=_full_cycle_deals(round_rank=True),
        ),
        Preset(
            id="pay-me-family",
            name="Pay Me (family rules)",
            seed="001_e66f4e8c7e0f68e1.txt",
            kind="rummy",
            min_players=2,
            max_players=6,
            deck_table=(DeckRow(4, 1, 2), DeckRow(6, 2, 4)),
            wild_jokers=True,
            wild_twos=False,
            wild_round_rank=True,
            defaults=Options(penalty_table=PenaltyTable.PAY_ME_FAMILY),
            summary="Pay Me as a family in Indiana plays it: eleven deals, 3 to 13 cards, "
            "the round's rank and jokers wild, 2s natural.",
            wild_text="Jokers and the round's rank are wild; 2s are natural.",
            going_out_text="Declare with or without a final discard.",
            after_going_out_text="Each other player draws once more from the stock and discards.",
            penalty_text="A-7 score 5; 8-K and jokers score 10; a card of the round's rank scores by its own rank.",
            money="none",
            decisions=("D1", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "D11", "D13", "D14", "D15", "D16"),
            discard_pile_text=_STOCK_CARD_UP,
            deals=_rising_deals(round_rank=True),
            full_cycle_deals=_full_cycle_deals(round_rank=True),
        ),
        Preset(
            id="three-thirteen",
            name="Three Thirteen",
            seed="002_b0494917e5d528f7.txt",
            kind="rummy",
            min_players=2,
            max_players=4,
            deck_table=(DeckRow(2, 1, 0), DeckRow(4, 2, 0)),
            wild_jokers=False,
            wild_twos=False,
            wild_round_rank=True,
            defaults=Options(
                wild_limit=WildLimit.NONE,
                no_adjacent_wilds=False,
                lay_offs=False,
                discard_to_go_out=True,
                penalty_table=PenaltyTable.THREE_THIRTEEN,
            ),
            summary="Eleven rounds, 3 to 13 cards, the round's rank wild and no jokers. "
            "Go out by melding every card but a final discard. No lay-offs.",
            wild_text="Only the round's rank is wild; any number of wilds, even all-wild melds.",
            going_out_text="Meld every card but one and discard it.",
            after_going_out_text="Each other player has one more turn.",
            penalty_text="Ace 1; 2-10 face value; J, Q, K 10; a wild scores its face value.",
            money="none",
            decisions=_NO_LAY_OFF_DECISIONS,
            discard_pile_text="The dealer turns the last card dealt face up to start the discard pile.",
            deals=_rising_deals(round_rank=True),
            full_cycle_deals=_full_cycle_deals(round_rank=True),
        ),
        Preset(
            id="3-13",
            name="3-13",
            seed="003_564429eeed7c9619.txt",
            kind="rummy",
            min_players=2,
            max_players=9,
            deck_table=(DeckRow(5, 2, 4), DeckRow(9, 3, 6)),
            wild_jokers=True,
            wild_twos=True,
            wild_round_rank=False,
            defaults=Options(
                ace=AceRule.HIGH,
                wild_limit=WildLimit.NONE,
                no_adjacent_wilds=False,
                discard_to_go_out=True,
                penalty_table=PenaltyTable.THREE_13,
                double_rounds=DEFAULT_DOUBLE_ROUNDS,
            ),
            summary="The money game: eleven rounds, 3 to 13 cards, jokers and 2s wild, aces high. "
            "Knock after a final discard; a pot pays the knocker each round and the winner at the end.",
            wild_text="Jokers and 2s are wild in every round; there is no round rank.",
            going_out_text="Meld every card but one, discard it, then knock.",
            after_going_out_text="Each other player has one more turn, from either pile.",
            penalty_text="A 15; 3-10 face value; J, Q, K 10; wilds 0. Rounds 10 and 11 score double.",
            money="pot",
            decisions=_RUMMY_DECISIONS,
            discard_pile_text="Start the discard pile staggered so that two cards show; "
            "taking the lower one costs the second-discard fee when the game has a pot.",
            left_of_scorekeeper_deals=True,
            deals=_rising_deals(round_rank=False),
            full_cycle_deals=_full_cycle_deals(round_rank=False),
            max_meld_cards=13,
        ),
        Preset(
            id="contract-rummy",
            name="Contract Rummy",
            seed="",
            kind="rummy",
            min_players=3,
            max_players=8,
            deck_table=(DeckRow(4, 2, 4), DeckRow(8, 3, 6)),
            wild_jokers=True,
            wild_twos=False,
            wild_round_rank=False,
            defaults=Options(
                ace=AceRule.BOTH,
                wild_limit=WildLimit.AT_LEAST_ONE_NATURAL,
                no_adjacent_wilds=False,
                penalty_table=PenaltyTable.CONTRACT_RUMMY,
            ),
            summary="Seven deals, each with a contract: the sets and runs a player must lay down to go down, "
            "from two sets in the first deal to three runs in the last. Runs need 4 cards. "
            "The first to play every card ends the deal. Lowest total wins.",
            wild_text="Jokers are wild (2s too, with the house rule). A meld may hold any number of wild cards, "
            "side by side too, but needs at least one natural card.",
            going_out_text="Go down once a deal with exactly the deal's contract; on later turns lay off onto "
            "any meld on the table. Go out with or without a final discard, except in the last deal: "
            "there you go down and go out at once, with no discard.",
            after_going_out_text="The deal ends at once; everyone else scores every card still held.",
            penalty_text="Every card held counts in full: 2-10 face value; J, Q, K 10; A 15; joker 15.",
            money="none",
            decisions=("D1", "D8", "D9", "D10", "D13", "D14", "D16"),
            discard_pile_text=_STOCK_CARD_UP,
            deals=_CONTRACT_DEALS,
            option_keys=CONTRACT_OPTION_KEYS,
            min_run_length=4,
            lay_off_scope=LayOffScope.TABLE,
            hand_scoring=HandScoring.IN_FULL,
        ),
        Preset(
            id="play-or-pay",
            name="Play or Pay",
            seed="004_86746446384aefff.txt",
            kind="stops",
            min_players=3,
            max_players=10,
            deck_table=(DeckRow(10, 1, 0),),
            wild_jokers=False,
            wild_twos=False,
            wild_round_rank=False,
            defaults=Options(),
            summary="A Stops game with chips: play the next card of the suit or pay a chip; "
            "the first player out of cards takes the pot.",
            wild_text="No wild cards.",
            going_out_text="Play your last card.",
            after_going_out_text="Every other player pays one chip per card still held.",
            penalty_text="One chip per card left in hand.",
            money="chips",
            decisions=("D17",),
            discard_pile_text="There is no discard pile: the whole deck is dealt.",
        ),
    )
}

RUMMY_PRESETS = tuple(preset_id for preset_id, preset in PRESETS.items() if preset.kind == "rummy")


@dataclass(frozen=True)
class Decision:
    """A decision of RULES.md section 4, where the seed texts are unclear."""

    id: str
    title: str
    text: str
    option: str | None
    option_text: str = ""  # the sentence about `option`, said only where the preset takes that option

    def text_for(self, preset: Preset) -> str:
        """The decision in words for a preset: the sentence about its house rule only if the preset takes it.

        >>> "Wild in its own place" in DECISIONS["D1"].text_for(PRESETS["pay-me"])
        True
        >>> "Wild in its own place" in DECISIONS["D1"].text_for(PRESETS["contract-rummy"])
        False
        """
        if self.option_text and self.option in preset.option_keys:
            return f"{self.text} {self.option_text}"
        return self.text


DECISIONS: dict[str, Decision] = {
    decision.id: decision
    for decision in (
        Decision(
            "D1",
            "A wild card is always wild",
            'The original Pay Me rules define naturals as "non-wild" cards and say a wild may stand for "a card '
            'of its own denomination". So in round 3 of Pay Me (5s wild), 5♥ 5♠ 5♦ is three wild '
            "cards and no naturals: not a legal meld.",
            "wild_in_place_natural",
            "The house rule Wild in its own place is natural lets a wild card that stands exactly for itself "
            "count as natural.",
        ),
        Decision(
            "D2",
            "Full Cycle length",
            "The original Pay Me rules say 22 rounds but also say the deal rises from 3 to 14 cards and falls "
            "back to 3, which is 23 deals. The schedule follows the described deals: 3, 4, …, 14, "
            "13, …, 3 (23 rounds), with the round's rank wild as usual and Aces wild in the "
            "14-card round.",
            "full_cycle",
        ),
        Decision(
            "D3",
            "Jokers in Pay Me (family rules)",
            "The family rules play with jokers in the deck and name the round's rank as wild; jokers are "
            "taken to be wild as well. Twos are natural.",
            None,
        ),
        Decision(
            "D4",
            "Pay Me (family rules) penalties",
            "The family rules list only a 10-point and a 5-point tier (the card pictures are lost): A-7 "
            "score 5, 8-K and jokers score 10; a card of the round's wild rank scores by its own "
            "rank's tier.",
            "penalty_table",
        ),
        Decision(
            "D5",
            "A run's wild positions are fixed once laid down",
            "A lay-off may not replace a wild (the original Pay Me rules). A lay-off extends a meld at an end "
            "(runs) or adds a card of the rank (sets); the meld must stay legal under the preset (wild "
            "limit, no adjacent wilds). The same position can be filled only once (the family rules' questions "
            "and answers: a second 4♥ cannot also be laid off on A-2-3♥).",
            "lay_offs",
        ),
        Decision(
            "D6",
            "Lay-offs chain in turn order",
            "Players lay off one after another, starting left of the player who went out; a meld "
            "extended by an earlier player can be extended further by a later one. Lay-offs go only "
            "onto the melds of the player who went out, never onto another player's melds (the family "
            "rules' questions and answers).",
            "lay_offs",
        ),
        Decision(
            "D7",
            "Scoring a hand",
            "A player's penalty is the minimum over every way of splitting their hand into their "
            "own melds, lay-offs (where allowed) and leftovers. The companion can compute it from "
            "the cards entered; a table may also type the points directly.",
            None,
        ),
        Decision(
            "D8",
            "The declarer scores 0",
            "The player who went out must have melded every card; the companion can verify this "
            "from the cards entered.",
            None,
        ),
        Decision("D9", "Ties", "Equal lowest totals share the win.", None),
        Decision(
            "D10",
            "The cards decide, not the order they are written in",
            "A player may arrange their cards as they lay them down, so a meld is refused only when no "
            "arrangement of its cards is legal. In Pay Me round 5, 5♥ 6♥ JK 2♣ is accepted, read as "
            "JK=4♥ 5♥ 6♥ 2♣=7♥. The written order only chooses between legal readings, and the companion "
            "shows how it read the meld. A card's role written with = (JK=7♥) is binding.",
            None,
        ),
        Decision(
            "D11",
            "Equally good choices",
            "When a player's lowest penalty can be reached in several ways, the companion lays off as few "
            "cards as possible (a player keeps their own melds), then puts a laid-off wild at the upper end "
            "of a run. It lists every lay-off (which card went onto which meld, and where), so a table that "
            "played it otherwise can see it and type the points.",
            "lay_offs",
        ),
        Decision(
            "D12",
            "Wild aces in runs",
            "In the full cycle's 14-card round aces are wild: an ace is then a wild card and may stand in a "
            "run for any other rank, even with No aces in runs, which only stops a card standing for an ace "
            "in a run.",
            "full_cycle",
        ),
        Decision(
            "D13",
            "Open readings",
            "Some melds can be read in more than one way: a meld of wild cards only; cards that make both a "
            "set and a run (in 3-13, 2♥ 3♥ JK is three 3s or 2♥ 3♥ 4♥); a wild whose place is not fixed "
            "(in 5♥ JK 6♥ the joker may be 4♥ or 7♥). Every legal reading stays open until a lay-off needs "
            "one, and that lay-off fixes it for the players after: once Bob lays off 3♥ below JK=4♥, Cy can "
            "no longer lay off 8♥. A role written with = fixes it at once. The cards of the player who went "
            "out, entered all together, are split into the fewest melds, each kept open in the same way; "
            "entering the melds one by one is exact.",
            "lay_offs",
        ),
        Decision(
            "D14",
            "One ace per run",
            "When aces count both low and high, a run may start or end with an ace but not both: never "
            "A-2-…-K-A, so a run holds at most 13 cards.",
            "ace",
        ),
        Decision(
            "D15",
            "House rules outside their own game",
            "Doubled rounds, switched on without naming rounds (the 3-13 default), doubles the last two deals "
            "actually played: rounds 10 and 11, or 22 and 23 with the full cycle. Rounds a table names itself "
            "stay as named. Under a penalty table that scores cards by face value, a joker left in hand scores 15.",
            "double_rounds",
        ),
        Decision(
            "D16",
            "When the stock runs out",
            "The discard pile, except its top card, is shuffled to make a new stock; a round always ends "
            "with someone going out. A misdeal is dealt again and is not recorded.",
            None,
        ),
        Decision(
            "D17",
            "Play or Pay money",
            "When chips stand for money, players buy chips from the table before the first hand or between "
            "hands, as many as they like. Each purchase is written in the ledger, and undo takes it back "
            "like any other entry. A player's result is the chips they hold minus the chips they bought, so "
            "the results add up to zero. Without money, everyone starts with the same stack. The game ends "
            "when the table says so.",
            None,
        ),
    )
}

_LAY_OFF_DECISIONS = ("D5", "D6", "D11", "D13")
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
        ['D1', 'D5', 'D6', 'D7', 'D8', 'D9', 'D10', 'D11', 'D13', 'D14', 'D15', 'D16']
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
        return tuple(DECISIONS[decision] for decision in sorted(ids, key=lambda decision: int(decision[1:])))


def get_preset(variant: str) -> Preset:
    """Look a preset up by id; raise VariantError naming the id when there is none."""
    preset = PRESETS.get(str(variant).strip().lower())
    if preset is None:
        raise VariantError(f'unknown variant "{variant}"; variants are: {", ".join(PRESETS)}')
    return preset


def parse_options(overrides: Mapping[str, object], preset: Preset | None = None) -> dict[str, Any]:
    """Validate option overrides; raise OptionError naming an unknown key, an option the preset
    does not take, or a bad value.

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


OPTION_KEYS = tuple(field.name for field in fields(Options))
