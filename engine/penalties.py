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

from engine.cards import Card, Rank, Suit
from engine.rules import PenaltyTable, RuleSet
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
    return base_penalty(card, rules.options.penalty_table, info.is_wild(card)) * info.multiplier


def hand_penalty(cards: Iterable[Card], rules: RuleSet, info: RoundInfo) -> int:
    """The points a list of leftover cards scores in a round, multiplier applied."""
    table = rules.options.penalty_table
    return sum(base_penalty(card, table, info.is_wild(card)) for card in cards) * info.multiplier


def penalty_rows(rules: RuleSet, info: RoundInfo) -> list[tuple[str, int]]:
    """The penalty table of a round as (card group, points) rows, for the rules pages."""
    table = rules.options.penalty_table
    rows: list[tuple[str, int]] = []
    for rank in Rank:
        card = Card(rank, Suit.SPADES)
        rows.append((rank.token + (" (wild)" if info.is_wild(card) else ""), card_penalty(card, rules, info)))
    if info.jokers_wild:
        rows.append(("Joker", base_penalty(Card.JOKER, table, wild=True) * info.multiplier))
    return rows
