"""Going out (D8): whether a declarer's cards all meld, and one way they do."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.errors import CannotGoOut
from engine.rules import RuleSet
from engine.schedule import RoundInfo
from engine.solver.hand import UNIT_VALUES, arrange
from engine.solver.records import Arrangement


@dataclass(frozen=True)
class GoingOut:
    """How a declarer's cards meld: the melds and the final discard, if any."""

    melds: tuple[tuple[Card, ...], ...]
    discard: Card | None

    def as_json(self) -> dict[str, object]:
        return {
            "melds": [[str(card) for card in meld] for meld in self.melds],
            "discard": str(self.discard) if self.discard else None,
        }


def _count_leftovers(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> Arrangement:
    # A hand that goes out is proved so by a search that never leaves a card over, much smaller.
    melded = arrange(hand, rules, info, UNIT_VALUES, out_only=True)
    return melded if not melded.penalty else arrange(hand, rules, info, UNIT_VALUES)


def going_out(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> GoingOut:
    """One way the declarer's cards all meld, with a discard where needed; raises CannotGoOut.

    A hand of the round's deal size has already discarded (or needs no discard); one card
    more must discard one where the rules require it, and may where they allow it.
    """
    hand = list(hand)
    dealt = info.cards
    if len(hand) not in (dealt, dealt + 1):
        raise CannotGoOut(
            f"In round {info.number} a player going out shows {dealt} cards, or {dealt + 1} before "
            f"the final discard; {len(hand)} cards were given."
        )
    must_discard = rules.options.discard_to_go_out and len(hand) == dealt + 1
    if not must_discard:
        whole = _count_leftovers(hand, rules, info)
        if not whole.unmelded:
            return GoingOut(whole.melds, None)
        if len(hand) == dealt:
            raise CannotGoOut(f"These cards cannot all be melded: at best {_cards(whole.unmelded)} stay unmelded.")
    best_try: Arrangement | None = None
    for discard in dict.fromkeys(sorted(hand, key=lambda card: card.sort_key)):
        rest = list(hand)
        rest.remove(discard)
        found = _count_leftovers(rest, rules, info)
        if not found.unmelded:
            return GoingOut(found.melds, discard)
        if best_try is None or len(found.unmelded) < len(best_try.unmelded):
            best_try = found
    assert best_try is not None
    raise CannotGoOut(
        f"These cards cannot all be melded, even with one discarded: at best {_cards(best_try.unmelded)} stay unmelded."
    )


def verify_going_out(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> GoingOut:
    """Alias of going_out, named for the verify/can/act trio: raises CannotGoOut with the reason."""
    return going_out(hand, rules, info)


def can_go_out(hand: Sequence[Card], rules: RuleSet, info: RoundInfo) -> bool:
    """Whether the declarer's cards all meld, with or without a discard as the rules allow."""
    try:
        going_out(hand, rules, info)
    except CannotGoOut:
        return False
    return True


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)
