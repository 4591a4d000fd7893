"""A whole hand's lowest-penalty arrangement (D7): `arrange`, `best_arrangement`, and the points
of every card code in a round (`penalty_values`)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

from engine.caches import cache
from engine.cards import Card
from engine.deck import CODES, every_code
from engine.meldrules import meld_rules, wild_table
from engine.penalties import base_penalty
from engine.rules import PenaltyTable, RuleSet
from engine.schedule import RoundInfo
from engine.solver.combination import solve_split
from engine.solver.records import Arrangement, Split, arrangement_of


def _standing_as_themselves(
    selves: list[Card], naturals: dict[int, int], card_of: dict[int, Card], wilds: list[Card]
) -> tuple[dict[int, int], dict[int, Card], list[Card]]:
    """The naturals (counts and cards by code) and the wilds when the wild cards `selves` count as
    natural in their own place."""
    counts, known, remaining = dict(naturals), dict(card_of), list(wilds)
    for card in selves:
        remaining.remove(card)
        counts[card.code] = counts.get(card.code, 0) + 1
        known[card.code] = card
    return counts, known, remaining


def _flex_splits(flex: list[Card]) -> Iterator[list[Card]]:
    """Every way to pick which of the wild cards that may stand for themselves do so, none first."""
    groups = Counter(flex)
    cards = list(groups)
    for counts in itertools.product(*(range(groups[card] + 1) for card in cards)):
        yield [card for card, count in zip(cards, counts, strict=True) for _ in range(count)]


def arrange(
    hand: Sequence[Card], rules: RuleSet, info: RoundInfo, values: Sequence[int], out_only: bool = False
) -> Arrangement:
    """The arrangement of a hand with the least total value of leftovers (no multiplier).

    `values` gives the points of each card code (``Card.code``), as `penalty_values` makes them.
    `out_only`: only arrangements that meld every card are looked for, so the answer is exact only
    where its penalty is 0 (and then the same as without).
    """
    found = best_split(hand, rules, info, values, out_only)
    return arrangement_of(found.cost, found.melds, found.unmelded)


def best_split(hand: Sequence[Card], rules: RuleSet, info: RoundInfo, values: Sequence[int], out_only: bool) -> Split:
    """`arrange`'s answer before it is made an Arrangement (the leftovers not yet sorted)."""
    settings = meld_rules(rules, info)
    wild = settings.wild
    naturals: dict[int, int] = {}
    card_of: dict[int, Card] = {}
    wilds = []
    for card in hand:
        code = card.code
        if wild[code]:
            wilds.append(card)
        else:
            naturals[code] = naturals.get(code, 0) + 1
            card_of[code] = card
    flex = [card for card in wilds if card.rank is not None] if settings.in_place_natural else []
    all_wild = settings.all_wild
    best: Split | None = None
    # The first split (the only one, usually) has no wild as itself.
    for selves in _flex_splits(flex) if flex else _NONE_AS_ITSELF:
        split = _standing_as_themselves(selves, naturals, card_of, wilds) if selves else (naturals, card_of, wilds)
        found = solve_split(*split, values, settings, all_wild, out_only)
        if best is None or found.cost < best.cost:
            best = found
    assert best is not None
    return best


_NONE_AS_ITSELF: tuple[list[Card]] = ([],)  # `_flex_splits` where no wild card may stand as itself


_VALUES: dict[tuple[int, PenaltyTable], tuple[RoundInfo, list[int]]] = cache("penalty values by round")


def penalty_values(table: PenaltyTable, info: RoundInfo) -> list[int]:
    """Each card code's points in a round (no multiplier), remembered by identity of the round. A
    card scores as wild where the round's wild table says so (engine.meldrules.wild_table, the one
    table the solver, the lay-off code and MeldRules read)."""
    known = _VALUES.get((id(info), table))
    if known is None or known[0] is not info:
        if len(_VALUES) > 1024:
            _VALUES.clear()
        wild = wild_table(info)
        values = [base_penalty(Card.JOKER, table, wild[Card.JOKER.code])] + [0] * (CODES - 1)
        for code, rank, suit in every_code():
            values[code] = base_penalty(Card(rank, suit), table, wild[code])
        known = _VALUES[(id(info), table)] = (info, values)
    return known[1]


UNIT_VALUES = [1] * CODES  # every card scoring 1: going out counts the cards left over


def best_arrangement(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> Arrangement:
    """The split of a hand with the least penalty for its leftovers, multiplier applied (D7)."""
    found = best_split(hand, rules, info, penalty_values(rules.options.penalty_table, info), False)
    return arrangement_of(found.cost * info.multiplier, found.melds, found.unmelded)
