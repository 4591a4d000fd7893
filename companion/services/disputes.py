"""Settling disputes at the table (issue 5): meld checks, the declarer check, lay-off chains,
scoring hands from their cards, and the log of every check made in a game.

Like the other services, this module only asks the engine and passes its answers on: every
verdict, reason and arrangement comes from `engine.api` (the same functions as the command
line), `engine.solver` or `engine.layoffs`. Nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from companion.bounds import CHECKS_PAGE, GAME_PAGE_CHECKS, pages_for, whole_number
from companion.errors import InvalidInput, NotFound
from companion.extensions import db
from companion.models import Dispute, Game
from companion.services.rules import (
    ContractDeal,
    OptionLine,
    contract_deal,
    has_contracts,
    option_keys,
    option_lines,
)
from companion.services.store import PRESETS, commit_now, engine_call, rules_for
from engine.api import (
    best_json,
    check_json,
    contract_json,
    deck_row,
    layoff_json,
    turn_scores_json,
    verify_hands_arranged,
)
from engine.cards import (
    Card,
    MeldCard,
    format_cards,
    parse_cards,
    parse_meld,
    split_tokens,
    symbols_in,
    verify_in_play,
)
from engine.contracts import buys_limit, verify_go_down, verify_may_lay_off
from engine.errors import CannotGoOut, ContractError, EngineError
from engine.layoffs import TableMeld, layoff_turns, score_in_turn, split_declarer_hand, table_melds, verify_laid_down
from engine.penalties import base_penalty, scores_in_full
from engine.rules import RuleSet
from engine.schedule import RoundInfo, round_info, schedule
from engine.scoring import parse_points

MAX_MELDS = 8
# No round deals more than 14 cards (Pay Me's full cycle), plus the card drawn. The search for the
# best arrangement grows quickly with the hand, so longer "hands" are refused before it starts.
MAX_HAND_CARDS = 16
# Held cards that count in full are only added up; a deal of 15 with twenty buys is the most a table can set.
MAX_HELD_CARDS = 60
KINDS = ("meld", "declarer", "layoff", "hand")


# ---------------------------------------------------------------- the table a check is made at


@dataclass(frozen=True)
class Table:
    """The rules a check is made under: a preset, its options, a round and (in a game) the players."""

    variant: str
    options: dict[str, Any]
    round: int
    players: int | None
    rules: RuleSet
    info: RoundInfo
    decks: int
    jokers: int

    @property
    def name(self) -> str:
        return self.rules.preset.name

    @property
    def rounds(self) -> int:
        return len(schedule(self.rules))

    @property
    def wild_words(self) -> str:
        return self.info.wild_words

    @property
    def wild_ranks(self) -> str:
        """The wild ranks for the card picker's data-wild-ranks ("2 3")."""
        return " ".join(token for token in self.info.wild_tokens if token != "JK")

    @property
    def lay_offs(self) -> bool:
        return self.rules.options.lay_offs

    @property
    def multiplier(self) -> int:
        return self.info.multiplier

    @property
    def cards(self) -> int:
        return self.info.cards

    @property
    def house_rules(self) -> tuple[OptionLine, ...]:
        """The house rules of the preset, with the values of this check."""
        return option_lines(self.rules)

    @property
    def changed_query(self) -> dict[str, str]:
        """The house rules that differ from the preset's, as query-string values (a link to the checker)."""
        return {line.key: line.query for line in self.house_rules if line.changed}

    @property
    def held_in_full(self) -> bool:
        """Whether every card held counts in full (Contract Rummy): the player who went out holds none,
        and nothing is arranged into melds or laid off onto theirs."""
        return bool(scores_in_full(self.rules))

    @property
    def has_contract(self) -> bool:
        """Whether this deal has a contract (Contract Rummy): the checker judges going down."""
        return bool(self.info.contract)

    @property
    def most_held(self) -> int:
        """The most cards a player can hold at the end of the deal: those dealt, two for each buy, one drawn."""
        return self.info.cards + 2 * buys_limit(self.rules) + 1


def table(variant: object, options: object, round_number: object, players: int | None = None) -> Table:
    """The rules of one round; InvalidInput with the engine's sentence when they make no sense."""
    if not isinstance(variant, str):
        raise InvalidInput("variant must be a preset id such as pay-me")
    if options is not None and not isinstance(options, dict):
        raise InvalidInput("options must be an object of house-rule options")
    rules = rules_for(variant, options)
    if not isinstance(round_number, int) or isinstance(round_number, bool):
        raise InvalidInput(f'round must be a whole number, not "{round_number}"')
    info = engine_call(round_info, rules, round_number)
    row = engine_call(deck_row, rules, players)
    return Table(rules.preset.id, rules.options_json(), round_number, players, rules, info, row.decks, row.jokers)


def game_table(game: Game, round_number: int) -> Table:
    return table(game.variant, game.options, round_number, len(game.players))


# ---------------------------------------------------------------- the command line's answers (the API)


def check_command(variant: str, round_number: object, options: Any, melds: list[str], players: int | None) -> Any:
    """Verdicts on melds, as ``python -m engine check`` prints them."""
    return engine_call(check_json, variant, round_number, options, melds, players)


def best_command(
    variant: str,
    round_number: object,
    options: Any,
    hand: str,
    declarer: list[str],
    players: int | None,
    declarer_hand: str | None = None,
) -> Any:
    """The least-penalty arrangement of a hand, as ``python -m engine best`` prints it."""
    return engine_call(best_json, variant, round_number, options, hand, declarer, players, declarer_hand)


def layoff_command(
    variant: str,
    round_number: object,
    options: Any,
    declarer: list[str],
    onto: object,
    cards: str,
    players: int | None,
    declarer_hand: str | None = None,
    table: Sequence[str] = (),
) -> Any:
    """The verdict on one lay-off, as ``python -m engine layoff`` prints it; `table` lists every meld on
    the table where the preset lays off onto any of them (Contract Rummy)."""
    return engine_call(
        layoff_json, variant, round_number, options, declarer, onto, cards, players, declarer_hand, list(table)
    )


def contract_command(
    variant: str, round_number: object, options: Any, melds: list[str], players: int | None, left: int | None = None
) -> Any:
    """Whether melds are exactly the deal's contract, as ``python -m engine contract`` prints it
    (`left`: the cards left in hand after going down, as ``--left``)."""
    return engine_call(contract_json, variant, options, round_number, melds, players, left)


# ---------------------------------------------------------------- cards as the pages show them


@dataclass(frozen=True)
class Face:
    """A card as a page shows it: ``10♥`` in red, ``🃏``; `wild` marks a wild card this round."""

    symbol: str
    red: bool
    wild: bool = False


def for_people(reason: str | None) -> str:
    """An engine reason with its card codes shown as cards (J♥ Q♠ K♦), for the pages."""
    return symbols_in(reason or "")


def face(card: Card, info: RoundInfo | None = None) -> Face:
    return Face(card.symbol, bool(card.suit and card.suit.is_red), bool(info and info.is_wild(card)))


def faces(tokens: Sequence[str], info: RoundInfo | None = None) -> tuple[Face, ...]:
    """Faces of canonical tokens as the engine writes them (``JK=7H`` shows the joker)."""
    return tuple(face(MeldCard.parse(token).card, info) for token in tokens)


def readings(tokens: Sequence[str], read_as: Sequence[str] | None, info: RoundInfo) -> tuple[str, ...]:
    """How each wild card was read: ``🃏 as 10♥`` (Verdict.read_as)."""
    if not read_as:
        return ()
    shown = []
    for token, stands in zip(tokens, read_as, strict=False):
        card = MeldCard.parse(token).card
        if info.is_wild(card):
            shown.append(f"{card.symbol} as {Card.parse(stands).symbol}")
    return tuple(shown)


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


def meld_views(answer: Mapping[str, Any], texts: Sequence[str], info: RoundInfo) -> tuple[MeldView, ...]:
    return tuple(
        MeldView(
            text=text,
            cards=faces(meld["cards"], info),
            valid=bool(meld["valid"]),
            kind=meld["kind"],
            reason=meld["reason"],
            readings=readings(meld["cards"], meld.get("read_as"), info),
            reading_text=meld.get("reading_text"),
        )
        for meld, text in zip(answer["melds"], texts, strict=True)
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


def hand_view(answer: Mapping[str, Any], info: RoundInfo, rules: RuleSet | None = None) -> HandView:
    """A scored hand for the page; with `rules`, each card left over comes with its points."""
    penalty = int(answer["penalty"])
    parts: tuple[tuple[Face, int], ...] = ()
    if rules is not None:
        left = [MeldCard.parse(token).card for token in answer["unmelded"]]
        table = rules.options.penalty_table
        parts = tuple((face(card, info), base_penalty(card, table, info.is_wild(card))) for card in left)
    return HandView(
        points=penalty // info.multiplier,
        penalty=penalty,
        melds=tuple(faces(meld, info) for meld in answer["melds"]),
        layoffs=tuple((int(item["meld"]), faces(item["cards"], info)) for item in answer.get("layoffs", ())),
        unmelded=faces(answer["unmelded"], info),
        placements=placement_texts(answer.get("placements", ())),
        parts=parts,
    )


PLACES = {"low": "at the low end", "high": "at the high end", "set": "in the set"}


def placement_texts(placements: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """Each card laid off, where the engine put it: "🃏 as 8♥ on meld 1, at the low end"."""
    shown = []
    for item in placements:
        card, stands = Card.parse(str(item["card"])), Card.parse(str(item.get("as") or item["card"]))
        role = "" if card == stands else f" as {stands.symbol}"
        place = PLACES.get(str(item.get("place")), "")
        shown.append(f"{card.symbol}{role} on meld {item['meld']}" + (f", {place}" if place else ""))
    return tuple(shown)


# ---------------------------------------------------------------- the checks


def clean_melds(texts: Sequence[object]) -> list[str]:
    """The melds entered, without the empty fields."""
    melds = [text.strip() for text in texts if isinstance(text, str) and text.strip()]
    if len(melds) > MAX_MELDS:
        raise InvalidInput(f"check at most {MAX_MELDS} melds at a time")
    return melds


def check_melds(at: Table, melds: Sequence[str]) -> dict[str, Any]:
    """The engine's verdicts on melds (the answer of ``python -m engine check``)."""
    if not melds:
        raise InvalidInput("enter at least one meld")
    answer: dict[str, Any] = engine_call(check_json, at.variant, at.round, at.options, list(melds), at.players)
    return answer


def best_hand(at: Table, hand: str, declarer: Sequence[str] = ()) -> dict[str, Any]:
    """The least penalty of a hand, with lay-offs onto the declarer's melds (D7; ``engine best``)."""
    if not hand.strip():
        raise InvalidInput("enter the cards of the hand")
    verify_hand_size(hand, at.variant)
    answer: dict[str, Any] = engine_call(best_json, at.variant, at.round, at.options, hand, list(declarer), at.players)
    return answer


def verify_hand_size(hand: str, variant: object = None) -> None:
    """Refuse hands longer than any round deals (a guard for the server, not a rule). Where held cards
    count in full (Contract Rummy) nothing is searched, and buys add cards, so the guard is wider."""
    count = len(split_tokens(hand))
    if _held_in_full(variant):
        if count > MAX_HELD_CARDS:
            raise InvalidInput(f"a hand holds at most {MAX_HELD_CARDS} cards, not {count}")
        return
    if count > MAX_HAND_CARDS:
        raise InvalidInput(f"a hand holds at most {MAX_HAND_CARDS} cards (no round deals more than 14), not {count}")


def _held_in_full(variant: object) -> bool:
    preset = PRESETS.get(variant) if isinstance(variant, str) else None
    return preset is not None and preset.kind == "rummy" and scores_in_full(RuleSet(preset, preset.defaults))


def canonical(hand: str) -> str:
    """A hand in canonical notation ("10H QS JK"), or InvalidInput naming the bad token."""
    cards: tuple[Card, ...] = engine_call(parse_cards, hand)
    return format_cards(cards)


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
    answer = check_melds(at, melds)
    views = meld_views(answer, melds, at.info)
    thrown: tuple[Card, ...] = engine_call(parse_cards, discard) if discard.strip() else ()
    if len(thrown) > 1:
        raise InvalidInput("a player going out discards at most one card")
    held = [MeldCard.parse(token).card for meld in answer["melds"] for token in meld["cards"]]
    row = engine_call(deck_row, at.rules, at.players)
    engine_call(verify_in_play, held + list(thrown), row.decks, row.jokers)
    discard_faces = tuple(face(card, at.info) for card in thrown)
    if not answer["valid"]:
        first = next(view for view in views if not view.valid)
        number = views.index(first) + 1
        return DeclarerCheck(views, discard_faces, False, f"Meld {number} is not legal: {first.reason}", ())
    try:
        laid = verify_laid_down(melds, thrown, at.rules, at.info)
    except CannotGoOut as problem:
        return DeclarerCheck(views, discard_faces, False, str(problem), ())
    return DeclarerCheck(views, discard_faces, True, None, tuple(meld.as_json() for meld in laid))


def typed_points(name: str, text: str) -> int:
    """Card points typed at the table (``10+5``); InvalidInput with the engine's sentence."""
    try:
        return int(parse_points(text))
    except EngineError as error:
        raise InvalidInput(f"{name}: {error}") from error


def lay_off(at: Table, table_now: Sequence[Sequence[str]], onto: object, cards: str) -> dict[str, Any]:
    """The engine's verdict on one lay-off onto the melds as they now lie (``engine layoff``)."""
    melds = [" ".join(meld) for meld in table_now]
    answer: dict[str, Any] = engine_call(layoff_json, at.variant, at.round, at.options, melds, onto, cards, at.players)
    return answer


# ---------------------------------------------------------------- going down and lay-offs onto the table (contracts)


def is_contract_game(variant: str) -> bool:
    """Whether the preset is played in deals with contracts: its checker judges going down."""
    return has_contracts(variant)


def checker_table(variant: str, round_text: str, query: Mapping[str, str]) -> Table:
    """The table of the standalone checker of a game with contracts: the deal, the house rules the
    query sets (the preset's own) and, if given, the number of players (the decks in play)."""
    deal = whole_number(round_text, 4) if round_text.isdecimal() else None
    if deal is None:
        raise InvalidInput(f'deal must be a whole number, not "{round_text[:20]}"')
    players_text = query.get("players", "").strip()
    players = whole_number(players_text, 4) if players_text.isdecimal() else None
    if players_text and players is None:
        raise InvalidInput(f'players must be a whole number, not "{players_text[:20]}"')
    options = {key: query[key] for key in option_keys(variant) if query.get(key, "").strip()}
    return table(variant, options, deal, players)


def deal_contract(at: Table) -> ContractDeal:
    """The deal's contract in words and pictures."""
    return contract_deal(at.info, at.rules.preset.min_run_length)


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
    answer = contract_command(at.variant, at.round, at.options, list(melds), at.players)
    views = meld_views(answer, melds, at.info)
    try:
        verify_go_down(at.rules, at.info, "this player", already_down=ALREADY_DOWN[already])
    except ContractError as refusal:
        return GoingDown(False, str(refusal), views, refused=True)
    return GoingDown(bool(answer["valid"]), answer["reason"], views)


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
    answer = engine_call(
        layoff_json, at.variant, at.round, at.options, [], number, cards, at.players, None, list(melds)
    )
    gone_down, this_turn = WHEN_DOWN[down]
    try:
        verify_may_lay_off(at.rules, "this player", gone_down=gone_down, went_down_this_turn=this_turn)
    except ContractError as refusal:
        before = tuple(faces([str(card) for card in engine_call(parse_meld, meld)], at.info) for meld in melds)
        return TableLayoff(False, str(refusal), number, before, ())
    return TableLayoff(
        bool(answer["valid"]),
        answer["reason"],
        number,
        tuple(faces(meld, at.info) for meld in answer["table"]),
        placement_texts(answer["placements"]),
        for_people(answer["swap"]["text"]) if answer.get("swap") else None,
    )


# ---------------------------------------------------------------- scoring a round from cards


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
    elif scores_in_full(at.rules):
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
    if scores_in_full(at.rules):
        if melds or (own is not None and own.replace("|", "").strip()):
            raise InvalidInput(f"{went_out} went out, so they hold no cards: leave their cards and melds empty")
        return (), None
    if not melds and own is not None and "|" in own:
        melds = clean_melds(own.split("|"))
    if melds:
        return _laid_down(at, went_out, melds), " | ".join(_canonical_meld(meld) for meld in melds)
    if own is None:
        return (), None
    text = _cards_of(went_out, own)
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
            texts[name] = _cards_of(name, hands[name])
            verify_hand_size(texts[name], at.variant)
    if scores_in_full(at.rules):
        answers = engine_call(
            turn_scores_json, at.variant, at.round, at.options, [], [texts.get(name) for name in order], at.players
        )
    else:
        answers = _chained_scores(at, [texts.get(name) for name in order], laid)
    views = {name: hand_view(answer, at.info, at.rules) for name, answer in zip(order, answers, strict=True) if answer}
    return views, texts


def _chained_scores(at: Table, texts: Sequence[str | None], laid: Sequence[TableMeld]) -> list[dict[str, Any] | None]:
    """The engine's chained scoring (D6, D7) of the hands in lay-off order, on the declarer's melds."""
    hands = [None if text is None else engine_call(parse_cards, text) for text in texts]
    row = engine_call(deck_row, at.rules, at.players)
    every_card = [card for hand in hands if hand for card in hand] + [card for meld in laid for card in meld.cards]
    engine_call(verify_in_play, every_card, row.decks, row.jokers)
    scored = engine_call(score_in_turn, hands, laid, at.rules, at.info)
    return [None if score is None else score.as_json() for score in scored]


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


def _cards_of(name: str, text: str) -> str:
    """A player's cards in canonical notation; InvalidInput when there are none."""
    cards = canonical(text)
    if not cards:
        raise InvalidInput(f"{name}'s cards are empty; give their cards or their score")
    return cards


def canonical_kept_hand(text: str) -> str:
    """A round's kept cards in the notation the app stores: a hand ("7H 8H JK"), or the melds of the
    player who went out separated by ``|`` ("4H 5H 6H | JK=9C 9D 9S"); InvalidInput if unreadable."""
    if "|" in text:
        return " | ".join(_canonical_meld(meld) for meld in text.split("|"))
    return canonical(text)


def _canonical_meld(text: str) -> str:
    return format_cards(engine_call(parse_meld, text))


def _laid_down(at: Table, name: str, melds: Sequence[str]) -> tuple[TableMeld, ...]:
    """The declarer's melds as laid down, once the engine agrees they are a way to go out (D8)."""
    engine_call(verify_hands_arranged, at.rules)
    laid: tuple[TableMeld, ...] = engine_call(table_melds, list(melds), at.rules, at.info)
    cards = [card for meld in laid for card in meld.cards]
    row = engine_call(deck_row, at.rules, at.players)
    engine_call(verify_in_play, cards, row.decks, row.jokers)
    try:
        verify_laid_down(melds, (), at.rules, at.info)
    except CannotGoOut as problem:
        raise InvalidInput(f"{name} went out, but {_lower(str(problem))}") from problem
    return laid


def _went_out_melds(at: Table, name: str, cards: Sequence[Card]) -> tuple[TableMeld, ...]:
    """A declarer's whole hand, split by the engine into melds (and a discard), as laid down: the
    engine's split of the cards themselves, every open reading kept (D13), as ``best --declarer-hand``."""
    engine_call(verify_hands_arranged, at.rules)
    row = engine_call(deck_row, at.rules, at.players)
    engine_call(verify_in_play, cards, row.decks, row.jokers)
    try:
        melds = split_declarer_hand(cards, at.rules, at.info)
    except CannotGoOut as problem:
        raise InvalidInput(f"{name} went out, but {_lower(str(problem))}") from problem
    return melds


def _lower(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:]


# ---------------------------------------------------------------- the dispute log


@dataclass(frozen=True)
class LogEntry:
    """One check as the game page lists it."""

    id: int
    round: int
    kind: str
    player: str | None
    cards: tuple[str, ...]
    valid: bool
    reason: str | None
    result: dict[str, Any]
    at: datetime

    @property
    def groups(self) -> tuple[tuple[Face, ...], ...]:
        """The cards of each meld (or the hand) as the page shows them."""
        return tuple(faces([token for token in text.split() if token != "|"]) for text in self.cards)

    @property
    def melds(self) -> tuple[tuple[tuple[Face, ...], dict[str, Any]], ...]:
        """Each meld's cards with its verdict (meld and declarer checks)."""
        verdicts = self.result.get("melds", [])
        return tuple(zip(self.groups, verdicts, strict=False))

    @property
    def discard(self) -> tuple[Face, ...]:
        """A declarer's final discard, if one was entered."""
        return faces(str(self.result.get("discard", "")).split())

    @property
    def placed(self) -> tuple[str, ...]:
        """Where the cards of a legal lay-off went: "3♥ on meld 1, at the low end"."""
        return placement_texts(self.result.get("placements", []))

    @property
    def best(self) -> HandView | None:
        """A scored hand's best arrangement (hand checks)."""
        if self.kind != "hand" or "penalty" not in self.result:
            return None
        return HandView(
            points=int(self.result.get("points", self.result["penalty"])),
            penalty=int(self.result["penalty"]),
            melds=tuple(faces(meld) for meld in self.result.get("melds", [])),
            layoffs=tuple((int(item["meld"]), faces(item["cards"])) for item in self.result.get("layoffs", [])),
            unmelded=faces(self.result.get("unmelded", [])),
            placements=placement_texts(self.result.get("placements", [])),
        )

    @property
    def title(self) -> str:
        if self.kind == "meld" and self.result.get("contract"):
            return "Going down"
        titles = {"meld": "Meld", "declarer": "Going out", "layoff": "Lay-off", "hand": "Hand"}
        return titles.get(self.kind, self.kind)


def log_check(
    game: Game,
    number: int,
    kind: str,
    cards: Sequence[str],
    valid: bool,
    reason: str | None,
    result: dict[str, Any] | None = None,
    player: str | None = None,
    chain_id: int | None = None,
    *,
    commit: bool = True,
) -> Dispute:
    """Keep a check with its round; the game's version is not touched (a check changes no score).
    With `commit` false it is only flushed (an import commits once, at the end)."""
    entry = Dispute(
        game_id=game.id,
        round_number=number,
        kind=kind,
        player=player,
        cards=list(cards),
        valid=valid,
        reason=reason,
        result=result,
        chain_id=chain_id,
    )
    db.session.add(entry)
    if commit:
        commit_now()  # a broken connection during the commit is said to be one (store.commit_now)
    else:
        db.session.flush()
    return entry


def _entry(row: Dispute) -> LogEntry:
    return LogEntry(
        row.id,
        row.round_number,
        row.kind,
        row.player,
        tuple(row.cards),
        row.valid,
        row.reason,
        row.result or {},
        row.created_at,
    )


def game_log(game_id: str, number: int | None = None) -> tuple[LogEntry, ...]:
    """Every check made in a game (or one round), oldest first."""
    query = db.select(Dispute).filter_by(game_id=game_id)
    if number is not None:
        query = query.filter_by(round_number=number)
    return tuple(_entry(row) for row in db.session.scalars(query.order_by(Dispute.id)))


def log_page(
    game_id: str, number: int | None = None, page: int = 1, size: int = CHECKS_PAGE
) -> tuple[tuple[LogEntry, ...], int, int]:
    """One page of a game's checks (or one round's), the latest page first and each page oldest
    first, with the number of checks in all and the page shown (clamped to the pages there are)."""
    where = [Dispute.game_id == game_id] + ([Dispute.round_number == number] if number is not None else [])
    count = db.session.scalar(select(func.count()).select_from(Dispute).where(*where)) or 0
    page = max(1, min(page, pages_for(count, size)))
    query = select(Dispute).where(*where).order_by(Dispute.id.desc()).offset((page - 1) * size)
    rows = list(db.session.scalars(query.limit(size)))
    return tuple(_entry(row) for row in reversed(rows)), count, page


@dataclass(frozen=True)
class RoundLogs:
    """The latest checks of a game by round (the game page's log), and how many there are in all."""

    by_round: dict[int, tuple[LogEntry, ...]]
    shown: int
    total: int


def log_by_round(game_id: str) -> RoundLogs:
    """The latest GAME_PAGE_CHECKS checks of a game, by round: the game page never lists more."""
    entries, total, _ = log_page(game_id, size=GAME_PAGE_CHECKS)
    grouped: dict[int, list[LogEntry]] = {}
    for entry in entries:
        grouped.setdefault(entry.round, []).append(entry)
    return RoundLogs({number: tuple(items) for number, items in sorted(grouped.items())}, len(entries), total)


def get_entry(game_id: str, entry_id: int) -> LogEntry:
    row = db.session.get(Dispute, entry_id)
    if row is None or row.game_id != game_id:
        raise NotFound("there is no such check in this game")
    return _entry(row)


# ---------------------------------------------------------------- lay-off chains (D6)


@dataclass(frozen=True)
class Chain:
    """The lay-offs of one round: the declarer's melds, each lay-off in turn, the melds now."""

    start: LogEntry
    declarer: str
    order: tuple[str, ...]  # the other players, starting left of the declarer
    layoffs: tuple[LogEntry, ...]
    melds: tuple[list[str], ...]  # as they lie now (TableMeld.as_json)

    @property
    def table(self) -> tuple[tuple[Face, ...], ...]:
        """The melds as they lie now, as the page shows them."""
        return tuple(faces(meld) for meld in self.melds)

    @property
    def next_player(self) -> str:
        """Who lays off next: the player of the last lay-off keeps going, else the first in order."""
        return self.layoffs[-1].player or self.order[0] if self.layoffs else self.order[0]


def turn_order(players: Sequence[str], declarer: str) -> tuple[str, ...]:
    """The other players in turn order, starting left of the declarer (seat order is clockwise)."""
    seat = list(players).index(declarer)
    return tuple(players[(seat + step) % len(players)] for step in range(1, len(players)))


def current_chain(game: Game, number: int) -> Chain | None:
    """The latest chain of a round: the last valid declarer check and the lay-offs after it."""
    entries = game_log(game.id, number)
    starts = [entry for entry in entries if entry.kind == "declarer" and entry.result.get("table")]
    if not starts:
        return None
    start = starts[-1]
    layoffs = tuple(entry for entry in entries if entry.kind == "layoff" and entry.result.get("chain") == start.id)
    melds: tuple[list[str], ...] = tuple(start.result["table"])
    for entry in layoffs:
        if entry.valid:
            melds = tuple(entry.result["declarer"])
    declarer = start.player or ""
    if declarer not in game.players:
        return None
    return Chain(start, declarer, turn_order(game.players, declarer), layoffs, melds)


def has_chain(variant: str) -> bool:
    """Whether a game has a going-out check and a lay-off chain after it: not where every card held
    counts in full (Contract Rummy lays off onto the table during the deal; the checker judges that)."""
    return not _held_in_full(variant)


def verify_chain(game: Game) -> None:
    """NotFound, in one sentence, for a game without a lay-off chain (see has_chain)."""
    if not has_chain(game.variant):
        name = PRESETS[game.variant].name
        raise NotFound(
            f"{name} has no lay-offs after going out: every card held counts in full, and the checker "
            "judges going down and lay-offs onto the table"
        )


def start_chain(
    game: Game, number: int, declarer: object, melds: Sequence[object], discard: str = "", *, commit: bool = True
) -> Dispute:
    """Check the declarer's melds (the declarer check) and keep them as the round's table."""
    if not isinstance(declarer, str) or declarer not in game.players:
        raise InvalidInput("choose the player who went out")
    texts = clean_melds(melds)
    at = game_table(game, number)
    verdict = check_declarer(at, texts, discard)
    cards = [canonical(text) for text in texts]
    result: dict[str, Any] = {"melds": [_meld_json(view) for view in verdict.melds]}
    if discard.strip():
        result["discard"] = canonical(discard)
    if verdict.table:
        result["table"] = [list(meld) for meld in verdict.table]
    return log_check(
        game, number, "declarer", cards, verdict.valid, verdict.reason, result, player=declarer, commit=commit
    )


def _meld_json(view: MeldView) -> dict[str, Any]:
    answer = {"valid": view.valid, "kind": view.kind, "reason": view.reason, "readings": list(view.readings)}
    if view.reading_text:
        answer["reading_text"] = view.reading_text
    return answer


def add_layoff(game: Game, number: int, player: object, onto: object, cards: object, *, commit: bool = True) -> Dispute:
    """Judge one lay-off onto the melds as they now lie; a legal one extends them for the next player."""
    verify_chain(game)
    chain = current_chain(game, number)
    if chain is None:
        raise InvalidInput("enter the declarer's melds first")
    if not isinstance(player, str) or player not in chain.order:
        raise InvalidInput("choose a player other than the one who went out")
    if not isinstance(cards, str) or not cards.strip():
        raise InvalidInput("enter the cards to lay off")
    if isinstance(onto, str) and onto.strip().isdecimal():
        position = whole_number(onto, 4)
        onto = onto[:20] if position is None else position
    at = game_table(game, number)
    answer = lay_off(at, chain.melds, onto, cards)
    result = {"chain": chain.start.id, "onto": onto, "declarer": answer["declarer"], "code": answer["code"]}
    if answer.get("placements"):
        result["placements"] = answer["placements"]  # where each card went (D11)
    return log_check(
        game,
        number,
        "layoff",
        [canonical(cards)],
        answer["valid"],
        answer["reason"],
        result,
        player=player,
        commit=commit,
    )


def log_melds(game: Game, number: int, melds: Sequence[object], *, commit: bool = True) -> Dispute:
    """Check melds in a game (its round's wilds and house rules) and keep the verdict."""
    texts = clean_melds(melds)
    at = game_table(game, number)
    if at.has_contract:
        return _log_going_down(game, number, at, texts, commit=commit)
    answer = check_melds(at, texts)
    views = meld_views(answer, texts, at.info)
    reasons = [f"Meld {index}: {view.reason}" for index, view in enumerate(views, start=1) if not view.valid]
    result = {"melds": [_meld_json(view) for view in views]}
    cards = [" ".join(meld["cards"]) for meld in answer["melds"]]
    return log_check(game, number, "meld", cards, answer["valid"], " ".join(reasons) or None, result, commit=commit)


def _log_going_down(game: Game, number: int, at: Table, texts: list[str], *, commit: bool) -> Dispute:
    """Melds checked in a deal with a contract are a going-down check: exactly the deal's contract?"""
    down = going_down(at, texts)
    result = {"melds": [_meld_json(view) for view in down.melds], "contract": at.info.contract_words}
    cards = [canonical(text) for text in texts]
    return log_check(game, number, "meld", cards, down.valid, down.reason, result, commit=commit)


def log_hand(
    game: Game, number: int, player: object, hand: object, declarer: Sequence[str] = (), *, commit: bool = True
) -> Dispute:
    """Score a hand from its cards in a game and keep the answer."""
    if player is not None and (not isinstance(player, str) or player not in game.players):
        raise InvalidInput("choose one of the players")
    if not isinstance(hand, str):
        raise InvalidInput("enter the cards of the hand")
    at = game_table(game, number)
    answer = best_hand(at, hand, declarer)
    view = hand_view(answer, at.info, at.rules)
    result = dict(answer) | {"points": view.points}
    return log_check(game, number, "hand", [canonical(hand)], True, None, result, player=player, commit=commit)


def rejudge(game: Game, row: Mapping[str, Any]) -> Dispute:
    """An imported check made again by the engine, in the log's order (a lay-off onto the chain as it
    then lies), and kept with the engine's verdict, reason and result: never the file's."""
    number, kind, player = row.get("round_number"), row.get("kind"), row.get("player")
    cards = [text for text in row.get("cards") or [] if isinstance(text, str)]
    given = row.get("result")
    result: Mapping[str, Any] = given if isinstance(given, dict) else {}
    if not isinstance(number, int):
        raise InvalidInput("a check's round must be a whole number")
    if kind == "meld":
        return log_melds(game, number, cards, commit=False)
    if kind == "declarer":
        discard = result.get("discard")
        return start_chain(game, number, player, cards, discard if isinstance(discard, str) else "", commit=False)
    if kind == "layoff":
        return add_layoff(game, number, player, result.get("onto"), " ".join(cards), commit=False)
    if kind == "hand":
        return log_hand(game, number, player, " ".join(cards), commit=False)
    raise InvalidInput(f"there is no kind of check called {str(kind)[:20]!r}")
