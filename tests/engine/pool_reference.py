"""Brute-force references for pool rummy (RULES.md 11.2-11.4), written apart from the engine.

A meld is tried by giving every wild card every face it could stand for; a hand's count by every
way to split it into melds; a game by a small model of section 11.4.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from engine.cards import Card, Rank
from engine.deck import STANDARD_SUITS

FACES = [Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank]


@dataclass(frozen=True)
class Wilds:
    """Which cards are wild in a deal: the printed jokers, and `rank` when one is."""

    rank: Rank | None
    long_sets: bool = False
    at_least_one_natural: bool = False

    def wild(self, card: Card) -> bool:
        return card.is_joker or card.rank == self.rank

    def points(self, card: Card) -> int:
        if self.wild(card):
            return 0
        assert card.rank is not None
        return 10 if card.rank in (Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING) else int(card.rank)


def _is_set(faces: Sequence[Card], natural: Sequence[bool], long_sets: bool) -> bool:
    if len({face.rank for face in faces}) != 1:
        return False
    if long_sets:
        suits = [face.suit for face, own in zip(faces, natural, strict=True) if own]
        return len(set(suits)) == len(suits)
    return len({face.suit for face in faces}) == len(faces)


def _is_run(faces: Sequence[Card]) -> bool:
    if len({face.suit for face in faces}) != 1 or len(faces) > 13:
        return False
    for places in itertools.product(*((1, 14) if face.rank == Rank.ACE else (int(face.rank),) for face in faces)):  # type: ignore[arg-type]
        ordered = sorted(places)
        if ordered == list(range(ordered[0], ordered[0] + len(ordered))):
            return True
    return False


def meld_kinds(cards: Sequence[Card], wilds: Wilds) -> frozenset[str]:
    """What the cards can be read as: "set", "run", "pure" (a run with no card acting as a wild);
    empty when no reading is legal."""
    if len(cards) < 3:
        return frozenset()
    options = [
        [(face, face == card and not card.is_joker) for face in FACES] if wilds.wild(card) else [(card, True)]
        for card in cards
    ]
    kinds: set[str] = set()
    for choice in itertools.product(*options):
        faces = [face for face, _ in choice]
        natural = [own for _, own in choice]
        if wilds.at_least_one_natural and not any(natural):
            continue
        if _is_set(faces, natural, wilds.long_sets):
            kinds.add("set")
        if _is_run(faces):
            kinds.add("run")
            if all(natural):
                kinds.add("pure")
    return frozenset(kinds)


def show_code(melds: Sequence[Sequence[Card]], kinds: Sequence[frozenset[str]]) -> str | None:
    """The first failure of a show, by RULES.md 11.6's order, or None for a valid show."""
    if sum(len(meld) for meld in melds) != 13:
        return "card_count"
    if any(not kind for kind in kinds):
        return "bad_meld"
    if not any("pure" in kind for kind in kinds):
        return "no_pure_sequence"
    for first, second in itertools.permutations(range(len(melds)), 2):
        if "pure" in kinds[first] and "run" in kinds[second]:
            return None
    return "no_second_sequence"


def count(cards: Sequence[Card], wilds: Wilds, kinds_of: object) -> tuple[int, bool]:
    """The count (uncapped) and whether the lives were found, over every split of the hand into
    melds; `kinds_of(cards)` says what a group can be read as."""
    size = len(cards)
    melds: dict[int, frozenset[str]] = {}
    for mask in range(1, 1 << size):
        group = [cards[index] for index in range(size) if mask >> index & 1]
        naturals = [card for card in group if not wilds.wild(card)]
        if len(group) < 3 or (len({c.rank for c in naturals}) > 1 and len({c.suit for c in naturals}) > 1):
            continue
        kinds = kinds_of(group)  # type: ignore[operator]
        if kinds:
            melds[mask] = kinds

    @cache
    def best(mask: int, pure: bool, second: bool) -> int:
        if not mask:
            return 0 if pure and second else 10**6
        low = mask & -mask
        index = low.bit_length() - 1
        found = wilds.points(cards[index]) + best(mask & ~low, pure, second)
        for meld, kinds in melds.items():
            if meld & low and meld & mask == meld:
                rest = mask & ~meld
                found = min(found, best(rest, pure, second))
                if "pure" in kinds and not pure:
                    found = min(found, best(rest, True, second))
                if "run" in kinds and not second:
                    found = min(found, best(rest, pure, True))
        return found

    full = sum(wilds.points(card) for card in cards)
    found = best((1 << size) - 1, False, False)
    return (found, True) if found < 10**6 else (full, False)


# --- a small model of section 11.4 ---------------------------------------------------------------


@dataclass
class Model:
    """Pool 101 or 201 with the default options, step by step."""

    players: list[str]
    limit: int
    cutoff: int | None  # None: no cutoff
    buy_in: int
    points: Mapping[str, int]
    totals: dict[str, int] = field(default_factory=dict)
    out: set[str] = field(default_factory=set)
    fresh_out: set[str] = field(default_factory=set)
    paid: dict[str, int] = field(default_factory=dict)
    high: int = 0
    over: bool = False

    def __post_init__(self) -> None:
        self.totals = dict.fromkeys(self.players, 0)
        self.paid = dict.fromkeys(self.players, self.buy_in)

    def deal(self, results: Mapping[str, object]) -> str | None:
        if self.over:
            return "game_over"
        for name, result in results.items():
            self.totals[name] += min(result, 80) if isinstance(result, int) else self.points.get(str(result), 0)
        self.fresh_out = {name for name in results if self.totals[name] >= self.limit}
        self.out |= self.fresh_out
        left = [name for name in self.players if name not in self.out]
        self.high = max(self.totals[name] for name in left)
        self.over = len(left) == 1
        return None

    def rejoin(self, name: str) -> str | None:
        if self.over:
            return "game_over"
        if name not in self.out:
            return "rejoin_not_out"
        if name not in self.fresh_out:
            return "rejoin_late"
        if self.cutoff is not None and self.high > self.cutoff:
            return "rejoin_cutoff"
        if self.high + 1 >= self.limit:  # only reachable without a cutoff
            return "rejoin_at_limit"
        self.out.discard(name)
        self.fresh_out.discard(name)
        self.totals[name] = self.high + 1
        self.paid[name] += self.buy_in
        return None
