"""Scoring a hand with lay-offs onto the declarer's melds (D6, D7, D11): the least penalty over
the hand's own melds, lay-offs and cards kept (`score_with_layoffs`), and the other players in
turn order (`score_in_turn`). engine.layoffs re-exports the public names.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.caches import IdentityCache, cache
from engine.cards import Card, MeldCard
from engine.deck import (
    ACE_HIGH,
    ACE_LOW,
    CODES,
    SUIT_BITS,
    SUIT_MASK,
    WIDE_BITS,
    WIDE_FIELD,
    takes_more,
)
from engine.layoff_candidates import POINTS, TAKEN, Candidate, candidate_list, card_parts
from engine.layoff_check import Placement, extended_meld, placements, wild_height
from engine.meldrules import meld_rules
from engine.melds import (
    MeldKind,
)
from engine.rules import RuleSet
from engine.schedule import RoundInfo
from engine.solver import Arrangement, SubHands, arrange, penalty_values
from engine.tablemeld import _PLACE_CARD, _PLACE_RANKS, _RANK_PLACES, _SUIT_COUNT, TableMeld

__all__ = ["LayoffScore", "layoff_turns", "score_in_turn", "score_with_layoffs"]


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


class Found(NamedTuple):
    """What the search found for melds i, i+1, ... and the cards in hand."""

    penalty: int  # the least penalty, without the round's multiplier
    laid: int  # how many cards are laid off
    height: int  # how high the laid-off wilds stand (D11 prefers the upper end of a run)
    layoffs: tuple[tuple[int, tuple[Card, ...]], ...]  # (meld index, cards laid off)
    counts: int  # the counts of the cards kept, packed


# A Found's fields in a plain tuple, as the search makes and reads them, step by step: its
# hottest loop. A NamedTuple costs a call to make and misses the interpreter's fast paths for
# plain tuples (see engine.layoff_candidates); `best` gives its answer as a Found.
Step = tuple[int, int, int, tuple[tuple[int, tuple[Card, ...]], ...], int]
# What the cards kept score, `cost` and `floors` of _LayoffSearch, as a plain tuple (made once per
# count of the cards kept, and unpacked in the search's loop).
Kept = tuple[int, list[int]]
_POINTS = operator.itemgetter(POINTS)  # of a Candidate


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
        found = search.best()
        layoffs = found.layoffs
        after = search.after(layoffs)
        scored = search.arrangement(found.counts)
        if scored is None:
            held = search.kept(found.counts)
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
        packed = int.from_bytes(bytes(hand.values()), "little")  # a byte a count, as WIDE_BITS says
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
                [WIDE_BITS * index for index in naturals],
                packed,
                WIDE_BITS,
                wild_values,
                mrules,
                values,
            )
        self.scores: dict[int, Kept] = {}  # by the counts: `cost` and `floors`
        self.known: dict[int, Step] = {}  # by the counts and the meld index, packed
        self.index_bits = self.meld_count.bit_length()
        self._tables(natural_at, held)
        self.candidates: dict[int, list[Candidate]] = {}
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
            wild_mask |= WIDE_FIELD << WIDE_BITS * at
        self.relevant, self.relevant_mask = [], []
        for reach in reaches:
            mask = wild_mask
            for at in reach:
                mask |= WIDE_FIELD << WIDE_BITS * at
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
                points = tuple([(WIDE_BITS * at, values[keys[at].code]) for at in sorted(union)])
            self.later_sets.append(union)
            self.later.append(points)
        self.later_sets.reverse()
        self.later.reverse()
        # Per meld, found on first need: the naturals that go on it and on no later meld, with their
        # points (as `later`).
        self.own: list[list[tuple[int, int]] | None] = [None] * len(reaches)

    def best(self) -> Found:
        here = self.cost(self.start)
        if not self.meld_count:
            return Found(here, 0, 0, (), self.start)
        return Found(*self.search(0, self.start, here, self.floors(self.start)[-1] - self.layable(0, self.start)))

    def kept(self, counts: int) -> Counter[Card]:
        """The cards counted in `counts`."""
        return Counter(
            {card: count for at, card in enumerate(self.keys) if (count := counts >> WIDE_BITS * at & WIDE_FIELD)}
        )

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
                        next_to |= WIDE_FIELD << WIDE_BITS * at
                continue
            suit = code & SUIT_MASK
            places = held[suit]
            for place in (reading.positions[0] - 1, reading.positions[-1] + 1):
                if lowest <= place <= highest and places >> place & 1:
                    next_to |= WIDE_FIELD << WIDE_BITS * natural_at[_PLACE_RANKS[place] << SUIT_BITS | suit]
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
            total += (counts >> shift & WIDE_FIELD) * points
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
        wilds = [self.keys[at] for at in self.wild_at for _ in range(counts >> WIDE_BITS * at & WIDE_FIELD)]
        return self.sub_hands.arrangement(counts, wilds, self.info.multiplier)

    def floors(self, counts: int) -> list[int]:
        """For j = 0, 1, ... up to the wild cards counted: the least penalty of the naturals counted
        with j of those wilds, if wilds could also go for nothing. No part of the cards with j wilds
        or fewer scores less than this less the points of the naturals it lacks."""
        return (self.scores.get(counts) or self._score(counts))[1]

    def _score(self, counts: int) -> Kept:
        """`cost` and `floors` of the cards counted, found together."""
        if self.sub_hands is not None:
            kept = 0
            for at in self.wild_at:
                kept += counts >> WIDE_BITS * at & WIDE_FIELD
            cost, floors = self.sub_hands.score(counts, self.wild_count - kept)
        else:
            wilds = [counts >> WIDE_BITS * at & WIDE_FIELD for at in self.wild_at]
            cost = arrange(list(self.kept(counts).elements()), self.rules, self.info, self.values).penalty
            points = [self.values[self.keys[at].code] for at in self.wild_at]
            floors = [cost - sum(map(operator.mul, wilds, points))] * (sum(wilds) + 1)
        score = self.scores[counts] = (cost, floors)
        return score

    def _wilds_cannot_win(self, index: int, counts: int, floors: list[int], after: int, best: int, laid: int) -> bool:
        """Whether no candidate lay-off onto meld `index` needs making, as none can beat the best
        found (`best` penalty, `laid` cards laid off): where no natural held goes on the meld without
        a wild, so that every candidate lays off a wild card at least, and even with one wild fewer
        and every natural of the meld shed (as the candidates' own bound in `search` has it) none
        can. `after`: the points of the naturals that might fit the later melds."""
        if counts & self.next_to_mask[index]:
            return False
        if len(floors) < 2:
            return True  # no wild card either: no candidate at all
        own = self.own[index]
        if own is None:
            keys, values = self.keys, self.values
            alone = sorted(self.reaches[index] - self.later_sets[index + 1])
            own = self.own[index] = [(WIDE_BITS * at, values[keys[at].code]) for at in alone]
        floor = floors[-2] - after
        for shift, points in own:
            floor -= (counts >> shift & WIDE_FIELD) * points
        return floor > best or (floor == best and laid == 0)

    def _candidates(self, index: int, counts: int) -> list[Candidate]:
        """The candidate lay-offs onto meld `index`, dearest first (ties in the order made)."""
        key = (counts & self.relevant_mask[index]) << self.index_bits | index
        known = self.candidates.get(key)
        if known is not None:
            return known
        # Only the cards the meld's candidates can use (in the hand's order, so the same candidates),
        # each as a candidate of one card: a candidate's figures are then sums of its parts'.
        naturals, wilds = card_parts(
            self.relevant[index], self.keys, counts, self.values, self.wild, self.later_sets[index + 1]
        )
        made = candidate_list(self.declarer[index], naturals, wilds, self.mrules)
        if (self.mrules.lowest, self.mrules.highest) == (ACE_LOW, ACE_HIGH):
            # One ace at both ends of a run takes more than is held where only one is: never legal
            # (D14). No other candidate takes more of a card than is held.
            made = [candidate for candidate in made if not takes_more(counts, candidate[TAKEN])]
        made.sort(key=_POINTS, reverse=True)  # stable: ties stay in the order made
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
            extended = extended_meld(meld, _laid(used), self.rules, self.info)
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
            height = self.heights[(index, used)] = max(0, wild_height(self.declarer[index], extended, self.info))
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
                extended = extended_meld(meld, _laid(used), self.rules, self.info)
            assert extended is not None
            melds[index] = extended
        return tuple(melds)

    def search(self, index: int, counts: int, here: int, floor: int) -> Step:
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
        after = 0 if last else self.layable(index + 1, counts)  # the naturals that might fit later melds
        result: Step = (here, 0, 0, (), counts) if last else self.search(index + 1, counts, here, floors[-1] - after)
        # The best so far (D11): least penalty, fewest cards laid off, wilds highest; compared field by
        # field, and a Step read by place (penalty, laid, height, layoffs, counts): the hottest loop.
        kept = best = result[0]
        laid, chosen = result[1], -1  # chosen: where the best so far comes among the candidates
        # Even laying off every card that might fit this meld or a later one cannot beat keeping them.
        hopeless = floor > best or (floor == best and laid == 0)
        if hopeless or self._wilds_cannot_win(index, counts, floors, after, best, laid):
            self.known[key] = result
            return result
        for order, used, shed, taken, wilds, natural_shed, later_shed in self._candidates(index, counts):
            # Keeping the cards instead scores at most their points more, so a lay-off that cannot bring the
            # penalty down to the best found so far is not tried, nor one that at best ties it laying off more (D11).
            least = kept - shed
            if least > best:
                break  # the candidates after this one shed no more, and the best found only gets better
            size = len(used)
            if (least if least > 0 else 0) == best and size > laid:
                continue
            left = counts - taken
            # Nor one after which even laying off every natural that might fit the later melds, and any wild,
            # could not (the naturals kept now, with the wilds kept, score at least their points less those laid).
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
            # A tie on penalty and cards laid off goes to the wilds standing highest, then to the one made first.
            if penalty == best and total_laid == laid and (height, -order) <= (result[2], -chosen):
                continue
            result = (penalty, total_laid, height, ((index, used), *rest[3]), rest[4])
            best, laid, chosen = penalty, total_laid, order
        self.known[key] = result
        return result


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
_EXTENDED_BY_ID: IdentityCache[RuleSet, RoundInfo, _Extended] = IdentityCache(
    "lay-offs checked, by identity of the rule set and round", 64
)


def _extensions(rules: RuleSet, info: RoundInfo) -> _Extended:
    return _EXTENDED_BY_ID.get(rules, info, _extensions_by_rules)


def _extensions_by_rules(rules: RuleSet, info: RoundInfo) -> _Extended:
    key = (rules, info)  # hashed once where it can be: a rule set's hash is not remembered
    table = _EXTENDED.setdefault(key, {})
    if len(_EXTENDED) > 16:  # a new one came in: forget the others
        _EXTENDED.clear()
        _EXTENDED_BY_ID.entries.clear()
        _EXTENDED[key] = table
    return table


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
    >>> from engine.layoff_table import table_melds
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
