"""Rounds: cards dealt, wild cards and multiplier; dealer and first player (RULES.md 3, 5).

>>> from engine.rules import rule_set
>>> rules = rule_set("pay-me")
>>> first = round_info(rules, 1)
>>> first.cards, first.wild_tokens, first.multiplier
(3, ('JK', '2', '3'), 1)
>>> [info.cards for info in schedule(rule_set("pay-me", {"full_cycle": True}))][10:14]
[13, 14, 13, 12]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.cards import Card, Rank
from engine.errors import RoundError, VariantError
from engine.rules import Deal, MeldKind, RuleSet


@dataclass(frozen=True)
class RoundInfo:
    """One round of a game: what to deal, which cards are wild, and how to start the discard pile.

    >>> from engine.rules import rule_set
    >>> round_info(rule_set("three-thirteen"), 2).discard_pile
    'The dealer turns the last card dealt face up to start the discard pile.'
    """

    number: int
    cards: int
    round_rank: Rank | None
    jokers_wild: bool
    wild_ranks: frozenset[Rank]
    multiplier: int
    discard_pile: str = ""  # how to start the discard pile, in words (RULES.md 5)
    contract: tuple[MeldKind, ...] = ()  # the melds a player must lay down to go down; () without contracts
    no_final_discard: bool = False  # going out takes every card, with no discard

    @property
    def contract_words(self) -> str:
        """The contract in words: ``two sets``, ``one set and one run``, ``three runs``.

        >>> from engine.rules import rule_set
        >>> [round_info(rule_set("contract-rummy"), number).contract_words for number in (1, 2, 7)]
        ['two sets', 'one set and one run', 'three runs']
        """
        return contract_words(self.contract)

    def is_wild(self, card: Card) -> bool:
        """Whether a card is wild this round (D1: a wild card is always wild)."""
        if card.rank is None:
            return self.jokers_wild
        return card.rank in self.wild_ranks

    @property
    def wild_tokens(self) -> tuple[str, ...]:
        """The wild cards as RULES.md section 8 lists them: ``JK`` then rank tokens."""
        tokens = ["JK"] if self.jokers_wild else []
        return tuple(tokens + [rank.token for rank in self._ordered_ranks])

    @property
    def wild_words(self) -> str:
        """The wild cards in words: ``Jokers, 2s and Kings``."""
        words = ["Jokers"] if self.jokers_wild else []
        words += [rank.plural if rank is not Rank.TWO else "2s" for rank in self._ordered_ranks]
        if not words:
            return "No wild cards"
        if len(words) == 1:
            return words[0]
        return ", ".join(words[:-1]) + " and " + words[-1]

    @property
    def _ordered_ranks(self) -> list[Rank]:
        return sorted(self.wild_ranks, key=lambda rank: (rank is not Rank.TWO, rank is self.round_rank))

    def as_json(self) -> dict[str, object]:
        return {
            "round": self.number,
            "cards": self.cards,
            "wild": list(self.wild_tokens),
            "multiplier": self.multiplier,
            "discard_pile": self.discard_pile,
        } | ({"contract": [kind.value for kind in self.contract]} if self.contract else {})


_COUNTS = ("no", "one", "two", "three", "four", "five", "six")


def contract_words(contract: tuple[MeldKind, ...]) -> str:
    """A contract in words, sets first: ``two sets``, ``one set and one run``, ``no contract``.

    >>> contract_words((MeldKind.SET, MeldKind.RUN, MeldKind.RUN))
    'one set and two runs'
    """
    parts = []
    for kind in MeldKind:
        count = contract.count(kind)
        if count:
            noun = kind.value if count == 1 else kind.value + "s"
            parts.append(f"{_COUNTS[count] if count < len(_COUNTS) else count} {noun}")
    return " and ".join(parts) if parts else "no contract"


@cache
def schedule(rules: RuleSet) -> tuple[RoundInfo, ...]:
    """Every round of the game, in order (D2 for the full cycle)."""
    if rules.preset.kind != "rummy":
        raise VariantError(f'"{rules.preset.id}" is played in hands, not rounds')
    return tuple(_make_round(rules, number, deal) for number, deal in enumerate(rules.deals, start=1))


def _make_round(rules: RuleSet, number: int, deal: Deal) -> RoundInfo:
    preset = rules.preset
    wild_ranks = set()
    if preset.wild_twos or ("twos_wild" in preset.option_keys and rules.options.twos_wild):
        wild_ranks.add(Rank.TWO)
    if deal.wild_rank is not None:
        wild_ranks.add(deal.wild_rank)
    doubled = 2 if number in rules.options.double_rounds else 1
    return RoundInfo(
        number=number,
        cards=deal.cards,
        round_rank=deal.wild_rank,
        jokers_wild=preset.wild_jokers,
        wild_ranks=frozenset(wild_ranks),
        multiplier=deal.multiplier * doubled,
        discard_pile=preset.discard_pile_text,
        contract=deal.contract,
        no_final_discard=deal.no_final_discard,
    )


def round_info(rules: RuleSet, number: int) -> RoundInfo:
    """One round; raise RoundError quoting the number when the game has no such round."""
    rounds = schedule(rules)
    if not 1 <= number <= len(rounds):
        raise RoundError(f"round {number} does not exist: {rules.preset.name} has rounds 1 to {len(rounds)}")
    return rounds[number - 1]


def dealer_seat(first_dealer: int, round_number: int, players: int) -> int:
    """The seat (0-based) that deals a round; the deal passes left every round.

    >>> [dealer_seat(2, number, 4) for number in (1, 2, 3)]
    [2, 3, 0]
    """
    return (first_dealer + round_number - 1) % players


def first_player_seat(first_dealer: int, round_number: int, players: int) -> int:
    """The seat (0-based) that plays first: the one left of the dealer.

    >>> first_player_seat(3, 1, 4)
    0
    """
    return (dealer_seat(first_dealer, round_number, players) + 1) % players
