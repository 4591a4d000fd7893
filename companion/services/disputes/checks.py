"""The checks a table asks for: melds, the best score of a hand, the declarer's way out (D8), one
lay-off onto the declarer's melds, and (in deals with contracts) going down and a lay-off onto the
table. Every verdict, reason and arrangement is the engine's typed answer; nothing here decides a rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.bounds import whole_number
from companion.errors import InvalidInput
from companion.services.disputes.table import Table, clean_melds, parsed_melds, verify_hand_size
from companion.services.disputes.views import (
    Face,
    MeldView,
    Scored,
    card_faces,
    face,
    for_people,
    meld_views,
    placed_words,
)
from companion.services.store import engine_call
from engine.api import table_layoff as engine_table_layoff
from engine.api import verify_hands_arranged
from engine.cards import Card, parse_cards, parse_meld
from engine.contracts import LayoffOnTable, check_contract, verify_go_down, verify_may_lay_off
from engine.errors import CannotGoOut, ContractError, EngineError, IllegalLayoff
from engine.layoffs import (
    TableMeld,
    placements,
    score_with_layoffs,
    table_melds,
    verify_laid_down,
    verify_layoff,
)
from engine.melds import Verdict, check_meld
from engine.penalties import held_in_full
from engine.scoring import parse_points
from engine.solver import best_arrangement


def check_melds(at: Table, melds: Sequence[str]) -> tuple[Verdict, ...]:
    """The engine's verdict on each meld (as ``python -m engine check`` judges them)."""
    if not melds:
        raise InvalidInput("enter at least one meld")
    return tuple(check_meld(cards, at.rules, at.info) for cards in parsed_melds(at, melds))


def best_hand(at: Table, hand: str, declarer: Sequence[str] = ()) -> Scored:
    """The least penalty of a hand, with lay-offs onto the declarer's melds (D7; ``engine best``);
    where every card held counts in full, the cards added up."""
    if not hand.strip():
        raise InvalidInput("enter the cards of the hand")
    verify_hand_size(hand, at.variant)
    cards: tuple[Card, ...] = engine_call(parse_cards, hand)
    if not cards:
        raise InvalidInput("the hand has no cards")
    if at.held_in_full:
        if declarer:
            engine_call(verify_hands_arranged, at.rules)
        at.verify_in_deck(cards)
        return held_in_full(cards, at.rules, at.info)
    declared: tuple[TableMeld, ...] = engine_call(table_melds, list(declarer), at.rules, at.info) if declarer else ()
    at.verify_in_deck(list(cards) + [card for meld in declared for card in meld.cards])
    if not declared:
        return engine_call(best_arrangement, cards, at.rules, at.info)
    return engine_call(score_with_layoffs, cards, declared, at.rules, at.info)


def typed_points(name: str, text: str) -> int:
    """Card points typed at the table (``10+5``); InvalidInput with the engine's sentence."""
    try:
        return int(parse_points(text))
    except EngineError as error:
        raise InvalidInput(f"{name}: {error}") from error


# ---------------------------------------------------------------- going out and lay-offs onto the declarer


@dataclass(frozen=True)
class DeclarerCheck:
    """Whether the declarer's melds are legal and cover the whole hand (D8)."""

    melds: tuple[MeldView, ...]
    discard: tuple[Face, ...]
    valid: bool
    reason: str | None
    table: tuple[list[str], ...]  # the melds as laid down, wild roles fixed (TableMeld.as_json)


def check_declarer(at: Table, melds: Sequence[str], discard: str = "") -> DeclarerCheck:
    """Each meld by the engine, then the whole hand (melds and discard) by engine.solver.going_out;
    refused where held cards count in full (Contract Rummy: the solver knows no contracts)."""
    engine_call(verify_hands_arranged, at.rules)
    verdicts = check_melds(at, melds)
    views = meld_views(verdicts, melds, at.info)
    thrown: tuple[Card, ...] = engine_call(parse_cards, discard) if discard.strip() else ()
    if len(thrown) > 1:
        raise InvalidInput("a player going out discards at most one card")
    at.verify_in_deck([held.card for verdict in verdicts for held in verdict.cards] + list(thrown))
    discard_faces = tuple(face(card, at.info) for card in thrown)
    if not all(verdict.valid for verdict in verdicts):
        first = next(view for view in views if not view.valid)
        number = views.index(first) + 1
        return DeclarerCheck(views, discard_faces, False, f"Meld {number} is not legal: {first.reason}", ())
    try:
        laid = verify_laid_down(melds, thrown, at.rules, at.info)
    except CannotGoOut as problem:
        return DeclarerCheck(views, discard_faces, False, str(problem), ())
    return DeclarerCheck(views, discard_faces, True, None, tuple(meld.as_json() for meld in laid))


@dataclass(frozen=True)
class LayoffVerdict:
    """The engine's verdict on one lay-off onto the declarer's melds: the melds after it (unchanged
    when it is refused), the refusal's code and reason, and where each card went (D11)."""

    melds: tuple[TableMeld, ...]
    code: str | None = None
    reason: str | None = None
    placements: tuple[dict[str, object], ...] = ()

    @property
    def valid(self) -> bool:
        return self.code is None


def lay_off(at: Table, table_now: Sequence[Sequence[str]], onto: object, cards: str) -> LayoffVerdict:
    """The engine's verdict on one lay-off onto meld `onto` (from 1) of the melds as they now lie,
    as ``engine layoff`` judges it."""
    declared: tuple[TableMeld, ...] = engine_call(
        table_melds, [" ".join(meld) for meld in table_now], at.rules, at.info
    )
    if not declared:
        raise InvalidInput("give the declarer's melds")
    if not isinstance(onto, int) or isinstance(onto, bool):
        raise InvalidInput(" ".join(f'onto must be a meld number, not "{onto}"'.split()))
    laid = engine_call(parse_meld, cards)
    if not laid:
        raise InvalidInput("give at least one card to lay off")
    at.verify_in_deck([held.card for held in laid] + [card for meld in declared for card in meld.cards])
    try:
        extended = verify_layoff(declared, onto - 1, laid, at.rules, at.info)
    except IllegalLayoff as problem:
        return LayoffVerdict(declared, problem.code, str(problem))
    after = tuple(extended if index == onto - 1 else meld for index, meld in enumerate(declared))
    placed = placements(declared[onto - 1], extended, onto - 1)
    return LayoffVerdict(after, placements=tuple(placement.as_json() for placement in placed))


# ---------------------------------------------------------------- going down and lay-offs onto the table (contracts)


@dataclass(frozen=True)
class GoingDown:
    """The engine's verdict on melds laid down to go down: exactly the deal's contract, or why not."""

    valid: bool
    reason: str | None
    melds: tuple[MeldView, ...]
    refused: bool = False
    """The player may not go down now (they went down earlier this deal), whatever the melds."""


# Whether the player going down has already gone down this deal.
ALREADY_DOWN = {"not-yet": False, "already": True}


def going_down(at: Table, melds: Sequence[str], already: str = "not-yet") -> GoingDown:
    """Whether the player may go down now (once a deal: `already`, a key of ALREADY_DOWN), and whether
    the melds are exactly the deal's contract (``engine contract``)."""
    if already not in ALREADY_DOWN:
        raise InvalidInput("choose whether the player going down has already gone down this deal")
    if not melds:
        raise InvalidInput("enter the melds laid down")
    verdict = engine_call(check_contract, parsed_melds(at, melds), at.rules, at.info)
    views = meld_views(verdict.melds, melds, at.info)
    try:
        verify_go_down(at.rules, at.info, "this player", already_down=ALREADY_DOWN[already])
    except ContractError as refusal:
        return GoingDown(False, str(refusal), views, refused=True)
    return GoingDown(verdict.valid, verdict.reason, views)


@dataclass(frozen=True)
class TableLayoff:
    """The engine's verdict on a lay-off onto a meld on the table, the melds after it, where each card went."""

    valid: bool
    reason: str | None
    onto: int
    table: tuple[tuple[Face, ...], ...]
    placements: tuple[str, ...]
    swap: str | None = None
    """With the joker swap: which card took the joker's place, in words."""


# When the player laying off went down: (gone down, went down this turn).
WHEN_DOWN = {"earlier": (True, False), "this-turn": (True, True), "not-yet": (False, False)}


def table_layoff(at: Table, fields: Sequence[str], onto: object, cards: str, down: str = "earlier") -> TableLayoff:
    """A lay-off onto any meld on the table, the player's own or another's (``engine layoff --meld``),
    by a player who went down on an earlier turn, this turn or not yet (`down`, a key of WHEN_DOWN):
    the engine says whether they may lay off now, then whether the cards fit.

    `fields` are the meld fields as entered, empty ones too: `onto` numbers them from 1."""
    if down not in WHEN_DOWN:
        raise InvalidInput("choose when the player laying off went down")
    melds = clean_melds(fields)
    if not melds:
        raise InvalidInput("enter the melds on the table")
    if not cards.strip():
        raise InvalidInput("enter the cards laid off")
    text = str(onto).strip()
    chosen = whole_number(text, 4) if text.isdecimal() else None
    if chosen is None or not 1 <= chosen <= len(fields):
        raise InvalidInput(f"choose the meld the cards go onto, from 1 to {len(fields)}")
    if not str(fields[chosen - 1]).strip():
        raise InvalidInput(f"meld {chosen} on the table is empty: choose a meld that holds cards")
    number = [index for index, field in enumerate(fields, start=1) if str(field).strip()].index(chosen) + 1
    # The lay-off onto the table with the joker swap is decided in the engine alone (engine.api.table_layoff).
    asked = (at.variant, at.round, at.options, number, cards, at.players, melds)
    answer: LayoffOnTable = engine_call(engine_table_layoff, *asked)
    gone_down, this_turn = WHEN_DOWN[down]
    try:
        verify_may_lay_off(at.rules, "this player", gone_down=gone_down, went_down_this_turn=this_turn)
    except ContractError as refusal:
        before = tuple(card_faces(engine_call(parse_meld, meld), at.info) for meld in melds)
        return TableLayoff(False, str(refusal), number, before, ())
    return _table_layoff_view(answer, number, at)


def _table_layoff_view(answer: LayoffOnTable, number: int, at: Table) -> TableLayoff:
    """The engine's verdict (``engine layoff --meld``) as the checker shows it."""
    placed = tuple(
        placed_words(placement.card, placement.stands_for, placement.meld + 1, placement.place)
        for placement in answer.placements
    )
    return TableLayoff(
        answer.valid,
        answer.reason,
        number,
        tuple(card_faces(meld.written_out, at.info) for meld in answer.melds),
        placed,
        for_people(answer.swap.words) if answer.swap else None,
    )
