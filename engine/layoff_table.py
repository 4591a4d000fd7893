"""The declarer's melds on the table (D8, D13): read as written (`table_melds`, `verify_laid_down`)
or split from a loose hand (`declarer_melds`, `split_declarer_hand`), each keeping every reading
its cards leave open. engine.layoffs re-exports the public names.

>>> from engine.rules import rule_set
>>> from engine.schedule import round_info
>>> rules = rule_set("pay-me-family")
>>> [str(meld) for meld in table_melds(["AH 2H 3H", "9C 9D JK"], rules, round_info(rules, 5))]
['AH 2H 3H', '9C 9D JK=9S']
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace

from engine.caches import cache
from engine.cards import Card, MeldCard, Rank, Suit, parse_cards, parse_meld
from engine.deck import SUIT_BITS
from engine.errors import CannotGoOut, IllegalMeld
from engine.layoff_quick import _laid_as_written, _may_meld, _one_wild_shown
from engine.meldrules import MeldRules, meld_rules
from engine.melds import (
    MeldKind,
    check_meld,
    placed_reading,
    placed_run,
)
from engine.rules import RuleSet
from engine.schedule import RoundInfo
from engine.solver import going_out
from engine.tablemeld import _PLACE_CARD, TableMeld

__all__ = [
    "can_lay_down",
    "declarer_melds",
    "from_reading",
    "loose_meld",
    "split_declarer_hand",
    "table_melds",
    "verify_laid_down",
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
        shown = from_reading(verdict.kind, tuple(held.card for held in cards), verdict.read_as, verdict.positions)
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
    if len(at_place) < len(naturals) or not mrules.min_run <= len(cards) <= mrules.max_run:
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
    missing = [suit for suit in mrules.suits if suit not in taken] or list(mrules.suits)
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
    deck = meld_rules(rules, info)  # the deck's ranks and suits, for wilds that choose
    ranks = list(dict.fromkeys(card.rank for card in stands))
    for rank in ranks if len(ranks) == 1 else (list(deck.ranks) if not ranks else []):
        assert rank is not None
        _add_set(found, _set_roles(pinned, free, rank, deck.suits), rules, info)
    suits = list(dict.fromkeys(card.suit for card in stands))
    for suit in suits if len(suits) == 1 else (list(deck.suits) if not suits else []):
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


def _set_roles(pinned: list[MeldCard], free: list[Card], rank: Rank, suits: tuple[Suit, ...]) -> tuple[MeldCard, ...]:
    """A set of `rank` with every free wild given a role: itself if of that rank, else a suit missing."""
    taken = [(held.role or held.card).suit for held in pinned]
    missing = [suit for suit in suits if suit not in taken] or list(suits)
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
    return tuple(loose_meld(tuple(group), number, rules, info) for number, group in enumerate(groups, start=1))


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


def loose_meld(cards: tuple[Card, ...], number: int, rules: RuleSet, info: RoundInfo) -> TableMeld:
    """The `number`th meld split from a loose hand, as table_melds reads it with `loose` (the same
    meld, or the same IllegalMeld), sooner: its readings come from _plain_readings, and the one
    shown from the fast paths of engine.layoff_quick where they are sure.

    >>> from engine.cards import parse_cards
    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("pay-me-family")
    >>> meld = loose_meld(parse_cards("4H JK 5H"), 1, rules, round_info(rules, 4))
    >>> [str(reading) for reading in meld.readings]
    ['4H 5H JK=6H', 'JK=3H 4H 5H']
    """
    readings = _loose_readings(cards, rules, info)
    if len(readings) == 1:
        return readings[0]  # nothing for the written order to choose between
    written = _unwritten(cards)
    shown = _laid_as_written(cards, readings, info) or _one_wild_shown(cards, readings, info)
    if shown is not None:
        return _with_others(shown, readings, written)
    verdict = check_meld(written, rules, info)
    if verdict.valid and verdict.kind is not None and verdict.read_as is not None:
        return _with_others(from_reading(verdict.kind, cards, verdict.read_as, verdict.positions), readings, written)
    if not readings:
        text = " ".join(str(card) for card in cards)
        raise IllegalMeld(
            verdict.code or "illegal", f"declarer's meld {number} ({text}) is not legal: {verdict.reason}"
        )
    return _with_others(readings[0], readings, written)


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


def from_reading(
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
