"""The table a check is made at (a preset, its house rules, a round, the players), and the input
every check reads first: melds entered, hands in canonical notation, the guards on their size."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.bounds import MAX_HAND_CARDS, MAX_HELD_CARDS, MAX_MELDS_CHECKED, whole_number
from companion.errors import InvalidInput
from companion.models import Game
from companion.services.rules import ContractDeal, OptionLine, contract_deal, has_contracts, option_keys, option_lines
from companion.services.store import PRESETS, deck_ranks, deck_suits, engine_call, rules_for
from engine.api import deck_row
from engine.cards import (
    Card,
    MeldCard,
    format_cards,
    parse_cards,
    parse_meld,
    split_tokens,
    verify_in_play,
)
from engine.contracts import buys_limit
from engine.penalties import scores_in_full
from engine.rules import RuleSet
from engine.schedule import RoundInfo, round_info, schedule


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
    def suit_codes(self) -> str:
        """The suits of the game's deck for the card picker's data-suits ("S H D C R")."""
        return " ".join(suit.value for suit in deck_suits(self.rules.preset))

    @property
    def rank_tokens(self) -> str:
        """The ranks of the game's deck for the card picker's data-ranks ("3 4 … K")."""
        return " ".join(rank.token for rank in deck_ranks(self.rules.preset))

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

    def verify_in_deck(self, cards: Sequence[Card]) -> None:
        """InvalidInput, in the engine's words, for cards the game's deck does not hold (an ace in Five
        Crowns, a star elsewhere) or the decks of this table do not hold so often."""
        preset = self.rules.preset
        row = engine_call(deck_row, self.rules, self.players)
        engine_call(verify_in_play, cards, row.decks, row.jokers, preset.deck, preset.name)


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


def is_contract_game(variant: str) -> bool:
    """Whether the preset is played in deals with contracts: its checker judges going down."""
    return has_contracts(variant)


def deal_contract(at: Table) -> ContractDeal:
    """The deal's contract in words and pictures."""
    return contract_deal(at.info, at.rules.preset.min_run_length)


def held_in_full(variant: object) -> bool:
    """Whether the preset (with its own options) counts every card held in full (Contract Rummy)."""
    preset = PRESETS.get(variant) if isinstance(variant, str) else None
    return preset is not None and preset.kind == "rummy" and scores_in_full(RuleSet(preset, preset.defaults))


# ---------------------------------------------------------------- the cards entered


def clean_melds(texts: Sequence[object]) -> list[str]:
    """The melds entered, without the empty fields."""
    melds = [text.strip() for text in texts if isinstance(text, str) and text.strip()]
    if len(melds) > MAX_MELDS_CHECKED:
        raise InvalidInput(f"check at most {MAX_MELDS_CHECKED} melds at a time")
    return melds


def parsed_melds(at: Table, texts: Sequence[str]) -> tuple[tuple[MeldCard, ...], ...]:
    """At least one meld of cards the table's decks hold, each read by the engine; InvalidInput
    with the engine's sentence (as ``engine check`` says it) when not."""
    melds = []
    for number, text in enumerate(texts, start=1):
        cards: tuple[MeldCard, ...] = engine_call(parse_meld, text)
        if not cards:
            raise InvalidInput(f"meld {number} has no cards")
        melds.append(cards)
    if not melds:
        raise InvalidInput("give at least one meld")
    at.verify_in_deck([held.card for meld in melds for held in meld])
    return tuple(melds)


def verify_hand_size(hand: str, variant: object = None) -> None:
    """Refuse hands longer than any round deals (a guard for the server, not a rule). Where held cards
    count in full (Contract Rummy) nothing is searched, and buys add cards, so the guard is wider."""
    count = len(split_tokens(hand))
    if held_in_full(variant):
        if count > MAX_HELD_CARDS:
            raise InvalidInput(f"a hand holds at most {MAX_HELD_CARDS} cards, not {count}")
        return
    if count > MAX_HAND_CARDS:
        raise InvalidInput(f"a hand holds at most {MAX_HAND_CARDS} cards (no round deals more than 14), not {count}")


def canonical(hand: str) -> str:
    """A hand in canonical notation ("10H QS JK"), or InvalidInput naming the bad token."""
    cards: tuple[Card, ...] = engine_call(parse_cards, hand)
    return format_cards(cards)


def canonical_meld(text: str) -> str:
    return format_cards(engine_call(parse_meld, text))


def canonical_kept_hand(text: str) -> str:
    """A round's kept cards in the notation the app stores: a hand ("7H 8H JK"), or the melds of the
    player who went out separated by ``|`` ("4H 5H 6H | JK=9C 9D 9S"); InvalidInput if unreadable."""
    if "|" in text:
        return " | ".join(canonical_meld(meld) for meld in text.split("|"))
    return canonical(text)


def cards_of(name: str, text: str) -> str:
    """A player's cards in canonical notation; InvalidInput when there are none."""
    cards = canonical(text)
    if not cards:
        raise InvalidInput(f"{name}'s cards are empty; give their cards or their score")
    return cards
