"""Scoring a round from the cards: the declarer's melds (D8), then each other hand's least penalty
in lay-off order (D6, D7), by the engine; and the rule that a score typed beside a hand's cards
must be the score the engine finds for them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import InvalidInput
from companion.models import Game
from companion.services.disputes.checks import typed_points
from companion.services.disputes.table import (
    Table,
    canonical_meld,
    cards_of,
    clean_melds,
    game_table,
    verify_hand_size,
)
from companion.services.disputes.views import HandView, Scored, hand_view
from companion.services.store import engine_call
from engine.api import verify_hands_arranged
from engine.cards import Card, parse_cards
from engine.errors import CannotGoOut
from engine.layoffs import TableMeld, layoff_turns, score_in_turn, split_declarer_hand, table_melds, verify_laid_down
from engine.penalties import held_in_full


def score_hands(
    game: Game, number: int, went_out: object, scores: object, hands: object, declarer: object
) -> tuple[dict[str, object], dict[str, str] | None]:
    """Scores for a round where some players' cards were entered (the rummy.add_round hook).

    Players in `hands` are scored by the engine: the least penalty of their cards (D7), counting
    lay-offs onto the declarer's melds where the preset has lay-offs, in turn order from the
    declarer's left, each on the melds as the players before left them (D6). The player who
    went out gives their cards either as `declarer` melds (a list), as melds in `hands`
    separated by ``|``, or as a plain hand in `hands`, which the engine splits into melds; their
    melds must be a way to go out (D8) and they score 0. Returns the scores to verify and the
    hands to keep, in canonical notation.
    """
    scores, hands, declarer = _round_inputs(scores, hands, declarer)
    if not isinstance(went_out, str) or went_out not in game.players:
        raise InvalidInput("went_out must be the name of the player who went out")
    for name in hands:
        if name not in game.players:
            raise InvalidInput(f'"{name}" is not a player in this game')
        if name in scores:
            raise InvalidInput(f"give {name}'s score or {name}'s cards, not both")
    at = game_table(game, number)
    melds = clean_melds(declarer)
    if declarer and not melds:
        raise InvalidInput("declarer must list at least one meld")
    own = hands.get(went_out)
    if own is not None and melds:
        raise InvalidInput(f"give {went_out}'s cards once: as declarer melds or in hands")
    laid, own_kept = declarer_table(at, went_out, melds, own)
    merged: dict[str, object] = dict(scores)
    kept: dict[str, str] = {}
    if own_kept is not None:
        kept[went_out] = own_kept
        merged[went_out] = 0
    elif at.held_in_full:
        merged.setdefault(went_out, 0)  # the player who went out holds no cards
    others = {name: text for name, text in hands.items() if name != went_out}
    views, texts = hands_in_turn(at, game.players, went_out, others, laid)
    kept |= texts
    merged |= {name: view.points for name, view in views.items()}
    return merged, kept or None


def declarer_table(
    at: Table, went_out: str, melds: Sequence[str], own: str | None
) -> tuple[tuple[TableMeld, ...], str | None]:
    """The declarer's melds as laid down, from melds entered or their hand (melds split by ``|``,
    or a plain hand the engine splits), and the cards to keep for them. The melds are the engine's
    own, every reading their cards leave open kept (D13), as the engine's chained scoring takes
    them. Where held cards count in full (Contract Rummy) the player who went out holds no cards:
    no melds, nothing to keep."""
    if at.held_in_full:
        if melds or (own is not None and own.replace("|", "").strip()):
            raise InvalidInput(f"{went_out} went out, so they hold no cards: leave their cards and melds empty")
        return (), None
    if not melds and own is not None and "|" in own:
        melds = clean_melds(own.split("|"))
    if melds:
        return _laid_down(at, went_out, melds), " | ".join(canonical_meld(meld) for meld in melds)
    if own is None:
        return (), None
    text = cards_of(went_out, own)
    return _went_out_melds(at, went_out, engine_call(parse_cards, text)), text


def hands_in_turn(
    at: Table, players: Sequence[str], went_out: str, hands: Mapping[str, str], laid: Sequence[TableMeld]
) -> tuple[dict[str, HandView], dict[str, str]]:
    """The best score of each hand entered, taken in lay-off order from the declarer's left (D6),
    and the hands in canonical notation. The declarer's melds go to the engine as it read them
    (never written out and read back, which would fix readings the cards leave open)."""
    order = [players[seat] for seat in layoff_turns(list(players).index(went_out), len(players))]
    texts: dict[str, str] = {}
    for name in order:
        if name in hands:
            texts[name] = cards_of(name, hands[name])
            verify_hand_size(texts[name], at.variant)
    scored = _scores_in_turn(at, [texts.get(name) for name in order], laid)
    views = {name: hand_view(score, at.info, at.rules) for name, score in zip(order, scored, strict=True) if score}
    return views, texts


def _scores_in_turn(at: Table, texts: Sequence[str | None], laid: Sequence[TableMeld]) -> list[Scored | None]:
    """The engine's score of each hand in lay-off order: chained on the declarer's melds (D6, D7), or
    every card in full where the preset counts held cards so."""
    hands: list[tuple[Card, ...] | None] = [None if text is None else engine_call(parse_cards, text) for text in texts]
    every_card = [card for hand in hands if hand for card in hand] + [card for meld in laid for card in meld.cards]
    at.verify_in_deck(every_card)
    if at.held_in_full:
        return [None if hand is None else held_in_full(hand, at.rules, at.info) for hand in hands]
    return list(engine_call(score_in_turn, hands, laid, at.rules, at.info))


def _round_inputs(scores: object, hands: object, declarer: object) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    scores = {} if scores is None else scores
    hands = {} if hands is None else hands
    declarer = [] if declarer is None else declarer
    if not isinstance(scores, dict):
        raise InvalidInput("scores must be an object of card points by player name")
    if not isinstance(hands, dict) or not all(isinstance(text, str) for text in hands.values()):
        raise InvalidInput('hands must be an object of cards by player name, such as {"Ann": "7H 8H 9D"}')
    if not isinstance(declarer, list) or not all(isinstance(meld, str) for meld in declarer):
        raise InvalidInput('declarer must be a list of melds, such as ["4H 5H 6H", "9C 9D 9S"]')
    return scores, hands, declarer


def _laid_down(at: Table, name: str, melds: Sequence[str]) -> tuple[TableMeld, ...]:
    """The declarer's melds as laid down, once the engine agrees they are a way to go out (D8)."""
    engine_call(verify_hands_arranged, at.rules)
    laid: tuple[TableMeld, ...] = engine_call(table_melds, list(melds), at.rules, at.info)
    at.verify_in_deck([card for meld in laid for card in meld.cards])
    try:
        verify_laid_down(melds, (), at.rules, at.info)
    except CannotGoOut as problem:
        raise InvalidInput(f"{name} went out, but {_lower(str(problem))}") from problem
    return laid


def _went_out_melds(at: Table, name: str, cards: Sequence[Card]) -> tuple[TableMeld, ...]:
    """A declarer's whole hand, split by the engine into melds (and a discard), as laid down: the
    engine's split of the cards themselves, every open reading kept (D13), as ``best --declarer-hand``."""
    engine_call(verify_hands_arranged, at.rules)
    at.verify_in_deck(cards)
    try:
        melds = split_declarer_hand(cards, at.rules, at.info)
    except CannotGoOut as problem:
        raise InvalidInput(f"{name} went out, but {_lower(str(problem))}") from problem
    return melds


def _lower(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:]


# ---------------------------------------------------------------- a round typed from the cards (the cards page)


@dataclass(frozen=True)
class CardsRound:
    """A round as the cards page enters it: who went out, the declarer's melds, each player's cards
    and the points typed for players whose cards were not entered."""

    went_out: str
    melds: tuple[str, ...]
    hands: dict[str, str]
    points: dict[str, str]
    exact_cut: str = ""

    @property
    def hands_entered(self) -> dict[str, str]:
        return {name: text for name, text in self.hands.items() if text.strip()}

    @property
    def scores_typed(self) -> dict[str, str]:
        """The points typed for players without cards; the player who went out with no cards or
        melds entered scores 0."""
        hands = self.hands_entered
        scores = {name: text for name, text in self.points.items() if text.strip() and name not in hands}
        if self.went_out in self.points and self.went_out not in hands and not any(self.melds):
            scores.setdefault(self.went_out, "0")
        return scores

    @property
    def melds_entered(self) -> list[str] | None:
        return [text for text in self.melds if text.strip()] or None


def score_entries(game: Game, number: int, entered: CardsRound) -> dict[str, HandView]:
    """The best score of each hand entered; a score typed beside the cards that differs from it is
    refused, with the best shown."""
    went_out = entered.went_out
    if went_out not in game.players:
        raise InvalidInput("choose who went out")
    at = game_table(game, number)
    melds = clean_melds(entered.melds)
    own = entered.hands[went_out] if entered.hands[went_out].strip() else None
    laid, _kept = declarer_table(at, went_out, melds, own)
    hands = {name: text for name, text in entered.hands.items() if name != went_out and text.strip()}
    results, _texts = hands_in_turn(at, game.players, went_out, hands, laid)
    for name, best in results.items():
        typed = entered.points[name].strip()
        if typed:
            verify_typed_points(name, typed_points(name, typed), best)
    return results


def verify_typed_points(name: str, points: int, best: HandView) -> None:
    """InvalidInput unless the points typed for a hand are its best score (the engine's)."""
    if points > best.points:
        raise InvalidInput(
            f"{name}: these cards can score {best.points}: {best.summary} (typed: {points}); "
            f"clear the points to use {best.points}"
        )
    if points < best.points:
        raise InvalidInput(f"{name}: these cards score at least {best.points}: {best.summary} (typed: {points})")
