"""Combining a hand's parts (D7): its naturals split into components that could never share a
meld, each searched by engine.solver.search, and their answers put together.

`components` groups the naturals; `shared_component` hands out a solved component shared across
hands (a table sees the same small groups again and again); `solve_split` gives one natural/wild
split of a hand its least leftover value, melds and leftovers, combining the components' vectors
(least leftover value per number of wilds melded) by min-plus convolution, with the lone naturals'
and the all-wild melds' vectors; the melded wilds are always the dearest.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import NamedTuple

from engine.caches import cache
from engine.cards import Card
from engine.deck import ACE_HIGH, ACE_LOW, SUIT_FIRST
from engine.meldrules import MeldRules
from engine.solver.records import CODE_OF, INF, MAX_RUN, Choice, Code, Split, lay_out_from, new
from engine.solver.search import ACE, SETS, Component


class Parts(NamedTuple):
    """A hand's components, in parallel lists (a record per component showed in the hand
    benchmark): each shared component, the state of the hand's cards in it, and those cards by the
    component's indexes."""

    searched: list[Component]
    states: list[int]
    cards: list[list[Card]]


def components(codes: list[Code], wild_count: int, settings: MeldRules, tight: bool = False) -> list[list[int]]:
    """Group distinct naturals that could share a meld (same rank, or same suit within reach).

    `codes` come suit by suit, ranks ascending (aces first), so joining each card to the last
    card before it of its rank, and of its suit by place, connects the same groups as joining
    every pair that could share a meld. Groups come by their first card, cards in order.

    Within reach means as many places apart as the wilds can bridge, plus one. `tight`: where no
    two wilds may lie side by side, a run bridges one place at most between two naturals (smaller
    groups, searched apart, for the lay-off search). `arrange` keeps the groups made by the wild
    count alone, whose ties fall as they always have."""
    reach = min(wild_count, 1) + 1 if tight and settings.no_adjacent else wild_count + 1
    ace_places = settings.ace_places
    aces_high, aces_low = ACE_HIGH in ace_places, ACE_LOW in ace_places
    group_of = list(range(len(codes)))  # per card, an earlier card of its group (itself for the first)
    last_of_rank = [-1] * (ACE_HIGH + 1)
    last_suit = high_ace = last_index = -1
    last_place = -MAX_RUN  # the place and card last seen in the current suit
    for index, (suit, rank) in enumerate(codes):
        mate = last_of_rank[rank]
        last_of_rank[rank] = index
        if mate >= 0:
            _join(group_of, mate, index)
        if suit != last_suit:
            _link_high_ace(group_of, high_ace, last_index, last_place, reach)
            last_suit, high_ace, last_index, last_place = suit, -1, -1, -MAX_RUN
        if rank == ACE:
            high_ace = index if aces_high else -1
            if aces_low:
                last_index, last_place = index, ACE_LOW
            continue
        if rank - last_place <= reach:
            _join(group_of, last_index, index)
        last_index, last_place = index, rank
    _link_high_ace(group_of, high_ace, last_index, last_place, reach)
    groups: dict[int, list[int]] = {}
    for index, earlier in enumerate(group_of):
        first = group_of[earlier]  # the earlier card already points at its group's first card
        group_of[index] = first
        if first == index:
            groups[index] = [index]
        else:
            groups[first].append(index)
    return list(groups.values())


def _join(group_of: list[int], one: int, two: int) -> None:
    """Put two cards' groups together, under the earlier of their first cards."""
    while group_of[one] != one:
        one = group_of[one]
    while group_of[two] != two:
        two = group_of[two]
    if one < two:
        group_of[two] = one
    elif two < one:
        group_of[one] = two


def _link_high_ace(group_of: list[int], ace: int, last_index: int, last_place: int, reach: int) -> None:
    """Join a suit's ace, as the place above the king, to the suit's highest card if in reach."""
    if ace >= 0 and last_index >= 0 and ACE_HIGH - last_place <= reach:
        _join(group_of, ace, last_index)


# Solved components, shared across hands: a table sees the same small groups again and again.
_SOLVED: dict[tuple[object, ...], Component] = cache("solved components")
_SOLVED_LIMIT = 20_000


def shared_component(
    codes: tuple[Code, ...], values: tuple[int, ...], wild_count: int, settings: MeldRules, wild_value: int
) -> Component:
    """The component of these cards (`codes` in the search's order, with their points) under these
    rules, for `wild_count` wilds the dearest of which scores `wild_value`: made once, then shared
    (the key holds everything the search reads)."""
    key = (codes, values, wild_count, settings.search_key, wild_value)
    component = _SOLVED.get(key)
    if component is None:
        if len(_SOLVED) >= _SOLVED_LIMIT:
            _SOLVED.clear()
            SETS.clear()
        component = _SOLVED[key] = Component(codes, values, wild_count, settings, wild_value)
    return component


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


def convolve_all(vectors: list[list[int]], size: int) -> tuple[list[int], list[list[int]]]:
    """The least value per number of wilds over all the vectors, and each convolution's split."""
    total = vectors[0] if vectors else [0] + [INF] * (size - 1)
    splits = []
    for vector in vectors[1:]:
        total, split = _convolve(total, vector, size)
        splits.append(split)
    return total, splits


def loners_vector(values: list[int], size: int) -> list[int]:
    """Lone naturals (values high to low) when melds have no wild limit: with k wilds, the
    k // 2 dearest each make a set with two wilds, and any spare wild joins one of them."""
    total = sum(values)
    vector = [total] + [INF] * (size - 1)
    for k in range(2, size):
        if values:
            vector[k] = total - sum(values[: k // 2])
    return vector


def _rebuild_loners(
    loners: list[Card], wilds: int, wild_pool: list[Card], melds: list[tuple[Card, ...]], unmelded: list[Card]
) -> None:
    pairs = min(wilds // 2, len(loners))
    for index, card in enumerate(loners):
        if index >= pairs:
            unmelded.append(card)
            continue
        take = wilds - 2 * (pairs - 1) if index == 0 else 2
        melds.append((card, *wild_pool[:take]))
        del wild_pool[:take]


def all_wild_vector(size: int, allowed: bool) -> list[int]:
    return [0 if k == 0 or (allowed and k >= 3) else INF for k in range(size)]


def solve_split(
    naturals: dict[int, int],
    card_of: dict[int, Card],
    wilds: list[Card],
    values: Sequence[int],
    settings: MeldRules,
    all_wild: bool,
    out_only: bool = False,
) -> Split:
    """Least leftover value (no multiplier), the melds and the leftovers, for one natural/wild split.

    Naturals are counted by card code; `values` gives each code's points. `out_only`: only ways
    that meld every card are looked for; the answer is exact where it is 0.
    """
    wild_values = dearest_first(wilds, values)
    wild_count = len(wilds)
    top_wild = values[wild_values[0].code] if wilds else 0
    # The search takes each component's cards suit by suit, ranks ascending (aces first).
    distinct = sorted(naturals, key=SUIT_FIRST.__getitem__)
    codes = [CODE_OF[code] for code in distinct]
    parts = new(Parts, ([], [], []))
    searched, states, held = parts
    loners: list[int] = []
    for group in components(codes, wild_count, settings):
        if len(group) == 1 and naturals[distinct[group[0]]] == 1:
            loners.append(distinct[group[0]])
            continue
        group_codes, group_values, cards = [], [], []
        state = shift = 0
        for index in group:  # one pass: lists built with a comprehension each cost more here
            code = distinct[index]
            group_codes.append(codes[index])
            group_values.append(values[code])
            cards.append(card_of[code])
            state |= naturals[code] << shift
            shift += 2
        searched.append(shared_component(tuple(group_codes), tuple(group_values), wild_count, settings, top_wild))
        states.append(state)
        held.append(cards)
    return _combine(parts, loners, card_of, wild_values, values, settings, all_wild, out_only)


def _combine(
    parts: Parts,
    loners: list[int],
    card_of: dict[int, Card],
    wild_values: list[Card],
    values: Sequence[int],
    settings: MeldRules,
    all_wild: bool,
    out_only: bool = False,
) -> Split:
    """solve_split's answer from its parts (the components), the lone naturals' codes, and the wild
    cards dearest first."""
    wild_count = len(wild_values)
    size = wild_count + 1
    vectors = []
    melds_out: list[Callable[[int], bool]] = []  # out_only: the components' answers, read as needed
    for component, state in zip(parts.searched, parts.states, strict=True):
        if out_only:
            melds_out.append(functools.partial(component.melds_out, state))
        else:
            vectors.append(component.solve(state))
    loners = sorted(loners, key=values.__getitem__, reverse=True)
    fixed_cost = 0
    if settings.limit:  # a lone natural needs two wilds, more than it may hold
        unmelded = [card_of[code] for code in loners]
        fixed_cost = sum([values[code] for code in loners])
        loners = []
    else:
        unmelded = []
    # Vectors that only allow k = 0 change nothing in the convolution, so they are left out.
    has_loners = bool(loners) and wild_count >= 2
    has_all_wild = all_wild and wild_count >= 3
    if has_loners:
        vectors.append(loners_vector([values[code] for code in loners], size))
    if has_all_wild:
        vectors.append(all_wild_vector(size, all_wild))
    leftover = fixed_cost + sum([values[card.code] for card in wild_values])
    if not has_loners:
        leftover += sum([values[code] for code in loners])
        unmelded.extend(card_of[code] for code in loners)
    if out_only:
        melds_out += [functools.partial(_costs_nothing, vector) for vector in vectors]
        found = _out_split(melds_out, leftover, [values[card.code] for card in wild_values])
        if found is None:
            return new(Split, (INF, [], []))  # not every card melds: only the full search says how few are left
        best_cost, (melded_wilds, shares) = 0, found
    else:
        total, splits = convolve_all(vectors, size)
        best_cost, melded_wilds = wilds_melded(total, leftover, wild_values, values)
        shares = shares_of(melded_wilds, splits) if vectors else []
    melds: list[tuple[Card, ...]] = []
    wild_pool = wild_values[:melded_wilds]
    searched = parts.searched
    for component, state, cards, share in zip(searched, parts.states, parts.cards, shares, strict=False):
        choose = component.out_choice if out_only else component.choice
        rebuild(choose, state, cards, share, wild_pool, melds, unmelded)
    lone_cards = [card_of[code] for code in loners] if has_loners else None
    rebuild_extras(shares[len(searched) :], lone_cards, has_all_wild, wild_pool, melds, unmelded)
    unmelded.extend(wild_values[melded_wilds:])
    return new(Split, (best_cost, melds, unmelded))


def wilds_melded(total: list[int], leftover: int, wild_values: list[Card], values: Sequence[int]) -> tuple[int, int]:
    """The least leftover value and how many wilds are melded for it (ties go to more wilds), from
    `total` per number of wilds melded; `leftover`: the points left over that `total` does not
    count when no wild is melded, with every wild's."""
    best_cost, melded_wilds = INF, 0
    for k in range(len(wild_values) + 1):
        if k:
            leftover -= values[wild_values[k - 1].code]
        if total[k] < INF and total[k] + leftover <= best_cost:
            best_cost, melded_wilds = total[k] + leftover, k
    return best_cost, melded_wilds


def rebuild_extras(
    shares: list[int],
    loners: list[Card] | None,
    all_wild: bool,
    wild_pool: list[Card],
    melds: list[tuple[Card, ...]],
    unmelded: list[Card],
) -> None:
    """The melds of the vectors after the components', from their shares of the wilds: the lone
    naturals' (dearest first; None where they have no vector) and the all-wild melds'."""
    if loners is not None:
        _rebuild_loners(loners, shares.pop(0), wild_pool, melds, unmelded)
    if all_wild and shares[0]:
        melds.append(tuple(wild_pool[: shares[0]]))


def dearest_first(wilds: list[Card], values: Sequence[int]) -> list[Card]:
    """The wild cards, dearest first (ties in the order given)."""
    return sorted(wilds, key=lambda card: values[card.code], reverse=True) if len(wilds) > 1 else list(wilds)


def _costs_nothing(vector: list[int], wilds: int) -> bool:
    return not vector[wilds]


def _out_split(
    melds_out: list[Callable[[int], bool]], leftover: int, wild_values: list[int]
) -> tuple[int, list[int]] | None:
    """Going out: the number of wilds melded and each vector's share of them where every card
    melds, as the convolutions in `solve_split` find them; None where no way melds every card.
    `melds_out`: whether each vector's cards all meld with k wilds; `leftover`: the points left
    over when no wild is melded (the wilds', the others' that cannot meld)."""
    for melded_wilds in range(len(wild_values), -1, -1):  # ties go to more wilds melded
        if leftover > sum(wild_values[:melded_wilds]):
            return None
        shares = _out_shares(melds_out, melded_wilds)
        if shares is not None:
            return melded_wilds, shares
    return None


def _out_shares(melds_out: list[Callable[[int], bool]], total: int) -> list[int] | None:
    """Each vector's share of `total` wilds with which every card melds, as `shares_of` undoes the
    convolutions: the last vector takes what is left by the fewest wilds the ones before it can
    all meld with. None where there is no such split."""
    if not melds_out:
        return [] if not total else None
    known: dict[tuple[int, int], list[int] | None] = {}

    def split(count: int, wilds: int) -> list[int] | None:  # over the first `count` vectors
        if count == 1:
            return [wilds] if melds_out[0](wilds) else None
        if (count, wilds) not in known:
            known[count, wilds] = None
            for before in range(wilds + 1):
                if melds_out[count - 1](wilds - before) and (earlier := split(count - 1, before)) is not None:
                    known[count, wilds] = [*earlier, wilds - before]
                    break
        return known[count, wilds]

    return split(len(melds_out), total)


def shares_of(total: int, splits: list[list[int]]) -> list[int]:
    """Undo the convolutions: how many wilds each vector got."""
    shares = []
    for split in reversed(splits):
        share = split[total]
        shares.append(share)
        total -= share
    shares.append(total)
    return list(reversed(shares))


def rebuild(
    choose: Callable[[int, int], Choice | None],
    state: int,
    cards: list[Card],
    wilds: int,
    wild_pool: list[Card],
    melds: list[tuple[Card, ...]],
    unmelded: list[Card],
) -> None:
    """The choices `choose` makes for a solved state with `wilds` wilds melded, one after another:
    its leftovers go to `unmelded`, its melds to `melds`, laid out with wild cards taken from the
    front of `wild_pool`. `cards`: the component's cards by index."""
    # Solving the whole state solved every state the choices lead to.
    while state:
        choice = choose(state, wilds)
        assert choice is not None
        if isinstance(choice, int):
            unmelded.append(cards[choice])
            state -= 1 << 2 * choice
            continue
        lay_out_from(cards, choice, wild_pool, melds)
        state -= choice.taken
        wilds -= choice.wilds
