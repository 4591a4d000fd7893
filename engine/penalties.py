"""Penalty points for cards left in hand (RULES.md 3, D4).

>>> from engine.schedule import round_info
>>> from engine.rules import rule_set
>>> from engine.cards import parse_cards
>>> rules = rule_set("3-13")
>>> hand_penalty(parse_cards("AH 7C JK"), rules, round_info(rules, 10))
44
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import Card, Rank, Suit
from engine.rules import HandScoring, Options, PenaltyTable, RuleSet
from engine.schedule import RoundInfo

JOKER_WITHOUT_VALUE = 15  # D15: a joker left in hand under a table of face values


def _face(rank: Rank) -> int:
    return min(int(rank), 10)


def _tier(rank: Rank) -> int:
    return 5 if rank <= Rank.SEVEN else 10


def base_penalty(card: Card, table: PenaltyTable, wild: bool) -> int:
    """A card's points in a table, before any round multiplier.

    >>> base_penalty(Card.parse("8H"), PenaltyTable.PAY_ME, wild=False)
    10
    >>> base_penalty(Card.parse("8H"), PenaltyTable.PAY_ME, wild=True)
    15
    >>> base_penalty(Card.JOKER, PenaltyTable.THREE_THIRTEEN, wild=True)
    15
    """
    rank = card.rank
    if table is PenaltyTable.PAY_ME:
        return 15 if wild or rank is None else _tier(rank)
    if table is PenaltyTable.PAY_ME_FAMILY:
        return 10 if rank is None else _tier(rank)
    if table is PenaltyTable.THREE_THIRTEEN:
        # Face values give a joker none; it appears only when a table picks this table for a joker game (D15).
        return JOKER_WITHOUT_VALUE if rank is None else _face(rank)
    if table is PenaltyTable.CONTRACT_RUMMY:
        return held_points(card, Options())
    if wild or rank is None:
        return 0
    return 15 if rank is Rank.ACE else _face(rank)


def card_penalty(card: Card, rules: RuleSet, info: RoundInfo) -> int:
    """A card's points in a round, multiplier applied.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("pay-me-family")
    >>> card_penalty(Card.parse("5H"), rules, round_info(rules, 3))
    5
    """
    return _points(card, rules, info) * info.multiplier


def _points(card: Card, rules: RuleSet, info: RoundInfo) -> int:
    table = rules.options.penalty_table
    if table is PenaltyTable.CONTRACT_RUMMY:
        return held_points(card, rules.options)
    return base_penalty(card, table, info.is_wild(card))


def held_points(card: Card, options: Options) -> int:
    """A card held at the end of a Contract Rummy deal (RULES.md 9): 2-10 face value, J, Q, K 10,
    an ace and a joker as the options say (15 each by default). A wild 2 still scores 2.

    >>> [held_points(Card.parse(token), Options()) for token in ("2H", "10S", "KD", "AC", "JK")]
    [2, 10, 10, 15, 15]
    """
    if card.rank is None:
        return options.joker_points
    if card.rank is Rank.ACE:
        return options.ace_points
    return _face(card.rank)


def hand_penalty(cards: Iterable[Card], rules: RuleSet, info: RoundInfo) -> int:
    """The points a list of leftover cards scores in a round, multiplier applied."""
    return sum(_points(card, rules, info) for card in cards) * info.multiplier


@dataclass(frozen=True)
class HeldInFull:
    """A hand scored card by card, nothing melded: what ``best`` answers where held cards count in full."""

    cards: tuple[Card, ...]
    penalty: int

    def as_json(self) -> dict[str, object]:
        return {"penalty": self.penalty, "melds": [], "unmelded": [str(card) for card in self.cards]}


def held_in_full(cards: Iterable[Card], rules: RuleSet, info: RoundInfo) -> HeldInFull:
    """Every card held counts in full, multiplier applied (Contract Rummy, RULES.md 9).

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> from engine.cards import parse_cards
    >>> rules = rule_set("contract-rummy", {"ace_points": 20})
    >>> held_in_full(parse_cards("AH AS 5C 5D 5H JK"), rules, round_info(rules, 1)).penalty
    70
    """
    held = tuple(cards)
    return HeldInFull(held, hand_penalty(held, rules, info))


def scores_in_full(rules: RuleSet) -> bool:
    """Whether the preset scores every card held in full, with no arrangement into melds."""
    return rules.preset.hand_scoring is HandScoring.IN_FULL


def penalty_rows(rules: RuleSet, info: RoundInfo) -> list[tuple[str, int]]:
    """The penalty table of a round as (card group, points) rows, for the rules pages."""
    rows: list[tuple[str, int]] = []
    for rank in Rank:
        card = Card(rank, Suit.SPADES)
        rows.append((rank.token + (" (wild)" if info.is_wild(card) else ""), card_penalty(card, rules, info)))
    if info.jokers_wild:
        rows.append(("Joker", card_penalty(Card.JOKER, rules, info)))
    return rows
