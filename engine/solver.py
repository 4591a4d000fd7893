"""The lowest-penalty arrangement of a hand (D7), and going out (D8).

The search is exact. Naturals that could never share a meld fall into separate
components; each component is solved by a memoised search over the multiset of
its remaining cards, which returns, for every number k of wild cards placed in its
melds, the least penalty of its leftover naturals. Components are then combined
by min-plus convolution. Wild cards are interchangeable in a meld, so the k wilds
melded are always the k most expensive ones.

>>> from engine.rules import rule_set
>>> from engine.schedule import round_info
>>> from engine.cards import parse_cards
>>> rules = rule_set("pay-me")
>>> result = best_arrangement(parse_cards("7H 8H JK 9S 9D KC"), rules, round_info(rules, 4))
>>> result.penalty, [str(card) for card in result.unmelded]
(25, ['7H', '8H', 'KC'])
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from engine.cards import Card, Rank, Suit
from engine.errors import CannotGoOut
from engine.melds import rank_at, rank_positions
from engine.penalties import base_penalty
from engine.rules import AceRule, RuleSet, WildLimit
from engine.schedule import RoundInfo

INF = 10**9
MAX_RUN = 13


@dataclass(frozen=True)
class Arrangement:
    """A split of a hand into melds and leftovers, with the leftovers' penalty."""

    melds: tuple[tuple[Card, ...], ...]
    unmelded: tuple[Card, ...]
    penalty: int

    def as_json(self) -> dict[str, object]:
        return {
            "penalty": self.penalty,
            "melds": [[str(card) for card in meld] for meld in self.melds],
            "unmelded": [str(card) for card in self.unmelded],
        }


@dataclass(frozen=True)
class Settings:
    """The meld rules the search needs, read once from a rule set."""

    ace: AceRule
    no_aces: bool
    limit: bool
    no_adjacent: bool
    distinct: bool

    @classmethod
    def of(cls, rules: RuleSet) -> Settings:
        options = rules.options
        return cls(
            ace=options.ace,
            no_aces=options.no_aces_in_runs,
            limit=options.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS,
            no_adjacent=options.no_adjacent_wilds,
            distinct=options.distinct_suit_sets,
        )

    @property
    def lowest(self) -> int:
        return 2 if self.no_aces or self.ace is AceRule.HIGH else 1

    @property
    def highest(self) -> int:
        return 13 if self.no_aces or self.ace is AceRule.LOW else 14

    def positions(self, rank: Rank) -> tuple[int, ...]:
        return rank_positions(rank, self.ace, self.no_aces)


@dataclass(frozen=True)
class _Meld:
    """A meld found by the search: naturals by index, wilds by count, and a run's layout."""

    used: tuple[int, ...]
    wilds: int
    suit: Suit | None = None  # None for a set
    layout: tuple[int | None, ...] = ()  # runs: each position's card index, None for a wild
    start: int = 0
    room_below: int = 0
    room_above: int = 0


Choice = tuple[int, _Meld | None]  # (card index left over, -1 for a meld; the meld)


@dataclass
class _Component:
    """A group of distinct naturals that may share melds, and its memoised search."""

    cards: list[Card]
    values: list[int]
    wild_count: int
    settings: Settings
    memo: dict[tuple[int, ...], tuple[list[int], list[Choice | None]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_rank: dict[Rank, list[int]] = {}
        self.at: dict[tuple[Suit, Rank], int] = {}
        for index, card in enumerate(self.cards):
            assert card.rank is not None and card.suit is not None
            self.by_rank.setdefault(card.rank, []).append(index)
            self.at[(card.suit, card.rank)] = index

    def solve(self, state: tuple[int, ...]) -> tuple[list[int], list[Choice | None]]:
        known = self.memo.get(state)
        if known is not None:
            return known
        size = self.wild_count + 1
        first = next((index for index, count in enumerate(state) if count), None)
        if first is None:
            result: tuple[list[int], list[Choice | None]] = ([0] + [INF] * (size - 1), [None] * size)
            self.memo[state] = result
            return result
        best = [INF] * size
        choices: list[Choice | None] = [None] * size
        rest, _ = self.solve(_minus(state, (first,)))
        for k in range(size):
            if rest[k] < INF:
                best[k] = rest[k] + self.values[first]
                choices[k] = (first, None)
        for meld in self._melds_with(first, state):
            rest, _ = self.solve(_minus(state, meld.used))
            for k in range(meld.wilds, size):
                total = rest[k - meld.wilds]
                if total < best[k]:
                    best[k] = total
                    choices[k] = (-1, meld)
        self.memo[state] = (best, choices)
        return best, choices

    def _melds_with(self, first: int, state: tuple[int, ...]) -> Iterator[_Meld]:
        yield from self._sets_with(first, state)
        yield from self._runs_with(first, state)

    def _sets_with(self, first: int, state: tuple[int, ...]) -> Iterator[_Meld]:
        card = self.cards[first]
        assert card.rank is not None
        mates = self.by_rank[card.rank]
        ranges = [range(state[index] - (1 if index == first else 0) + 1) for index in mates]
        for picks in itertools.product(*ranges):
            used = (first, *tuple(index for index, pick in zip(mates, picks, strict=True) for _ in range(pick)))
            naturals = len(used)
            suits = len({self.cards[index].suit for index in used})
            fewest = max(0, 3 - naturals, 3 - suits if self.settings.distinct else 0)
            most = min(naturals, self.wild_count) if self.settings.limit else self.wild_count
            for wilds in range(fewest, most + 1):
                yield _Meld(used, wilds)

    def _runs_with(self, first: int, state: tuple[int, ...]) -> Iterator[_Meld]:
        card = self.cards[first]
        assert card.rank is not None and card.suit is not None
        for position in self.settings.positions(card.rank):
            step = -1 if position == 14 else 1
            yield from self._walk(first, card.suit, position, step, state)

    def _walk(self, first: int, suit: Suit, start: int, step: int, state: tuple[int, ...]) -> Iterator[_Meld]:
        settings = self.settings
        lowest, highest = settings.lowest, settings.highest
        layout: list[int | None] = [first]
        used = [first]

        def extend(position: int, gaps: int, last_wild: bool) -> Iterator[_Meld]:
            if not lowest <= position <= highest or len(layout) >= MAX_RUN:
                return
            index = self.at.get((suit, rank_at(position)))
            if index is not None and state[index] - used.count(index) > 0:
                layout.append(index)
                used.append(index)
                yield from self._finish(suit, start, step, layout, used, gaps)
                yield from extend(position + step, gaps, False)
                layout.pop()
                used.pop()
            if gaps < self.wild_count and not (settings.no_adjacent and last_wild):
                layout.append(None)
                yield from extend(position + step, gaps + 1, True)
                layout.pop()

        yield from extend(start + step, 0, False)

    def _finish(
        self, suit: Suit, start: int, step: int, layout: list[int | None], used: list[int], gaps: int
    ) -> Iterator[_Meld]:
        settings = self.settings
        naturals = len(used)
        span = len(layout)
        end = start + step * (span - 1)
        low, high = min(start, end), max(start, end)
        room_below, room_above = low - settings.lowest, settings.highest - high
        if settings.no_adjacent:
            room_below, room_above = min(room_below, 1), min(room_above, 1)
        most_extra = min(room_below + room_above, MAX_RUN - span)
        ordered = tuple(layout) if step == 1 else tuple(reversed(layout))
        for extra in range(max(0, 3 - span), most_extra + 1):
            wilds = gaps + extra
            if wilds > self.wild_count or (settings.limit and wilds > naturals):
                break
            yield _Meld(tuple(used), wilds, suit, ordered, low, room_below, room_above)


def _minus(state: tuple[int, ...], used: Sequence[int]) -> tuple[int, ...]:
    counts = list(state)
    for index in used:
        counts[index] -= 1
    return tuple(counts)


def _components(cards: list[Card], wild_count: int, settings: Settings) -> list[list[Card]]:
    """Group distinct naturals that could share a meld (same rank, or same suit within reach)."""
    parent = list(range(len(cards)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    reach = wild_count + 1
    for one, two in itertools.combinations(range(len(cards)), 2):
        a, b = cards[one], cards[two]
        assert a.rank is not None and b.rank is not None
        near = a.suit == b.suit and any(
            abs(p - q) <= reach for p in settings.positions(a.rank) for q in settings.positions(b.rank)
        )
        if a.rank == b.rank or near:
            parent[root(one)] = root(two)
    groups: dict[int, list[Card]] = {}
    for index, card in enumerate(cards):
        groups.setdefault(root(index), []).append(card)
    return list(groups.values())


def _convolve(one: list[int], two: list[int], size: int) -> tuple[list[int], list[int]]:
    """Min-plus convolution; also returns, per total, how many wilds went to `two`."""
    best = [INF] * size
    split = [0] * size
    for a, cost_a in enumerate(one):
        if cost_a >= INF:
            continue
        for b in range(size - a):
            total = cost_a + two[b]
            if total < best[a + b]:
                best[a + b] = total
                split[a + b] = b
    return best, split


def _all_wild_vector(size: int, allowed: bool) -> list[int]:
    return [0 if k == 0 or (allowed and k >= 3) else INF for k in range(size)]


def _solve(
    naturals: Counter[Card], wilds: list[Card], value: Callable[[Card], int], settings: Settings, all_wild: bool
) -> tuple[int, list[tuple[Card, ...]], list[Card]]:
    """Least penalty (before multiplier), the melds and the leftovers, for one natural/wild split."""
    wild_values = sorted(wilds, key=value, reverse=True)
    size = len(wilds) + 1
    distinct = sorted(naturals, key=lambda card: card.sort_key)
    parts = []
    vectors = []
    for group in _components(distinct, len(wilds), settings):
        component = _Component(group, [value(card) for card in group], len(wilds), settings)
        state = tuple(naturals[card] for card in group)
        vector, _ = component.solve(state)
        parts.append((component, state))
        vectors.append(vector)
    vectors.append(_all_wild_vector(size, all_wild))
    total = vectors[0]
    splits = []
    for vector in vectors[1:]:
        total, split = _convolve(total, vector, size)
        splits.append(split)
    leftover_cost = [sum(value(card) for card in wild_values[k:]) for k in range(size)]
    scores = [total[k] + leftover_cost[k] if total[k] < INF else INF for k in range(size)]
    melded_wilds = min(range(size), key=lambda k: (scores[k], -k))
    shares = _shares(melded_wilds, splits)
    melds: list[tuple[Card, ...]] = []
    unmelded: list[Card] = []
    wild_pool = list(wild_values[:melded_wilds])
    for (component, state), share in zip(parts, shares[:-1], strict=True):
        _rebuild(component, state, share, wild_pool, melds, unmelded)
    if shares[-1]:
        melds.append(tuple(wild_pool[: shares[-1]]))
        del wild_pool[: shares[-1]]
    unmelded.extend(wild_values[melded_wilds:])
    return scores[melded_wilds], melds, unmelded


def _shares(total: int, splits: list[list[int]]) -> list[int]:
    """Undo the convolutions: how many wilds each vector got."""
    shares = []
    for split in reversed(splits):
        share = split[total]
        shares.append(share)
        total -= share
    shares.append(total)
    return list(reversed(shares))


def _rebuild(
    component: _Component,
    state: tuple[int, ...],
    wilds: int,
    wild_pool: list[Card],
    melds: list[tuple[Card, ...]],
    unmelded: list[Card],
) -> None:
    while any(state):
        _, choices = component.solve(state)
        choice = choices[wilds]
        assert choice is not None
        left, meld = choice
        if meld is None:
            unmelded.append(component.cards[left])
            state = _minus(state, (left,))
            continue
        taken = wild_pool[: meld.wilds]
        del wild_pool[: meld.wilds]
        melds.append(_lay_out(component, meld, taken))
        state = _minus(state, meld.used)
        wilds -= meld.wilds


def _lay_out(component: _Component, meld: _Meld, wilds: list[Card]) -> tuple[Card, ...]:
    """The meld's cards in reading order: runs ascending, with wilds in their places."""
    if meld.suit is None:
        return tuple(component.cards[index] for index in meld.used) + tuple(wilds)
    in_gaps = sum(1 for index in meld.layout if index is None)
    extra = len(wilds) - in_gaps
    above = min(extra, meld.room_above)
    below = extra - above
    pool = iter(wilds)
    cards = [next(pool) for _ in range(below)]
    cards += [component.cards[index] if index is not None else next(pool) for index in meld.layout]
    cards += [next(pool) for _ in range(above)]
    return tuple(cards)


def _flex_splits(flex: list[Card]) -> Iterator[list[Card]]:
    """Every way to pick which of the wild cards that may stand for themselves do so."""
    groups = Counter(flex)
    cards = list(groups)
    for counts in itertools.product(*(range(groups[card] + 1) for card in cards)):
        yield [card for card, count in zip(cards, counts, strict=True) for _ in range(count)]


def arrange(hand: Sequence[Card], rules: RuleSet, info: RoundInfo, value: Callable[[Card], int]) -> Arrangement:
    """The arrangement of a hand with the least total `value` of leftovers (no multiplier)."""
    settings = Settings.of(rules)
    naturals = Counter(card for card in hand if not info.is_wild(card))
    wilds = [card for card in hand if info.is_wild(card)]
    flex = [card for card in wilds if card.rank is not None] if rules.options.wild_in_place_natural else []
    all_wild = rules.options.wild_limit is WildLimit.NONE
    best: tuple[int, list[tuple[Card, ...]], list[Card]] | None = None
    for selves in _flex_splits(flex):
        remaining = list(wilds)
        for card in selves:
            remaining.remove(card)
        found = _solve(naturals + Counter(selves), remaining, value, settings, all_wild)
        if best is None or found[0] < best[0]:
            best = found
    assert best is not None
    penalty, melds, unmelded = best
    return Arrangement(tuple(melds), tuple(sorted(unmelded, key=lambda card: card.sort_key)), penalty)


def best_arrangement(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> Arrangement:
    """The split of a hand with the least penalty for its leftovers, multiplier applied (D7)."""
    table = rules.options.penalty_table

    def value(card: Card) -> int:
        return base_penalty(card, table, info.is_wild(card))

    found = arrange(hand, rules, info, value)
    return Arrangement(found.melds, found.unmelded, found.penalty * info.multiplier)


# --- going out ------------------------------------------------------------------


@dataclass(frozen=True)
class GoingOut:
    """How a declarer's cards meld: the melds and the final discard, if any."""

    melds: tuple[tuple[Card, ...], ...]
    discard: Card | None

    def as_json(self) -> dict[str, object]:
        return {
            "melds": [[str(card) for card in meld] for meld in self.melds],
            "discard": str(self.discard) if self.discard else None,
        }


def _count_leftovers(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> Arrangement:
    return arrange(hand, rules, info, lambda card: 1)


def going_out(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> GoingOut:
    """One way the declarer's cards all meld, with a discard where needed; raises CannotGoOut.

    A hand of the round's deal size has already discarded (or needs no discard); one card
    more must discard one where the rules require it, and may where they allow it.
    """
    hand = list(hand)
    dealt = info.cards
    if len(hand) not in (dealt, dealt + 1):
        raise CannotGoOut(
            f"In round {info.number} a player going out shows {dealt} cards, or {dealt + 1} before "
            f"the final discard; {len(hand)} cards were given."
        )
    must_discard = rules.options.discard_to_go_out and len(hand) == dealt + 1
    if not must_discard:
        whole = _count_leftovers(hand, rules, info)
        if not whole.unmelded:
            return GoingOut(whole.melds, None)
        if len(hand) == dealt:
            raise CannotGoOut(f"These cards cannot all be melded: at best {_cards(whole.unmelded)} stay unmelded.")
    best_try: Arrangement | None = None
    for discard in dict.fromkeys(sorted(hand, key=lambda card: card.sort_key)):
        rest = list(hand)
        rest.remove(discard)
        found = _count_leftovers(rest, rules, info)
        if not found.unmelded:
            return GoingOut(found.melds, discard)
        if best_try is None or len(found.unmelded) < len(best_try.unmelded):
            best_try = found
    assert best_try is not None
    raise CannotGoOut(
        f"These cards cannot all be melded, even with one discarded: at best {_cards(best_try.unmelded)} stay unmelded."
    )


def verify_going_out(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> GoingOut:
    """Alias of going_out, named for the verify/can/act trio: raises CannotGoOut with the reason."""
    return going_out(hand, rules, info)


def can_go_out(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> bool:
    """Whether the declarer's cards all meld, with or without a discard as the rules allow."""
    try:
        going_out(hand, rules, info)
    except CannotGoOut:
        return False
    return True


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)
