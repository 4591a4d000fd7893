"""The lay-off mechanics as they were before they were made faster (candidate lay-offs, the
quick and full lay-off checks, where each card laid off went), kept here to check the engine's
faster ones against: the same candidates in the same order, the same extended melds, the same
placements.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from engine.cards import Card, MeldCard, Rank, Suit
from engine.deck import WIDE_BITS as _BITS
from engine.deck import WIDE_FIELD as _FIELD
from engine.deck import takes_more as _over
from engine.errors import IllegalLayoff
from engine.layoff_candidates import Candidate as _Candidate
from engine.layoff_check import _QUIET, _distance
from engine.layoff_check import extend_reading as _extend
from engine.layoff_quick import _UNSURE
from engine.layoff_search import _LayoffSearch
from engine.layoffs import Place, Placement, TableMeld
from engine.meldrules import wild_table as _wild_codes
from engine.melds import MAX_RUN, MeldKind, rank_positions, run_range, set_with_free_wilds_placed
from engine.rules import RuleSet, WildLimit
from engine.schedule import RoundInfo
from engine.tablemeld import _PLACE_CARD, _SUIT_ROWS


def _wild_groups(
    cards: Mapping[Card, int], rules: RuleSet, wild: list[bool], values: Sequence[int]
) -> list[tuple[Card, ...]]:
    """The groups of the hand's wild cards worth laying off.

    Wilds are interchangeable, so shedding n of them means shedding the n dearest, except when a
    wild may count as natural in its own place (wild_in_place_natural): then every sub-multiset.
    """
    distinct = [card for card, count in cards.items() if count and wild[card.code]]
    if len(distinct) > 1:
        distinct.sort(key=lambda card: -values[card.code])
    wilds = [card for card in distinct for _ in range(cards[card])]
    if not rules.options.wild_in_place_natural:
        return [tuple(wilds[:count]) for count in range(len(wilds) + 1)]
    picks = itertools.product(*(range(cards[card] + 1) for card in distinct))
    return [tuple(card for card, pick in zip(distinct, counts, strict=True) for _ in range(pick)) for counts in picks]


def _layoff_candidates(
    meld: TableMeld, cards: Mapping[Card, int], rules: RuleSet, info: RoundInfo, values: Sequence[int]
) -> list[tuple[Card, ...]]:
    """Groups of hand cards that could extend the meld, on any reading still open (D13);
    verify_layoff decides which are legal."""
    wild = _wild_codes(info)
    wild_groups = _wild_groups(cards, rules, wild, values)
    naturals = {card: count for card, count in cards.items() if not wild[card.code]}
    if not meld.is_open:
        return _reading_candidates(meld, naturals, rules, wild_groups)
    groups: dict[tuple[Card, ...], None] = {}  # as a set in the order first made
    for reading in meld.readings:
        groups.update(dict.fromkeys(_reading_candidates(reading, naturals, rules, wild_groups)))
    return list(groups)


def _reading_candidates(
    meld: TableMeld, naturals_in_hand: Mapping[Card, int], rules: RuleSet, wild_groups: list[tuple[Card, ...]]
) -> list[tuple[Card, ...]]:
    if meld.kind is MeldKind.RUN:
        return _run_candidates(meld, naturals_in_hand, rules, wild_groups)
    rank = meld.read_as[0].rank
    mates = [card for card in naturals_in_hand if card.rank == rank]
    groups: list[tuple[Card, ...]] = []
    for picks in itertools.product(*(range(naturals_in_hand[card] + 1) for card in mates)):
        naturals = tuple(card for card, pick in zip(mates, picks, strict=True) for _ in range(pick))
        groups.extend(naturals + extra for extra in wild_groups if naturals or extra)
    return groups


def _run_candidates(
    meld: TableMeld, naturals: Mapping[Card, int], rules: RuleSet, wild_groups: list[tuple[Card, ...]]
) -> list[tuple[Card, ...]]:
    """Extensions of a run outward from its ends: at each place the natural card itself, or a wild."""
    suit = meld.read_as[0].suit
    assert suit is not None
    lowest, highest = run_range(rules.options.ace, rules.options.no_aces_in_runs)
    low, high = meld.positions[0], meld.positions[-1]
    row = _SUIT_ROWS[suit]  # the card at place p is row[p - 1]
    below = row[lowest - 1 : low - 1][::-1]
    above = row[high:highest]
    by_size: list[list[tuple[Card, ...]]] = []  # the wild groups by their number of cards, in order
    for group in wild_groups:
        while len(by_size) <= len(group):
            by_size.append([])
        by_size[len(group)].append(group)
    most_wilds = len(by_size) - 1
    held = {card.code for card, count in naturals.items() if count > 0}
    highs: dict[int, list[tuple[tuple[Card, ...], int]]] = {}  # the ways above, per wilds left for them
    groups: dict[tuple[Card, ...], None] = {}  # as a set in the order first made
    for low_naturals, low_wilds in _outward(below, held, most_wilds):
        budget = most_wilds - low_wilds
        if budget not in highs:
            highs[budget] = _outward(above, held, budget)
        for high_naturals, high_wilds in highs[budget]:
            for extra in by_size[low_wilds + high_wilds]:
                groups[low_naturals + high_naturals + extra] = None
    groups.pop((), None)
    return list(groups)


def _outward(places: list[Card], held: set[int], wild_budget: int) -> list[tuple[tuple[Card, ...], int]]:
    """Every way to fill the first n places beyond a run's end: (naturals used, wilds used). `held`:
    the codes of the naturals in hand. The places hold distinct cards, so each is used at most once."""
    ways: list[tuple[tuple[Card, ...], int]] = [((), 0)]
    frontier = list(ways)
    for card in places:
        grown: list[tuple[tuple[Card, ...], int]] = []
        in_hand = card.code in held
        for naturals, used_wilds in frontier:
            if in_hand:
                grown.append(((*naturals, card), used_wilds))
            if used_wilds < wild_budget:
                grown.append((naturals, used_wilds + 1))
        if not grown:
            break
        ways.extend(grown)
        frontier = grown
    return ways


def candidates(search: _LayoffSearch, index: int, counts: int) -> list[_Candidate]:
    """_LayoffSearch._candidates as it was: the groups of _layoff_candidates, each card of each
    counted one by one, dearest first (ties in the order made)."""
    keys = search.keys
    cards = {keys[at]: count for at in search.relevant[index] if (count := counts >> _BITS * at & _FIELD)}
    made = []
    groups = _layoff_candidates(search.declarer[index], cards, search.rules, search.info, search.values)
    later = search.later_sets[index + 1]
    at = {card.code: where for where, card in enumerate(keys)}  # the index of each distinct card
    for order, used in enumerate(groups):
        taken = shed = natural_shed = later_shed = wilds = 0
        for card in used:
            where = at[card.code]
            taken += 1 << _BITS * where
            shed += search.values[card.code]
            if search.wild[card.code]:
                wilds += 1
            else:
                natural_shed += search.values[card.code]
                if where in later:
                    later_shed += search.values[card.code]
        if _over(counts, taken):
            continue  # one ace at both ends of a run (ace both ways): never legal (D14)
        made.append((order, used, shed, taken, wilds, natural_shed, later_shed))
    made.sort(key=lambda candidate: -candidate[2])
    return made


def _layoff_or_none(meld: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> TableMeld | None:
    """The meld as extended by the lay-off, or None where no reading takes the cards."""
    extended = [after for reading in meld.readings if (after := _extend_or_none(reading, cards, rules, info))]
    if not extended:
        return None
    # A laid-off wild goes to the upper end of a run (D11); the first reading wins a tie.
    chosen = max(extended, key=lambda after: _height(meld, after, info)) if len(extended) > 1 else extended[0]
    return _still_open(meld, chosen, rules, info)


def _extend_or_none(
    reading: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo
) -> TableMeld | None:
    """What _extend gives, or None where it refuses; decided without the full meld check where the
    quick one is sure (see _quick_extend), as a lay-off search asks this many times per hand."""
    quick = _quick_extend(reading, cards, rules, info)
    if quick is not _UNSURE:
        return quick
    try:
        return _extend(reading, cards, rules, info, _QUIET)
    except IllegalLayoff:
        return None


def _added(before: TableMeld, after: TableMeld) -> list[tuple[Card, Card, int]]:
    """The cards a lay-off added: (card, what it stands for, place or 0 in a set)."""
    if after.kind is MeldKind.RUN:
        return _added_to_run(before, after)
    cells = Counter(zip(after.cards, after.read_as, after.positions or (0,) * len(after.cards), strict=True))
    for reading in before.readings:
        old = Counter(zip(reading.cards, reading.read_as, reading.positions or (0,) * len(reading.cards), strict=True))
        if reading.kind is after.kind and not old - cells:
            return sorted((cells - old).elements(), key=lambda cell: cell[2])
    return []


def _added_to_run(before: TableMeld, after: TableMeld) -> list[tuple[Card, Card, int]]:
    """_added for a run, whose every place holds one card: the cells at places the first reading
    the run extends did not have, in place order."""
    cells = dict(zip(after.positions, zip(after.cards, after.read_as, strict=True), strict=True))
    for reading in before.readings:
        if reading.kind is MeldKind.RUN and all(
            cells.get(place) == cell
            for place, cell in zip(reading.positions, zip(reading.cards, reading.read_as, strict=True), strict=True)
        ):
            kept = set(reading.positions)
            added = [(card, stands, place) for place, (card, stands) in cells.items() if place not in kept]
            return sorted(added, key=lambda cell: cell[2])
    return []


def _height(before: TableMeld, after: TableMeld, info: RoundInfo) -> int:
    """How high the laid-off wild cards stand: runs above sets, upper places above lower ones."""
    if after.kind is MeldKind.SET:
        return -1
    return sum(place for card, _, place in _added(before, after) if info.is_wild(card))


def _still_open(before: TableMeld, chosen: TableMeld, rules: RuleSet, info: RoundInfo) -> TableMeld:
    """The extended meld, keeping open every other reading on which the same lay-off fits (D13).

    A natural card laid off only stands for itself, so it fixes nothing more than that; a wild laid
    off in a run keeps the place it took, and one laid on a set stands for no rank in particular."""
    if not before.is_open:
        return chosen
    added = _added(before, chosen)
    wilds = _wild_cells(added, chosen, info)
    pinned = tuple(
        MeldCard(card, stands) if info.is_wild(card) and chosen.kind is MeldKind.RUN else MeldCard(card)
        for card, stands, _ in added
    )
    others = []
    for reading in before.readings:
        if wilds and reading.kind is not chosen.kind:
            continue
        after = _extend_or_none(
            reading,
            pinned if reading.kind is chosen.kind else tuple(map(MeldCard, (c for c, _, _ in added))),
            rules,
            info,
        )
        if after is None:
            continue
        if after != chosen and _wild_cells(_added(reading, after), after, info) == wilds:
            others.append(after)
    if not others:
        return chosen
    return replace(chosen, others=tuple(others), written=before.written + pinned)


def _wild_cells(added: list[tuple[Card, Card, int]], after: TableMeld, info: RoundInfo) -> list[tuple[Card, Card, int]]:
    """What a lay-off fixed: the wild cards it added with the place each took in a run (nothing in
    a set), and the end an ace took."""
    if after.kind is MeldKind.SET:
        return sorted(
            ((card, Card.JOKER, 0) for card, _, _ in added if info.is_wild(card)), key=lambda cell: cell[0].sort_key
        )
    return [cell for cell in added if info.is_wild(cell[0]) or cell[0].rank is Rank.ACE]


def _quick_extend(reading: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> TableMeld | None:
    """_extend's answer (None for a refusal), or _UNSURE."""
    if rules.options.wild_in_place_natural:
        return _UNSURE
    for held in cards:
        if held.role is not None and not info.is_wild(held.card):
            return _UNSURE  # refused by the full check, in its own words
    if reading.kind is MeldKind.SET:
        return _quick_set(reading, cards, rules, info)
    return _quick_run(reading, cards, rules, info)


def _quick_set(meld: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> TableMeld | None:
    rank = meld.read_as[0].rank
    for held in cards:
        stands = held.role or held.card
        if (held.role or not info.is_wild(held.card)) and stands.rank != rank:
            return None
    combined = meld.meld_cards + cards
    read_as: list[Card | None] = []
    fixed = 0
    for held in combined:
        if held.role is not None or not info.is_wild(held.card):
            read_as.append(held.role or held.card)
            fixed += 1
        elif held.card.rank == rank:
            read_as.append(held.card)  # a wild of the set's rank stands for itself
        else:
            read_as.append(None)
    if fixed < 2:
        return _UNSURE
    assert rank is not None  # a set's reading always has its rank
    filled = set_with_free_wilds_placed(read_as, rank)  # as the full check reads a set
    wilds = sum(1 for held in combined if info.is_wild(held.card))
    if rules.options.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS and 2 * wilds > len(combined):
        return None
    if rules.options.distinct_suit_sets and len({card.suit for card in filled}) < 3:
        return _UNSURE
    return TableMeld(MeldKind.SET, tuple(held.card for held in combined), tuple(filled))


def _quick_run(meld: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> TableMeld | None:
    """_extend_run step by step, each extended run judged by _quick_place_run."""
    suit = meld.read_as[0].suit
    assert suit is not None
    ace, no_aces = rules.options.ace, rules.options.no_aces_in_runs
    occupied = set(meld.positions)
    placed: list[tuple[MeldCard, tuple[int, ...]]] = []
    free: list[MeldCard] = []
    for held in cards:
        if held.role is None and info.is_wild(held.card):
            free.append(held)
            continue
        stands = held.role or held.card
        if stands.suit != suit:
            return None
        assert stands.rank is not None
        outside = tuple(place for place in rank_positions(stands.rank, ace, no_aces) if place not in occupied)
        if not outside:
            return None
        placed.append((held, tuple(sorted(outside, key=lambda place: _distance(place, meld.positions)))))
    for choice in itertools.product(*(places for _, places in placed)):
        if len(set(choice)) < len(choice):
            continue
        fixed = {place: held for place, (held, _) in zip(choice, placed, strict=True)}
        found = _quick_place_run(meld, fixed, free, suit, rules, info)
        if found is not None:
            return found
    return None


def _quick_place_run(
    meld: TableMeld, fixed: dict[int, MeldCard], free: list[MeldCard], suit: Suit, rules: RuleSet, info: RoundInfo
) -> TableMeld | None:
    """_place_run, each extended run judged on its places as the full meld check would judge it:
    where every card has its place (a wild standing for itself is written without one, but the
    full check reads it where it is written when that is legal and two other cards fix the run),
    that check comes down to the range of places, the length, the wild limit and the side-by-side
    rule; otherwise it may read the cards another way, and the answer is _UNSURE."""
    taken = set(meld.positions) | set(fixed)
    low, high = min(taken), max(taken)
    gaps = [place for place in range(low, high + 1) if place not in taken]
    if len(gaps) > len(free):
        return None
    extras = len(free) - len(gaps)
    lowest, highest = run_range(rules.options.ace, rules.options.no_aces_in_runs)
    limit = rules.options.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS
    apart = rules.options.no_adjacent_wilds
    # The places of the wild cards already there, and how many wilds stand for themselves.
    wild = _wild_codes(info)
    wild_places = []
    selves = 0
    for place, card, stands in zip(meld.positions, meld.cards, meld.read_as, strict=True):
        if wild[card.code]:
            wild_places.append(place)
            selves += card.code == stands.code
    for place, held in fixed.items():
        if wild[held.card.code]:
            wild_places.append(place)
            selves += held.role is None or held.role.code == held.card.code
    for above in range(extras, -1, -1):
        below = extras - above
        if low - below < 1 or high + above > 14:
            continue
        places = gaps + [low - n for n in range(1, below + 1)] + [high + n for n in range(1, above + 1)]
        own = selves + sum(
            1 for place, held in zip(places, free, strict=True) if held.card.code == _PLACE_CARD[place, suit].code
        )
        count = high + above - (low - below) + 1
        wilds = sorted(wild_places + places)
        legal = (
            count <= MAX_RUN
            and lowest <= low - below
            and high + above <= highest
            and not (limit and 2 * len(wilds) > count)
            and not (apart and any(b - a == 1 for a, b in itertools.pairwise(wilds)))
        )
        if legal and count - own >= 2:
            layout = {place: (held.card, held.role or held.card) for place, held in fixed.items()}
            layout.update(
                (place, (held.card, _PLACE_CARD[place, suit])) for place, held in zip(places, free, strict=True)
            )
            layout.update(zip(meld.positions, zip(meld.cards, meld.read_as, strict=True), strict=True))
            positions = tuple(range(low - below, high + above + 1))
            return TableMeld(
                MeldKind.RUN,
                tuple(layout[place][0] for place in positions),
                tuple(layout[place][1] for place in positions),
                positions,
            )
        if own or count - own < 2 or count == MAX_RUN:
            return _UNSURE  # the full check may read the cards otherwise (an ace at the other end)
    return None


def placements(before: TableMeld, after: TableMeld, meld: int) -> tuple[Placement, ...]:
    """Where each card a lay-off added to meld `meld` (0-based) went, lowest place first."""
    added = _added(before, after)
    if after.kind is MeldKind.SET:
        return tuple(Placement(card, meld, Place.SET, stands) for card, stands, _ in added)
    kept = Counter(after.positions) - Counter(place for _, _, place in added)
    low = min(kept) if kept else 0
    return tuple(
        Placement(card, meld, Place.LOW if place < low else Place.HIGH, stands) for card, stands, place in added
    )
