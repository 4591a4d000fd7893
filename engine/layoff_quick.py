"""The lay-off code's fast paths: each answers exactly as the check it stands in for, except where
it says it cannot be sure (`_UNSURE`, or None / True where the docstring says so), and a property
test holds it there. engine.layoff_check and engine.layoff_table call them first and fall back on
the full check.

* `_quick_extend` answers as `engine.layoff_check.extend_reading` (THE lay-off check on one
  reading, judged by check_meld), except where it returns `_UNSURE`. Held by
  tests/engine/test_layoff_quick.py (random melds and lay-offs, and directed cases: both checks
  asked).
* `_laid_as_written` and `_one_wild_shown` answer as check_meld's preferred reading
  (engine.melds, D10) of a loose meld among its readings, except where they return None. Held by
  tests/engine/test_declarer_speed.py and test_declarer_split.py: a meld split from a loose hand
  (engine.layoff_table.loose_meld) is the meld table_melds reads from its cards with `loose`.
* `_may_meld` answers as "the cards have a reading" (table_melds does not refuse them), except where
  it returns True. Held by tests/engine/test_declarer_split.py.

extend_reading judges each extended meld with the full meld check (check_meld), which looks for every
arrangement of the cards (D10). Where every card of the extended meld has a fixed place (each
wild written with the card it stands for) and wilds never count as natural, that check comes down
to a few rules on the places, so the quick check below applies them directly; where it cannot be
sure (a wild standing for itself, which the full check may move; a 13-card run with an ace, which
may stand at either end; a wild in its own place counting as natural) it says so, and the full
check decides.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from engine.cards import Card, MeldCard, Rank, Suit
from engine.deck import ACE_HIGH, ACE_LOW, SUIT_BITS
from engine.meldrules import MAX_RUN, MeldRules, meld_rules, wild_table
from engine.melds import set_with_free_wilds_placed
from engine.rules import MeldKind, RuleSet
from engine.schedule import RoundInfo
from engine.tablemeld import _SUIT_ROWS, TableMeld

_UNSURE = TableMeld(MeldKind.RUN, (), ())


def _quick_extend(reading: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> TableMeld | None:
    """extend_reading's answer (None for a refusal), or _UNSURE."""
    mrules = meld_rules(rules, info)
    if mrules.in_place_natural:
        return _UNSURE
    wild = mrules.wild
    for held in cards:
        if held.role is not None and not wild[held.card.code]:
            return _UNSURE  # refused by the full check, in its own words
    if reading.kind is MeldKind.SET:
        return _quick_set(reading, cards, mrules, wild)
    return _quick_run(reading, cards, mrules, wild)


def _quick_set(
    meld: TableMeld, cards: tuple[MeldCard, ...], mrules: MeldRules, wild: Sequence[bool]
) -> TableMeld | None:
    """_extend_set judged as the full check reads a set; `wild`: whether each card code is wild."""
    rank = meld.read_as[0].rank
    assert rank is not None  # a set's reading always has its rank
    # What each card is read as: the meld's as its reading has them (a wild there stands in for a
    # card or is of the set's rank), a laid-off wild of another rank as free (None). `fixed`: the
    # cards whose reading is not theirs to choose (naturals, and wilds standing in for a card).
    read_as: list[Card | None] = list(meld.read_as)
    fixed = wilds = 0
    for card, stands in zip(meld.cards, meld.read_as, strict=True):
        if not wild[card.code]:
            fixed += 1
        else:
            wilds += 1
            fixed += card.code != stands.code
    free = False
    for held in cards:
        card = held.card
        if not wild[card.code]:
            if card.rank != rank:
                return None
            read_as.append(card)
            fixed += 1
            continue
        wilds += 1
        if held.role is not None:
            if held.role.rank != rank:
                return None
            read_as.append(held.role)
            fixed += 1
        elif card.rank == rank:
            read_as.append(card)  # a wild of the set's rank stands for itself
        else:
            read_as.append(None)
            free = True
    if fixed < 2:
        return _UNSURE
    if mrules.max_meld is not None and len(read_as) > mrules.max_meld:
        return None  # D18
    filled = set_with_free_wilds_placed(read_as, rank, mrules.suits) if free else read_as  # as the full check does
    if mrules.limit and 2 * wilds > len(read_as):
        return None
    if mrules.distinct_suits and len({card.suit for card in filled if card is not None}) < 3:
        return _UNSURE
    return TableMeld(MeldKind.SET, (*meld.cards, *[held.card for held in cards]), tuple(filled))  # type: ignore[arg-type]


def _quick_run(
    meld: TableMeld, cards: tuple[MeldCard, ...], mrules: MeldRules, wild: Sequence[bool]
) -> TableMeld | None:
    """_extend_run step by step, each extended run judged by _quick_place_run."""
    suit = meld.read_as[0].suit
    assert suit is not None
    low, high = meld.positions[0], meld.positions[-1]  # a run fills every place between its ends
    fixed: dict[int, MeldCard] = {}  # the cards with one place they may stand at, by that place
    placed: list[MeldCard] = []  # aces that may stand at either end
    choices: list[tuple[int, ...]] = []  # where each of those may stand, nearest the run first
    free: list[MeldCard] = []
    for held in cards:
        if held.role is None and wild[held.card.code]:
            free.append(held)
            continue
        stands = held.role or held.card
        if stands.suit is not suit:
            return None
        assert stands.rank is not None
        if stands.rank is Rank.ACE:
            outside = _ace_places(mrules, low, high)
        else:
            outside = () if low <= stands.rank <= high else (int(stands.rank),)  # every other rank has one place
        if not outside:
            return None
        if len(outside) > 1:
            placed.append(held)
            choices.append(outside)
        elif outside[0] in fixed:
            return None  # two cards for one place, whatever place the others take
        else:
            fixed[outside[0]] = held
    if not placed:
        return _quick_place_run(meld, fixed, free, suit, mrules, wild)
    # Only aces may stand at either end, and at no place another card may take.
    for choice in itertools.product(*choices):
        if len(set(choice)) < len(choice):
            continue
        found = _quick_place_run(meld, fixed | dict(zip(choice, placed, strict=True)), free, suit, mrules, wild)
        if found is not None:
            return found
    return None


def _ace_places(mrules: MeldRules, low: int, high: int) -> tuple[int, ...]:
    """Where an ace may stand beyond a run from place `low` to `high`, nearest the run first."""
    outside = tuple(place for place in mrules.ace_places if not low <= place <= high)
    if len(outside) > 1:
        outside = tuple(sorted(outside, key=lambda place: low - place if place < low else place - high))
    return outside


def _quick_place_run(
    meld: TableMeld,
    fixed: dict[int, MeldCard],
    free: list[MeldCard],
    suit: Suit,
    mrules: MeldRules,
    wild: Sequence[bool],
) -> TableMeld | None:
    """_place_run, each extended run judged on its places as the full meld check would judge it:
    where every card has its place (a wild standing for itself is written without one, but the
    full check reads it where it is written when that is legal and two other cards fix the run),
    that check comes down to the range of places, the length, the wild limit and the side-by-side
    rule; otherwise it may read the cards another way, and the answer is _UNSURE."""
    first, last = meld.positions[0], meld.positions[-1]
    low, high, gaps = first, last, []
    if fixed:
        low, high = min(low, *fixed), max(high, *fixed)
        gaps = [place for place in (*range(low, first), *range(last + 1, high + 1)) if place not in fixed]
    extras = len(free) - len(gaps)
    if extras < 0:
        return None
    lowest, highest = (mrules.lowest, mrules.highest)
    limit = mrules.limit
    apart = mrules.no_adjacent
    row = _SUIT_ROWS[suit]  # the card at place p is row[p - 1]
    # The places of the wild cards already there, and how many wilds stand for themselves.
    wild_places = []
    selves = 0
    for at, card in enumerate(meld.cards):  # a run's places follow one another from `first`
        if wild[card.code]:
            wild_places.append(first + at)
            selves += card.code == meld.read_as[at].code
    for place, held in fixed.items():
        if wild[held.card.code]:
            wild_places.append(place)
            selves += held.role is None or held.role.code == held.card.code
    for above in range(extras, -1, -1):
        below = extras - above
        if low - below < ACE_LOW or high + above > ACE_HIGH:
            continue
        places = [*gaps, *range(low - 1, low - below - 1, -1), *range(high + 1, high + above + 1)]
        own = selves
        for place, held in zip(places, free, strict=True):
            own += held.card.code == row[place - 1].code
        count = high + above - (low - below) + 1
        legal = (
            count <= MAX_RUN
            and lowest <= low - below
            and high + above <= highest
            and not (limit and 2 * (len(wild_places) + len(places)) > count)
            and not (apart and len(wild_places) + len(places) > 1 and _side_by_side(wild_places + places))
        )
        if legal and count - own >= 2:
            return _run_with(meld, fixed | dict(zip(places, free, strict=True)), row, low - below, high + above)
        if own or count - own < 2 or count == MAX_RUN:
            # The full check may read the cards otherwise (an ace at the other end), unless no
            # reading of them at all can be legal.
            return None if _fits_nowhere(meld, fixed, len(free), mrules, wild) else _UNSURE
    return None


def _fits_nowhere(
    meld: TableMeld, fixed: dict[int, MeldCard], free: int, mrules: MeldRules, wild: Sequence[bool]
) -> bool:
    """Whether the meld with the cards `fixed` (by place) and `free` wilds can be no legal run
    wherever each wild without a binding role stands: every span of places that holds the
    naturals and the roles breaks the run's range, the wild limit or the side-by-side rule. False
    where a reading may still differ in more than the wilds' places: an ace, which may take either
    end, or fewer than two naturals, which may make a set."""
    naturals = []
    pinned = []  # the places of the naturals and of the wilds whose role binds them
    for place, card, stands in zip(meld.positions, meld.cards, meld.read_as, strict=True):
        if not wild[card.code]:
            naturals.append(place)
        if not wild[card.code] or card.code != stands.code:
            pinned.append(place)
    for place, held in fixed.items():
        if not wild[held.card.code]:
            naturals.append(place)
        if not wild[held.card.code] or (held.role is not None and held.role.code != held.card.code):
            pinned.append(place)
    if len(naturals) < 2 or ACE_LOW in pinned or ACE_HIGH in pinned:
        return False
    count = len(meld.cards) + len(fixed) + free
    lowest, highest = (mrules.lowest, mrules.highest)
    if count > MAX_RUN or (mrules.limit and 2 * (count - len(naturals)) > count):
        return True
    natural = set(naturals)
    for start in range(max(lowest, max(pinned) - count + 1), min(min(pinned), highest - count + 1) + 1):
        if not mrules.no_adjacent:
            return False
        span = range(start, start + count)
        if not any(place not in natural and place + 1 not in natural for place in span[:-1]):
            return False
    return True


def _side_by_side(places: list[int]) -> bool:
    """Whether two of the places are next to each other."""
    return not set(places).isdisjoint([place + 1 for place in places])


def _run_with(meld: TableMeld, laid: dict[int, MeldCard], row: list[Card], low: int, high: int) -> TableMeld:
    """The run from place `low` to `high`: the meld's cards and those `laid` by place, each standing
    for the card of its place (`row`), as a natural and a wild's role there do."""
    first, last = meld.positions[0], meld.positions[-1]
    return TableMeld(
        MeldKind.RUN,
        (
            *[laid[place].card for place in range(low, first)],
            *meld.cards,
            *[laid[place].card for place in range(last + 1, high + 1)],
        ),
        (*row[low - 1 : first - 1], *meld.read_as, *row[last:high]),
        _SPANS[low][high],
    )


# The places from low to high, by low and high.
_SPANS = [[tuple(range(low, high + 1)) for high in range(ACE_HIGH + 1)] for low in range(ACE_HIGH + 1)]


# --- check_meld's preferred reading of a loose meld, where it is plain ---


def _laid_as_written(cards: tuple[Card, ...], readings: list[TableMeld], info: RoundInfo) -> TableMeld | None:
    """The reading that lays the cards out in the order given, as the search lays out a run: where
    the natural cards are of two ranks or more (no set reading), check_meld's verdict; else None."""
    wild = wild_table(info)
    if len({card.code >> SUIT_BITS for card in cards if not wild[card.code]}) < 2:
        return None
    return next((reading for reading in readings if reading.cards == cards), None)


def _one_wild_shown(cards: tuple[Card, ...], readings: list[TableMeld], info: RoundInfo) -> TableMeld | None:
    """check_meld's verdict on a run of one suit with one wild card and no ace, with more than one
    reading (None for other cards). The runs hold the naturals side by side, the wild past one end,
    so it is never written between naturals it could stand between. check_meld then prefers the run
    with the wild past the end it is written at, if written before or after every natural (the run
    written in order too); then the run where the wild stands as itself; then the upper run."""
    wild = wild_table(info)
    odd = [index for index, card in enumerate(cards) if wild[card.code]]
    if len(odd) != 1 or len(readings) < 2 or any(reading.kind is MeldKind.SET for reading in readings):
        return None
    (hole,) = odd
    written = [card.code >> SUIT_BITS for index, card in enumerate(cards) if index != hole]  # the naturals' places
    if Rank.ACE in written:
        return None
    if hole in (0, len(written)):
        above = (hole > 0) == (written[-1] >= written[0])  # the run's high end, as written
        low = min(written)
        past_end = next((reading for reading in readings if reading.positions[0] == (low if above else low - 1)), None)
        if past_end is not None:
            return past_end
    itself = [reading for reading in readings if cards[hole] in reading.read_as]
    return itself[0] if itself else readings[-1]


# --- whether two melds of a loose hand may join ---


def _may_meld(naturals: Sequence[Card], count: int) -> bool:
    """False where the natural cards of a meld of `count` cards alone rule out every reading:
    neither one rank (a set) nor a run's shape (one suit, no rank twice, spanning no more places
    than there are cards); True where they do not (the meld may or may not have a reading)."""
    ranks = {card.rank for card in naturals}
    if len(ranks) <= 1:
        return True
    # Two aces of a suit would need both ends of a run, 14 places: longer than any run (MAX_RUN).
    if len({card.suit for card in naturals}) > 1 or len(ranks) < len(naturals):
        return False
    places = [int(rank) for rank in ranks if rank is not None and rank is not Rank.ACE]
    return len(places) < len(ranks) or max(places) - min(places) < count  # an ace's end is open
