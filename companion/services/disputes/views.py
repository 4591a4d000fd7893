"""Cards and verdicts as the pages show them: faces (``10♥`` in red), each meld's verdict, a hand's
best arrangement and where each card laid off went. Built from the engine's typed answers; the
dispute log, which keeps them as JSON, reads its own copy (companion.services.disputes.log)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, MeldCard, Suit, symbols_in
from engine.layoffs import LayoffScore, Place, Placement
from engine.melds import Verdict
from engine.penalties import HeldInFull, base_penalty
from engine.rules import RuleSet
from engine.schedule import RoundInfo
from engine.solver import Arrangement

Scored = Arrangement | LayoffScore | HeldInFull
"""The engine's best score of a hand: an arrangement, one with lay-offs, or every card in full."""


@dataclass(frozen=True)
class Face:
    """A card as a page shows it: ``10♥`` in red, ``🃏``; `wild` marks a wild card this round."""

    symbol: str
    red: bool
    wild: bool = False
    star: bool = False  # Five Crowns' fifth suit, in a colour of its own


def face(card: Card, info: RoundInfo | None = None) -> Face:
    suit = card.suit
    return Face(card.symbol, bool(suit and suit.is_red), bool(info and info.is_wild(card)), suit is Suit.STARS)


def for_people(reason: str | None) -> str:
    """An engine reason with its card codes shown as cards (J♥ Q♠ K♦), for the pages."""
    return symbols_in(reason or "")


def card_faces(cards: Sequence[Card | MeldCard], info: RoundInfo | None = None) -> tuple[Face, ...]:
    """Faces of cards (a wild's role, ``JK=7H``, shows the joker)."""
    return tuple(face(card.card if isinstance(card, MeldCard) else card, info) for card in cards)


def faces(tokens: Sequence[str], info: RoundInfo | None = None) -> tuple[Face, ...]:
    """Faces of canonical tokens as the engine writes them (``JK=7H`` shows the joker)."""
    return tuple(face(MeldCard.parse(token).card, info) for token in tokens)


def readings(verdict: Verdict, info: RoundInfo) -> tuple[str, ...]:
    """How each wild card was read: ``🃏 as 10♥``."""
    if not verdict.read_as:
        return ()
    held = (meld_card.card for meld_card in verdict.cards)
    return tuple(
        f"{card.symbol} as {stands.symbol}"
        for card, stands in zip(held, verdict.read_as, strict=False)
        if info.is_wild(card)
    )


@dataclass(frozen=True)
class MeldView:
    """One meld's verdict: its cards, kind, the engine's reason, and how its wilds were read."""

    text: str
    cards: tuple[Face, ...]
    valid: bool
    kind: str | None
    reason: str | None
    readings: tuple[str, ...]
    reading_text: str | None = None  # the engine's "read as 4♥ 5♥ 6♥ 7♥" (D10)

    def as_json(self) -> dict[str, object]:
        """The verdict as the dispute log keeps it."""
        answer: dict[str, object] = {
            "valid": self.valid,
            "kind": self.kind,
            "reason": self.reason,
            "readings": list(self.readings),
        }
        if self.reading_text:
            answer["reading_text"] = self.reading_text
        return answer


def meld_views(verdicts: Sequence[Verdict], texts: Sequence[str], info: RoundInfo) -> tuple[MeldView, ...]:
    return tuple(
        MeldView(
            text=text,
            cards=card_faces(verdict.cards, info),
            valid=verdict.valid,
            kind=verdict.kind.value if verdict.kind else None,
            reason=verdict.reason,
            readings=readings(verdict, info),
            reading_text=verdict.reading_text,
        )
        for verdict, text in zip(verdicts, texts, strict=True)
    )


@dataclass(frozen=True)
class HandView:
    """The best a hand can score: the card points (as a table types them), the melds kept,
    the lay-offs onto the declarer's melds, and the cards left over."""

    points: int
    penalty: int
    melds: tuple[tuple[Face, ...], ...]
    layoffs: tuple[tuple[int, tuple[Face, ...]], ...]
    unmelded: tuple[Face, ...]
    placements: tuple[str, ...] = ()
    """Where each card laid off went, from the engine (D11): "🃏 as 8♥ on meld 1, at the low end"."""
    parts: tuple[tuple[Face, int], ...] = ()
    """Each card left in hand with its points, before the round's multiplier (they add up to `points`)."""

    @property
    def summary(self) -> str:
        """``7♥ 8♥ 🃏 · 9♣ 10♣ J♣ · left: K♠``."""
        parts = [" ".join(card.symbol for card in meld) for meld in self.melds]
        parts += [f"on meld {number}: " + " ".join(card.symbol for card in cards) for number, cards in self.layoffs]
        if self.unmelded:
            parts.append("left: " + " ".join(card.symbol for card in self.unmelded))
        return " · ".join(parts) if parts else "nothing left"


def arrangement_of(scored: Scored) -> Arrangement:
    """The melds kept, the cards left over and their penalty (multiplier applied) of a scored hand."""
    if isinstance(scored, LayoffScore):
        return scored.arrangement
    if isinstance(scored, HeldInFull):
        return Arrangement((), scored.cards, scored.penalty)
    return scored


def hand_view(scored: Scored, info: RoundInfo, rules: RuleSet | None = None) -> HandView:
    """A scored hand for the page; with `rules`, each card left over comes with its points."""
    arrangement = arrangement_of(scored)
    parts: tuple[tuple[Face, int], ...] = ()
    if rules is not None:
        table = rules.options.penalty_table
        parts = tuple(
            (face(card, info), base_penalty(card, table, info.is_wild(card))) for card in arrangement.unmelded
        )
    laid = scored if isinstance(scored, LayoffScore) else None
    return HandView(
        points=arrangement.penalty // info.multiplier,
        penalty=arrangement.penalty,
        melds=tuple(card_faces(meld, info) for meld in arrangement.melds),
        layoffs=tuple((index + 1, card_faces(cards, info)) for index, cards in laid.layoffs) if laid else (),
        unmelded=card_faces(arrangement.unmelded, info),
        placements=tuple(placement_text(placement) for placement in laid.placements) if laid else (),
        parts=parts,
    )


def placement_text(placement: Placement) -> str:
    """One card laid off, where the engine put it: "🃏 as 8♥ on meld 1, at the low end"."""
    return placed_words(placement.card, placement.stands_for, placement.meld + 1, placement.place)


def placed_words(card: Card, stands: Card, meld: object, place: Place | None) -> str:
    role = "" if card == stands else f" as {stands.symbol}"
    return f"{card.symbol}{role} on meld {meld}" + (f", {place.words}" if place else "")
