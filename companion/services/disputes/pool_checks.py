"""Pool rummy's checks (RULES.md 11.2, 11.3): a show judged as the player grouped it, and a losing
hand's count, under one deal's cut joker; in a game they are kept in its log, one deal a "round".

Every verdict, reason and count comes from the engine (`engine.pool.show`, `engine.pool.count`);
this module reads what the table typed (the cut as a card, a rank or "printed joker") and says the
engine's answers in the words of the pages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.bounds import MAX_HAND_CARDS
from companion.errors import InvalidInput
from companion.models import Dispute, Game
from companion.services import pool
from companion.services.disputes.log import LogEntry, game_log, log_check
from companion.services.disputes.table import clean_melds
from companion.services.disputes.views import Face, card_faces, faces
from companion.services.store import PRESETS, deck_ranks, deck_suits, engine_call
from engine.cards import Card, MeldCard, Rank, format_cards, parse_cards, parse_meld, split_tokens
from engine.errors import CardError
from engine.pool import count as pool_count
from engine.pool import cut as pool_cut
from engine.pool import show as pool_show
from engine.rules import RuleSet, rule_set

Count = pool_count.Count
PoolDeal = pool_cut.PoolDeal
DECKS = pool_cut.DECKS
HAND_CARDS = pool_cut.HAND_CARDS

SHOW_FIELDS = 5
"""One field per meld laid out: 13 cards make at most four melds; a fifth for a wrong grouping."""
JOKER_WORDS = ("printed joker", "joker", "jk", "🃏", "*")
NO_CUT = "give the deal's cut: the card cut (such as 7H), its rank (such as 7), or printed joker"


def is_pool_variant(variant: object) -> bool:
    preset = PRESETS.get(variant) if isinstance(variant, str) else None
    return preset is not None and preset.kind == pool.KIND


@dataclass(frozen=True)
class PoolTable:
    """The rules a pool check is made under: the preset, its house rules and the deal's cut."""

    variant: str
    rules: RuleSet
    deal: PoolDeal | None  # None while the cut is not given
    cut: str  # the cut as the page shows it in its field: "7H", "7", "JK", "none" or ""

    @property
    def name(self) -> str:
        return self.rules.preset.name

    @property
    def cut_joker(self) -> bool:
        return self.rules.options.cut_joker

    @property
    def decks(self) -> int:
        return DECKS

    @property
    def jokers(self) -> int:
        return self.rules.options.jokers_per_deck * DECKS

    @property
    def wild_words(self) -> str:
        if self.deal is None:
            return "printed jokers and the cut rank"
        return self.deal.info.wild_words.lower() if self.deal.info.wild_tokens else "nothing"

    @property
    def cut_words(self) -> str:
        """The deal's cut in words: "7♥ cut: jokers and sevens wild"."""
        if self.deal is None:
            return "the cut is not given yet"
        if not self.cut_joker:
            return f"no card is cut: {self.wild_words} wild"
        shown = self.deal.cut.symbol if self.deal.cut is not None else None
        return f"{shown} cut: {self.wild_words} wild" if shown else f"{self.wild_words} wild"

    @property
    def wild_ranks(self) -> str:
        """The wild rank for the card picker's data-wild-ranks."""
        if self.deal is None or self.deal.wild_rank is None:
            return ""
        return self.deal.wild_rank.token

    @property
    def suit_codes(self) -> str:
        return " ".join(suit.value for suit in deck_suits(self.rules.preset))

    @property
    def rank_tokens(self) -> str:
        return " ".join(rank.token for rank in deck_ranks(self.rules.preset))

    @property
    def full_count(self) -> int:
        return self.rules.options.full_count


def _deal(rules: RuleSet, text: str) -> tuple[PoolDeal | None, str]:
    """The deal's wild cards from what the table typed, and the cut in canonical notation."""
    typed = text.strip()
    if not rules.options.cut_joker:
        return pool_cut.pool_deal(rules, None), ""
    if not typed:
        return None, ""
    if typed.lower() in JOKER_WORDS:
        typed = "JK"
    if typed.lower() == "none":
        return engine_call(pool_cut.deal_by_wild, rules, "none"), "none"
    try:
        rank = Rank.parse(typed)
    except CardError:
        rank = None
    if rank is not None:
        return engine_call(pool_cut.deal_by_wild, rules, rank.token), rank.token
    deal: PoolDeal = engine_call(pool_cut.deal_by_cut, rules, typed[:20])
    return deal, str(deal.cut)


def pool_table(variant: str, options: Mapping[str, Any] | None, cut: str = "") -> PoolTable:
    """The table of a pool check; InvalidInput in the engine's words for a cut that is not a card."""
    rules: RuleSet = engine_call(rule_set, variant, dict(options or {}))
    deal, shown = _deal(rules, cut)
    return PoolTable(variant, rules, deal, shown)


def bare_table(variant: str, options: Mapping[str, Any] | None, typed: str = "") -> PoolTable:
    """The table without a cut, for a page whose cut was refused (the field keeps what was typed)."""
    return PoolTable(variant, engine_call(rule_set, variant, dict(options or {})), None, typed[:40])


def _dealt(at: PoolTable) -> PoolDeal:
    if at.deal is None:
        raise InvalidInput(NO_CUT)
    return at.deal


# ---------------------------------------------------------------- the show


@dataclass(frozen=True)
class PoolMeldView:
    """One meld as laid out: its cards, kind in the table's words, whether it is pure, its reading."""

    cards: tuple[Face, ...]
    valid: bool
    kind: str | None  # "sequence" or "set"
    pure: bool | None
    reason: str | None
    reading_text: str | None

    @property
    def words(self) -> str:
        if not self.valid:
            return "not a meld"
        if self.kind == "sequence":
            return "pure sequence" if self.pure else "impure sequence"
        return self.kind or "meld"

    def as_json(self) -> dict[str, object]:
        """The verdict as the dispute log keeps it."""
        return {
            "valid": self.valid,
            "kind": self.kind,
            "pure": self.pure,
            "reason": self.reason,
            "reading_text": self.reading_text,
        }


@dataclass(frozen=True)
class ShowView:
    """A show judged: valid, or the requirement it fails in words, and each meld."""

    melds: tuple[PoolMeldView, ...]
    valid: bool
    code: str | None
    reason: str | None
    cards: int
    penalty: int

    @property
    def headline(self) -> str:
        if self.valid:
            return "A valid show: it wins the deal and scores 0"
        return f"A wrong show, {self.penalty} points: {self.reason}"


def _meld_view(judged: pool_show.MeldJudgement, deal: PoolDeal) -> PoolMeldView:
    verdict = judged.verdict
    kind = None if verdict.kind is None else ("sequence" if verdict.kind.value == "run" else verdict.kind.value)
    return PoolMeldView(
        card_faces(verdict.cards, deal.info),
        judged.valid,
        kind,
        judged.pure,
        verdict.reason,
        verdict.reading_text,
    )


def _parsed(texts: Sequence[str]) -> list[tuple[MeldCard, ...]]:
    melds = []
    for number, text in enumerate(texts, start=1):
        cards: tuple[MeldCard, ...] = engine_call(parse_meld, text)
        if not cards:
            raise InvalidInput(f"meld {number} has no cards")
        melds.append(cards)
    if not melds:
        raise InvalidInput("give at least one meld: one field for each meld as it was laid out")
    count = sum(len(meld) for meld in melds)
    if count > MAX_HAND_CARDS:
        raise InvalidInput(f"a show holds {HAND_CARDS} cards, not {count}")
    return melds


def check_show(at: PoolTable, melds: Sequence[object]) -> ShowView:
    """The melds as laid out, judged as a show under the deal's cut."""
    texts = clean_melds(melds)
    parsed = _parsed(texts)
    deal = _dealt(at)
    engine_call(deal.verify_cards, [held.card for meld in parsed for held in meld])
    verdict: pool_show.ShowVerdict = pool_show.judge_show(parsed, deal)
    return ShowView(
        tuple(_meld_view(judged, deal) for judged in verdict.melds),
        verdict.valid,
        verdict.failure.value if verdict.failure else None,
        verdict.reason,
        verdict.cards,
        0 if verdict.valid else at.rules.options.wrong_show,
    )


# ---------------------------------------------------------------- a losing hand's count


@dataclass(frozen=True)
class CountView:
    """A losing hand's count, its melds and cards left, and why in one line."""

    count: int
    penalty: int
    lives: bool
    melds: tuple[tuple[Face, ...], ...]
    unmelded: tuple[Face, ...]
    full_count: int

    @property
    def why(self) -> str:
        if self.lives:
            because = "Two sequences, one of them pure: only the cards outside melds count"
        else:
            because = "No two sequences with one of them pure: every card counts"
        capped = f", scored {self.penalty} (the full count)" if self.penalty < self.count else ""
        return f"{because}, {self.count}{capped}."


def _hand(hand: object) -> tuple[Card, ...]:
    if not isinstance(hand, str) or not hand.strip():
        raise InvalidInput("enter the cards of the hand")
    count = len(split_tokens(hand))
    if count > MAX_HAND_CARDS:
        raise InvalidInput(f"a losing hand holds {HAND_CARDS} cards, not {count}")
    cards: tuple[Card, ...] = engine_call(parse_cards, hand)
    if not cards:
        raise InvalidInput("enter the cards of the hand")
    return cards


def count_view(counted: Count, deal: PoolDeal, full_count: int) -> CountView:
    return CountView(
        counted.count,
        counted.penalty,
        counted.lives,
        tuple(card_faces(meld, deal.info) for meld in counted.melds),
        card_faces(counted.unmelded, deal.info),
        full_count,
    )


def count_of(at: PoolTable, hand: object) -> tuple[Count, CountView]:
    """The count of a losing hand under the deal's cut (D-PR9)."""
    cards = _hand(hand)
    deal = _dealt(at)
    engine_call(deal.verify_cards, cards)
    counted = pool_count.count_hand(cards, deal)
    return counted, count_view(counted, deal, at.full_count)


# ---------------------------------------------------------------- in a game: the deal, the log


def deal_number(game: Game, wanted: object) -> int:
    """A deal of the game that can be checked: a played one, or the one being played (the default)."""
    played = pool.replay(game)
    last = len(played.deals) if played.finished else len(played.deals) + 1
    if isinstance(wanted, str) and wanted.strip():
        text = wanted.strip()
        number = int(text) if text.isdecimal() and len(text) <= 4 else None
        if number is None or not 1 <= number <= max(last, 1):
            raise InvalidInput(f"deal {text[:12]} cannot be checked in this game: choose a deal from 1 to {last}")
        return number
    return max(last, 1)


def known_cut(game: Game, number: int) -> str:
    """The cut of a deal as the table last gave it: the deal's own when it was entered with its results,
    else the one of the latest check of that deal, else nothing."""
    played = pool.replay(game)
    if number <= len(played.deals):
        row = played.deals[number - 1]
        if row.cut or row.wild:
            return str(row.cut or row.wild)
    for entry in reversed(game_log(game.id, number)):
        cut = entry.result.get("cut")
        if entry.kind in ("show", "count") and isinstance(cut, str):
            return cut
    return ""


def game_pool_table(game: Game, cut: str) -> PoolTable:
    return pool_table(game.variant, game.options, cut)


def log_show(game: Game, number: int, cut: str, melds: Sequence[object], *, commit: bool = True) -> Dispute:
    """Judge a show in a game (its house rules, the deal's cut) and keep the verdict in its log."""
    at = game_pool_table(game, cut)
    show = check_show(at, melds)
    texts = [format_cards(engine_call(parse_meld, text)) for text in clean_melds(melds)]
    result = {
        "cut": at.cut,
        "melds": [meld.as_json() for meld in show.melds],
        "show": {"valid": show.valid, "code": show.code, "cards": show.cards, "penalty": show.penalty},
    }
    return log_check(game, number, "show", texts, show.valid, show.reason, result, commit=commit)


def log_count(game: Game, number: int, cut: str, player: object, hand: object, *, commit: bool = True) -> Dispute:
    """Count a losing hand in a game and keep the count in its log."""
    if player is not None and (not isinstance(player, str) or player not in game.players):
        raise InvalidInput("choose one of the players")
    at = game_pool_table(game, cut)
    counted, view = count_of(at, hand)
    result = counted.as_json() | {"cut": at.cut, "why": view.why}
    cards = [format_cards(_hand(hand))]
    return log_check(game, number, "count", cards, True, None, result, player=player, commit=commit)


def rejudge_pool(
    game: Game, kind: object, number: int, player: object, cards: list[str], result: Mapping[str, Any]
) -> Dispute:
    """An imported show or count judged again by the engine, with the cut the file kept."""
    cut = result.get("cut")
    cut_text = cut if isinstance(cut, str) else ""
    if kind == "show":
        return log_show(game, number, cut_text, cards, commit=False)
    return log_count(game, number, cut_text, player, " ".join(cards), commit=False)


def entry_faces(entry: LogEntry) -> tuple[tuple[Face, ...], ...]:
    return tuple(faces(text.split()) for text in entry.cards)
