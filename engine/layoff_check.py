"""THE lay-off check (D5, D10, D13, D14): `verify_layoff` / `can_lay_off` / `lay_off`, and where
each card laid off went (`placements`). Every extended meld is judged by check_meld
(engine.melds); the fast path engine.layoff_quick answers first where it is sure.
engine.layoffs re-exports the public names.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from engine.cards import Card, MeldCard, Rank, Suit
from engine.deck import (
    ACE_HIGH,
    ACE_LOW,
    rank_at_place,
)
from engine.errors import IllegalLayoff
from engine.layoff_quick import _UNSURE, _quick_extend
from engine.layoff_table import from_reading
from engine.meldrules import MeldRules, meld_rules, wild_table
from engine.melds import (
    MeldKind,
    check_meld,
    meld_readings,
)
from engine.rules import RuleSet
from engine.schedule import RoundInfo
from engine.tablemeld import TableMeld

__all__ = [
    "Place",
    "Placement",
    "can_lay_off",
    "extend_reading",
    "extended_meld",
    "lay_off",
    "placements",
    "verify_layoff",
    "wild_height",
]


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
    extended = extended_meld(meld, cards, rules, info)
    if extended is not None:
        return extended
    # Illegal on every reading: the first reading's reason, in the words of the full check.
    what = f"{' '.join(str(card) for card in cards)} cannot be laid off on {meld}"
    for reading in meld.readings:
        extend_reading(reading, cards, rules, info, what)
    raise AssertionError(f"{what}: every reading refused it, yet none says why")


def extended_meld(meld: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo) -> TableMeld | None:
    """The meld as extended by the lay-off, or None where no reading takes the cards."""
    if not meld.others:
        return _extend_or_none(meld, cards, rules, info)  # one reading: nothing to choose or keep open
    extended = [after for reading in meld.readings if (after := _extend_or_none(reading, cards, rules, info))]
    if not extended:
        return None
    # A laid-off wild goes to the upper end of a run (D11); the first reading wins a tie.
    chosen = max(extended, key=lambda after: wild_height(meld, after, info)) if len(extended) > 1 else extended[0]
    return _still_open(meld, chosen, rules, info)


def extend_reading(
    reading: TableMeld, cards: tuple[MeldCard, ...], rules: RuleSet, info: RoundInfo, what: str = ""
) -> TableMeld:
    """THE lay-off check on one reading of a meld: the reading extended by the cards, each extended
    meld judged by check_meld, or IllegalLayoff with the reason, worded after `what` (the lay-off
    as the player sees it; with none, a refusal may come without its words)."""
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
        return extend_reading(reading, cards, rules, info, _QUIET)
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


def wild_height(before: TableMeld, after: TableMeld, info: RoundInfo) -> int:
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
    return from_reading(verdict.kind, tuple(held.card for held in cards), verdict.read_as, verdict.positions)


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

    >>> from engine.cards import parse_meld
    >>> from engine.layoff_table import table_melds
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
