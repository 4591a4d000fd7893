"""Melds, the pure sequence and the show (RULES.md 11.2).

The meld code (engine.melds) reads each meld under the pool's meld rules: aces low or high, any
number of wilds, a wild in its own place natural (D-PR4). Pool rummy adds only what a set may hold
(D-PR5): each natural suit once, and at most four cards unless sets may be long.

>>> from engine.rules import rule_set
>>> from engine.pool.cut import deal_by_cut
>>> deal = deal_by_cut(rule_set("pool-101"), "7D")
>>> [judge_meld(parse_meld(text), deal).pure for text in ("6H 7H 8H", "6H 7S 8H", "KC KD KH", "5S 6H 8H")]
[True, False, False, None]
>>> judge_show([parse_meld(text) for text in ("2H 3H 4H", "5S 6S JK 8S", "KC KD KH", "9D 9S 9C")], deal).valid
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engine.cards import MeldCard, parse_meld
from engine.meldreading import Reading, Reason, Verdict
from engine.melds import check_meld, meld_readings
from engine.pool.cut import HAND_CARDS, PoolDeal
from engine.rules import MeldKind

__all__ = ["MeldJudgement", "ShowFailure", "ShowVerdict", "judge_meld", "judge_show", "parse_meld"]

SET_SUITS = 4


@dataclass(frozen=True)
class MeldJudgement:
    """One meld as grouped: the meld code's verdict (under the pool's set rule), whether it can be
    read as a pure sequence (None when illegal) and as a sequence at all."""

    verdict: Verdict
    pure: bool | None
    can_run: bool

    @property
    def valid(self) -> bool:
        return self.verdict.valid

    def as_json(self) -> dict[str, object]:
        return self.verdict.as_json() | {"pure": self.pure}


class ShowFailure(Enum):
    """Why melds are not a valid show, in the order they are checked."""

    CARD_COUNT = "card_count"
    BAD_MELD = "bad_meld"
    NO_PURE_SEQUENCE = "no_pure_sequence"
    NO_SECOND_SEQUENCE = "no_second_sequence"


@dataclass(frozen=True)
class ShowVerdict:
    """The melds together as a show (D-PR8): valid, or the first requirement they fail."""

    melds: tuple[MeldJudgement, ...]
    failure: ShowFailure | None
    reason: str | None
    cards: int

    @property
    def valid(self) -> bool:
        return self.failure is None


def _set_ok(reading: Reading, long_sets: bool) -> bool:
    """D-PR5: a set shows each natural suit once, and holds four cards at most unless sets may be long."""
    if reading.kind is not MeldKind.SET:
        return True
    suits = [card.suit for card, wild in zip(reading.read_as, reading.wild, strict=True) if not wild]
    return len(set(suits)) == len(suits) and (long_sets or len(reading.read_as) <= SET_SUITS)


def _is_pure(reading: Reading) -> bool:
    return reading.kind is MeldKind.RUN and not any(reading.wild)


def judge_meld(cards: Sequence[MeldCard], deal: PoolDeal) -> MeldJudgement:
    """Judge one meld as grouped: legal, how it is read, and whether it can be a pure sequence."""
    held = tuple(cards)
    verdict = check_meld(held, deal.rules, deal.info)
    if not verdict.valid:
        return MeldJudgement(verdict, None, False)
    long_sets = deal.rules.options.long_sets
    legal = [reading for reading in meld_readings(held, deal.rules, deal.info) if _set_ok(reading, long_sets)]
    if not legal:
        return MeldJudgement(_set_refusal(held, long_sets), None, False)
    chosen = verdict.reading
    if chosen is None or not _set_ok(chosen, long_sets):
        chosen = legal[0]
        verdict = Verdict(held, chosen.kind, chosen.read_as, None, None, chosen.positions, chosen.wild)
    pure = any(_is_pure(reading) for reading in legal)
    return MeldJudgement(verdict, pure, any(reading.kind is MeldKind.RUN for reading in legal))


def _set_refusal(cards: tuple[MeldCard, ...], long_sets: bool) -> Verdict:
    names = " ".join(str(held) for held in cards)
    if len(cards) > SET_SUITS and not long_sets:
        code, reason = Reason.TOO_LONG, f"{names} has {len(cards)} cards; a set holds at most four, one of each suit."
    else:
        code, reason = Reason.REPEATED_SUIT, f"{names} shows a suit twice; a set holds each suit at most once."
    return Verdict(cards, None, None, code.value, reason)


def judge_show(melds: Sequence[Sequence[MeldCard]], deal: PoolDeal) -> ShowVerdict:
    """Judge melds as a show (D-PR8): 13 cards, every meld legal, two sequences, one of them pure."""
    judged = tuple(judge_meld(meld, deal) for meld in melds)
    cards = sum(len(meld) for meld in melds)
    failure, reason = _show_failure(judged, cards)
    return ShowVerdict(judged, failure, reason, cards)


def _show_failure(judged: tuple[MeldJudgement, ...], cards: int) -> tuple[ShowFailure | None, str | None]:
    if cards != HAND_CARDS:
        return ShowFailure.CARD_COUNT, f"a show holds exactly {HAND_CARDS} cards, not {cards}"
    bad = next((number for number, meld in enumerate(judged, start=1) if not meld.valid), None)
    if bad is not None:
        return ShowFailure.BAD_MELD, f"meld {bad} is not a meld: {judged[bad - 1].verdict.reason}"
    pure = [index for index, meld in enumerate(judged) if meld.pure]
    if not pure:
        return ShowFailure.NO_PURE_SEQUENCE, "no pure sequence: every sequence holds a wild card"
    if not any(meld.can_run and index != pure[0] for index, meld in enumerate(judged)):
        return ShowFailure.NO_SECOND_SEQUENCE, "no second sequence: a show needs two sequences, one of them pure"
    return None, None
