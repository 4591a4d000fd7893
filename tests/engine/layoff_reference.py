"""A brute-force lay-off reference, written from RULES.md alone (D5, D6, D7, D13, D14).

It does not use ``engine.layoffs``, ``engine.melds`` or ``engine.solver``; from the engine it takes
only the data types and ``RoundInfo.is_wild``, and from ``tests.engine.reference`` the best
arrangement of the cards a player keeps.

A meld on the table is a set of *layouts*, one per reading still open (D13). A layout says where
every card stands:

* a run: ``("run", suit, ((place, card, stands_for), ...))`` with places 1-14 (an ace is 1 or 14);
* a set: ``("set", rank, (card, ...))``: the suits wild cards stand for are not fixed; a set is
  legal when some choice of them is.

A lay-off puts every card laid off at a free place of a layout: in a run, any place 1-14 not yet
taken (a natural only at its own rank's place, a wild written ``JK=7H`` only at 7H's place); in a
set, the set itself (naturals and ``=`` roles of the set's rank). A place is filled once and a wild
already laid down is never replaced (D5). The result must be a legal layout: a run's places
consecutive, within the game's ends, at most 13 cards, one ace at most (D14); and the wild rules
hold. Every combination is tried, so nothing depends on where the run's ends were before.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.cards import Card, MeldCard, Rank, Suit
from engine.deck import STANDARD_SUITS
from engine.rules import AceRule, RuleSet, WildLimit
from engine.schedule import RoundInfo
from tests.engine.reference import reference_best

MAX_RUN = 13

Layout = tuple[object, ...]
# Where one card went: the layout's index in the meld's readings is not kept, only the card and the
# place it took (a run place 1-14, or 0 for a set) and the card it stands for.
Placement = tuple[tuple[Card, int, Card | None], ...]


@dataclass(frozen=True)
class Ctx:
    wild_cards: frozenset[Card]
    low: int
    high: int
    limit: bool
    no_adjacent: bool
    distinct: bool
    in_place: bool
    ace_places: frozenset[int]

    def is_wild(self, card: Card) -> bool:
        return card in self.wild_cards


def ctx_of(rules: RuleSet, info: RoundInfo) -> Ctx:
    options = rules.options
    faces = (Card.JOKER, *(Card(rank, suit) for suit in Suit for rank in Rank))
    if options.no_aces_in_runs:
        low, high, aces = 2, 13, frozenset[int]()
    else:
        low = 2 if options.ace is AceRule.HIGH else 1
        high = 13 if options.ace is AceRule.LOW else 14
        aces = frozenset(place for place in (1, 14) if low <= place <= high)
    return Ctx(
        frozenset(card for card in faces if info.is_wild(card)),
        low,
        high,
        options.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS,
        options.no_adjacent_wilds,
        options.distinct_suit_sets,
        options.wild_in_place_natural,
        aces,
    )


def rank_at(place: int) -> Rank:
    return Rank.ACE if place in (1, 14) else Rank(place)


def _counts_wild(card: Card, stands: Card, ctx: Ctx) -> bool:
    return ctx.is_wild(card) and not (ctx.in_place and card == stands)


# --- legality of one layout ---------------------------------------------------------------------


def run_ok(cells: tuple[tuple[int, Card, Card], ...], ctx: Ctx) -> bool:
    places = sorted(place for place, _, _ in cells)
    if len(places) < 3 or len(places) > MAX_RUN or places != list(range(places[0], places[0] + len(places))):
        return False
    if places[0] < ctx.low or places[-1] > ctx.high:
        return False
    wild_places = set()
    for place, card, stands in cells:
        if not ctx.is_wild(card) and card != stands:
            return False
        if stands.rank is Rank.ACE and place not in ctx.ace_places:
            return False
        if _counts_wild(card, stands, ctx):
            wild_places.add(place)
    if ctx.limit and 2 * len(wild_places) > len(cells):
        return False
    return not (ctx.no_adjacent and any(place + 1 in wild_places for place in wild_places))


@lru_cache(maxsize=1 << 16)
def set_ok(rank: Rank, cards: tuple[Card, ...], ctx: Ctx) -> bool:
    if len(cards) < 3 or any(not ctx.is_wild(card) and card.rank != rank for card in cards):
        return False
    wilds = [card for card in cards if ctx.is_wild(card)]
    naturals = [card for card in cards if not ctx.is_wild(card)]
    for suits in itertools.product(list(STANDARD_SUITS), repeat=len(wilds)):
        roles = [Card(rank, suit) for suit in suits]
        counted = sum(_counts_wild(card, role, ctx) for card, role in zip(wilds, roles, strict=True))
        if ctx.limit and 2 * counted > len(cards):
            continue
        if ctx.distinct and len({card.suit for card in naturals + roles}) < 3:
            continue
        return True
    return False


def layout_ok(layout: Layout, ctx: Ctx) -> bool:
    if layout[0] == "run":
        return run_ok(layout[2], ctx)  # type: ignore[arg-type]
    return set_ok(layout[1], layout[2], ctx)  # type: ignore[arg-type]


def _run(suit: Suit, cells: Sequence[tuple[int, Card, Card]]) -> Layout:
    return ("run", suit, tuple(sorted(cells, key=lambda cell: cell[0])))


def _set(rank: Rank, cards: Sequence[Card]) -> Layout:
    return ("set", rank, tuple(sorted(cards, key=lambda card: card.sort_key)))


# --- every reading of a meld --------------------------------------------------------------------


def all_layouts(cards: Sequence[MeldCard], ctx: Ctx) -> set[Layout]:
    """Every legal reading of the cards, whatever order they are written in (roles are binding)."""
    found: set[Layout] = set()
    fixed = [held.role or held.card for held in cards if held.role or not ctx.is_wild(held.card)]
    ranks = {card.rank for card in fixed}
    for rank in ranks if len(ranks) == 1 else (list(Rank) if not ranks else []):
        assert rank is not None
        layout = _set(rank, [held.card for held in cards])
        if layout_ok(layout, ctx):
            found.add(layout)
    suits = {card.suit for card in fixed}
    for suit in suits if len(suits) == 1 else (list(STANDARD_SUITS) if not suits else []):
        assert suit is not None
        for start in range(ctx.low, ctx.high - len(cards) + 2):
            window = range(start, start + len(cards))
            pinned = [held for held in cards if held.role or not ctx.is_wild(held.card)]
            loose = [held.card for held in cards if not (held.role or not ctx.is_wild(held.card))]
            options = []
            for held in pinned:
                stands = held.role or held.card
                options.append([place for place in window if Card(rank_at(place), suit) == stands])
            for choice in itertools.product(*options):
                if len(set(choice)) < len(choice):
                    continue
                cells = [
                    (place, held.card, Card(rank_at(place), suit)) for place, held in zip(choice, pinned, strict=True)
                ]
                rest = [place for place in window if place not in choice]
                for order in set(itertools.permutations(loose)):
                    filled = cells + [
                        (place, card, Card(rank_at(place), suit)) for place, card in zip(rest, order, strict=True)
                    ]
                    layout = _run(suit, filled)
                    if run_ok(layout[2], ctx):  # type: ignore[arg-type]
                        found.add(layout)
    return found


def written_layouts(cards: Sequence[MeldCard], ctx: Ctx) -> frozenset[Layout]:
    """The readings kept open for a meld as written (D10, D13): runs that follow the written order
    (ascending or descending) when there are any, else every run; every set reading."""
    layouts = all_layouts(cards, ctx)
    runs = [layout for layout in layouts if layout[0] == "run"]
    in_order = [layout for layout in runs if _follows(layout, cards)]
    keep = in_order or runs
    return frozenset([layout for layout in layouts if layout[0] == "set"] + keep)


def _follows(layout: Layout, cards: Sequence[MeldCard]) -> bool:
    cells = layout[2]
    for step in (1, -1):
        ordered = list(cells)[::step]  # type: ignore[call-overload]
        pairs = list(zip(ordered, cards, strict=True))
        if all(cell[1] == held.card and held.role in (None, cell[2]) for cell, held in pairs):
            return True
    return False


def loose_layouts(cards: Sequence[Card], ctx: Ctx) -> frozenset[Layout]:
    """Every reading of a meld split from a loose hand: no written order to follow."""
    return frozenset(all_layouts([MeldCard(card) for card in cards], ctx))


# --- lay-offs ------------------------------------------------------------------------------------


def extensions(layout: Layout, laid: Sequence[MeldCard], ctx: Ctx) -> Iterator[tuple[Layout, Placement]]:
    """Every legal way to put all of `laid` at free places of the layout (D5)."""
    if layout[0] == "set":
        rank = layout[1]
        assert isinstance(rank, Rank)
        for held in laid:
            stands = held.role or (None if ctx.is_wild(held.card) else held.card)
            if stands is not None and stands.rank != rank:
                return
        new = _set(rank, [*layout[2], *(held.card for held in laid)])  # type: ignore[misc]
        if layout_ok(new, ctx):
            yield new, tuple((held.card, 0, held.role) for held in laid)
        return
    suit = layout[1]
    assert isinstance(suit, Suit)
    cells: tuple[tuple[int, Card, Card], ...] = layout[2]  # type: ignore[assignment]
    taken = {place for place, _, _ in cells}
    free = [place for place in range(1, 15) if place not in taken]
    options = []
    for held in laid:
        stands = held.role or (None if ctx.is_wild(held.card) else held.card)
        options.append([place for place in free if stands is None or Card(rank_at(place), suit) == stands])
    for choice in itertools.product(*options):
        if len(set(choice)) < len(choice):
            continue
        added = [(place, held.card, Card(rank_at(place), suit)) for place, held in zip(choice, laid, strict=True)]
        new = _run(suit, [*cells, *added])
        if run_ok(new[2], ctx):  # type: ignore[arg-type]
            yield new, tuple((card, place, stands) for place, card, stands in added)


def layoff_results(
    readings: frozenset[Layout], laid: Sequence[MeldCard], ctx: Ctx
) -> dict[tuple[object, ...], frozenset[Layout]]:
    """Per placement of the cards laid off, the readings that stay open after it (D13)."""
    results: dict[tuple[object, ...], set[Layout]] = {}
    for layout in readings:
        for new, placement in extensions(layout, laid, ctx):
            results.setdefault(_placement_key(placement, ctx), set()).add(new)
    return {placement: frozenset(layouts) for placement, layouts in results.items()}


def _placement_key(placement: Placement, ctx: Ctx) -> tuple[object, ...]:
    """What a lay-off fixes: a natural laid off stands for itself whatever the reading (an ace at
    the end it took); a wild keeps its place in a run, and stands for no rank in particular in a set."""
    items: list[tuple[object, ...]] = []
    for card, place, stands in placement:
        if not ctx.is_wild(card):  # an ace laid in a run keeps its end
            items.append(("natural", card.sort_key, place if card.rank is Rank.ACE else 0))
        elif place == 0:
            items.append(("set", card.sort_key))
        else:
            items.append(("run", card.sort_key, place, str(stands)))
    return tuple(sorted(items, key=str))


def can_lay_off(readings: frozenset[Layout], laid: Sequence[MeldCard], ctx: Ctx) -> bool:
    return any(True for layout in readings for _ in extensions(layout, laid, ctx))


# --- the least penalty with lay-offs (D7) ----------------------------------------------------------


@dataclass(frozen=True)
class Best:
    penalty: int
    fewest_laid: int  # among the ways reaching that penalty (D11)


def reference_best_layoffs(
    hand: Sequence[Card], table: Sequence[frozenset[Layout]], rules: RuleSet, info: RoundInfo
) -> Best:
    """Every card of the hand sent to one of the declarer's melds or kept; the kept cards arranged
    by the reference solver. The penalty, and the fewest cards laid off to reach it."""
    if not rules.options.lay_offs or not table:
        return Best(reference_best(hand, rules, info), 0)
    ctx = ctx_of(rules, info)
    cards = sorted(hand, key=lambda card: card.sort_key)
    kept_cache: dict[tuple[Card, ...], int] = {}
    ok_cache: dict[tuple[int, tuple[Card, ...]], bool] = {}
    best: tuple[int, int] | None = None
    for targets in itertools.product(range(len(table) + 1), repeat=len(cards)):
        legal = True
        for index, readings in enumerate(table, start=1):
            laid = tuple(card for card, target in zip(cards, targets, strict=True) if target == index)
            if not laid:
                continue
            key = (index, laid)
            if key not in ok_cache:
                ok_cache[key] = can_lay_off(readings, [MeldCard(card) for card in laid], ctx)
            if not ok_cache[key]:
                legal = False
                break
        if not legal:
            continue
        kept = tuple(card for card, target in zip(cards, targets, strict=True) if target == 0)
        if kept not in kept_cache:
            kept_cache[kept] = reference_best(kept, rules, info)
        found = (kept_cache[kept], len(cards) - len(kept))
        if best is None or found < best:
            best = found
    assert best is not None
    return Best(*best)
