"""Lay-offs onto the declarer's melds (D5, D6), and scoring a hand with them (D7).

>>> from engine.rules import rule_set
>>> from engine.schedule import round_info
>>> rules = rule_set("pay-me-family")
>>> info = round_info(rules, 5)
>>> melds = table_melds(["AH 2H 3H"], rules, info)
>>> melds = lay_off(melds, 0, parse_meld("4H"), rules, info)
>>> str(melds[0])
'AH 2H 3H 4H'
>>> lay_off(melds, 0, parse_meld("4H"), rules, info)
Traceback (most recent call last):
...
engine.errors.IllegalLayoff: 4H cannot be laid off on AH 2H 3H 4H: that place (4H) is already filled.
"""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from engine.caches import cache
from engine.cards import Card, MeldCard, Rank, Suit, parse_cards, parse_meld
from engine.deck import (
    ACE_HIGH,
    ACE_LOW,
    CODES,
    STANDARD_SUITS,
    SUIT_BITS,
    SUIT_MASK,
    WIDE_BITS,
    WIDE_FIELD,
    pack_wide,
    rank_at_place,
    takes_more,
)
from engine.errors import CannotGoOut, IllegalLayoff, IllegalMeld
from engine.layoff_quick import _UNSURE, _laid_as_written, _one_wild_shown, _quick_extend
from engine.meldrules import MeldRules, meld_rules, wild_table
from engine.melds import (
    MAX_RUN,
    MeldKind,
    check_meld,
    meld_readings,
    placed_reading,
    placed_run,
)
from engine.rules import RuleSet
from engine.schedule import RoundInfo
from engine.solver import Arrangement, SubHands, arrange, going_out, penalty_values
from engine.tablemeld import _PLACE_CARD, _PLACE_RANKS, _RANK_PLACES, _SUIT_COUNT, _SUIT_ROWS, TableMeld

__all__ = [
    "LayoffScore",
    "Place",
    "Placement",
    "TableMeld",
    "can_lay_down",
    "can_lay_off",
    "declarer_melds",
    "lay_off",
    "layoff_turns",
    "parse_meld",
    "placements",
    "score_in_turn",
    "score_with_layoffs",
    "split_declarer_hand",
    "table_melds",
    "verify_laid_down",
    "verify_layoff",
]


def table_melds(melds: Sequence[str], rules: RuleSet, info: RoundInfo, *, loose: bool = False) -> tuple[TableMeld, ...]:
    """Read the declarer's melds; raise IllegalMeld naming the first that is not legal.

    Each meld keeps every reading its cards leave open (D13). Written melds follow the order they
    are written in where it is a sequence; with `loose` (melds split from a hand) nothing is
    taken from the order.
    """
    return tuple(
        _table_meld(parse_meld(text), number, text.strip(), rules, info, loose)
        for number, text in enumerate(melds, start=1)
    )


def _table_meld(
    cards: tuple[MeldCard, ...], number: int, text: str, rules: RuleSet, info: RoundInfo, loose: bool
) -> TableMeld:
    """One of the declarer's melds, the `number`th, written as `text`; see table_melds."""
    if loose and len(found := _all_readings(cards, rules, info)) == 1:
        return found[0]  # nothing for the written order to choose between
    verdict = check_meld(cards, rules, info)
    if verdict.valid and verdict.kind is not None and verdict.read_as is not None:
        shown = _from_reading(verdict.kind, tuple(held.card for held in cards), verdict.read_as, verdict.positions)
        return _open(shown, cards, rules, info, loose)
    # The cards decide, not their written order (D10): any legal arrangement will do.
    readings = _all_readings(cards, rules, info)
    if not readings:
        raise IllegalMeld(
            verdict.code or "illegal", f"declarer's meld {number} ({text}) is not legal: {verdict.reason}"
        )
    return _open(readings[0], cards, rules, info, loose)


def _open(shown: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo, loose: bool) -> TableMeld:
    readings = _all_readings(cards, rules, info)
    runs = [reading for reading in readings if reading.kind is MeldKind.RUN]
    if not loose:
        in_order = [reading for reading in runs if _follows(reading, cards)]
        if in_order:
            readings = [reading for reading in readings if reading.kind is MeldKind.SET or reading in in_order]
    return _with_others(shown, readings, cards)


def _with_others(shown: TableMeld, readings: list[TableMeld], cards: tuple[MeldCard, ...]) -> TableMeld:
    """`shown` (or, where it is not among them, the first of `readings`) with the other readings
    kept open, written as `cards`."""
    if shown in readings:
        readings.remove(shown)
    elif readings:
        shown = readings.pop(0)
    if not readings:
        return shown
    return replace(shown, others=tuple(readings), written=tuple(cards))


def _follows(reading: TableMeld, cards: tuple[MeldCard, ...]) -> bool:
    """Whether a run reading keeps the order the cards are written in, up or down."""
    for ordered in (reading.meld_cards, reading.meld_cards[::-1]):
        if all(
            laid.card == held.card and held.role in (None, laid.role or laid.card)
            for laid, held in zip(ordered, cards, strict=True)
        ):
            return True
    return False


# Readings found, by (cards, rules, round): a declarer's loose hand asks for a meld's readings when
# it tries joining two melds and again when the joined meld is laid down. Meld cards, or plain
# cards for a loose hand's (hashed sooner).
# Rules and round by identity (hashing a whole rule set costs more than a lookup), kept beside.
_READINGS: dict[tuple[tuple[MeldCard | Card, ...], int, int], tuple[RuleSet, RoundInfo, tuple[TableMeld, ...]]] = cache(
    "meld readings by cards, rule set and round"
)
_READINGS_LIMIT = 4_096


def _all_readings(cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> list[TableMeld]:
    """Every legal reading of the cards, in any order (roles written with = are binding)."""
    return _remembered(cards, rules, info, lambda: _find_readings(cards, rules, info))


def _loose_readings(cards: tuple[Card, ...], rules: RuleSet, info: RoundInfo) -> list[TableMeld]:
    """Every legal reading of cards written without roles, in any order."""
    return _remembered(cards, rules, info, lambda: _plain_readings(cards, rules, info))


def _plain_readings(cards: tuple[Card, ...], rules: RuleSet, info: RoundInfo) -> list[TableMeld]:
    """_find_readings' answer for cards written without roles. The usual melds of a loose hand are
    read directly: two natural cards or more of one rank with any wilds (one set), and natural
    cards of one suit, no ace among them, with wilds that cannot count as natural (runs on each
    span of places that holds them)."""
    mrules = meld_rules(rules, info)
    wild = mrules.wild
    codes = [card.code for card in cards]
    odd = [index for index, code in enumerate(codes) if wild[code] or not code]  # wilds, or a joker that is not
    if len(codes) < 3 or len(odd) > len(codes) - 2 or not all(wild[codes[index]] for index in odd):
        return _find_readings(_unwritten(cards), rules, info)
    naturals = [card for index, card in enumerate(cards) if index not in odd]
    rank, suit = naturals[0].rank, naturals[0].suit
    if all(card.rank is rank for card in naturals):
        return _loose_set(naturals, [cards[index] for index in odd], mrules)
    if any(card.suit is not suit for card in naturals):
        return []  # neither one rank nor one suit
    if (len(odd) > 1 and mrules.in_place_natural) or any(card.rank is Rank.ACE for card in naturals):
        return _find_readings(_unwritten(cards), rules, info)
    at_place = {card.code >> SUIT_BITS: card for card in naturals}  # a rank's number is its place, with no ace
    if len(at_place) < len(naturals) or not mrules.min_run <= len(cards) <= MAX_RUN:
        return []  # a rank twice, or a run too short or too long
    assert suit is not None
    # The span on which the cards lie as written, downwards, if any: its wilds may lie in reverse.
    downwards = {index + (code >> SUIT_BITS) for index, code in enumerate(codes) if index not in odd}
    down_from = downwards.pop() - len(cards) + 1 if len(downwards) == 1 else None
    return _run_windows(at_place, [cards[index] for index in odd], suit, down_from, mrules)


def _loose_set(naturals: list[Card], wilds: list[Card], mrules: MeldRules) -> list[TableMeld]:
    """The set of two naturals or more of one rank, and wilds: each wild stands for a suit the
    naturals miss, in turn (as _set_roles has them; no wild is of the naturals' rank)."""
    rank = naturals[0].code >> SUIT_BITS
    taken = [card.suit for card in naturals]
    missing = [suit for suit in STANDARD_SUITS if suit not in taken] or list(STANDARD_SUITS)
    read_as = (*naturals, *[_PLACE_CARD[rank, missing[index % len(missing)]] for index in range(len(wilds))])
    if mrules.limit and 2 * len(wilds) > len(read_as):
        return []
    if mrules.distinct_suits and len({card.suit for card in read_as}) < 3:
        return []
    if mrules.max_meld is not None and len(read_as) > mrules.max_meld:
        return []  # D18
    return [TableMeld(MeldKind.SET, (*naturals, *wilds), read_as)]


def _run_windows(
    at_place: dict[int, Card], wilds: list[Card], suit: Suit, down_from: int | None, mrules: MeldRules
) -> list[TableMeld]:
    """The runs on each span of places holding the naturals `at_place` and the wilds, lowest span
    first, as _add_runs finds them: the wilds on the places left in the order written, and in the
    reverse order too on the span from `down_from` (the cards written down it); within the wild
    limit, and with no wilds side by side where the rules forbid it."""
    count = len(at_place) + len(wilds)
    if mrules.limit and 2 * len(wilds) > count:
        return []
    lowest, highest = (mrules.lowest, mrules.highest)
    runs = []
    for start in range(max(lowest, max(at_place) - count + 1), min(highest - count + 1, min(at_place)) + 1):
        places = range(start, start + count)
        gaps = [place for place in places if place not in at_place]
        if mrules.no_adjacent and any(high - low == 1 for low, high in itertools.pairwise(gaps)):
            continue
        read_as = tuple([_PLACE_CARD[place, suit] for place in places])
        reverse = wilds[::-1]
        for order in (wilds, reverse) if start == down_from and reverse != wilds else (wilds,):
            laid = at_place | dict(zip(gaps, order, strict=True))
            runs.append(TableMeld(MeldKind.RUN, tuple([laid[place] for place in places]), read_as, tuple(places)))
    return runs


def _remembered(
    cards: tuple[MeldCard | Card, ...], rules: RuleSet, info: RoundInfo, find: Callable[[], list[TableMeld]]
) -> list[TableMeld]:
    key = (cards, id(rules), id(info))
    known = _READINGS.get(key)
    if known is None or known[0] is not rules or known[1] is not info:
        if len(_READINGS) >= _READINGS_LIMIT:
            _READINGS.clear()
        known = _READINGS[key] = (rules, info, tuple(find()))
    return list(known[2])


def _unwritten(cards: tuple[Card, ...]) -> tuple[MeldCard, ...]:
    return tuple([MeldCard(card) for card in cards])


def _find_readings(cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> list[TableMeld]:
    pinned_at: list[int] = []  # the cards whose place the reading cannot choose: naturals and roles
    free: list[Card] = []
    for index, held in enumerate(cards):
        if held.role or not info.is_wild(held.card):
            pinned_at.append(index)
        else:
            free.append(held.card)
    pinned = [cards[index] for index in pinned_at]
    stands = [held.role or held.card for held in pinned]
    if any(card.rank is None for card in stands):
        return []  # a joker in a game where jokers are not wild: no meld reads it
    found: dict[tuple[object, ...], TableMeld] = {}
    # Ranks and suits in their own order when the wilds choose: the readings come out the same
    # in every process (sets hash enum members by name, which changes from run to run).
    ranks = list(dict.fromkeys(card.rank for card in stands))
    for rank in ranks if len(ranks) == 1 else (list(Rank) if not ranks else []):
        assert rank is not None
        _add_set(found, _set_roles(pinned, free, rank), rules, info)
    suits = list(dict.fromkeys(card.suit for card in stands))
    for suit in suits if len(suits) == 1 else (list(STANDARD_SUITS) if not suits else []):
        assert suit is not None
        _add_runs(found, cards, pinned_at, stands, free, suit, rules, info)
    return list(found.values())


def _add_runs(
    found: dict[tuple[object, ...], TableMeld],
    cards: tuple[MeldCard, ...],
    pinned_at: list[int],
    stands: list[Card],
    free: list[Card],
    suit: Suit,
    rules: RuleSet,
    info: RoundInfo,
) -> None:
    """Add the legal run readings in `suit`, window by window from the low end; `stands`: what
    the cards at `pinned_at` stand for."""
    mrules = meld_rules(rules, info)
    lowest, highest = mrules.lowest, mrules.highest
    count = len(cards)
    pinned = [cards[index].card for index in pinned_at]
    places = [mrules.positions(card.rank) for card in stands]  # type: ignore[arg-type]
    first, last = lowest, highest - count + 1
    for own in places:  # only windows that can hold every pinned card
        if not own:
            return
        first, last = max(first, min(own) - count + 1), min(last, max(own))
    for start in range(first, last + 1):
        window = range(start, start + count)
        # Within those bounds a card with one place always fits; an ace may fit at one end only.
        options = [own if len(own) == 1 else [place for place in own if place in window] for own in places]
        if not all(options):
            continue
        for choice in itertools.product(*options):
            if len(set(choice)) < len(choice):
                continue
            rest = [place for place in window if place not in choice]
            # No wild or one has a single order; the orders worth trying for more often repeat: each once.
            orders = (
                [tuple(free)]
                if len(free) < 2
                else dict.fromkeys(_wild_orders(cards, pinned_at, free, choice, rest, mrules))
            )
            for order in orders:
                layout = dict(zip(choice, pinned, strict=True))
                layout.update(zip(rest, order, strict=True))
                _add_run(found, tuple([layout[place] for place in window]), suit, start, rules, info)


def _wild_orders(
    cards: tuple[MeldCard, ...],
    pinned_at: list[int],
    free: list[Card],
    choice: tuple[int, ...],
    rest: list[int],
    mrules: MeldRules,
) -> Iterator[tuple[Card, ...]]:
    """The orders worth trying for the free wild cards on the places left in a run.

    Wilds that cannot count as natural are interchangeable, so one order stands for all, plus
    the order that keeps the cards as written where the places allow it (D10)."""
    if mrules.in_place_natural:
        yield from dict.fromkeys(itertools.permutations(free))
        return
    yield tuple(free)
    start, count = min((*choice, *rest)), len(cards)
    for descending in (False, True):
        places = [start + count - 1 - index if descending else start + index for index in range(count)]
        if all(places[index] == place for index, place in zip(pinned_at, choice, strict=True)):
            layout = {places[index]: held.card for index, held in enumerate(cards)}
            yield tuple(layout[place] for place in rest)


def _set_roles(pinned: list[MeldCard], free: list[Card], rank: Rank) -> tuple[MeldCard, ...]:
    """A set of `rank` with every free wild given a role: itself if of that rank, else a suit missing."""
    taken = [(held.role or held.card).suit for held in pinned]
    missing = [suit for suit in STANDARD_SUITS if suit not in taken] or list(STANDARD_SUITS)
    held = list(pinned)
    for index, card in enumerate(free):
        suit = card.suit if card.rank == rank and card.suit else missing[index % len(missing)]
        held.append(MeldCard(card, Card(rank, suit)))
    return tuple(held)


def _add_set(
    found: dict[tuple[object, ...], TableMeld], cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo
) -> None:
    placed = placed_reading(cards, MeldKind.SET, rules, info)
    if placed is not None:
        meld = TableMeld(MeldKind.SET, tuple([held.card for held in cards]), placed.read_as)
        found.setdefault(
            (MeldKind.SET, placed.read_as[0].rank, tuple(sorted([card.code for card in meld.cards]))), meld
        )


def _add_run(
    found: dict[tuple[object, ...], TableMeld],
    cards: tuple[Card, ...],
    suit: Suit,
    low: int,
    rules: RuleSet,
    info: RoundInfo,
) -> None:
    """Add the run of `cards` laid on the places from `low` up, each wild standing for its place."""
    placed = placed_run(cards, suit, low, rules, info)
    if placed is not None:
        meld = TableMeld(MeldKind.RUN, cards, placed.read_as, placed.positions)
        found.setdefault((MeldKind.RUN, cards, placed.read_as, placed.positions), meld)


def declarer_melds(hand: str, rules: RuleSet, info: RoundInfo) -> tuple[TableMeld, ...]:
    """The melds of the player who went out, from their cards (D13).

    Melds separated by ``|`` are taken exactly as written. A loose hand is split into as few melds
    as the engine finds (a final discard left out where the rules allow one), and each keeps every
    reading its cards leave open. Raises IllegalMeld or CannotGoOut with the reason.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("pay-me-family")
    >>> melds = declarer_melds("4H JK 5H 9C 9D 9S", rules, round_info(rules, 4))
    >>> sorted(len(meld.readings) for meld in melds)
    [1, 2]
    >>> [str(meld) for meld in declarer_melds("5H 6H 7H | 9C 9D 9S", rules, round_info(rules, 4))]
    ['5H 6H 7H', '9C 9D 9S']
    """
    if "|" in hand:
        return table_melds([text for text in hand.split("|") if text.strip()], rules, info)
    # Roles mean nothing in a loose hand; without any, the plain cards read the same, sooner.
    cards = list(parse_cards(hand)) if "=" not in hand else [held.card for held in parse_meld(hand)]
    try:
        return split_declarer_hand(cards, rules, info)
    except CannotGoOut as problem:
        text = str(problem)
        raise CannotGoOut(f"The declarer's cards do not go out: {text[:1].lower()}{text[1:]}") from problem


def split_declarer_hand(cards: Sequence[Card], rules: RuleSet, info: RoundInfo) -> tuple[TableMeld, ...]:
    """declarer_melds for a loose hand given as cards: as few melds as the engine finds, each
    keeping every reading its cards leave open (D13); raises CannotGoOut where they do not go out."""
    found = going_out(list(cards), rules, info)
    groups = _fewest_melds(found.melds, rules, info)
    return tuple(_loose_meld(tuple(group), number, rules, info) for number, group in enumerate(groups, start=1))


def _fewest_melds(melds: Iterable[Iterable[Card]], rules: RuleSet, info: RoundInfo) -> list[list[Card]]:
    """As few melds as the cards allow: two that make one meld joined, the first such pair first,
    until no two do."""
    groups = [list(meld) for meld in melds]
    most = meld_rules(rules, info).max_meld  # D18
    naturals = [[card for card in group if not info.is_wild(card)] for group in groups]
    merged = True
    while merged:
        merged = False
        for first, second in itertools.combinations(range(len(groups)), 2):
            union = (*groups[first], *groups[second])
            if most is not None and len(union) > most:
                continue
            if _may_meld([*naturals[first], *naturals[second]], len(union)) and _loose_readings(union, rules, info):
                groups[first] += groups.pop(second)
                naturals[first] += naturals.pop(second)
                merged = True
                break
    return groups


def _loose_meld(cards: tuple[Card, ...], number: int, rules: RuleSet, info: RoundInfo) -> TableMeld:
    """The `number`th meld split from a loose hand, as table_melds reads it with `loose`."""
    readings = _loose_readings(cards, rules, info)
    if len(readings) == 1:
        return readings[0]  # nothing for the written order to choose between
    written = _unwritten(cards)
    shown = _laid_as_written(cards, readings, info) or _one_wild_shown(cards, readings, info)
    if shown is not None:
        return _with_others(shown, readings, written)
    verdict = check_meld(written, rules, info)
    if verdict.valid and verdict.kind is not None and verdict.read_as is not None:
        return _with_others(_from_reading(verdict.kind, cards, verdict.read_as, verdict.positions), readings, written)
    if not readings:
        text = " ".join(str(card) for card in cards)
        raise IllegalMeld(
            verdict.code or "illegal", f"declarer's meld {number} ({text}) is not legal: {verdict.reason}"
        )
    return _with_others(readings[0], readings, written)


def _may_meld(naturals: Sequence[Card], count: int) -> bool:
    """False where the natural cards of a meld of `count` cards alone rule out every reading:
    neither one rank (a set) nor a run's shape (one suit, no rank twice, spanning no more places
    than there are cards)."""
    ranks = {card.rank for card in naturals}
    if len(ranks) <= 1:
        return True
    # Two aces of a suit would need both ends of a run, 14 places: longer than any run (MAX_RUN).
    if len({card.suit for card in naturals}) > 1 or len(ranks) < len(naturals):
        return False
    places = [int(rank) for rank in ranks if rank is not None and rank is not Rank.ACE]
    return len(places) < len(ranks) or max(places) - min(places) < count  # an ace's end is open


def verify_laid_down(
    melds: Sequence[str], discard: Sequence[Card], rules: RuleSet, info: RoundInfo
) -> tuple[TableMeld, ...]:
    """The melds of the player who went out, as laid down (D8): each legal, and together the whole
    hand but the final discard. Raises IllegalMeld or CannotGoOut with the reason.

    Where the preset requires a final discard, the melds hold exactly the cards dealt; where it
    allows going out without one, they may hold one card more.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("3-13")
    >>> [str(meld) for meld in verify_laid_down(["4S 5S 6S"], (), rules, round_info(rules, 1))]
    ['4S 5S 6S']
    >>> verify_laid_down(["4S 5S 6S 7S"], (), rules, round_info(rules, 1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.CannotGoOut: In round 1 the melds of a player going out hold 3 cards (the 4th ...); 4 were given.
    """
    laid = table_melds(melds, rules, info)
    melded = sum(len(meld.cards) for meld in laid)
    if len(discard) > 1:
        raise CannotGoOut(f"A player going out discards at most one card; {len(discard)} were given.")
    dealt = info.cards
    if melded == dealt or (melded == dealt + 1 and not discard and not rules.options.discard_to_go_out):
        return laid
    if discard:
        held = f"{dealt} cards besides the discard"
    elif rules.options.discard_to_go_out:
        held = f"{dealt} cards (the {_ordinal(dealt + 1)} drawn card is discarded)"
    else:
        held = f"{dealt} cards, or {dealt + 1} when going out without a discard"
    raise CannotGoOut(f"In round {info.number} the melds of a player going out hold {held}; {melded} were given.")


def can_lay_down(melds: Sequence[str], discard: Sequence[Card], rules: RuleSet, info: RoundInfo) -> bool:
    """Whether these melds (and discard) are a legal way to go out; see verify_laid_down."""
    try:
        verify_laid_down(melds, discard, rules, info)
    except (IllegalMeld, CannotGoOut):
        return False
    return True


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _from_reading(
    kind: MeldKind, cards: tuple[Card, ...], read_as: tuple[Card, ...], positions: tuple[int, ...]
) -> TableMeld:
    if kind is MeldKind.RUN:
        order = sorted(range(len(cards)), key=lambda index: positions[index])
        return TableMeld(
            kind,
            tuple(cards[i] for i in order),
            tuple(read_as[i] for i in order),
            tuple(positions[i] for i in order),
        )
    return TableMeld(kind, cards, read_as)


def lay_off(
    melds: Sequence[TableMeld], target: int, cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo
) -> tuple[TableMeld, ...]:
    """The declarer's melds after one lay-off onto meld `target` (0-based); raises IllegalLayoff."""
    extended = verify_layoff(melds, target, cards, rules, info)
    return tuple(extended if index == target else meld for index, meld in enumerate(melds))


def can_lay_off(
    melds: Sequence[TableMeld], target: int, cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo
) -> bool:
    """Whether the cards may be laid off onto meld `target`."""
    try:
        verify_layoff(melds, target, cards, rules, info)
    except IllegalLayoff:
        return False
    return True


def verify_layoff(
    melds: Sequence[TableMeld], target: int, cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo
) -> TableMeld:
    """The meld as extended by the lay-off, or IllegalLayoff with the reason."""
    cards = tuple(cards)
    if not rules.options.lay_offs:
        raise IllegalLayoff("no_layoffs", f"{rules.preset.name} has no lay-offs: cards left in hand score.")
    if not 0 <= target < len(melds):
        raise IllegalLayoff(
            "not_declarers_meld",
            f"Meld {target + 1} is not one of the declarer's melds; lay-offs go only onto the "
            f"{len(melds)} meld{'s' if len(melds) != 1 else ''} of the player who went out.",
        )
    if not cards:
        raise IllegalLayoff("no_cards", "A lay-off needs at least one card.")
    meld = melds[target]
    extended = _layoff_or_none(meld, cards, rules, info)
    if extended is not None:
        return extended
    # Illegal on every reading: the first reading's reason, in the words of the full check.
    what = f"{' '.join(str(card) for card in cards)} cannot be laid off on {meld}"
    for reading in meld.readings:
        _extend(reading, cards, rules, info, what)
    raise AssertionError(f"{what}: every reading refused it, yet none says why")


def _layoff_or_none(meld: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> TableMeld | None:
    """The meld as extended by the lay-off, or None where no reading takes the cards."""
    if not meld.others:
        return _extend_or_none(meld, cards, rules, info)  # one reading: nothing to choose or keep open
    extended = [after for reading in meld.readings if (after := _extend_or_none(reading, cards, rules, info))]
    if not extended:
        return None
    # A laid-off wild goes to the upper end of a run (D11); the first reading wins a tie.
    chosen = max(extended, key=lambda after: _height(meld, after, info)) if len(extended) > 1 else extended[0]
    return _still_open(meld, chosen, rules, info)


def _extend(reading: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo, what: str) -> TableMeld:
    if reading.kind is MeldKind.SET:
        return _extend_set(reading, cards, rules, info, what)
    return _extend_run(reading, cards, rules, info, what)


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


_QUIET = ""  # `what` of a check whose refusal nobody reads


def _added(before: TableMeld, after: TableMeld) -> list[tuple[Card, Card, int]]:
    """The cards a lay-off added: (card, what it stands for, place or 0 in a set)."""
    if after.kind is MeldKind.RUN:
        return _added_to_run(before, after)
    return _added_to_set(before, after)


def _added_to_set(before: TableMeld, after: TableMeld) -> list[tuple[Card, Card, int]]:
    """_added for a set: the cells beyond those of the first set reading the set extends, in the
    order the set holds them. Cells are compared by card codes (a card's hash is slow to find)."""
    for reading in before.readings:
        if reading.kind is not MeldKind.SET:
            continue
        kept = len(reading.cards)
        if after.cards[:kept] == reading.cards and after.read_as[:kept] == reading.read_as:
            if len(after.cards) == kept + 1:
                return [(after.cards[kept], after.read_as[kept], 0)]  # the usual lay-off: one card after the rest
            return _added_after(after, kept)
        cells, old = _cell_codes(after), _cell_codes(reading)
        if not old - cells:
            first: dict[tuple[int, int], tuple[Card, Card, int]] = {}
            for card, stands in zip(after.cards, after.read_as, strict=True):
                first.setdefault((card.code, stands.code), (card, stands, 0))
            return [first[codes] for codes in (cells - old).elements()]
    return []


def _added_after(after: TableMeld, kept: int) -> list[tuple[Card, Card, int]]:
    """_added_to_set where the set keeps the reading's cells first, in their order: the cells from
    the `kept`-th on, as the comparison of cell counts gives them (alike cells together, in the
    order the set first holds each)."""
    cells = [(card.code, stands.code) for card, stands in zip(after.cards, after.read_as, strict=True)]
    first_at: dict[tuple[int, int], int] = {}
    for at in range(len(cells) - 1, -1, -1):  # from the last: each cell's first place stays
        first_at[cells[at]] = at
    order = sorted(range(kept, len(cells)), key=lambda at: first_at[cells[at]])
    return [(after.cards[at], after.read_as[at], 0) for at in order]


def _cell_codes(meld: TableMeld) -> Counter[tuple[int, int]]:
    return Counter((card.code, stands.code) for card, stands in zip(meld.cards, meld.read_as, strict=True))


def _added_to_run(before: TableMeld, after: TableMeld) -> list[tuple[Card, Card, int]]:
    """_added for a run: the cells at places the first reading the run extends did not have, in
    place order."""
    kept = _kept_slice(before, after)
    if kept is None:
        return []
    start, end = kept
    below = zip(after.cards[:start], after.read_as[:start], after.positions[:start], strict=True)
    above = zip(after.cards[end:], after.read_as[end:], after.positions[end:], strict=True)
    return [*below, *above]


def _kept_slice(before: TableMeld, after: TableMeld) -> tuple[int, int] | None:
    """Where the cells of the first reading of `before` that the run `after` extends lie in it (a
    run fills every place between its ends, so they are a slice), or None where it extends none."""
    first = after.positions[0]
    for reading in before.readings:
        if reading.kind is not MeldKind.RUN:
            continue
        start = reading.positions[0] - first
        end = start + len(reading.positions)
        if (
            start >= 0
            and end <= len(after.positions)
            and after.cards[start:end] == reading.cards
            and after.read_as[start:end] == reading.read_as
        ):
            return start, end
    return None


def _height(before: TableMeld, after: TableMeld, info: RoundInfo) -> int:
    """How high the laid-off wild cards stand: runs above sets, upper places above lower ones."""
    if after.kind is MeldKind.SET:
        return -1
    wild = wild_table(info)
    return sum(place for card, _, place in _added(before, after) if wild[card.code])


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


def _extend_set(meld: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo, what: str) -> TableMeld:
    rank = meld.read_as[0].rank
    for held in cards:
        stands = held.role or held.card
        if (held.role or not info.is_wild(held.card)) and stands.rank != rank:
            raise IllegalLayoff("wrong_rank", f"{what}: {held} is not a card of that set's rank.")
    most = meld_rules(rules, info).max_meld
    if most is not None and len(meld.cards) + len(cards) > most:
        raise IllegalLayoff(
            "too_long",
            f"{what}: in {rules.preset.name} no meld holds more than {most} cards, "
            f"and this lay-off would make {len(meld.cards) + len(cards)}.",
        )
    return _judge(meld.meld_cards + cards, rules, info, what)


def _judge(cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo, what: str) -> TableMeld:
    if what == _QUIET and not meld_readings(cards, rules, info):
        # No reading at all (D10): refused without working out the words of the reason.
        raise IllegalLayoff("illegal", "")
    verdict = check_meld(cards, rules, info)
    if not verdict.valid or verdict.kind is None or verdict.read_as is None:
        raise IllegalLayoff(verdict.code or "illegal", f"{what}: {verdict.reason}")
    return _from_reading(verdict.kind, tuple(held.card for held in cards), verdict.read_as, verdict.positions)


def _extend_run(meld: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo, what: str) -> TableMeld:
    mrules = meld_rules(rules, info)
    suit = meld.read_as[0].suit
    occupied = dict(zip(meld.positions, zip(meld.cards, meld.read_as, strict=True), strict=True))
    placed: list[tuple[MeldCard, tuple[int, ...]]] = []  # each card with a role, and where it may stand
    free: list[MeldCard] = []
    for held in cards:
        wild = info.is_wild(held.card)
        if wild and held.role is None:
            free.append(held)
            continue
        stands = held.role or held.card
        if stands.suit != suit:
            raise IllegalLayoff("wrong_suit", f"{what}: {held} is not of the run's suit.")
        assert stands.rank is not None
        places = mrules.positions(stands.rank)
        if len(places) > 1:  # an ace, where it may start or end a run
            problem = _second_ace_problem(held, occupied, what)
            if problem:
                raise problem
        outside = tuple(place for place in places if place not in occupied)
        if not outside:
            raise _filled_problem(held, places, occupied, {}, what)
        placed.append((held, tuple(sorted(outside, key=lambda place: _distance(place, meld.positions)))))
    first_problem: IllegalLayoff | None = None
    # An ace may stand at either end under some rules: every choice is tried, as where it can stand
    # depends on the other cards laid off with it, not only on the run's present ends.
    for choice in itertools.product(*(places for _, places in placed)):
        if len(set(choice)) < len(choice):
            first_problem = first_problem or _twice_problem(placed, choice, what)
            continue
        fixed = {place: held for place, (held, _) in zip(choice, placed, strict=True)}
        try:
            return _place_run(meld, fixed, free, rules, info, what)
        except IllegalLayoff as problem:
            first_problem = first_problem or problem
    assert first_problem is not None
    if first_problem.code in ("gap", "ace_not_allowed"):
        raise _ace_problem(meld, placed, mrules, what) or first_problem
    raise first_problem


def _distance(place: int, positions: tuple[int, ...]) -> int:
    return min(abs(place - position) for position in positions)


def _twice_problem(placed: list[tuple[MeldCard, tuple[int, ...]]], choice: tuple[int, ...], what: str) -> IllegalLayoff:
    seen: dict[int, MeldCard] = {}
    for place, (held, _) in zip(choice, placed, strict=True):
        if place in seen:
            return IllegalLayoff("position_filled", f"{what}: two cards would stand in the same place ({seen[place]}).")
        seen[place] = held
    raise AssertionError("no place is taken twice")


def _ace_problem(
    meld: TableMeld, placed: list[tuple[MeldCard, tuple[int, ...]]], mrules: MeldRules, what: str
) -> IllegalLayoff | None:
    """An ace laid at an end of the run where this game lets no ace stand, said in those words."""
    others = [place for held, places in placed if (held.role or held.card).rank is not Rank.ACE for place in places]
    low, high = min((*meld.positions, *others)), max((*meld.positions, *others))
    for held, places in placed:
        if (held.role or held.card).rank is not Rank.ACE:
            continue
        if low == ACE_LOW + 1 and ACE_LOW not in places and not mrules.no_aces:
            return IllegalLayoff(
                "ace_not_allowed", f"{what}: aces are high in this game, so an ace cannot go below a 2."
            )
        if high == ACE_HIGH - 1 and ACE_HIGH not in places and not mrules.no_aces:
            return IllegalLayoff(
                "ace_not_allowed", f"{what}: aces are low in this game, so an ace cannot follow a King."
            )
    return None


def _second_ace_problem(held: MeldCard, occupied: dict[int, tuple[Card, Card]], what: str) -> IllegalLayoff | None:
    """An ace laid on a run that already stands at an ace: never legal, as a run may start or end
    with an ace but never both (D14). Where a wild stands for that very ace, the lay-off would
    replace it (the joker swap, where the game has it, takes the joker back)."""
    for place in (ACE_LOW, ACE_HIGH):
        if place in occupied:
            card, stands = occupied[place]
            if card != stands and stands == (held.role or held.card):
                return IllegalLayoff(
                    "replaces_wild",
                    f"{what}: {card} already stands for {stands}, and a lay-off may not replace a wild card.",
                )
            return IllegalLayoff("duplicate_in_run", f"{what}: that run already ends in an ace.")
    return None


def _filled_problem(
    held: MeldCard,
    places: tuple[int, ...],
    occupied: dict[int, tuple[Card, Card]],
    fixed: dict[int, MeldCard],
    what: str,
) -> IllegalLayoff:
    if not places:
        return IllegalLayoff("aces_not_in_runs", f"{what}: with no aces in runs, an ace melds only in a set.")
    place = places[0]
    if place in occupied:
        card, stands = occupied[place]
        if card != stands:
            return IllegalLayoff(
                "replaces_wild",
                f"{what}: {card} already stands for {stands}, and a lay-off may not replace a wild card.",
            )
        return IllegalLayoff("position_filled", f"{what}: that place ({stands}) is already filled.")
    return IllegalLayoff("position_filled", f"{what}: two cards would stand in the same place ({fixed[place]}).")


def _place_run(
    meld: TableMeld, fixed: dict[int, MeldCard], free: list[MeldCard], rules: RuleSet, info: RoundInfo, what: str
) -> TableMeld:
    mrules = meld_rules(rules, info)
    suit = meld.read_as[0].suit
    assert suit is not None
    taken = set(meld.positions) | set(fixed)
    low, high = min(taken), max(taken)
    gaps = [place for place in range(low, high + 1) if place not in taken]
    if len(gaps) > len(free):
        raise IllegalLayoff(
            "gap",
            f"{what}: it does not reach the run; the gap needs {len(gaps)} more wild "
            f"card{'s' if len(gaps) != 1 else ''}.",
        )
    extras = len(free) - len(gaps)
    first_problem: IllegalLayoff | None = None
    for above in range(extras, -1, -1):
        places = gaps + [low - n for n in range(1, extras - above + 1)] + [high + n for n in range(1, above + 1)]
        if not all(ACE_LOW <= place <= ACE_HIGH for place in places):
            continue
        # Which free wild takes which place matters only when a wild may count as natural in its
        # own place (wild_in_place_natural), so every distinct order is tried then.
        orders = _distinct_orders(free) if mrules.in_place_natural else [tuple(free)]
        for order in orders:
            written = _written_run(meld, fixed, dict(zip(places, order, strict=True)), suit)
            try:
                return _judge(written, rules, info, what)
            except IllegalLayoff as problem:
                first_problem = first_problem or problem
    raise first_problem or IllegalLayoff("ace_not_allowed", f"{what}: a run cannot go beyond its ends.")


def _distinct_orders(cards: list[MeldCard]) -> list[tuple[MeldCard, ...]]:
    return list(dict.fromkeys(itertools.permutations(cards)))


def _written_run(
    meld: TableMeld, fixed: dict[int, MeldCard], placed: dict[int, MeldCard], suit: Suit
) -> tuple[MeldCard, ...]:
    """The extended run in place order, every wild written with the card it stands for."""
    layout = {place: (held.card, held.role or held.card) for place, held in fixed.items()}
    layout.update({place: (held.card, Card(rank_at_place(place), suit)) for place, held in placed.items()})
    layout.update(zip(meld.positions, zip(meld.cards, meld.read_as, strict=True), strict=True))
    return tuple(
        MeldCard(card) if card == stands else MeldCard(card, stands)
        for card, stands in (layout[p] for p in sorted(layout))
    )


# --- scoring a hand with lay-offs (D7) ------------------------------------------


@dataclass(frozen=True)
class LayoffScore:
    """The least penalty of a hand when it may also lay off onto the declarer's melds."""

    arrangement: Arrangement
    layoffs: tuple[tuple[int, tuple[Card, ...]], ...]  # (meld index, cards laid off)
    melds_after: tuple[TableMeld, ...]
    placements: tuple[Placement, ...] = ()  # where each card laid off went (D11)

    def as_json(self) -> dict[str, object]:
        payload = self.arrangement.as_json()
        payload["layoffs"] = [
            {"meld": index + 1, "cards": [str(card) for card in cards]} for index, cards in self.layoffs
        ]
        payload["declarer"] = [meld.as_json() for meld in self.melds_after]
        payload["placements"] = [placement.as_json() for placement in self.placements]
        return payload


class Place(Enum):
    """Where a card laid off went: below a run, above it, or into a set."""

    LOW = "low"
    HIGH = "high"
    SET = "set"

    @property
    def words(self) -> str:
        return {"low": "at the low end", "high": "at the high end", "set": "in the set"}[self.value]


@dataclass(frozen=True)
class Placement:
    """One card laid off: onto which declarer meld (0-based), where, and the card it stands for."""

    card: Card
    meld: int
    place: Place
    stands_for: Card

    def __str__(self) -> str:
        role = "" if self.card == self.stands_for else f" as {self.stands_for}"
        return f"{self.card}{role} on meld {self.meld + 1}, {self.place.words}"

    def as_json(self) -> dict[str, object]:
        return {"card": str(self.card), "meld": self.meld + 1, "place": self.place.value, "as": str(self.stands_for)}


def placements(before: TableMeld, after: TableMeld, meld: int) -> tuple[Placement, ...]:
    """Where each card a lay-off added to meld `meld` (0-based) went, lowest place first.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("pay-me")
    >>> info = round_info(rules, 5)
    >>> (run,) = table_melds(["9H 10H JH"], rules, info)
    >>> after = verify_layoff([run], 0, parse_meld("8H JK"), rules, info)
    >>> [str(placement) for placement in placements(run, after, 0)]
    ['8H on meld 1, at the low end', 'JK as QH on meld 1, at the high end']
    """
    if after.kind is MeldKind.SET:
        return tuple([Placement(card, meld, Place.SET, stands) for card, stands, _ in _added_to_set(before, after)])
    kept = _kept_slice(before, after)
    if kept is None:
        return ()
    start, end = kept  # the cards before `start` went below the run, those from `end` on above it
    cards, read_as = after.cards, after.read_as
    below = [Placement(cards[at], meld, Place.LOW, read_as[at]) for at in range(start)]
    return (*below, *[Placement(cards[at], meld, Place.HIGH, read_as[at]) for at in range(end, len(cards))])


# What the search found for melds i, i+1, ... and the cards in hand: the least penalty (no
# multiplier), the cards laid off, how high the laid-off wilds stand (D11 prefers the upper end of
# a run), the lay-offs, and the counts of the cards kept.
_Found = tuple[int, int, int, tuple[tuple[int, tuple[Card, ...]], ...], int]
# A candidate lay-off onto one meld: where it comes in the order the candidates are made, the
# cards, their points, how many of each of the hand's distinct cards they take (packed), how many
# wilds, the points of its naturals, and of those naturals that might also fit a later meld.
_Candidate = tuple[int, tuple[Card, ...], int, int, int, int, int]
# A part of a candidate lay-off (one card, a group of wilds, the naturals beyond one end of a run):
# its cards and their figures as in a _Candidate, which add up. A candidate is the naturals of one
# part and the wilds of another.
_Part = tuple[tuple[Card, ...], int, int, int, int, int]
_NO_CARDS: _Part = ((), 0, 0, 0, 0, 0)


def score_with_layoffs(
    hand: Sequence[Card], declarer: Sequence[TableMeld], rules: RuleSet, info: RoundInfo
) -> LayoffScore:
    """Minimum penalty over own melds, lay-offs onto the declarer's melds, and leftovers."""
    values = penalty_values(rules.options.penalty_table, info)
    held = Counter(hand)
    layoffs: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    after = tuple(declarer)
    scored: Arrangement | None = None  # the penalty multiplied
    if rules.options.lay_offs and declarer:
        search = _LayoffSearch(held, tuple(declarer), rules, info, values)
        _, _, _, layoffs, counts = search.best()
        after = search.after(layoffs)
        scored = search.arrangement(counts)
        if scored is None:
            held = search.kept(counts)
    if scored is None:
        arrangement = arrange(list(held.elements()), rules, info, values)
        scored = Arrangement(arrangement.melds, arrangement.unmelded, arrangement.penalty * info.multiplier)
    placed: tuple[Placement, ...] = ()
    for index, _ in layoffs:
        placed += placements(declarer[index], after[index], index)
    return LayoffScore(scored, layoffs, after, placed)


class _LayoffSearch:
    """Every lay-off onto each declarer meld in turn; the rest of the hand is scored by the solver.

    The best choice for melds i, i+1, ... depends only on i and the cards still in hand, so it is
    remembered per (i, cards). The cards are counted per distinct card of the hand, in the order
    the hand first shows them, packed eight bits per card into one integer (a lay-off is then one
    subtraction, and the cards a meld's candidates may use one mask). Only the points of the cards
    kept are needed during the search, and they come from the solver's results per number of wilds
    (engine.solver.SubHands): a lay-off with more or fewer wild cards costs no new solve. The kept
    cards are arranged once, at the end.
    """

    def __init__(
        self, hand: Counter[Card], declarer: tuple[TableMeld, ...], rules: RuleSet, info: RoundInfo, values: list[int]
    ):
        self.mrules = mrules = meld_rules(rules, info)
        self.declarer, self.rules, self.info, self.values = declarer, rules, info, values
        self.meld_count = len(declarer)
        self.keys = tuple(hand)
        self.wild = wild = mrules.wild  # by card code
        natural_at = [-1] * CODES  # by card code, the index of the hand's natural card, or -1
        held = [0] * _SUIT_COUNT  # per suit, a bit for each place where the hand holds a natural
        naturals: list[int] = []
        wilds: list[int] = []
        wild_values: list[int] = []  # the points of each of the hand's wild cards
        packed = int.from_bytes(bytes(hand.values()), "little")  # a byte a count, as _BITS says
        for index, (card, count) in enumerate(hand.items()):
            code = card.code
            if wild[code]:
                wilds.append(index)
                wild_values += [values[code]] * count
            else:
                naturals.append(index)
                natural_at[code] = index
                held[code & SUIT_MASK] |= _RANK_PLACES[code >> SUIT_BITS]
        self.start = packed
        self.natural_at, self.wild_at = tuple(naturals), tuple(wilds)
        self.wild_count = len(wild_values)
        self.sub_hands: SubHands | None = None
        if not mrules.in_place_natural:
            self.sub_hands = SubHands(
                [self.keys[index] for index in naturals],
                [_BITS * index for index in naturals],
                packed,
                _BITS,
                wild_values,
                mrules,
                values,
            )
        self.scores: dict[int, tuple[int, list[int]]] = {}  # by the counts: `cost` and `floors`
        self.known: dict[int, _Found] = {}  # by the counts and the meld index, packed
        self.index_bits = self.meld_count.bit_length()
        self._tables(natural_at, held)
        self.candidates: dict[int, list[_Candidate]] = {}
        self.shared = _extensions(rules, info)
        self.extended: dict[int, TableMeld | None] = {}
        self.heights: dict[tuple[int, tuple[Card, ...]], int] = {}

    def _tables(self, natural_at: list[int], held: list[int]) -> None:
        """Per meld, the hand's distinct cards that could ever be laid off on it (wilds; naturals of
        a set's rank or of a run's suit at a place it leaves free): its candidates use no others,
        so they are remembered by the counts of these alone. And per meld index i, the hand's
        distinct naturals that could ever be laid off on melds i, i+1, ... with their points: with
        `floor` (wilds free), a bound on what lay-offs there can reach. `natural_at`: by card code,
        the index of the hand's natural card, or -1; `held`: per suit, the places of its naturals."""
        mrules = self.mrules
        ends = (mrules.lowest, mrules.highest)
        found = [self._reach(meld, natural_at, held, ends) for meld in self.declarer]
        self.reaches = reaches = [reach for reach, _ in found]
        self.next_to_mask = [near for _, near in found]
        wild_at = self.wild_at  # ascending, as are the indexes of the naturals
        wild_mask = 0
        for at in wild_at:  # (loops: a comprehension per meld costs more than the few cards in it)
            wild_mask |= _FIELD << _BITS * at
        self.relevant, self.relevant_mask = [], []
        for reach in reaches:
            mask = wild_mask
            for at in reach:
                mask |= _FIELD << _BITS * at
            self.relevant.append(tuple(sorted(reach.union(wild_at))) if reach else wild_at)
            self.relevant_mask.append(mask)
        keys, values = self.keys, self.values
        union: set[int] = set()
        points: tuple[tuple[int, int], ...] = ()  # (shift of the card's count, its points)
        self.later_sets = [union]
        self.later = [points]
        for reach in reversed(reaches):  # from the last meld back: each adds its naturals
            if not reach <= union:
                union = union | reach
                points = tuple([(_BITS * at, values[keys[at].code]) for at in sorted(union)])
            self.later_sets.append(union)
            self.later.append(points)
        self.later_sets.reverse()
        self.later.reverse()
        # Per meld, found on first need: the naturals that go on it and on no later meld, with their
        # points (as `later`).
        self.own: list[list[tuple[int, int]] | None] = [None] * len(reaches)

    def best(self) -> _Found:
        here = self.cost(self.start)
        if not self.meld_count:
            return (here, 0, 0, (), self.start)
        return self.search(0, self.start, here, self.floors(self.start)[-1] - self.layable(0, self.start))

    def kept(self, counts: int) -> Counter[Card]:
        """The cards counted in `counts`."""
        return Counter({card: count for at, card in enumerate(self.keys) if (count := counts >> _BITS * at & _FIELD)})

    def _reach(
        self, meld: TableMeld, natural_at: list[int], held: list[int], ends: tuple[int, int]
    ) -> tuple[set[int], int]:
        """The hand's distinct naturals that could be laid off on a meld, and a mask of the counts of
        those that could be laid off with no wild (of a set's rank, or just beyond a run's end); `natural_at`:
        by card code, the index of the hand's natural card, or -1; `held`: per suit, a bit for each
        place where the hand holds a natural; `ends`: the lowest and highest place in a run."""
        lowest, highest = ends
        wild_count = self.wild_count
        fits: set[int] = set()
        next_to = 0
        for reading in meld.readings:
            code = reading.read_as[0].code
            if reading.kind is MeldKind.SET:
                rank = code & ~SUIT_MASK  # the first card code of the rank, its suits following
                for at in natural_at[rank : rank + _SUIT_COUNT]:
                    if at >= 0:
                        fits.add(at)
                        next_to |= _FIELD << _BITS * at
                continue
            suit = code & SUIT_MASK
            places = held[suit]
            for place in (reading.positions[0] - 1, reading.positions[-1] + 1):
                if lowest <= place <= highest and places >> place & 1:
                    next_to |= _FIELD << _BITS * natural_at[_PLACE_RANKS[place] << SUIT_BITS | suit]
            # A natural goes on beyond an end only with every place between filled, by the
            # natural of that place or by one of the hand's wilds: it lies before the place where
            # the wilds run out, the one more than there are wilds without a natural.
            below = (1 << reading.positions[0]) - (1 << lowest)
            missing = below & ~places
            for _ in range(wild_count):
                missing &= ~(1 << missing.bit_length() >> 1)  # the nearest missing place filled
            stop = missing.bit_length()  # one above the place where the wilds run out, or 0
            reachable = below & places & -(1 << stop)
            above = (1 << highest + 1) - (1 << reading.positions[-1] + 1)
            missing = above & ~places
            for _ in range(wild_count):
                missing &= missing - 1  # the nearest missing place filled
            if missing:
                above &= (missing & -missing) - 1  # below the place where the wilds run out
            reachable |= above & places
            while reachable:
                place = reachable.bit_length() - 1
                fits.add(natural_at[_PLACE_RANKS[place] << SUIT_BITS | suit])
                reachable ^= 1 << place
        return fits, next_to

    def layable(self, index: int, counts: int) -> int:
        """The points of the naturals that might still be laid off on melds `index`, `index` + 1, ..."""
        total = 0
        for shift, points in self.later[index]:
            total += (counts >> shift & _FIELD) * points
        return total

    def cost(self, counts: int) -> int:
        """The least penalty (no multiplier) of the cards kept."""
        return (self.scores.get(counts) or self._score(counts))[0]

    def arrangement(self, counts: int) -> Arrangement | None:
        """An arrangement of the cards counted with their least penalty, multiplied for the round,
        read from the solver's parts of the hand (see SubHands.arrangement); None where there are
        none: ask `arrange`."""
        if self.sub_hands is None:
            return None
        wilds = [self.keys[at] for at in self.wild_at for _ in range(counts >> _BITS * at & _FIELD)]
        return self.sub_hands.arrangement(counts, wilds, self.info.multiplier)

    def floors(self, counts: int) -> list[int]:
        """For j = 0, 1, ... up to the wild cards counted: the least penalty of the naturals counted
        with j of those wilds, if wilds could also go for nothing. No part of the cards with j wilds
        or fewer scores less than this less the points of the naturals it lacks."""
        return (self.scores.get(counts) or self._score(counts))[1]

    def _score(self, counts: int) -> tuple[int, list[int]]:
        """`cost` and `floors` of the cards counted, found together."""
        if self.sub_hands is not None:
            kept = 0
            for at in self.wild_at:
                kept += counts >> _BITS * at & _FIELD
            cost, floors = self.sub_hands.score(counts, self.wild_count - kept)
        else:
            wilds = [counts >> _BITS * at & _FIELD for at in self.wild_at]
            cost = arrange(list(self.kept(counts).elements()), self.rules, self.info, self.values).penalty
            points = [self.values[self.keys[at].code] for at in self.wild_at]
            floors = [cost - sum(map(operator.mul, wilds, points))] * (sum(wilds) + 1)
        score = self.scores[counts] = (cost, floors)
        return score

    def _wild_candidates_cannot_win(
        self, index: int, counts: int, floors: list[int], after: int, best: int, laid: int
    ) -> bool:
        """Whether no natural held goes on meld `index` without a wild, so that every candidate
        lays off a wild card at least, and even with one wild fewer and every natural of the meld
        shed (as the candidates' own bound below has it) none can beat the best found: no
        candidate needs making."""
        if counts & self.next_to_mask[index]:
            return False
        if len(floors) < 2:
            return True  # no wild card either: no candidate at all
        own = self.own[index]
        if own is None:
            keys, values = self.keys, self.values
            alone = sorted(self.reaches[index] - self.later_sets[index + 1])
            own = self.own[index] = [(_BITS * at, values[keys[at].code]) for at in alone]
        floor = floors[-2] - after
        for shift, points in own:
            floor -= (counts >> shift & _FIELD) * points
        return floor > best or (floor == best and laid == 0)

    def _candidates(self, index: int, counts: int) -> list[_Candidate]:
        """The candidate lay-offs onto meld `index`, dearest first (ties in the order made)."""
        key = (counts & self.relevant_mask[index]) << self.index_bits | index
        known = self.candidates.get(key)
        if known is not None:
            return known
        # Only the cards the meld's candidates can use (in the hand's order, so the same candidates),
        # each as a candidate of one card: a candidate's figures are then sums of its parts'.
        naturals, wilds = _card_parts(
            self.relevant[index], self.keys, counts, self.values, self.wild, self.later_sets[index + 1]
        )
        made = _candidate_list(self.declarer[index], naturals, wilds, self.mrules)
        if (self.mrules.lowest, self.mrules.highest) == (ACE_LOW, ACE_HIGH):
            # One ace at both ends of a run takes more than is held where only one is: never legal
            # (D14). No other candidate takes more of a card than is held.
            made = [candidate for candidate in made if not _over(counts, candidate[3])]
        made.sort(key=operator.itemgetter(2), reverse=True)  # stable: ties stay in the order made
        self.candidates[key] = made
        return made

    def extend(self, index: int, used: tuple[Card, ...], taken: int) -> TableMeld | None:
        """The meld after the lay-off (or, for a meld with one reading, after a lay-off that any wild
        cards could stand in for), or None where it is not legal. The check is remembered across
        hands too, as the later players of a round meet the same melds (D6)."""
        local = taken << self.index_bits | index
        extended = self.extended.get(local, _UNCHECKED)
        if extended is not _UNCHECKED:
            return extended
        meld = self.declarer[index]
        key = (meld, self._alike(meld, used))
        extended = self.shared.get(key, _UNCHECKED)  # one lookup: another thread may clear the cache
        if extended is _UNCHECKED:
            if len(self.shared) >= _EXTENDED_LIMIT:
                self.shared.clear()
            # What verify_layoff answers, without wording a refusal.
            extended = _layoff_or_none(meld, _laid(used), self.rules, self.info)
            self.shared[key] = extended
        self.extended[local] = extended
        return extended

    def _alike(self, meld: TableMeld, used: tuple[Card, ...]) -> tuple[int, ...]:
        """The cards' codes as far as a lay-off onto the meld can tell them apart (-1: any wild).
        Wild cards count as wild wherever they stand (unless a wild in its own place counts as
        natural), so on a meld with one reading any of them does as well as another, and as high
        (D11); only a wild of the run's suit or the set's rank may stand for itself, which the full
        meld check reads otherwise. Codes, as a tuple of them hashes faster than one of cards."""
        if meld.others or self.mrules.in_place_natural:
            return tuple([card.code for card in used])
        wild = self.wild
        first = meld.read_as[0]
        if meld.kind is MeldKind.RUN:
            suit = first.suit
            return tuple([-1 if wild[card.code] and card.suit is not suit else card.code for card in used])
        rank = first.rank
        return tuple([-1 if wild[card.code] and card.rank is not rank else card.code for card in used])

    def height(self, index: int, used: tuple[Card, ...], extended: TableMeld) -> int:
        """How high the wilds of a lay-off stand (D11), found only for lay-offs that may be chosen."""
        height = self.heights.get((index, used))
        if height is None:
            height = self.heights[(index, used)] = max(0, _height(self.declarer[index], extended, self.info))
        return height

    def after(self, layoffs: tuple[tuple[int, tuple[Card, ...]], ...]) -> tuple[TableMeld, ...]:
        """The declarer's melds after the lay-offs chosen."""
        if not layoffs:
            return self.declarer
        melds = list(self.declarer)
        for index, used in layoffs:
            meld = melds[index]
            alike = self._alike(meld, used)
            # Checked already for exactly these cards unless the check was shared by other wilds.
            extended = self.shared.get((meld, alike)) if -1 not in alike else None
            if extended is None:
                extended = _layoff_or_none(meld, _laid(used), self.rules, self.info)
            assert extended is not None
            melds[index] = extended
        return tuple(melds)

    def search(self, index: int, counts: int, here: int, floor: int) -> _Found:
        """The best lay-offs onto melds `index`, `index` + 1, ... (one at least) from the cards
        counted; `here`: the least penalty of keeping them all, self.cost(counts); `floor`: less
        than any lay-offs onto these melds can reach, self.floor(counts) - self.layable(index, counts)."""
        key = counts << self.index_bits | index  # one integer hashes faster than a pair
        known = self.known.get(key)
        if known is not None:
            return known
        # Past the last meld the cards are kept: answered here, which spares a call and a lookup.
        last = index + 1 == self.meld_count
        floors = self.floors(counts)
        free = floors[-1]
        after = 0 if last else self.layable(index + 1, counts)  # the naturals that might fit later melds
        result: _Found = (here, 0, 0, (), counts) if last else self.search(index + 1, counts, here, free - after)
        # The best so far, by D11: the least penalty, then the fewest cards laid off, then laid-off
        # wilds highest; "(a, b) worse than (best, laid)" is spelt out below to spare the tuples.
        kept = best = result[0]
        laid = result[1]
        # Even laying off every card that might fit this meld or a later one cannot beat keeping
        # them here: no candidate needs making.
        hopeless = floor > best or (floor == best and laid == 0)
        if hopeless or self._wild_candidates_cannot_win(index, counts, floors, after, best, laid):
            self.known[key] = result
            return result
        chosen = -1  # where the best so far comes in the order of the candidates (kept first)
        for order, used, shed, taken, wilds, natural_shed, later_shed in self._candidates(index, counts):
            # Keeping the cards instead scores at most their points more, so a lay-off that cannot
            # bring the penalty down to the best found so far is not tried, nor one that at best
            # ties it while laying off more cards (D11).
            least = kept - shed
            if least > best:
                break  # the candidates after this one shed no more, and the best found only gets better
            size = len(used)
            if (least if least > 0 else 0) == best and size > laid:
                continue
            left = counts - taken
            # Nor one after which even laying off every natural that might fit the later melds, and
            # any wild, could not (the naturals kept now, with the wilds kept, scoring at least
            # their points less the naturals laid off here).
            left_layable = after - later_shed
            floor = floors[-1 - wilds] - natural_shed - left_layable
            if floor > best or (floor == best and size > laid):
                continue
            left_cost, left_floors = self.scores.get(left) or self._score(left)
            floor = left_floors[-1] - left_layable
            if floor > best or (floor == best and size > laid):
                continue
            rest = (left_cost, 0, 0, (), left) if last else self.search(index + 1, left, left_cost, floor)
            penalty, total_laid = rest[0], size + rest[1]
            if penalty > best or (penalty == best and total_laid > laid):
                continue
            # Checked only for a lay-off that could be chosen: the search after it is cheaper.
            extended = self.extend(index, used, taken)
            if extended is None:
                continue
            height = rest[2] + self.height(index, used, extended)
            # A tie on penalty and cards laid off goes to the wilds standing highest, then to the
            # candidate made first.
            tied = penalty == best and total_laid == laid
            if tied and (height < result[2] or (height == result[2] and order >= chosen)):
                continue
            result = (penalty, total_laid, height, ((index, used), *rest[3]), rest[4])
            best, laid, chosen = penalty, total_laid, order
        self.known[key] = result
        return result


# Counts of the hand's distinct cards, packed a byte each (engine.deck.pack_wide).
_BITS = WIDE_BITS
_FIELD = WIDE_FIELD
_pack_counts = pack_wide
_over = takes_more


# Lay-offs checked, per rule set and round: (meld, cards) -> the meld after them, or None.
_Extended = dict[tuple[TableMeld, tuple[int, ...]], TableMeld | None]
_EXTENDED: dict[tuple[RuleSet, RoundInfo], _Extended] = cache("lay-offs checked by rule set and round")
_EXTENDED_LIMIT = 20_000
_UNCHECKED = TableMeld(MeldKind.SET, (), ())
# Each card as laid off (without a role), by code: made once, as a lay-off check takes them so.
_LAID = {card.code: MeldCard(card) for card in (Card.JOKER, *_PLACE_CARD.values())}


def _laid(used: tuple[Card, ...]) -> tuple[MeldCard, ...]:
    """The cards of a lay-off as a lay-off check takes them."""
    return tuple([_LAID[card.code] for card in used])


# The same tables by identity of the rule set and round, checked first: hashing a whole rule set
# costs more than a lookup.
_EXTENDED_BY_ID: dict[tuple[int, int], tuple[RuleSet, RoundInfo, _Extended]] = cache(
    "lay-offs checked, by identity of the rule set and round"
)


def _extensions(rules: RuleSet, info: RoundInfo) -> _Extended:
    known = _EXTENDED_BY_ID.get((id(rules), id(info)))
    if known is not None and known[0] is rules and known[1] is info:
        return known[2]
    if len(_EXTENDED_BY_ID) >= 64:
        _EXTENDED_BY_ID.clear()
    key = (rules, info)  # hashed once where it can be: a rule set's hash is not remembered
    table = _EXTENDED.setdefault(key, {})
    if len(_EXTENDED) > 16:  # a new one came in: forget the others
        _EXTENDED.clear()
        _EXTENDED_BY_ID.clear()
        _EXTENDED[key] = table
    _EXTENDED_BY_ID[(id(rules), id(info))] = (rules, info, table)
    return table


def _wild_groups(wilds: list[tuple[_Part, int]], mrules: MeldRules) -> list[_Part]:
    """The groups of the hand's wild cards worth laying off; `wilds`: each wild card held as a part
    of one card, with how many are held.

    Wilds are interchangeable, so shedding n of them means shedding the n dearest, except when a
    wild may count as natural in its own place (wild_in_place_natural): then every sub-multiset.
    """
    if len(wilds) > 1:
        wilds.sort(key=lambda wild: -wild[0][1])
    if mrules.in_place_natural:
        return _multisets(wilds)
    groups = [_NO_CARDS]
    for unit, count in wilds:
        for _ in range(count):
            groups.append(_joined(groups[-1], unit))
    return groups


def _multisets(units: list[tuple[_Part, int]]) -> list[_Part]:
    """Every group of the cards held (up to the count of each), in the order of itertools.product
    over how many of each, the empty group first."""
    groups = [_NO_CARDS]
    for unit, count in units:
        copies = [_NO_CARDS]
        for _ in range(count):
            copies.append(_joined(copies[-1], unit))
        groups = [_joined(group, copy) for group in groups for copy in copies]
    return groups


def _joined(first: _Part, second: _Part) -> _Part:
    """The part of the cards of both (most parts joined are empty: the empty group of wilds, no
    natural beyond one end of a run)."""
    if not second[0]:
        return first
    if not first[0]:
        return second
    return (
        first[0] + second[0],
        first[1] + second[1],
        first[2] + second[2],
        first[3] + second[3],
        first[4] + second[4],
        first[5] + second[5],
    )


def _numbered(groups: Iterable[_Candidate], first: int = 0) -> list[_Candidate]:
    """The candidates numbered again in their order, from `first`."""
    return [(order, *candidate[1:]) for order, candidate in enumerate(groups, first)]


def _wilds_alone(groups: Iterable[_Part]) -> list[_Candidate]:
    """The groups of wilds as candidates, numbered in their order."""
    return [(order, *group) for order, group in enumerate(groups)]


def _layoff_candidates(
    meld: TableMeld, cards: Mapping[Card, int], rules: RuleSet, info: RoundInfo, values: Sequence[int]
) -> list[tuple[Card, ...]]:
    """Groups of hand cards that could extend the meld, on any reading still open (D13);
    verify_layoff decides which are legal."""
    keys = tuple(cards)
    naturals, wilds = _card_parts(range(len(keys)), keys, _pack_counts(cards.values()), values, wild_table(info), set())
    return [candidate[1] for candidate in _candidate_list(meld, naturals, wilds, meld_rules(rules, info))]


def _card_parts(
    indexes: Iterable[int],
    keys: Sequence[Card],
    counts: int,
    values: Sequence[int],
    wild: Sequence[bool],
    later: set[int],
) -> tuple[list[tuple[_Part, int]], list[tuple[_Part, int]]]:
    """The distinct cards `keys` at `indexes` that are held (`counts`, packed), each as a part of
    one card with its count, naturals and wilds apart; `later`: the indexes of the naturals that
    might also fit a later meld."""
    naturals: list[tuple[_Part, int]] = []
    wilds: list[tuple[_Part, int]] = []
    for at in indexes:
        count = counts >> _BITS * at & _FIELD
        if count:
            card = keys[at]
            points = values[card.code]
            if wild[card.code]:
                wilds.append((((card,), points, 1 << _BITS * at, 1, 0, 0), count))
            else:
                naturals.append((((card,), points, 1 << _BITS * at, 0, points, points if at in later else 0), count))
    return naturals, wilds


def _candidate_list(
    meld: TableMeld, naturals: list[tuple[_Part, int]], wilds: list[tuple[_Part, int]], mrules: MeldRules
) -> list[_Candidate]:
    """The candidates whose cards _layoff_candidates gives, in that order and numbered so;
    `naturals`, `wilds`: the cards held, each as a part of one card, with how many are held."""
    wild_groups = _wild_groups(wilds, mrules)
    if not meld.others:
        return _reading_candidates(meld, naturals, mrules, wild_groups)
    groups: dict[tuple[Card, ...], _Candidate] = {}  # as a set in the order first made
    for reading in meld.readings:
        for candidate in _reading_candidates(reading, naturals, mrules, wild_groups):
            groups.setdefault(candidate[1], candidate)
    return _numbered(groups.values())


def _reading_candidates(
    meld: TableMeld, naturals: list[tuple[_Part, int]], mrules: MeldRules, wild_groups: list[_Part]
) -> list[_Candidate]:
    if meld.kind is MeldKind.RUN:
        return _run_candidates(meld, naturals, mrules, wild_groups)
    rank = meld.read_as[0].rank
    mates = [natural for natural in naturals if natural[0][0][0].rank == rank]
    if not mates:
        return _wilds_alone(wild_groups[1:])  # the first group is the empty one: no lay-off
    groups = [
        (order, cards + extra[0], shed + extra[1], taken + extra[2], extra[3], shed, later)
        for order, ((cards, shed, taken, _, _, later), extra) in enumerate(
            itertools.product(_multisets(mates), wild_groups), -1
        )
    ]
    return groups[1:]  # the first is the empty group


def _run_candidates(
    meld: TableMeld, naturals: list[tuple[_Part, int]], mrules: MeldRules, wild_groups: list[_Part]
) -> list[_Candidate]:
    """Extensions of a run outward from its ends: at each place the natural card itself, or a wild;
    for each way below the run (see _outward), each way above it that the wilds left can fill."""
    suit = meld.read_as[0].suit
    assert suit is not None
    lowest, highest = (mrules.lowest, mrules.highest)
    low, high = meld.positions[0], meld.positions[-1]
    row = _SUIT_ROWS[suit]  # the card at place p is row[p - 1]
    below, above = row[lowest - 1 : low - 1][::-1], row[high:highest]
    by_size = _by_size(wild_groups)
    most_wilds = len(by_size) - 1
    held = {unit[0][0].code: unit for unit, count in naturals if count > 0}
    if not held:  # wilds alone: one group of each size the places beyond the ends can take
        sizes = range(1, min(most_wilds, len(below) + len(above)) + 1)
        return _wilds_alone(group for size in sizes for group in by_size[size])
    highs = _outward(above, held, most_wilds)
    full_highs = [way for way in highs if len(way[0][0]) + way[1] == len(above)]
    groups: list[_Candidate] = []
    for low_naturals, low_wilds, ends_natural in _outward(below, held, most_wilds):
        budget = most_wilds - low_wilds
        # A way below ending in a wild came after the same way with that wild moved above the run,
        # which made the same groups unless the way above already fills every place there.
        for high_naturals, high_wilds, _ in highs if ends_natural else full_highs:
            if high_wilds <= budget:
                cards, shed, taken, _, _, later = _joined(low_naturals, high_naturals)
                for extra in by_size[low_wilds + high_wilds]:
                    order = len(groups) - 1  # the first group is the empty one, dropped below
                    groups.append((order, cards + extra[0], shed + extra[1], taken + extra[2], extra[3], shed, later))
    if lowest == ACE_LOW and highest == ACE_HIGH:  # an ace may stand beyond either end: the same groups twice
        groups = _numbered({candidate[1]: candidate for candidate in groups}.values(), -1)
    return groups[1:]  # the first is the empty group: no lay-off


def _by_size(wild_groups: list[_Part]) -> list[list[_Part]]:
    """The wild groups by their number of cards, in order."""
    if wild_groups[-1][3] == len(wild_groups) - 1:  # one group of each size, smallest first
        return [[group] for group in wild_groups]
    by_size: list[list[_Part]] = [[] for _ in range(max(group[3] for group in wild_groups) + 1)]
    for group in wild_groups:
        by_size[group[3]].append(group)
    return by_size


def _outward(places: list[Card], held: dict[int, _Part], wild_budget: int) -> list[tuple[_Part, int, bool]]:
    """Every way to fill the first n places beyond a run's end, fewest places first: (the naturals
    used, the wilds used, whether the last place filled holds a natural, or none is filled). `held`:
    the naturals in hand by code, each as a part of one card. The places hold distinct cards, so
    each is used at most once."""
    ways: list[tuple[_Part, int, bool]] = [(_NO_CARDS, 0, True)]
    frontier = ways[:]
    for card in places:
        grown: list[tuple[_Part, int, bool]] = []
        unit = held.get(card.code)
        for naturals, used_wilds, _ in frontier:
            if unit is not None:
                grown.append((_joined(naturals, unit), used_wilds, True))
            if used_wilds < wild_budget:
                grown.append((naturals, used_wilds + 1, False))
        if not grown:
            break
        ways += grown
        frontier = grown
    return ways


def layoff_turns(declarer_seat: int, seats: int) -> tuple[int, ...]:
    """The other seats in the order they lay off: from the left of the player who went out (D6).

    >>> layoff_turns(1, 4)
    (2, 3, 0)
    """
    return tuple((declarer_seat + step) % seats for step in range(1, seats))


def score_in_turn(
    hands: Sequence[Sequence[Card] | None], declarer: Sequence[TableMeld], rules: RuleSet, info: RoundInfo
) -> tuple[LayoffScore | None, ...]:
    """Score hands given in lay-off order (D6, D7): each player takes their least penalty on the
    melds as the players before them left them, and their lay-offs extend those melds for the
    next. None stands for a player whose cards are not known; the melds pass on unchanged.

    >>> from engine.cards import parse_cards
    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("pay-me")
    >>> info = round_info(rules, 2)
    >>> melds = table_melds(["6S 7S 8S 9S"], rules, info)
    >>> scores = score_in_turn([parse_cards("10S"), None, parse_cards("JS")], melds, rules, info)
    >>> [score.arrangement.penalty if score else None for score in scores]
    [0, None, 0]
    >>> str(scores[2].melds_after[0])
    '6S 7S 8S 9S 10S JS'
    """
    on_table = tuple(declarer)
    scored: list[LayoffScore | None] = []
    for hand in hands:
        if hand is None:
            scored.append(None)
            continue
        score = score_with_layoffs(hand, on_table, rules, info)
        on_table = score.melds_after
        scored.append(score)
    return tuple(scored)
