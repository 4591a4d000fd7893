"""A brute-force reference for the hand solver, written from RULES.md alone (sections 1-4).

It does not use ``engine.solver`` or ``engine.melds``: that independence is the point of a reference.
From the engine it takes only the data types (cards, rule sets, rounds) and ``RoundInfo.is_wild``.
Card points are re-derived here from RULES.md section 3; a test checks them against
``engine.penalties.base_penalty``.

Meld legality (``reference_is_meld``) is decided by search: a group of cards is a legal meld when
there EXISTS an assignment of every wild card to a concrete card it stands for such that

* the group is a set: three or more cards of one rank; with ``distinct_suit_sets`` at least three
  different suits among the cards as they stand; or
* the group is a run: three or more cards (the preset's minimum run length, where it asks for more) of
  one suit on consecutive positions, no wrap, at most 13
  cards; an ace stands on position 1 (``ace=low``), 14 (``ace=high``) or either (``ace=both``, never
  both in one run); with ``no_aces_in_runs`` no card, natural or wild, stands as an ace in a run;

and the wild rules hold for that assignment: with ``wild_limit=not_more_than_naturals`` the wilds are
no more than the naturals; with ``no_adjacent_wilds`` no two wilds stand on consecutive run positions.
A wild card counts as a wild (D1) unless ``wild_in_place_natural`` is on and it stands exactly for
itself. The order in which the cards are written does not matter.

The search enumerates every assignment up to exact symmetry only: wild cards that cannot count as
natural (every wild when ``wild_in_place_natural`` is off, and jokers always) are interchangeable, so
only distinct multisets (sets) or distinct arrangements (runs) of them are tried.

The best arrangement (D7) is the minimum over every partition of the hand into disjoint legal melds
and leftovers of the leftovers' points, times the round's multiplier. It is a dynamic programme over
bitmasks of the hand: the lowest card of a sub-hand is either left over or in one legal meld.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.cards import Card, MeldCard, Rank, Suit
from engine.deck import STANDARD_SUITS
from engine.rules import AceRule, PenaltyTable, RuleSet, WildLimit
from engine.schedule import RoundInfo

__all__ = [
    "DeclarerMeld",
    "ReferenceArrangement",
    "reference_arrangement",
    "reference_best",
    "reference_best_with_layoffs",
    "reference_card_points",
    "reference_declarer_meld_ok",
    "reference_is_meld",
    "reference_meld_kinds",
    "reference_meld_readings",
    "reference_points",
    "reference_run_ok",
]

MAX_RUN = 13
ACE_LOW = 1
ACE_HIGH = 14

# RULES.md 10.1 and 10.3: Five Crowns plays five suits, stars too, of ranks 3 to King, and a run
# stands from 3 (lowest) to King (highest); every other preset plays four suits of A to K.
FIVE_CROWNS_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.STARS)
FIVE_CROWNS_RANKS = tuple(rank for rank in Rank if rank >= Rank.THREE)


# --- card points (RULES.md section 3, D4) -------------------------------------------------------


def reference_card_points(card: Card, table: PenaltyTable, wild: bool) -> int:
    """A card's points before the round multiplier, from the table in RULES.md section 3.

    pay-me: A-7 5, 8-K 10, wild cards (jokers, 2s, the round's rank) 15.
    pay-me-family (D4): A-7 5, 8-K 10, jokers 10; a wild rank scores by its own tier.
    three-thirteen: A 1, 2-10 face, J-Q-K 10; a wild scores its face value (a joker has no face:
    D15 scores it 15; no preset plays this table with jokers).
    3-13: A 15, 3-10 face, J-Q-K 10, wilds (jokers, 2s) 0.
    five-crowns (10.5): 3-10 face, J 11, Q 12, K 13; the round's rank 20; a joker 50.
    """
    rank = card.rank
    if table is PenaltyTable.FIVE_CROWNS:
        if rank is None:
            return 50
        return 20 if wild else int(rank)
    if table is PenaltyTable.PAY_ME:
        if wild or rank is None:
            return 15
        return 5 if rank <= 7 else 10
    if table is PenaltyTable.PAY_ME_FAMILY:
        if rank is None:
            return 10
        return 5 if rank <= 7 else 10
    if table is PenaltyTable.THREE_THIRTEEN:
        if rank is None:
            return 15
        return min(int(rank), 10)
    if wild or rank is None:
        return 0
    if rank == Rank.ACE:
        return 15
    return min(int(rank), 10)


def _points(card: Card, rules: RuleSet, info: RoundInfo) -> int:
    return reference_card_points(card, rules.options.penalty_table, info.is_wild(card))


# --- the rules that matter for legality, as one small hashable value ------------------------------


@dataclass(frozen=True)
class _Context:
    wild_cards: frozenset[Card]  # the wild cards among the 53 card faces, this round
    run_low: int  # lowest position a run may use
    run_high: int  # highest position a run may use
    ace_positions: frozenset[int]
    distinct_suits: bool
    wild_limit: bool
    no_adjacent: bool
    in_place_natural: bool
    min_run: int  # the fewest cards a run may hold
    suits: tuple[Suit, ...]  # the suits of the deck: what a wild may stand as
    ranks: tuple[Rank, ...]  # the ranks of the deck

    def is_wild(self, card: Card) -> bool:
        return card in self.wild_cards


_ALL_FACES = (Card.JOKER, *(Card(rank, suit) for suit in Suit for rank in Rank))


def _context(rules: RuleSet, info: RoundInfo) -> _Context:
    options = rules.options
    aces: frozenset[int]
    if options.no_aces_in_runs:
        low, high, aces = 2, 13, frozenset()
    elif options.ace is AceRule.LOW:
        low, high, aces = ACE_LOW, 13, frozenset({ACE_LOW})
    elif options.ace is AceRule.HIGH:
        low, high, aces = 2, ACE_HIGH, frozenset({ACE_HIGH})
    else:
        low, high, aces = ACE_LOW, ACE_HIGH, frozenset({ACE_LOW, ACE_HIGH})
    suits, ranks = STANDARD_SUITS, tuple(Rank)
    if rules.preset.id == "five-crowns":
        low, high, aces = 3, 13, frozenset()
        suits, ranks = FIVE_CROWNS_SUITS, FIVE_CROWNS_RANKS
    return _Context(
        wild_cards=frozenset(card for card in _ALL_FACES if info.is_wild(card)),
        run_low=low,
        run_high=high,
        ace_positions=aces,
        distinct_suits=options.distinct_suit_sets,
        wild_limit=options.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS,
        no_adjacent=options.no_adjacent_wilds,
        in_place_natural=options.wild_in_place_natural,
        min_run=rules.preset.min_run_length,
        suits=suits,
        ranks=ranks,
    )


def _rank_at(position: int) -> Rank:
    return Rank.ACE if position == ACE_HIGH else Rank(position)


def _card_key(card: Card) -> tuple[int, int, str]:
    if card.rank is None or card.suit is None:
        return (99, 0, "")
    return (int(card.rank), 0, card.suit.value)


# --- enumerating wild assignments up to symmetry -------------------------------------------------


def _wild_classes(wilds: Sequence[Card], ctx: _Context) -> list[tuple[Card | None, int]]:
    """Group wilds that are interchangeable: a wild that can never count as natural is ``None``."""
    counts = Counter(card if ctx.in_place_natural and not card.is_joker else None for card in wilds)
    return sorted(counts.items(), key=lambda item: (item[0] is not None, _card_key(item[0] or Card.JOKER)))


def _suit_choices(
    classes: list[tuple[Card | None, int]], rank: Rank, ctx: _Context
) -> Iterator[list[tuple[Card | None, Suit]]]:
    """Every distinct way to give each wild a suit (a multiset of suits per class of wilds).

    A wild of the set's rank tries its own suit first, so the likeliest legal reading comes early.
    """

    def suits_for(label: Card | None) -> list[Suit]:
        own = label.suit if label is not None and label.rank == rank else None
        return sorted(ctx.suits, key=lambda suit: suit is not own)

    per_class = [
        [
            [(label, suit) for suit in combo]
            for combo in itertools.combinations_with_replacement(suits_for(label), count)
        ]
        for label, count in classes
    ]
    for choice in itertools.product(*per_class):
        yield [pair for part in choice for pair in part]


def _slot_fillings(
    classes: list[tuple[Card | None, int]], slots: Sequence[int], suit: Suit
) -> Iterator[list[tuple[Card | None, int]]]:
    """Every distinct way to put the wilds on the free run positions, one wild per position.

    On each position a wild that is exactly that card is tried first (the likeliest legal reading).
    """
    remaining = dict(classes)
    labels = [label for label, _ in classes]
    filling: list[tuple[Card | None, int]] = []

    def fill(index: int) -> Iterator[list[tuple[Card | None, int]]]:
        if index == len(slots):
            yield list(filling)
            return
        own = Card(_rank_at(slots[index]), suit)
        for label in sorted(labels, key=lambda label: label != own):
            if remaining[label]:
                remaining[label] -= 1
                filling.append((label, slots[index]))
                yield from fill(index + 1)
                filling.pop()
                remaining[label] += 1

    yield from fill(0)


# --- legality -----------------------------------------------------------------------------------


def _set_readings(cards: tuple[Card, ...], ctx: _Context) -> Iterator[tuple[Card, ...]]:
    """Each legal reading of the group as a set: the cards it stands for."""
    naturals = [card for card in cards if not ctx.is_wild(card)]
    wilds = [card for card in cards if ctx.is_wild(card)]
    natural_ranks = {card.rank for card in naturals}
    if len(natural_ranks) > 1:
        return
    ranks = list(natural_ranks) if natural_ranks else list(ctx.ranks)
    classes = _wild_classes(wilds, ctx)
    for rank in ranks:
        assert rank is not None
        if ctx.wild_limit:
            # Bound: at best every wild of this rank stands for itself and counts as natural.
            most_natural = len(naturals) + sum(count for label, count in classes if label and label.rank == rank)
            if len(cards) - most_natural > most_natural:
                continue
        for choice in _suit_choices(classes, rank, ctx):
            roles = [Card(rank, suit) for _, suit in choice]
            counted_natural = len(naturals) + sum(
                1 for (label, _), role in zip(choice, roles, strict=True) if label == role
            )
            counted_wild = len(cards) - counted_natural
            if ctx.wild_limit and counted_wild > counted_natural:
                continue
            standing = [*naturals, *roles]
            if ctx.distinct_suits and len({card.suit for card in standing}) < 3:
                continue
            yield tuple(standing)


def _run_readings(cards: tuple[Card, ...], ctx: _Context) -> Iterator[tuple[Card, ...]]:
    """Each legal reading of the group as a run: the cards it stands for, lowest position first."""
    length = len(cards)
    if length > MAX_RUN or length < ctx.min_run:
        return
    naturals = [card for card in cards if not ctx.is_wild(card)]
    wilds = [card for card in cards if ctx.is_wild(card)]
    natural_suits = {card.suit for card in naturals}
    if len(natural_suits) > 1:
        return
    suits = list(natural_suits) if natural_suits else list(ctx.suits)
    classes = _wild_classes(wilds, ctx)
    for suit in suits:
        assert suit is not None
        for start in range(ctx.run_low, ctx.run_high - length + 2):
            window = range(start, start + length)
            taken: set[int] = set()
            for card in naturals:
                assert card.rank is not None
                if card.rank == Rank.ACE:
                    places = [place for place in ctx.ace_positions if place in window]
                else:
                    places = [int(card.rank)] if int(card.rank) in window else []
                if len(places) != 1 or places[0] in taken:
                    break
                taken.add(places[0])
            else:
                slots = [place for place in window if place not in taken]
                if ctx.wild_limit:
                    # Bound: at best each free position holds a wild that is exactly its card.
                    labels = {label for label, _ in classes}
                    most_natural = len(naturals) + sum(1 for place in slots if Card(_rank_at(place), suit) in labels)
                    if length - most_natural > most_natural:
                        continue
                for filling in _slot_fillings(classes, slots, suit):
                    wild_places = set()
                    for label, place in filling:
                        role = Card(_rank_at(place), suit)
                        if not (label is not None and label == role):
                            wild_places.add(place)
                    counted_wild = len(wild_places)
                    if ctx.wild_limit and counted_wild > length - counted_wild:
                        continue
                    if ctx.no_adjacent and any(place + 1 in wild_places for place in wild_places):
                        continue
                    yield tuple(Card(_rank_at(place), suit) for place in window)


@lru_cache(maxsize=1 << 20)
def _kinds(cards: tuple[Card, ...], ctx: _Context) -> tuple[bool, bool]:
    if len(cards) < 3 or any(card.is_joker and not ctx.is_wild(card) for card in cards):
        return (False, False)  # a joker that is not wild stands for nothing
    is_set = next(_set_readings(cards, ctx), None) is not None
    is_run = next(_run_readings(cards, ctx), None) is not None
    return (is_set, is_run)


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_card_key))


def reference_meld_kinds(cards: Iterable[Card], rules: RuleSet, info: RoundInfo) -> tuple[bool, bool]:
    """Whether the cards (in any order) can be read as a legal set, and as a legal run."""
    return _kinds(_sorted(cards), _context(rules, info))


def reference_is_meld(cards: Iterable[Card], rules: RuleSet, info: RoundInfo) -> bool:
    """Whether the cards, in any order, form one legal meld (a set or a run) this round."""
    return any(reference_meld_kinds(cards, rules, info))


# --- the readings of one meld written with roles (D10) -----------------------------------------------

ReadingShape = tuple[str, int, str]  # ("set", rank, "") or ("run", lowest place, suit)


def reference_meld_readings(cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> frozenset[ReadingShape]:
    """Every legal reading of a meld as written with roles (``JK=7H``), whatever the order of its cards:
    ``("set", rank, "")`` or ``("run", lowest place, suit)``.

    Brute force over every suit a free wild could take in a set, and every way to put the cards on
    the places of a run: a natural on its own place (an ace on a place the ``ace`` option allows), a
    wild with a role on the role's place, the free wilds on the places left in every order. A role is
    binding; a natural may carry only itself as its role.
    """
    ctx = _context(rules, info)
    if len(cards) < 3:
        return frozenset()
    for held in cards:
        if held.card.is_joker and not ctx.is_wild(held.card):
            return frozenset()
        if held.role is not None and held.role != held.card and not ctx.is_wild(held.card):
            return frozenset()
    pinned = [
        (held.card, held.role or held.card) for held in cards if held.role is not None or not ctx.is_wild(held.card)
    ]
    free = [held.card for held in cards if held.role is None and ctx.is_wild(held.card)]
    shapes: set[ReadingShape] = set()
    for rank in ctx.ranks:
        if any(stands.rank != rank for _, stands in pinned):
            continue
        for suits in itertools.product(ctx.suits, repeat=len(free)):
            pairs = pinned + [(card, Card(rank, suit)) for card, suit in zip(free, suits, strict=True)]
            if _legal_set_pairs(pairs, ctx):
                shapes.add(("set", int(rank), ""))
                break
    for suit in ctx.suits:
        for low in range(ctx.run_low, ctx.run_high - len(cards) + 2):
            window = range(low, low + len(cards))
            if ctx.min_run <= len(cards) <= MAX_RUN and _some_legal_run(pinned, free, suit, window, ctx):
                shapes.add(("run", low, suit.value))
    return frozenset(shapes)


def reference_run_ok(
    cards: Sequence[MeldCard], places: Sequence[int], suit: Suit, rules: RuleSet, info: RoundInfo
) -> bool:
    """Whether the cards, each on the given place of a run in ``suit``, are a legal run: the places
    consecutive and allowed (an ace only where the ``ace`` option puts it), every natural and role
    on its own place, and the wild rules kept."""
    ctx = _context(rules, info)
    if not max(3, ctx.min_run) <= len(cards) <= MAX_RUN:
        return False
    if sorted(places) != list(range(min(places), min(places) + len(cards))):
        return False
    if not ctx.run_low <= min(places) <= max(places) <= ctx.run_high:
        return False
    pairs = []
    for held, place in zip(cards, places, strict=True):
        stands = Card(_rank_at(place), suit)
        if stands.rank == Rank.ACE and place not in ctx.ace_positions:
            return False
        if (held.role or held.card) != stands and (held.role is not None or not ctx.is_wild(held.card)):
            return False
        if held.role is not None and held.role != held.card and not ctx.is_wild(held.card):
            return False
        pairs.append((held.card, stands, place))
    wild_places = {place for card, stands, place in pairs if _counts_wild(card, stands, ctx)}
    if ctx.wild_limit and 2 * len(wild_places) > len(cards):
        return False
    return not (ctx.no_adjacent and any(place + 1 in wild_places for place in wild_places))


def _legal_set_pairs(pairs: Sequence[tuple[Card, Card]], ctx: _Context) -> bool:
    wild = sum(_counts_wild(card, stands, ctx) for card, stands in pairs)
    if ctx.wild_limit and 2 * wild > len(pairs):
        return False
    return not ctx.distinct_suits or len({stands.suit for _, stands in pairs}) >= 3


def _places_for(stands: Card, suit: Suit, window: range, ctx: _Context) -> list[int]:
    if stands.suit != suit or stands.rank is None:
        return []
    if stands.rank == Rank.ACE:
        return [place for place in window if place in ctx.ace_positions]
    return [place for place in window if place == int(stands.rank)]


def _some_legal_run(
    pinned: Sequence[tuple[Card, Card]], free: Sequence[Card], suit: Suit, window: range, ctx: _Context
) -> bool:
    options = [_places_for(stands, suit, window, ctx) for _, stands in pinned]
    for places in itertools.product(*options):
        if len(set(places)) != len(places):
            continue
        left = [place for place in window if place not in places]
        for order in set(itertools.permutations(free)):
            wild_places = {
                place for place, (card, stands) in zip(places, pinned, strict=True) if _counts_wild(card, stands, ctx)
            }
            wild_places |= {
                place
                for place, card in zip(left, order, strict=True)
                if _counts_wild(card, Card(_rank_at(place), suit), ctx)
            }
            if ctx.wild_limit and 2 * len(wild_places) > len(window):
                continue
            if ctx.no_adjacent and any(place + 1 in wild_places for place in wild_places):
                continue
            return True
    return False


# --- the best arrangement (D7) --------------------------------------------------------------------


@dataclass(frozen=True)
class ReferenceArrangement:
    """One optimal split of a hand; ``penalty`` has the round multiplier applied."""

    melds: tuple[tuple[Card, ...], ...]
    unmelded: tuple[Card, ...]
    penalty: int


def reference_arrangement(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> ReferenceArrangement:
    """An optimal arrangement by exhaustive search over every partition of the hand (D7)."""
    cards = _sorted(hand)
    count = len(cards)
    ctx = _context(rules, info)
    points = [_points(card, rules, info) for card in cards]

    # Every legal meld among the hand's cards, as a table by mask and filed under its lowest card.
    legal = bytearray(1 << count)
    melds_by_lowest: list[list[int]] = [[] for _ in range(count)]
    for mask in range(1, 1 << count):
        if mask.bit_count() < 3:
            continue
        group = tuple(cards[index] for index in range(count) if mask >> index & 1)
        if any(_kinds(group, ctx)):
            legal[mask] = 1
            lowest = (mask & -mask).bit_length() - 1
            melds_by_lowest[lowest].append(mask)

    best: dict[int, tuple[int, int]] = {0: (0, 0)}  # mask -> (points, meld mask taken, 0 = left over)

    def solve(mask: int) -> int:
        known = best.get(mask)
        if known is not None:
            return known[0]
        lowest_bit = mask & -mask
        lowest = lowest_bit.bit_length() - 1
        answer = (points[lowest] + solve(mask ^ lowest_bit), 0)
        rest = mask ^ lowest_bit
        if 1 << rest.bit_count() < len(melds_by_lowest[lowest]):
            # Fewer sub-hands than melds (wild-heavy hands): walk the sub-hands holding the lowest card.
            sub = rest
            while True:
                meld = sub | lowest_bit
                if legal[meld]:
                    value = solve(mask ^ meld)
                    if value < answer[0]:
                        answer = (value, meld)
                if not sub:
                    break
                sub = (sub - 1) & rest
        else:
            for meld in melds_by_lowest[lowest]:
                if meld & mask == meld:
                    value = solve(mask ^ meld)
                    if value < answer[0]:
                        answer = (value, meld)
        best[mask] = answer
        return answer[0]

    full = (1 << count) - 1
    total = solve(full)
    melds: list[tuple[Card, ...]] = []
    unmelded: list[Card] = []
    mask = full
    while mask:
        _, meld = best[mask]
        if meld:
            melds.append(tuple(cards[index] for index in range(count) if meld >> index & 1))
            mask ^= meld
        else:
            lowest_bit = mask & -mask
            unmelded.append(cards[lowest_bit.bit_length() - 1])
            mask ^= lowest_bit
    return ReferenceArrangement(tuple(melds), tuple(unmelded), total * info.multiplier)


def reference_best(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> int:
    """The least penalty of a hand (D7): leftover points, round multiplier applied."""
    return reference_arrangement(hand, rules, info).penalty


def reference_points(cards: Iterable[Card], rules: RuleSet, info: RoundInfo) -> int:
    """The points of leftover cards, round multiplier applied."""
    return sum(_points(card, rules, info) for card in cards) * info.multiplier


# --- lay-offs onto the declarer's melds (D5, D6 for one player, D7) --------------------------------


@dataclass(frozen=True)
class DeclarerMeld:
    """A meld on the table: each card with the card it stands for (a natural stands for itself)."""

    cards: tuple[Card, ...]
    roles: tuple[Card, ...]


def _run_layouts(roles: Sequence[Card], ctx: _Context) -> list[list[int]]:
    """Every way the roles lie on a run's places (in the order given): more than one only when an
    ace may stand at either end and the other roles run from 2 to King (13 cards, one ace: D14)."""
    layouts = []
    for ace in sorted(ctx.ace_positions) or [0]:
        places = [ace if role.rank == Rank.ACE else int(role.rank or 0) for role in roles]
        low = min(places)
        if sorted(places) == list(range(low, low + len(places))) and ctx.run_low <= low <= max(places) <= ctx.run_high:
            layouts.append(places)
    return layouts


def _run_places(roles: Sequence[Card], ctx: _Context) -> list[int] | None:
    """The positions of a run's roles, lowest to highest as given, or None if they are no run here."""
    layouts = _run_layouts(roles, ctx)
    return layouts[0] if layouts else None


def _counts_wild(card: Card, role: Card, ctx: _Context) -> bool:
    return ctx.is_wild(card) and not (ctx.in_place_natural and card == role)


def reference_declarer_meld_ok(meld: DeclarerMeld, rules: RuleSet, info: RoundInfo) -> bool:
    """Whether a meld with fixed roles is legal: the roles form a set or a run, and the wild rules hold."""
    ctx = _context(rules, info)
    cards, roles = meld.cards, meld.roles
    if len(cards) < 3 or any(not ctx.is_wild(card) and card != role for card, role in zip(cards, roles, strict=True)):
        return False
    wild = [_counts_wild(card, role, ctx) for card, role in zip(cards, roles, strict=True)]
    if ctx.wild_limit and 2 * sum(wild) > len(cards):
        return False
    if len({role.rank for role in roles}) == 1:
        return not ctx.distinct_suits or len({role.suit for role in roles}) >= 3
    if len({role.suit for role in roles}) != 1 or not ctx.min_run <= len(cards) <= MAX_RUN:
        return False
    # The roles alone may leave open which end an ace stands at (2 to King plus an ace, ace both
    # ways): the meld is legal when either layout keeps the wild rules.
    for places in _run_layouts(roles, ctx):
        wild_places = {place for place, is_wild in zip(places, wild, strict=True) if is_wild}
        if not (ctx.no_adjacent and any(place + 1 in wild_places for place in wild_places)):
            return True
    return False


def _can_extend(meld: DeclarerMeld, laid: tuple[Card, ...], ctx: _Context) -> bool:
    """Whether the cards can all be laid off on the meld together (D5): ends of a run, or the set's rank."""
    if not laid:
        return True
    cards, roles = meld.cards, meld.roles
    old_wild = sum(_counts_wild(card, role, ctx) for card, role in zip(cards, roles, strict=True))
    total = len(cards) + len(laid)
    naturals = [card for card in laid if not ctx.is_wild(card)]
    wilds = [card for card in laid if ctx.is_wild(card)]
    classes = _wild_classes(wilds, ctx)
    if len({role.rank for role in roles}) == 1:  # a set: every card laid off stands for its rank
        rank = roles[0].rank
        assert rank is not None
        if any(card.rank != rank for card in naturals):
            return False
        for choice in _suit_choices(classes, rank, ctx):
            new_wild = sum(1 for label, suit in choice if not (label is not None and label == Card(rank, suit)))
            if not (ctx.wild_limit and 2 * (old_wild + new_wild) > total):
                return True
        return False
    suit = roles[0].suit
    assert suit is not None
    if any(card.suit != suit for card in naturals) or total > MAX_RUN:
        return False
    places = _run_places(roles, ctx)
    if places is None:
        return False
    low, high = min(places), max(places)
    old_wild_places = {
        place for place, card, role in zip(places, cards, roles, strict=True) if _counts_wild(card, role, ctx)
    }
    for below in range(len(laid) + 1):
        above = len(laid) - below
        new_places = [*range(low - below, low), *range(high + 1, high + 1 + above)]
        if low - below < ctx.run_low or high + above > ctx.run_high:
            continue
        taken: set[int] = set()
        for card in naturals:
            assert card.rank is not None
            if card.rank == Rank.ACE:
                spots = [place for place in ctx.ace_positions if place in new_places]
            else:
                spots = [int(card.rank)] if int(card.rank) in new_places else []
            if len(spots) != 1 or spots[0] in taken:
                break
            taken.add(spots[0])
        else:
            slots = [place for place in new_places if place not in taken]
            for filling in _slot_fillings(classes, slots, suit):
                wild_places = set(old_wild_places)
                for label, place in filling:
                    if not (label is not None and label == Card(_rank_at(place), suit)):
                        wild_places.add(place)
                if ctx.wild_limit and 2 * len(wild_places) > total:
                    continue
                if ctx.no_adjacent and any(place + 1 in wild_places for place in wild_places):
                    continue
                return True
    return False


def reference_best_with_layoffs(
    hand: Sequence[Card], declarer: Sequence[DeclarerMeld], rules: RuleSet, info: RoundInfo
) -> int:
    """The least penalty when the player may also lay off onto the declarer's melds (D5, D7).

    Every way of sending each card to one declarer meld or keeping it is tried; the kept cards are
    then arranged by ``reference_arrangement``. Lay-offs only where the rules allow them.
    """
    if not rules.options.lay_offs or not declarer:
        return reference_best(hand, rules, info)
    ctx = _context(rules, info)
    cards = _sorted(hand)
    count = len(cards)
    kept_cache: dict[tuple[Card, ...], int] = {}
    extend_cache: dict[tuple[int, tuple[Card, ...]], bool] = {}
    best: int | None = None
    for targets in itertools.product(range(len(declarer) + 1), repeat=count):
        laid_ok = True
        for index, meld in enumerate(declarer, start=1):
            laid = tuple(card for card, target in zip(cards, targets, strict=True) if target == index)
            key = (index, laid)
            if key not in extend_cache:
                extend_cache[key] = _can_extend(meld, laid, ctx)
            if not extend_cache[key]:
                laid_ok = False
                break
        if not laid_ok:
            continue
        kept = tuple(card for card, target in zip(cards, targets, strict=True) if target == 0)
        if kept not in kept_cache:
            kept_cache[kept] = reference_best(kept, rules, info)
        if best is None or kept_cache[kept] < best:
            best = kept_cache[kept]
    assert best is not None
    return best
