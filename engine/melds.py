"""Meld validation (RULES.md 1-4): is a group of cards a legal set or run, and why not.

A run is read in the order written; a wild written between two naturals stands in
that gap and one written at an end stands at that end. Where the written order is
not a sequence (naturals out of order, or a wild at an end where no card may stand,
as after the King when aces are low), the naturals are sorted, wilds fill the gaps
first, and the rest go to the ends.

>>> from engine.rules import rule_set
>>> from engine.schedule import round_info
>>> rules = rule_set("pay-me")
>>> verdict = check_meld(parse_meld("9C JK 2D QC"), rules, round_info(rules, 5))
>>> verdict.valid, verdict.code
(False, 'adjacent_wilds')
>>> verdict.reason
'JK and 2D stand side by side in the run (as 10C and JC); two wild cards may not be next to each other in a run.'
>>> check_meld(parse_meld("9C JK JC"), rules, round_info(rules, 5)).read_as_text
'9C JK=10C JC'
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from engine.cards import Card, MeldCard, Rank, Suit, parse_meld
from engine.errors import IllegalMeld
from engine.rules import AceRule, RuleSet, WildLimit
from engine.schedule import RoundInfo

__all__ = [
    "MeldKind",
    "Reason",
    "Verdict",
    "can_meld",
    "check_meld",
    "parse_meld",
    "verify_meld",
]

MAX_RUN = 13


class MeldKind(Enum):
    SET = "set"
    RUN = "run"


class Reason(Enum):
    """Stable codes for why a meld is illegal."""

    TOO_SHORT = "too_short"
    MIXED_RANKS = "mixed_ranks"
    MIXED_SUITS = "mixed_suits"
    DUPLICATE_IN_RUN = "duplicate_in_run"
    GAP = "gap"
    ACE_NOT_ALLOWED = "ace_not_allowed"
    WRAP = "wrap"
    TOO_LONG = "too_long"
    TOO_MANY_WILDS = "too_many_wilds"
    ADJACENT_WILDS = "adjacent_wilds"
    REPEATED_SUIT = "repeated_suit"
    ACES_NOT_IN_RUNS = "aces_not_in_runs"
    NOT_WILD = "not_wild"
    ROLE_MISMATCH = "role_mismatch"


@dataclass(frozen=True)
class Verdict:
    """The verdict on one meld: its kind and reading when legal, or a reason when not."""

    cards: tuple[MeldCard, ...]
    kind: MeldKind | None
    read_as: tuple[Card, ...] | None
    code: str | None
    reason: str | None
    positions: tuple[int, ...] = ()  # runs: each card's place, 1-14 (an ace is 1 or 14)

    @property
    def valid(self) -> bool:
        return self.code is None

    @property
    def read_as_text(self) -> str:
        """The meld with each wild shown as the card it stands for: ``9C JK=10C JC``."""
        if self.read_as is None:
            return " ".join(str(card) for card in self.cards)
        return " ".join(
            str(held.card) if held.card == stands else f"{held.card}={stands}"
            for held, stands in zip(self.cards, self.read_as, strict=True)
        )

    def as_json(self) -> dict[str, object]:
        return {
            "cards": [str(card) for card in self.cards],
            "valid": self.valid,
            "kind": self.kind.value if self.kind else None,
            "reason": self.reason,
            "code": self.code,
            "read_as": [str(card) for card in self.read_as] if self.read_as else None,
        }


@dataclass(frozen=True)
class _Reading:
    kind: MeldKind
    read_as: tuple[Card, ...]
    positions: tuple[int, ...] = ()  # runs only: the position of each card, aces 1 or 14


class _Rejection(Exception):
    def __init__(self, code: Reason, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class _Table:
    """What a meld check needs to know about the game and the round."""

    rules: RuleSet
    info: RoundInfo

    @property
    def ace(self) -> AceRule:
        return self.rules.options.ace

    @property
    def no_aces(self) -> bool:
        return self.rules.options.no_aces_in_runs

    @property
    def lowest(self) -> int:
        return run_range(self.ace, self.no_aces)[0]

    @property
    def highest(self) -> int:
        return run_range(self.ace, self.no_aces)[1]

    def positions(self, rank: Rank) -> tuple[int, ...]:
        return rank_positions(rank, self.ace, self.no_aces)

    def counts_as_wild(self, held: Card, stands_for: Card) -> bool:
        if not self.info.is_wild(held):
            return False
        return not (self.rules.options.wild_in_place_natural and held == stands_for)


def rank_positions(rank: Rank, ace: AceRule, no_aces: bool) -> tuple[int, ...]:
    """Where a rank may stand in a run: 2-13 for most, 1 and/or 14 for an ace.

    >>> rank_positions(Rank.ACE, AceRule.BOTH, no_aces=False)
    (1, 14)
    """
    if rank is not Rank.ACE:
        return (int(rank),)
    if no_aces:
        return ()
    return {AceRule.LOW: (1,), AceRule.HIGH: (14,), AceRule.BOTH: (1, 14)}[ace]


def run_range(ace: AceRule, no_aces: bool) -> tuple[int, int]:
    """The lowest and highest place a card may take in a run.

    >>> run_range(AceRule.HIGH, no_aces=False)
    (2, 14)
    """
    lowest = 2 if no_aces or ace is AceRule.HIGH else 1
    highest = 13 if no_aces or ace is AceRule.LOW else 14
    return lowest, highest


def rank_at(position: int) -> Rank:
    return Rank.ACE if position == 14 else Rank(position)


def check_meld(cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> Verdict:
    """Judge one meld as written; never raises for an illegal meld."""
    cards = tuple(cards)
    table = _Table(rules, info)
    try:
        reading = _read(cards, table)
    except _Rejection as rejection:
        return Verdict(cards, None, None, rejection.code.value, rejection.message)
    return Verdict(cards, reading.kind, reading.read_as, None, None, reading.positions)


def verify_meld(cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> Verdict:
    """Return the legal meld's verdict, or raise IllegalMeld with the code and reason."""
    verdict = check_meld(cards, rules, info)
    if verdict.code is not None:
        raise IllegalMeld(verdict.code, verdict.reason or verdict.code)
    return verdict


def can_meld(cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> bool:
    """Whether the cards, as written, are a legal meld."""
    return check_meld(cards, rules, info).valid


def _read(cards: tuple[MeldCard, ...], table: _Table) -> _Reading:
    if len(cards) < 3:
        raise _Rejection(Reason.TOO_SHORT, f"{_names(cards)}: a meld needs at least 3 cards.")
    _verify_roles(cards, table)
    fixed = [held.role or held.card for held in cards if held.role or not table.info.is_wild(held.card)]
    attempts: list[Iterator[_Reading]] = []
    failures: list[_Rejection] = []
    if len({card.rank for card in fixed}) <= 1:
        attempts.append(_set_readings(cards, table, fixed))
    if len({card.suit for card in fixed}) == 1 and len(fixed) == len(set(fixed)):
        attempts.append(_run_readings(cards, table))
    if not fixed and table.rules.options.wild_in_place_natural:
        attempts.append(_self_anchored_run_readings(cards, table))
    if not attempts:
        raise _mixed(cards, fixed, table)
    for readings in attempts:
        try:
            for reading in readings:
                problem = _wild_problem(cards, reading, table)
                if problem is None:
                    return reading
                failures.append(problem)
        except _Rejection as rejection:
            failures.append(rejection)
    raise failures[0]


def _verify_roles(cards: tuple[MeldCard, ...], table: _Table) -> None:
    for held in cards:
        if held.role is not None and held.role != held.card and not table.info.is_wild(held.card):
            raise _Rejection(
                Reason.NOT_WILD,
                f"{held.card} is not wild this round, so it cannot stand for {held.role}.",
            )


def _mixed(cards: tuple[MeldCard, ...], fixed: list[Card], table: _Table) -> _Rejection:
    suits = Counter(card.suit for card in fixed)
    ranks = Counter(card.rank for card in fixed)
    if len(suits) == 1:
        twice = next(card for card, count in Counter(fixed).items() if count > 1)
        return _Rejection(Reason.DUPLICATE_IN_RUN, f"{_names(cards)}: a run cannot hold {twice} twice.")
    if len(ranks) == len(fixed) or max(suits.values()) > max(ranks.values()):
        return _Rejection(
            Reason.MIXED_SUITS,
            f"{_names(cards)} mixes suits ({_list(suit.value for suit in suits if suit)}); a run must be all one suit.",
        )
    return _Rejection(
        Reason.MIXED_RANKS,
        f"{_names(cards)} mixes ranks ({_list(rank.token for rank in ranks if rank)}); a set must be all one rank.",
    )


# --- sets -------------------------------------------------------------------


def _set_readings(cards: tuple[MeldCard, ...], table: _Table, fixed: list[Card]) -> Iterator[_Reading]:
    rank = fixed[0].rank if fixed else _all_wild_rank(cards)
    assert rank is not None
    for held in cards:
        if held.role is not None and held.role.rank != rank:
            raise _Rejection(
                Reason.ROLE_MISMATCH,
                f"{held.card} is marked as {held.role}, but {_names(cards)} is a set of {rank.plural}.",
            )
    own_rank = [index for index, held in enumerate(cards) if held.role is None and held.card.rank == rank]
    free_own = [index for index in own_rank if table.info.is_wild(cards[index].card)]
    # A wild of the set's rank may stand for itself; try that first, as it can count as natural.
    for count in range(len(free_own), -1, -1):
        for selves in itertools.combinations(free_own, count):
            yield _set_reading(cards, table, rank, set(selves))
        if not table.rules.options.wild_in_place_natural and not table.rules.options.distinct_suit_sets:
            return


def _all_wild_rank(cards: tuple[MeldCard, ...]) -> Rank:
    ranks = Counter(held.card.rank for held in cards if held.card.rank is not None)
    return ranks.most_common(1)[0][0] if ranks else Rank.ACE


def _set_reading(cards: tuple[MeldCard, ...], table: _Table, rank: Rank, selves: set[int]) -> _Reading:
    read_as: list[Card | None] = []
    for index, held in enumerate(cards):
        if held.role is not None:
            read_as.append(held.role)
        elif not table.info.is_wild(held.card) or index in selves:
            read_as.append(held.card)
        else:
            read_as.append(None)
    taken = [card.suit for card in read_as if card is not None]
    missing = [suit for suit in Suit if suit not in taken] or list(Suit)
    filled = []
    for card in read_as:
        if card is None:
            suit = missing.pop(0) if len(missing) > 1 else missing[0]
            card = Card(rank, suit)
        filled.append(card)
    return _Reading(MeldKind.SET, tuple(filled))


# --- runs -------------------------------------------------------------------


def _run_readings(cards: tuple[MeldCard, ...], table: _Table) -> Iterator[_Reading]:
    fixed = _fixed_positions(cards, table)
    if not fixed:
        return
    suit = next(iter(fixed.values()))[1]
    written = list(_written_positions(cards, fixed))
    candidates = [positions for positions in written if _in_range(positions, table)]
    if not candidates:
        # The written order is no sequence here: the naturals are out of order, or a wild written
        # at an end would stand where this game lets no card stand (Q-K-🃏 with aces low). So the
        # naturals are sorted and the wilds fill the gaps, then the ends (RULES.md 1).
        candidates = list(_sorted_positions(cards, fixed, table))
    if not candidates and written:
        raise _beyond_the_ends(cards, written[0], table)
    if not candidates:
        raise _run_structure_problem(cards, fixed, table)
    for positions in candidates:
        yield _Reading(MeldKind.RUN, tuple(Card(rank_at(p), suit) for p in positions), tuple(positions))


def _self_anchored_run_readings(cards: tuple[MeldCard, ...], table: _Table) -> Iterator[_Reading]:
    """Runs of wild cards only, where those of one suit stand for themselves (wild_in_place_natural)."""
    for suit in dict.fromkeys(held.card.suit for held in cards if held.card.suit is not None):
        anchored = tuple(MeldCard(held.card, held.card) if held.card.suit == suit else held for held in cards)
        try:
            yield from _run_readings(anchored, table)
        except _Rejection:
            continue


_Fixed = dict[int, tuple[tuple[int, ...], Suit]]


def _fixed_positions(cards: tuple[MeldCard, ...], table: _Table) -> _Fixed:
    """Each natural or role-marked card's possible positions, by its index in the meld."""
    fixed: _Fixed = {}
    for index, held in enumerate(cards):
        card = held.role or held.card
        if held.role is None and table.info.is_wild(held.card):
            continue
        assert card.rank is not None and card.suit is not None
        positions = table.positions(card.rank)
        if not positions:
            raise _Rejection(
                Reason.ACES_NOT_IN_RUNS,
                f"{_names(cards)}: with no aces in runs, an ace melds only in a set.",
            )
        fixed[index] = (positions, card.suit)
    return fixed


def _in_range(positions: Sequence[int], table: _Table) -> bool:
    return table.lowest <= min(positions) and max(positions) <= table.highest and len(positions) <= MAX_RUN


def _written_positions(cards: tuple[MeldCard, ...], fixed: _Fixed) -> Iterator[list[int]]:
    """Readings that keep the written order, ascending first; none when it is not a sequence.

    Places may fall outside what the game allows; the caller judges that."""
    first = min(fixed)
    seen = []
    for step in (1, -1):
        for start_position in fixed[first][0]:
            start = start_position - step * first
            positions = [start + step * index for index in range(len(cards))]
            if positions in seen:
                continue
            if all(positions[index] in options for index, (options, _) in fixed.items()):
                seen.append(positions)
                yield positions


def _beyond_the_ends(cards: tuple[MeldCard, ...], positions: list[int], table: _Table) -> _Rejection:
    """Why a run read in its written order does not fit between the game's lowest and highest place."""
    names = _names(cards)
    if len(cards) > MAX_RUN:
        return _Rejection(Reason.TOO_LONG, f"{names}: a run has at most {MAX_RUN} cards.")
    index, place = next((i, p) for i, p in enumerate(positions) if not table.lowest <= p <= table.highest)
    where = f"{names}: read in the order written, {cards[index].card}"
    if not 1 <= place <= 14:
        return _Rejection(
            Reason.WRAP, f"{where} would stand beyond the ace; runs never wrap around (K-A-2 is not a run)."
        )
    if table.no_aces:
        return _Rejection(
            Reason.ACES_NOT_IN_RUNS, f"{where} would stand as an ace; with no aces in runs, no card stands as an ace."
        )
    rule = "low, so A-2-3 is a run but Q-K-A is not" if place == 14 else "high, so Q-K-A is a run but A-2-3 is not"
    return _Rejection(Reason.ACE_NOT_ALLOWED, f"{where} would stand as an ace; aces are {rule}.")


def _ace_choices(fixed: _Fixed) -> Iterator[dict[int, int]]:
    indexes = list(fixed)
    for choice in itertools.product(*(fixed[index][0] for index in indexes)):
        yield dict(zip(indexes, choice, strict=True))


def _sorted_positions(cards: tuple[MeldCard, ...], fixed: _Fixed, table: _Table) -> Iterator[list[int]]:
    """Readings with the naturals sorted, gaps filled first, the rest at the ends (upper end first)."""
    free = [index for index in range(len(cards)) if index not in fixed]
    for choice in _ace_choices(fixed):
        taken = sorted(choice.values())
        if len(set(taken)) != len(taken):
            continue
        inside = taken[-1] - taken[0] + 1 - len(taken)
        extras = len(free) - inside
        if extras < 0:
            continue
        for above in range(extras, -1, -1):
            start, end = taken[0] - (extras - above), taken[-1] + above
            if not _in_range([start, end], table) or end - start + 1 > MAX_RUN:
                continue
            yield _place_free_wilds(cards, choice, free, start, end, table)


def _place_free_wilds(
    cards: tuple[MeldCard, ...], choice: dict[int, int], free: list[int], start: int, end: int, table: _Table
) -> list[int]:
    positions = dict(choice)
    empty = [position for position in range(start, end + 1) if position not in choice.values()]
    anchor = cards[next(iter(choice))]
    suit = (anchor.role or anchor.card).suit
    for index in free:  # a wild whose own place is empty stands there, as itself
        card = cards[index].card
        if card.rank is not None and card.suit == suit:
            own = [p for p in table.positions(card.rank) if p in empty]
            if own:
                positions[index] = own[0]
                empty.remove(own[0])
    for index in free:
        if index not in positions:
            positions[index] = empty.pop(0)
    return [positions[index] for index in range(len(cards))]


def _run_structure_problem(cards: tuple[MeldCard, ...], fixed: _Fixed, table: _Table) -> _Rejection:
    """Why no reading of a one-suit group is a sequence."""
    names = _names(cards)
    if len(cards) > MAX_RUN:
        return _Rejection(Reason.TOO_LONG, f"{names}: a run has at most {MAX_RUN} cards.")
    distinct, twice = _has_distinct_choice(fixed)
    if not distinct:
        return _Rejection(Reason.DUPLICATE_IN_RUN, f"{names}: a run cannot hold two cards of rank {twice}.")
    if _fits_with_aces_anywhere(cards, fixed, table):
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
    if _fits_around_the_corner(cards, fixed):
        return _Rejection(Reason.WRAP, f"{names}: runs never wrap around; K-A-2 is not a run.")
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


def _fits_with_aces_anywhere(cards: tuple[MeldCard, ...], fixed: _Fixed, table: _Table) -> bool:
    relaxed = _Table(_relaxed_rules(table.rules), table.info)
    loose = {index: (relaxed.positions(rank_at(options[0])), suit) for index, (options, suit) in fixed.items()}
    written = [positions for positions in _written_positions(cards, loose) if _in_range(positions, relaxed)]
    return bool(written or list(_sorted_positions(cards, loose, relaxed)))


def _relaxed_rules(rules: RuleSet) -> RuleSet:
    return replace(rules, options=replace(rules.options, ace=AceRule.BOTH, no_aces_in_runs=False))


def _fits_around_the_corner(cards: tuple[MeldCard, ...], fixed: _Fixed) -> bool:
    """Whether the naturals would make a run if King were followed by Ace and then 2."""
    free = len(cards) - len(fixed)
    ranks = [int(rank_at(options[0])) for options, _ in fixed.values()]
    for shift in range(13):
        shifted = sorted((rank - shift) % 13 for rank in ranks)
        if len(set(shifted)) == len(shifted) and shifted[-1] - shifted[0] + 1 - len(shifted) <= free:
            return True
    return False


# --- the wild-card rules ------------------------------------------------------


def _wild_problem(cards: tuple[MeldCard, ...], reading: _Reading, table: _Table) -> _Rejection | None:
    """The first wild-card or suit rule this reading breaks, or None."""
    wild = [table.counts_as_wild(held.card, stands) for held, stands in zip(cards, reading.read_as, strict=True)]
    wilds = sum(wild)
    naturals = len(cards) - wilds
    if table.rules.options.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS and wilds > naturals:
        return _Rejection(
            Reason.TOO_MANY_WILDS,
            f"{_names(cards)} has {wilds} wild card{'s' if wilds != 1 else ''} and {naturals} "
            f"natural{'s' if naturals != 1 else ''}; a meld may never hold more wilds than naturals.",
        )
    if reading.kind is MeldKind.RUN and table.rules.options.no_adjacent_wilds:
        problem = _adjacent_wilds(cards, reading, wild)
        if problem:
            return problem
    if reading.kind is MeldKind.SET and table.rules.options.distinct_suit_sets:
        suits = {card.suit for card in reading.read_as}
        if len(suits) < 3:
            return _Rejection(
                Reason.REPEATED_SUIT,
                f"{_names(cards)} shows only {len(suits)} suits; with different-suit sets, "
                "a set needs three different suits.",
            )
    return None


def _adjacent_wilds(cards: tuple[MeldCard, ...], reading: _Reading, wild: list[bool]) -> _Rejection | None:
    by_position = sorted(range(len(cards)), key=lambda index: reading.positions[index])
    for lower, upper in itertools.pairwise(by_position):
        if wild[lower] and wild[upper]:
            return _Rejection(
                Reason.ADJACENT_WILDS,
                f"{cards[lower].card} and {cards[upper].card} stand side by side in the run "
                f"(as {reading.read_as[lower]} and {reading.read_as[upper]}); "
                "two wild cards may not be next to each other in a run.",
            )
    return None


def _names(cards: Sequence[MeldCard]) -> str:
    return " ".join(str(held) for held in cards)


def _list(items: Iterator[str] | Sequence[str]) -> str:
    return ", ".join(items)
