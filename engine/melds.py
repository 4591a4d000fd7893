"""Meld validation (RULES.md 1-4): is a group of cards a legal set or run, how it is read, and why not.

The cards decide, not the order they are written in (D10): a meld is legal when some reading of
its cards is legal, and ``meld_readings`` lists every legal reading. Roles written with ``=`` are
binding. The written order only chooses among legal readings: a run written as a legal sequence,
ascending or descending, is read that way; otherwise a wild written between two naturals stands in
that gap and one written at an end stands at that end, as far as the cards allow; where that still
leaves a choice, the run's upper end is filled first. A set is preferred to a run when the cards
make both. ``open_readings`` keeps every reading the writing leaves open (D13).
The values it answers with (``Reading``, ``Verdict``, ``Reason``) are in ``engine.meldreading``.

>>> from engine.rules import rule_set
>>> from engine.schedule import round_info
>>> rules = rule_set("pay-me")
>>> verdict = check_meld(parse_meld("9C JK 2D QC"), rules, round_info(rules, 5))
>>> verdict.valid, verdict.code
(False, 'adjacent_wilds')
>>> print(verdict.reason)  # doctest: +NORMALIZE_WHITESPACE
JK and 2D stand side by side in the run (as 10C and JC); two wild cards may not be next to each
other in a run, and no other layout of these cards keeps them apart.
>>> check_meld(parse_meld("9C JK JC"), rules, round_info(rules, 5)).read_as_text
'9C JK=10C JC'
>>> five_six = check_meld(parse_meld("5H 6H JK 2C"), rules, round_info(rules, 5))
>>> five_six.valid, five_six.arranged_text, five_six.reading_text
(True, 'JK=4H 5H 6H 2C=7H', 'read as 4♥ 5♥ 6♥ 7♥')
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from engine.cards import Card, MeldCard, Rank, Suit, parse_meld
from engine.deck import PLACES, STANDARD_SUITS, rank_at_place
from engine.errors import IllegalMeld
from engine.meldreading import Reading, Reason, Verdict
from engine.meldrules import MAX_RUN, MeldRules, meld_rules, rank_positions, run_range
from engine.rules import AceRule, MeldKind, RuleSet, WildLimit
from engine.schedule import RoundInfo

__all__ = [
    "MAX_RUN",
    "MeldKind",
    "Reading",
    "Reason",
    "Verdict",
    "can_meld",
    "check_meld",
    "meld_readings",
    "open_readings",
    "parse_meld",
    "placed_reading",
    "placed_run",
    "rank_positions",
    "run_range",
    "set_with_free_wilds_placed",
    "verify_meld",
]


class _Rejection(Exception):
    def __init__(self, code: Reason, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


rank_at = rank_at_place  # the rank standing at a run place


_CARDS = {(rank, suit): Card(rank, suit) for rank in Rank for suit in Suit}  # built once: readings make many
_RUN_CARDS = {(place, suit): _CARDS[rank_at(place), suit] for place in PLACES for suit in Suit}


# --- the public checks ----------------------------------------------------------


def meld_readings(cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> tuple[Reading, ...]:
    """Every legal reading of a meld, whatever order its cards are written in (D10); () when none.

    Roles written with ``=`` are kept. Readings that differ only in which of two wild cards
    stands where are listed once: a set is listed once for each rank (and, where a wild in its
    own place counts as natural, for each number of wilds standing for themselves), with its
    wilds supplying missing suits first; a run once for each suit and each span of places, with a
    wild whose own place lies in the span standing there. A run's readings come upper span first.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("pay-me")
    >>> [reading.words for reading in meld_readings(parse_meld("5H JK 6H"), rules, round_info(rules, 5))]
    ['5♥ 6♥ 7♥', '4♥ 5♥ 6♥']
    >>> [reading.words for reading in meld_readings(parse_meld("5H 6H JK 2C"), rules, round_info(rules, 5))]
    ['4♥ 5♥ 6♥ 7♥']
    >>> meld_readings(parse_meld("5H 6H JK=7H 2C=8H"), rules, round_info(rules, 5))
    ()
    >>> rules = rule_set("3-13")
    >>> [(reading.kind.value, reading.words) for reading in meld_readings(parse_meld("2H 3H JK"), rules,
    ...                                                                 round_info(rules, 1))][:3]
    [('set', '3♠ 3♥ 3♦'), ('run', '3♥ 4♥ 5♥'), ('run', '2♥ 3♥ 4♥')]
    """
    held = tuple(cards)
    table = meld_rules(rules, info)
    if len(held) < 3 or _over_limit(held, table) or _role_problem(held, table) or _dead_joker(held, table):
        return ()
    return tuple(_legal(held, table))


def open_readings(cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> tuple[Reading, ...]:
    """The legal readings the written order and the roles leave open (D13), the verdict's first.

    Every legal set reading stays open (a set's rank is open only when all its cards are wild), and
    so do the run readings the writing allows: a run written as a legal sequence only that way;
    otherwise those whose wilds stand where they are written as far as the cards allow (``5H JK
    6H``: no gap between 5 and 6, so the joker may be 4♥ or 7♥). Runs read with their wilds in
    the places the writing suggests.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("pay-me")
    >>> [reading.words for reading in open_readings(parse_meld("5H JK 6H"), rules, round_info(rules, 5))]
    ['5♥ 6♥ 7♥', '4♥ 5♥ 6♥']
    >>> [reading.words for reading in open_readings(parse_meld("5H 6H JK"), rules, round_info(rules, 5))]
    ['5♥ 6♥ 7♥']
    >>> rules = rule_set("3-13")
    >>> [reading.words for reading in open_readings(parse_meld("2H 3H JK"), rules, round_info(rules, 1))]
    ['3♠ 3♥ 3♦', '2♥ 3♥ 4♥']
    """
    held = tuple(cards)
    table = meld_rules(rules, info)
    if len(held) < 3 or _over_limit(held, table) or _role_problem(held, table) or _dead_joker(held, table):
        return ()
    sets = list(_legal_sets(held, table))
    runs = [reading for reading in _written_runs(held, table) if _wild_ok(reading, table)]
    if not runs:
        runs = _most_followed(
            held, [reading for reading in _run_candidates(held, table) if _wild_ok(reading, table)], table
        )
    seen: set[tuple[Suit | None, int, frozenset[int]]] = set()
    kept = []
    for reading in runs:
        key = (reading.suit, reading.low, reading.wild_places)
        if key not in seen:
            seen.add(key)
            kept.append(reading)
    return (*sets, *kept)


def check_meld(cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> Verdict:
    """Judge one meld; never raises for an illegal meld.

    It is legal when some arrangement of its cards is (D10); the verdict gives the reading the
    written order prefers, or, when none is legal, why not.
    """
    held = tuple(cards)
    table = meld_rules(rules, info)
    try:
        reading = _preferred(held, table)
    except _Rejection as rejection:
        return Verdict(held, None, None, rejection.code.value, rejection.message)
    return Verdict(held, reading.kind, reading.read_as, None, None, reading.positions, reading.wild)


def placed_reading(cards: Sequence[MeldCard], kind: MeldKind, rules: RuleSet, info: RoundInfo) -> Reading | None:
    """What check_meld reads a meld as whose every card is placed, when it reads it as `kind`
    (None where it does not): every wild card written with its role, a set's cards of one rank, a
    run's cards of one suit on consecutive places from its low end, no ace twice. Such cards leave
    one reading to try, so none other is looked for.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("pay-me")
    >>> placed_reading(parse_meld("4H JK=5H 6H"), MeldKind.RUN, rules, round_info(rules, 5)).words
    '4♥ 5♥ 6♥'
    """
    held = tuple(cards)
    table = meld_rules(rules, info)
    if len(held) < 3 or _over_limit(held, table) or _role_problem(held, table) or _dead_joker(held, table):
        return None
    read_as = [card.role or card.card for card in held]
    if kind is MeldKind.RUN:
        low = table.positions(read_as[0].rank)[0]  # type: ignore[arg-type]
        return placed_run([card.card for card in held], read_as[0].suit, low, rules, info)  # type: ignore[arg-type]
    reading = _reading(held, table, kind, read_as, ())
    return reading if _wild_ok(reading, table) else None


def placed_run(cards: Sequence[Card], suit: Suit, low: int, rules: RuleSet, info: RoundInfo) -> Reading | None:
    """What check_meld reads a run as whose cards lie in order on the places from `low` up, each
    wild card written with the role of its place, each natural the card of its place; None where
    it does not read them as that run. See placed_reading.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> from engine.cards import parse_cards
    >>> rules = rule_set("pay-me")
    >>> placed_run(parse_cards("4H JK 6H"), Suit.HEARTS, 4, rules, round_info(rules, 5)).words
    '4♥ 5♥ 6♥'
    """
    table = meld_rules(rules, info)
    count = len(cards)
    if count < 3 or not table.min_run <= count <= table.max_run:
        return None
    positions = tuple(range(low, low + count))
    read_as = tuple([_RUN_CARDS[place, suit] for place in positions])
    wild = tuple([table.counts_as_wild(card, stands) for card, stands in zip(cards, read_as, strict=True)])
    reading = Reading(MeldKind.RUN, read_as, positions, wild)
    return reading if _wild_ok(reading, table) else None


def verify_meld(cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> Verdict:
    """Return the legal meld's verdict, or raise IllegalMeld with the code and reason."""
    verdict = check_meld(cards, rules, info)
    if verdict.code is not None:
        raise IllegalMeld(verdict.code, verdict.reason or verdict.code)
    return verdict


def can_meld(cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> bool:
    """Whether some arrangement of the cards is a legal meld (D10)."""
    return check_meld(cards, rules, info).valid


# --- choosing the reading -------------------------------------------------------


def _preferred(cards: tuple[MeldCard, ...], table: MeldRules) -> Reading:
    """The legal reading the written order points to; raise _Rejection when there is none."""
    if len(cards) < 3:
        raise _Rejection(Reason.TOO_SHORT, f"{_names(cards)}: a meld needs at least 3 cards.")
    if _over_limit(cards, table):
        raise _Rejection(
            Reason.TOO_LONG,
            f"{_names(cards)} has {len(cards)} cards; in {table.game} no meld holds more than {table.max_meld}.",
        )
    problem = _role_problem(cards, table) or _dead_joker(cards, table)
    if problem:
        raise problem
    first_set = None
    for reading in _set_candidates(cards, table):
        if _wild_ok(reading, table):
            return reading
        first_set = first_set or reading
    written = list(_written_runs(cards, table))
    for reading in written:
        if _wild_ok(reading, table):
            return reading
    runs = list(_run_candidates(cards, table))
    legal = [reading for reading in runs if _wild_ok(reading, table)]
    if legal:
        return _best_followed(cards, legal, table)
    likeliest = first_set or next(iter(written), None) or (_best_followed(cards, runs, table) if runs else None)
    raise _refusal(cards, likeliest, table)


def _over_limit(cards: tuple[MeldCard, ...], table: MeldRules) -> bool:
    """More cards than the preset lets a meld hold (D18: 13 in 3-13)."""
    return table.max_meld is not None and len(cards) > table.max_meld


def _refusal(cards: tuple[MeldCard, ...], likeliest: Reading | None, table: MeldRules) -> _Rejection:
    """Why no reading is legal: the wild-card rule the likeliest reading breaks (a set's first, or
    the written order's), or why the cards make no set or run at all."""
    problem = _wild_problem(cards, likeliest, table) if likeliest is not None else None
    return problem or _structure_problem(cards, table)


def _written_runs(cards: tuple[MeldCard, ...], table: MeldRules) -> Iterator[Reading]:
    """Runs that keep the written order, ascending first, within the game's places."""
    if len(cards) > table.max_run or len(cards) < table.min_run:
        return
    fixed = _fixed_positions(cards, table)
    if not fixed:
        yield from _written_wild_runs(cards, table)
        return
    if len({suit for _, suit in fixed.values()}) != 1:
        return
    suit = next(iter(fixed.values()))[1]
    first = min(fixed)
    seen: list[list[int]] = []
    for step in (1, -1):
        for start_position in fixed[first][0]:
            start = start_position - step * first
            positions = [start + step * index for index in range(len(cards))]
            if positions in seen or not table.lowest <= min(positions) <= max(positions) <= table.highest:
                continue
            if all(positions[index] in options for index, (options, _) in fixed.items()):
                seen.append(positions)
                yield _run_reading(cards, table, suit, positions)


def _written_wild_runs(cards: tuple[MeldCard, ...], table: MeldRules) -> Iterator[Reading]:
    """Runs of wild cards only that keep the written order; only where a wild in its own place
    counts as natural does the place matter, so the suits the cards show come first."""
    held = Counter(held.card.suit for held in cards if held.card.suit is not None)
    suits = [suit for suit, _ in held.most_common()] + [suit for suit in table.suits if suit not in held]
    last = len(cards) - 1
    for suit in suits:
        for step in (1, -1):
            for start in range(table.lowest, table.highest + 1):
                positions = [start + step * index for index in range(len(cards))]
                if table.lowest <= positions[last] <= table.highest:
                    yield _run_reading(cards, table, suit, positions)


def _best_followed(cards: tuple[MeldCard, ...], readings: Sequence[Reading], table: MeldRules) -> Reading:
    """Of equally legal runs, the one whose wilds stand most where they are written, then the
    one with most wilds in their own place, then the first (the upper span)."""
    return _most_followed(cards, readings, table)[0]


def _most_followed(cards: tuple[MeldCard, ...], readings: Sequence[Reading], table: MeldRules) -> list[Reading]:
    """The runs whose wilds stand most where they are written, each with its wilds moved there,
    those with most wilds in their own place first, then in the order given."""
    scored = []
    for order, reading in enumerate(readings):
        followed, honoured = _follow_writing(cards, reading, table)
        selves = sum(
            1
            for held, stands in zip(cards, followed.read_as, strict=True)
            if table.is_free(held) and held.card == stands
        )
        scored.append((-honoured, -selves, order, followed))
    if not scored:
        return []
    most = min(score[0] for score in scored)
    return [score[3] for score in sorted(scored, key=lambda score: score[:3]) if score[0] == most]


def _follow_writing(cards: tuple[MeldCard, ...], reading: Reading, table: MeldRules) -> tuple[Reading, int]:
    """Move the run's wilds among their places so that as many as possible stand where written:
    between the two naturals they are written between, or at the end they are written at.

    Returns the reading and how many wilds stand where written."""
    # Naturals, roles and wilds counting as natural in their own place anchor the writing.
    anchored = {
        index: reading.positions[index]
        for index, held in enumerate(cards)
        if not table.is_free(held) or not reading.wild[index]
    }
    movable = [index for index, held in enumerate(cards) if table.is_free(held) and held.card != reading.read_as[index]]
    if not anchored or not movable:
        return reading, 0
    wants = _wants(len(cards), anchored)
    places = sorted(reading.positions[index] for index in movable)
    placed: dict[int, int] = {}
    free_places = list(places)
    wanting = sorted((index for index in movable if index in wants), key=lambda index: wants[index][1:])
    for index in wanting:
        low, high, _ = wants[index]
        inside = [place for place in free_places if low < place < high]
        if inside:
            placed[index] = inside[0]
            free_places.remove(inside[0])
    honoured = len(placed)
    _keep_written_order(placed, wants, anchored)
    for index in movable:
        if index not in placed:
            placed[index] = free_places.pop(0)
    positions = [placed.get(index, position) for index, position in enumerate(reading.positions)]
    followed = _run_reading(cards, table, reading.read_as[0].suit, positions)
    if not _wild_ok(followed, table):
        return reading, 0
    return followed, honoured


def _wants(count: int, anchored: dict[int, int]) -> dict[int, tuple[float, float, int]]:
    """For each wild written beside the naturals, the open interval of places it is written in,
    and its priority among wilds wanting the same interval (the outermost first)."""
    indexes = sorted(anchored)
    ascending = anchored[indexes[-1]] >= anchored[indexes[0]]
    lowest, highest = min(anchored.values()), max(anchored.values())
    wants: dict[int, tuple[float, float, int]] = {}
    for index in range(count):
        if index in anchored:
            continue
        before = [other for other in indexes if other < index]
        after = [other for other in indexes if other > index]
        if before and after:
            a, b = anchored[before[-1]], anchored[after[0]]
            wants[index] = (min(a, b), max(a, b), index if ascending else -index)
        elif after:  # written before every natural: the end the writing starts from
            wants[index] = (float("-inf"), lowest, index) if ascending else (highest, float("inf"), index)
        else:  # written after every natural
            wants[index] = (highest, float("inf"), -index) if ascending else (float("-inf"), lowest, -index)
    return wants


def _keep_written_order(
    placed: dict[int, int], wants: dict[int, tuple[float, float, int]], anchored: dict[int, int]
) -> None:
    """Wilds that want the same places take them in the order written (the run's direction)."""
    indexes = sorted(anchored)
    ascending = anchored[indexes[-1]] >= anchored[indexes[0]]
    groups: dict[tuple[float, float], list[int]] = {}
    for index in placed:
        groups.setdefault(wants[index][:2], []).append(index)
    for group in groups.values():
        spots = sorted((placed[index] for index in group), reverse=not ascending)
        for index, spot in zip(sorted(group), spots, strict=True):
            placed[index] = spot


# --- enumerating readings ---------------------------------------------------------


def _legal(cards: tuple[MeldCard, ...], table: MeldRules) -> Iterator[Reading]:
    yield from _legal_sets(cards, table)
    for reading in _run_candidates(cards, table):
        if _wild_ok(reading, table):
            yield reading


def _legal_sets(cards: tuple[MeldCard, ...], table: MeldRules) -> Iterator[Reading]:
    """The legal set readings, once for each rank and each choice of wilds counting as natural."""
    seen: set[tuple[Rank | None, tuple[bool, ...]]] = set()
    for reading in _set_candidates(cards, table):
        key = (reading.rank, reading.wild)
        if key not in seen and _wild_ok(reading, table):
            seen.add(key)
            yield reading


def _fixed_cards(cards: tuple[MeldCard, ...], table: MeldRules) -> dict[int, Card]:
    """The card each natural or role-marked card stands for, by its index in the meld."""
    return {index: held.role or held.card for index, held in enumerate(cards) if not table.is_free(held)}


def _set_candidates(cards: tuple[MeldCard, ...], table: MeldRules) -> Iterator[Reading]:
    """Each way to read the cards as a set, before the wild-card rules are checked."""
    ranks = {card.rank for card in _fixed_cards(cards, table).values()}
    if len(ranks) > 1:
        return
    for rank in ranks or _all_wild_ranks(cards, table):
        assert rank is not None
        own: dict[Card, list[int]] = {}
        for index, held in enumerate(cards):
            if table.is_free(held) and held.card.rank == rank:
                own.setdefault(held.card, []).append(index)
        # A wild of the set's rank may stand for itself; the more do, the more can count as natural,
        # but the fewer suits the set may show. Without either option, it changes nothing.
        every_count = table.in_place_natural or table.distinct_suits
        choices = (range(len(indexes), -1, -1) if every_count else (len(indexes),) for indexes in own.values())
        for counts in itertools.product(*choices):
            selves = {index for indexes, count in zip(own.values(), counts, strict=True) for index in indexes[:count]}
            yield _set_reading(cards, table, rank, selves)


def _all_wild_ranks(cards: tuple[MeldCard, ...], table: MeldRules) -> list[Rank]:
    held = Counter(held.card.rank for held in cards if held.card.rank is not None)
    return [rank for rank, _ in held.most_common()] + [rank for rank in table.ranks if rank not in held]


def _set_reading(cards: tuple[MeldCard, ...], table: MeldRules, rank: Rank, selves: set[int]) -> Reading:
    read_as: list[Card | None] = []
    for index, held in enumerate(cards):
        if not table.is_free(held):
            read_as.append(held.role or held.card)
        elif index in selves:
            read_as.append(held.card)
        else:
            read_as.append(None)
    return _reading(cards, table, MeldKind.SET, set_with_free_wilds_placed(read_as, rank, table.suits), ())


def set_with_free_wilds_placed(
    read_as: Sequence[Card | None], rank: Rank, suits: Sequence[Suit] = STANDARD_SUITS
) -> list[Card]:
    """What a set's cards are read as, each free wild (None) taking a suit the set is missing,
    in turn (the last missing suit for every wild past it; any suit again once none is missing).

    >>> [str(card) for card in set_with_free_wilds_placed([Card.parse("7H"), None, None], Rank.SEVEN)]
    ['7H', '7S', '7D']
    """
    taken = [card.suit for card in read_as if card is not None]
    missing = [suit for suit in suits if suit not in taken] or list(suits)
    filled = []
    for card in read_as:
        if card is None:
            suit = missing.pop(0) if len(missing) > 1 else missing[0]
            card = _CARDS[rank, suit]
        filled.append(card)
    return filled


_Fixed = dict[int, tuple[tuple[int, ...], Suit]]


def _fixed_positions(cards: tuple[MeldCard, ...], table: MeldRules) -> _Fixed:
    """Each natural or role-marked card's possible places in a run, by its index in the meld."""
    fixed: _Fixed = {}
    for index, card in _fixed_cards(cards, table).items():
        assert card.rank is not None and card.suit is not None
        fixed[index] = (table.positions(card.rank), card.suit)
    return fixed


def _run_candidates(cards: tuple[MeldCard, ...], table: MeldRules) -> Iterator[Reading]:
    """Each way to read the cards as a run, upper span first, before the wild-card rules are checked."""
    fixed = _fixed_positions(cards, table)
    count = len(cards)
    suits = {suit for _, suit in fixed.values()}
    if (
        len(suits) > 1
        or not table.min_run <= count <= table.max_run
        or any(not options for options, _ in fixed.values())
    ):
        return
    for suit in suits or table.suits:
        for choice in _ace_choices(fixed):
            taken = list(choice.values())
            if len(set(taken)) != len(taken):
                continue
            lo = min(taken, default=table.highest)
            hi = max(taken, default=table.lowest)
            for start in range(min(lo, table.highest - count + 1), max(hi - count + 1, table.lowest) - 1, -1):
                yield _span_reading(cards, table, suit, choice, start)


def _ace_choices(fixed: _Fixed) -> Iterator[dict[int, int]]:
    indexes = list(fixed)
    for choice in itertools.product(*(fixed[index][0] for index in indexes)):
        yield dict(zip(indexes, choice, strict=True))


def _span_reading(
    cards: tuple[MeldCard, ...], table: MeldRules, suit: Suit, choice: dict[int, int], start: int
) -> Reading:
    """The run on places start, start+1, …: a wild whose own place is empty stands there, as
    itself; the other wilds take the empty places from the low end, in the order written."""
    positions = dict(choice)
    empty = [place for place in range(start, start + len(cards)) if place not in choice.values()]
    free = [index for index in range(len(cards)) if index not in choice]
    for index in free:
        card = cards[index].card
        if card.rank is not None and card.suit == suit:
            own = [place for place in table.positions(card.rank) if place in empty]
            if own:
                positions[index] = own[0]
                empty.remove(own[0])
    for index in free:
        if index not in positions:
            positions[index] = empty.pop(0)
    return _run_reading(cards, table, suit, [positions[index] for index in range(len(cards))])


def _run_reading(cards: tuple[MeldCard, ...], table: MeldRules, suit: Suit | None, positions: Sequence[int]) -> Reading:
    assert suit is not None
    read_as = [_RUN_CARDS[place, suit] for place in positions]
    return _reading(cards, table, MeldKind.RUN, read_as, tuple(positions))


def _reading(
    cards: tuple[MeldCard, ...], table: MeldRules, kind: MeldKind, read_as: Iterable[Card], positions: tuple[int, ...]
) -> Reading:
    stands = tuple(read_as)
    wild = tuple(table.counts_as_wild(held.card, card) for held, card in zip(cards, stands, strict=True))
    return Reading(kind, stands, positions, wild)


# --- why the cards make no meld -------------------------------------------------------


def _role_problem(cards: tuple[MeldCard, ...], table: MeldRules) -> _Rejection | None:
    for held in cards:
        if held.role is not None and held.role != held.card and not table.is_wild(held.card):
            return _Rejection(
                Reason.NOT_WILD,
                f"{held.card} is not wild this round, so it cannot stand for {held.role}.",
            )
    return None


def _dead_joker(cards: tuple[MeldCard, ...], table: MeldRules) -> _Rejection | None:
    if any(held.card.is_joker and not table.is_wild(held.card) for held in cards):
        return _Rejection(Reason.NOT_WILD, f"{_names(cards)}: this game is played without jokers.")
    return None


def _structure_problem(cards: tuple[MeldCard, ...], table: MeldRules) -> _Rejection:
    """Why the cards make neither a set nor a run, whatever their order."""
    fixed = _fixed_cards(cards, table)
    listed = list(fixed.values())
    if len({card.suit for card in listed}) > 1 or len(set(listed)) < len(listed):
        return _mixed(cards, listed, table)
    if any(card.rank is Rank.ACE for card in listed) and table.no_aces:
        return _Rejection(
            Reason.ACES_NOT_IN_RUNS,
            f"{_names(cards)}: with no aces in runs, an ace melds only in a set; no card stands as an ace in a run.",
        )
    return _run_structure_problem(cards, _fixed_positions(cards, table), table)


def _mixed(cards: tuple[MeldCard, ...], fixed: list[Card], table: MeldRules) -> _Rejection:
    suits = Counter(card.suit for card in fixed)
    ranks = Counter(card.rank for card in fixed)
    if len(suits) == 1:
        twice = next(card for card, count in Counter(fixed).items() if count > 1)
        one_ace = (
            "; it may start or end with an ace, but never both"
            if twice.rank is Rank.ACE and table.ace is AceRule.BOTH and not table.no_aces
            else ""
        )
        return _Rejection(Reason.DUPLICATE_IN_RUN, f"{_names(cards)}: a run cannot hold {twice} twice{one_ace}.")
    if len(ranks) == len(fixed) or max(suits.values()) > max(ranks.values()):
        return _Rejection(
            Reason.MIXED_SUITS,
            f"{_names(cards)} mixes suits ({_list(suit.value for suit in suits if suit)}); a run must be all one suit.",
        )
    return _Rejection(
        Reason.MIXED_RANKS,
        f"{_names(cards)} mixes ranks ({_list(rank.token for rank in ranks if rank)}); a set must be all one rank.",
    )


def _run_structure_problem(cards: tuple[MeldCard, ...], fixed: _Fixed, table: MeldRules) -> _Rejection:
    """Why no arrangement of a one-suit group is a sequence."""
    names = _names(cards)
    if len(cards) < table.min_run:
        return _Rejection(Reason.TOO_SHORT, f"{names}: a run needs at least {table.min_run} cards in this game.")
    if len(cards) > table.max_run:
        return _Rejection(Reason.TOO_LONG, f"{names}: a run has at most {table.max_run} cards{_run_span(table)}.")
    distinct, twice = _has_distinct_choice(fixed)
    if not distinct:
        return _Rejection(Reason.DUPLICATE_IN_RUN, f"{names}: a run cannot hold two cards of rank {twice}.")
    if Rank.ACE in table.ranks and _fits_with_aces_anywhere(cards, table):
        if table.ace is AceRule.LOW:
            return _Rejection(
                Reason.ACE_NOT_ALLOWED,
                f"{names}: aces are low in this game, so A-2-3 is a run but Q-K-A is not.",
            )
        if table.ace is AceRule.HIGH:
            return _Rejection(
                Reason.ACE_NOT_ALLOWED,
                f"{names}: aces are high in this game, so Q-K-A is a run but A-2-3 is not.",
            )
    if _fits_around_the_corner(cards, fixed, table.ranks):
        corner = "-".join(rank.token for rank in (table.ranks[-1], *table.ranks[:2]))
        return _Rejection(Reason.WRAP, f"{names}: runs never wrap around; {corner} is not a run.")
    free = len(cards) - len(fixed)
    needed = _smallest_gap(fixed)
    return _Rejection(
        Reason.GAP,
        f"{names}: the gaps between the naturals need {needed} wild card{'s' if needed != 1 else ''}, "
        f"but there {'is' if free == 1 else 'are'} {free}.",
    )


def _has_distinct_choice(fixed: _Fixed) -> tuple[bool, str]:
    for choice in _ace_choices(fixed):
        if len(set(choice.values())) == len(choice):
            return True, ""
    counts = Counter(rank_at(options[0]).token for options, _ in fixed.values())
    return False, counts.most_common(1)[0][0]


def _smallest_gap(fixed: _Fixed) -> int:
    gaps = []
    for choice in _ace_choices(fixed):
        taken = sorted(choice.values())
        gaps.append(taken[-1] - taken[0] + 1 - len(taken))
    return min(gaps)


def _fits_with_aces_anywhere(cards: tuple[MeldCard, ...], table: MeldRules) -> bool:
    return next(_run_candidates(cards, table.with_aces_anywhere()), None) is not None


def _run_span(table: MeldRules) -> str:
    """Where a run may stand, said where an ace does not already say it."""
    if table.ace is AceRule.BOTH and Rank.ACE in table.ranks:
        return " (it may start or end with an ace, but never both)"
    if Rank.ACE not in table.ranks:
        return f", from {rank_at(table.lowest).token} to {rank_at(table.highest).token}"
    return ""


def _fits_around_the_corner(cards: tuple[MeldCard, ...], fixed: _Fixed, deck_ranks: tuple[Rank, ...]) -> bool:
    """Whether the naturals would make a run if the deck's highest rank were followed by its lowest
    ranks (King by Ace and then 2)."""
    free = len(cards) - len(fixed)
    ranks = [deck_ranks.index(rank_at(options[0])) for options, _ in fixed.values()]
    for shift in range(len(deck_ranks)):
        shifted = sorted((rank - shift) % len(deck_ranks) for rank in ranks)
        if len(set(shifted)) == len(shifted) and shifted[-1] - shifted[0] + 1 - len(shifted) <= free:
            return True
    return False


# --- the wild-card rules ------------------------------------------------------


def _wild_ok(reading: Reading, table: MeldRules) -> bool:
    """Whether the reading keeps the wild-card and suit rules (a quick _wild_problem is None)."""
    wilds = sum(reading.wild)
    if table.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS and 2 * wilds > len(reading.wild):
        return False
    if table.wild_limit is WildLimit.AT_LEAST_ONE_NATURAL and wilds == len(reading.wild):
        return False
    if reading.kind is MeldKind.RUN:
        if table.no_adjacent and wilds > 1:
            wild_places = {place for place, wild in zip(reading.positions, reading.wild, strict=True) if wild}
            return not any(place + 1 in wild_places for place in wild_places)
        return True
    return not table.distinct_suits or len({card.suit for card in reading.read_as}) >= 3


def _wild_problem(cards: tuple[MeldCard, ...], reading: Reading, table: MeldRules) -> _Rejection | None:
    """The first wild-card or suit rule this reading breaks, or None."""
    wild = reading.wild
    wilds = sum(wild)
    naturals = len(cards) - wilds
    if table.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS and wilds > naturals:
        return _Rejection(
            Reason.TOO_MANY_WILDS,
            f"{_names(cards)} has {wilds} wild card{'s' if wilds != 1 else ''} and {naturals} "
            f"natural{'s' if naturals != 1 else ''}; a meld may never hold more wilds than naturals.",
        )
    if table.wild_limit is WildLimit.AT_LEAST_ONE_NATURAL and naturals == 0:
        return _Rejection(
            Reason.NO_NATURAL,
            f"{_names(cards)} has only wild cards; a meld needs at least one natural card.",
        )
    if reading.kind is MeldKind.RUN and table.no_adjacent:
        problem = _adjacent_wilds(cards, reading, wild, any(table.is_free(held) for held in cards))
        if problem:
            return problem
    if reading.kind is MeldKind.SET and table.distinct_suits:
        suits = {card.suit for card in reading.read_as}
        if len(suits) < 3:
            return _Rejection(
                Reason.REPEATED_SUIT,
                f"{_names(cards)} shows only {len(suits)} suits; with different-suit sets, "
                "a set needs three different suits.",
            )
    return None


def _adjacent_wilds(
    cards: tuple[MeldCard, ...], reading: Reading, wild: tuple[bool, ...], any_layout: bool
) -> _Rejection | None:
    by_position = sorted(range(len(cards)), key=lambda index: reading.positions[index])
    for lower, upper in itertools.pairwise(by_position):
        if wild[lower] and wild[upper]:
            return _Rejection(
                Reason.ADJACENT_WILDS,
                f"{cards[lower].card} and {cards[upper].card} stand side by side in the run "
                f"(as {reading.read_as[lower]} and {reading.read_as[upper]}); "
                "two wild cards may not be next to each other in a run"
                + (", and no other layout of these cards keeps them apart." if any_layout else "."),
            )
    return None


def _names(cards: Sequence[MeldCard]) -> str:
    return " ".join(str(held) for held in cards)


def _list(items: Iterator[str] | Sequence[str]) -> str:
    return ", ".join(items)
