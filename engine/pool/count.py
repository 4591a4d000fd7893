"""A losing hand's count (RULES.md 11.3, D-PR9): with two sequences, one of them pure (the "lives"),
the lowest total of the cards left outside melds; without them, every card.

The search: each pure sequence the hand holds is tried as the pure one; the rest is searched card by
card (each natural card, wild cards aside, is either left out or in one meld containing it), with the
wild cards as a count, until a second sequence is found. Wild cards score 0, so only where they stand
matters, never which one.

>>> from engine.rules import rule_set
>>> from engine.pool.cut import deal_by_wild
>>> deal = deal_by_wild(rule_set("pool-201"), "7")
>>> found = count_hand(parse_cards("2H 3H 4H KC KD KH 9D 9S 9C 5S 5D 5C 6H"), deal)
>>> found.count, found.lives, found.penalty
(87, False, 80)
>>> found = count_hand(parse_cards("2H 3H 4H KC KD KH 9D 9S 9C 5S 6S 7C 10D"), deal)
>>> found.count, found.lives, [format_cards(meld) for meld in found.melds]
(10, True, ['2H 3H 4H', 'KC KD KH', '9D 9S 9C', '5S 6S 7C=7S'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, MeldCard, format_cards, parse_cards
from engine.deck import ACE_HIGH, ACE_LOW, STANDARD_SUITS, rank_at_place
from engine.pool.cut import PoolDeal, points
from engine.rules import WildLimit

__all__ = ["Count", "count_hand", "format_cards", "parse_cards"]

_INF = 10**9
MAX_RUN = 13


@dataclass(frozen=True)
class Count:
    """A hand's count: before the cap (`count`) and after it (`penalty`), and the melds found."""

    count: int
    penalty: int
    lives: bool
    melds: tuple[tuple[MeldCard, ...], ...]
    unmelded: tuple[Card, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "penalty": self.penalty,
            "count": self.count,
            "lives": self.lives,
            "melds": [[str(card) for card in meld] for meld in self.melds],
            "unmelded": [str(card) for card in self.unmelded],
        }


def _places(card: Card) -> tuple[int, ...]:
    assert card.rank is not None
    return (ACE_LOW, ACE_HIGH) if card.rank == 1 else (int(card.rank),)


@dataclass(frozen=True)
class _Meld:
    """A meld the search chose, slot by slot as laid out: a natural card's index (None for a wild
    card) and the card it stands as."""

    slots: tuple[tuple[int | None, Card], ...]
    run: bool

    @property
    def naturals(self) -> tuple[int, ...]:
        return tuple(index for index, _ in self.slots if index is not None)

    @property
    def wilds(self) -> int:
        return sum(1 for index, _ in self.slots if index is None)


class _Search:
    """The search over one hand: the natural cards (wild cards aside) and what they can meld into."""

    def __init__(self, cards: Sequence[Card], deal: PoolDeal) -> None:
        self.deal = deal
        self.naturals = [card for card in cards if not deal.is_wild(card)]
        self.wilds = [card for card in cards if deal.is_wild(card)]
        self.points = [points(deal, card) for card in self.naturals]
        self.at: dict[tuple[object, int], list[int]] = {}
        for index, card in enumerate(self.naturals):
            for place in _places(card):
                self.at.setdefault((card.suit, place), []).append(index)
        self.all_wild = deal.rules.options.wild_limit is WildLimit.NONE
        self.memo: dict[tuple[int, int, bool, int], tuple[int, _Meld | None]] = {}

    # --- the rest of the hand, once the pure sequence is chosen ------------------------------

    def best(self, mask: int, wilds: int, need_run: bool, own: int) -> int:
        """The least count of the naturals in `mask` with `wilds` wild cards (`own` of them cut-rank
        cards that may stand for themselves), a second sequence still needed when `need_run`."""
        key = (mask, wilds, need_run, own)
        found = self.memo.get(key)
        if found is not None:
            return found[0]
        if not mask:
            ok = not need_run or (wilds >= 3 and (self.all_wild or own > 0))
            self.memo[key] = (0 if ok else _INF, None)
            return self.memo[key][0]
        first = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << first)
        best = self.points[first] + self.best(rest, wilds, need_run, own)
        choice: _Meld | None = None
        for meld in self._melds(first, mask, wilds):
            used = meld.wilds
            left_own = min(own, wilds - used)  # the melds take jokers first
            cost = self.best(mask & ~_bits(meld.naturals), wilds - used, need_run and not meld.run, left_own)
            if cost < best:
                best, choice = cost, meld
        self.memo[key] = (best, choice)
        return best

    def _melds(self, first: int, mask: int, wilds: int) -> list[_Meld]:
        return self._sets(first, mask, wilds) + self._runs(first, mask, wilds)

    def _sets(self, first: int, mask: int, wilds: int) -> list[_Meld]:
        card = self.naturals[first]
        by_suit: dict[object, int] = {}
        for index, other in enumerate(self.naturals):
            if mask >> index & 1 and other.rank == card.rank and other.suit != card.suit:
                by_suit.setdefault(other.suit, index)
        others = list(by_suit.values())
        melds = []
        for chosen in range(1 << len(others)):
            naturals = (first, *(others[bit] for bit in range(len(others)) if chosen >> bit & 1))
            needed = max(0, 3 - len(naturals))
            if needed <= wilds:
                taken = {self.naturals[index].suit for index in naturals}
                missing = [suit for suit in STANDARD_SUITS if suit not in taken][:needed]
                assert card.rank is not None
                slots: list[tuple[int | None, Card]] = [(index, self.naturals[index]) for index in naturals]
                slots += [(None, Card(card.rank, suit)) for suit in missing]
                melds.append(_Meld(tuple(slots), False))
        return melds

    def _runs(self, first: int, mask: int, wilds: int) -> list[_Meld]:
        """The runs holding `first`: spans grown down and up from its place while the wild cards
        last for the places no natural card of the suit could fill."""
        card = self.naturals[first]
        melds: list[_Meld] = []
        for place in _places(card):
            downs = self._reach(card, first, mask, wilds, range(place, max(ACE_LOW, place - MAX_RUN + 1) - 1, -1))
            ups = self._reach(card, first, mask, wilds, range(place, min(ACE_HIGH, place + MAX_RUN - 1) + 1))
            for low, short_low in downs:
                for high, short_high in ups:
                    if short_low + short_high > wilds or high - low + 1 > MAX_RUN:
                        break
                    if high - low >= 2:
                        melds.extend(self._spans(first, mask, wilds, place, low, high))
        return melds

    def _reach(self, card: Card, first: int, mask: int, wilds: int, spots: range) -> list[tuple[int, int]]:
        """Each place a span may reach in one direction, with the wild cards it needs on the way."""
        reached = []
        short = 0
        for spot in spots:
            if spot != spots.start and not any(
                mask >> index & 1 and index != first for index in self.at.get((card.suit, spot), ())
            ):
                short += 1
                if short > wilds:
                    break
            reached.append((spot, short))
        return reached

    def _spans(self, first: int, mask: int, wilds: int, place: int, low: int, high: int) -> list[_Meld]:
        """The runs on places low..high holding `first` at `place`: each other place takes a natural
        card of the suit still in the hand, or a wild card (also where a natural could stand)."""
        suit = self.naturals[first].suit
        assert suit is not None
        options: list[list[int | None]] = []
        for spot in range(low, high + 1):
            if spot == place:
                options.append([first])
                continue
            held = [index for index in self.at.get((suit, spot), ()) if mask >> index & 1 and index != first]
            options.append([held[0], None] if held else [None])
        needed = sum(1 for option in options if option == [None])
        if needed > wilds:
            return []
        melds = []
        for filled in _choices(options, wilds):
            naturals = [index for index in filled if index is not None]
            if len(set(naturals)) == len(naturals):
                slots = tuple(
                    (index, Card(rank_at_place(spot), suit))
                    for spot, index in zip(range(low, high + 1), filled, strict=True)
                )
                melds.append(_Meld(slots, True))
        return melds

    # --- the pure sequence, and the whole hand ------------------------------------------------

    def pure_runs(self) -> list[tuple[tuple[Card, ...], int, int]]:
        """Every pure sequence the hand holds: its cards by place, the naturals it takes (a mask) and
        how many cut-rank cards standing in their own place it takes (D-PR4)."""
        at: dict[tuple[object, int], tuple[Card, int | None]] = {}
        for index, card in enumerate(self.naturals):
            for place in _places(card):
                at.setdefault((card.suit, place), (card, index))
        for card in self.wilds:
            if card.rank is not None:
                for place in _places(card):
                    at.setdefault((card.suit, place), (card, None))
        runs = []
        for suit in STANDARD_SUITS:
            for low in range(ACE_LOW, ACE_HIGH - 1):
                for high in range(low, min(ACE_HIGH, low + MAX_RUN - 1) + 1):
                    held = at.get((suit, high))
                    if held is None:
                        break
                    if high - low >= 2:
                        slots = [at[suit, spot] for spot in range(low, high + 1)]
                        mask = _bits([index for _, index in slots if index is not None])
                        runs.append((tuple(card for card, _ in slots), mask, sum(1 for _, i in slots if i is None)))
        return runs

    def arrangement(self, mask: int, wilds: int, own: int) -> list[_Meld]:
        """The melds the search chose from a state, in order."""
        melds = []
        need_run = True
        while mask:
            choice = self.memo[mask, wilds, need_run, own][1]
            if choice is None:
                mask &= mask - 1
                continue
            melds.append(choice)
            mask &= ~_bits(choice.naturals)
            own = min(own, wilds - choice.wilds)
            wilds -= choice.wilds
            need_run = need_run and not choice.run
        if need_run:
            melds.append(_Meld(((None, Card.JOKER),) * 3, True))  # wild cards only, as a sequence
        return melds


def count_hand(cards: Sequence[Card], deal: PoolDeal) -> Count:
    """The count of a losing hand (D-PR9), capped at the full count."""
    search = _Search(cards, deal)
    full = sum(search.points)
    every = (1 << len(search.naturals)) - 1
    own = sum(1 for card in search.wilds if not card.is_joker)
    best, chosen = _INF, None
    for run, mask, used in search.pure_runs():
        cost = search.best(every & ~mask, len(search.wilds) - used, True, own - used)
        if cost < best:
            best, chosen = cost, (run, mask, used)
    cap = deal.rules.options.full_count
    if chosen is None:
        return Count(full, min(full, cap), False, (), tuple(cards))
    run, mask, used = chosen
    melds = search.arrangement(every & ~mask, len(search.wilds) - used, own - used)
    return _counted(search, best, (run, mask), melds, cap)


def _counted(search: _Search, count: int, chosen: tuple[tuple[Card, ...], int], melds: list[_Meld], cap: int) -> Count:
    """The count with its melds written out, each wild card given the card it stands for."""
    pure, pure_mask = chosen
    spare = list(search.wilds)
    for card in pure:
        if card in spare and search.deal.is_wild(card):
            spare.remove(card)
    spare.sort(key=lambda card: not card.is_joker)  # jokers first, as the search assumed
    written = [tuple(MeldCard(card) for card in pure)]
    used = {index for index in range(len(search.naturals)) if pure_mask >> index & 1}
    for meld in melds:
        row = []
        for index, stands in meld.slots:
            if index is not None:
                used.add(index)
                row.append(MeldCard(search.naturals[index]))
            else:
                wild = spare.pop(0)
                row.append(MeldCard(wild) if wild == stands or stands.is_joker else MeldCard(wild, stands))
        written.append(tuple(row))
    left = [card for index, card in enumerate(search.naturals) if index not in used] + spare
    return Count(count, min(count, cap), True, tuple(written), tuple(left))


def _choices(options: list[list[int | None]], wilds: int) -> list[list[int | None]]:
    """Every way to fill the places, no more wild cards (None) than `wilds`."""
    result: list[list[int | None]] = [[]]
    for option in options:
        result = [
            [*chosen, item] for chosen in result for item in option if item is not None or chosen.count(None) < wilds
        ]
    return result


def _bits(indexes: Sequence[int]) -> int:
    mask = 0
    for index in indexes:
        mask |= 1 << index
    return mask
