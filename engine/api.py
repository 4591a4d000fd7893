"""JSON answers shared by the command line and the web API, so both say exactly the same.

>>> check_json("pay-me", 5, [], ["9C JK 2D QC"])["valid"]
False
>>> first = schedule_json("three-thirteen", {}, None)[0]
>>> first["round"], first["cards"], first["wild"], first["multiplier"]
(1, 3, ['3'], 1)
>>> first["discard_pile"]
'The dealer turns the last card dealt face up to start the discard pile.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, MeldCard, parse_cards, parse_meld, verify_in_play
from engine.contracts import LayoffOnTable, check_contract, lay_off_on_table
from engine.dealing import first_dealer_methods
from engine.errors import CardError, IllegalLayoff, OptionError
from engine.layoffs import (
    TableMeld,
    declarer_melds,
    placements,
    score_in_turn,
    score_with_layoffs,
    table_melds,
    verify_layoff,
)
from engine.melds import check_meld
from engine.penalties import held_in_full, max_points, scores_in_full
from engine.rules import (
    OPTION_SPECS,
    PRESETS,
    DeckRow,
    LayOffScope,
    RuleSet,
    parse_set_arguments,
    rule_set,
)
from engine.schedule import RoundInfo, round_info, schedule
from engine.solver import best_arrangement

Overrides = Mapping[str, object] | Sequence[str] | None


def rules_from(variant: str, overrides: Overrides) -> RuleSet:
    """A rule set from ``--set KEY=VALUE`` strings or a JSON object of options."""
    if overrides is None:
        return rule_set(variant)
    if isinstance(overrides, Mapping):
        return rule_set(variant, overrides)
    if isinstance(overrides, str):
        raise OptionError("options must be KEY=VALUE pairs or a JSON object")
    return rule_set(variant, parse_set_arguments(list(overrides)))


def deck_row(rules: RuleSet, players: int | None) -> DeckRow:
    """The decks in play: for the players given, else the preset's largest table (RULES.md 1)."""
    if players is None:
        return rules.preset.largest_table
    return rules.preset.table_for(players)


def variants_json() -> list[dict[str, Any]]:
    """Every preset with its parameters."""
    return [
        {
            "id": preset.id,
            "name": preset.name,
            "min_players": preset.min_players,
            "max_players": preset.max_players,
            "kind": preset.kind,
            "seed": preset.seed,
            "rounds": len(preset.deals) if preset.kind == "rummy" else None,
            "decks": [
                {"max_players": row.max_players, "decks": row.decks, "jokers": row.jokers} for row in preset.deck_table
            ],
            "wild": {
                "jokers": preset.wild_jokers,
                "twos": preset.wild_twos,
                "round_rank": preset.wild_round_rank,
                "text": preset.wild_text,
            },
            "going_out": preset.going_out_text,
            "penalties": preset.penalty_text,
            "money": preset.money,
            "options": preset.defaults.as_json(preset.option_keys) if preset.kind in ("rummy", "pool") else {},
            "decisions": list(preset.decisions),
            "discard_pile": preset.discard_pile_text,
            "first_dealer": [
                {"method": method.value, "label": method.label, "how": method.how_in(preset)}
                for method in first_dealer_methods(preset)
            ],
        }
        for preset in PRESETS.values()
    ]


def option_specs_json(variant: str | None = None) -> list[dict[str, Any]]:
    """The options' descriptions: those of the four original rummy presets, or a preset's own."""
    specs = OPTION_SPECS.values() if variant is None else rule_set(variant).option_specs()
    return [
        {"key": spec.key, "kind": spec.kind, "title": spec.title, "effect": spec.effect, "choices": list(spec.choices)}
        | ({"minimum": spec.minimum, "maximum": spec.maximum} if spec.kind in ("number", "sizes") else {})
        for spec in specs
    ]


def schedule_json(variant: str, overrides: Overrides, players: int | None) -> list[dict[str, Any]]:
    """One entry per round, with the most points one player can be left holding ("max_points", for
    the player count when given, else the largest table); with a player count, the decks and jokers in play."""
    rules = rules_from(variant, overrides)
    rounds = schedule(rules)
    row = rules.preset.table_for(players) if players is not None else None
    entries = []
    for info in rounds:
        entry = info.as_json() | {"max_points": max_points(rules, info, players)}
        if row is not None:
            entry["decks"] = row.decks
            entry["jokers"] = row.jokers
        entries.append(entry)
    return entries


def _round(rules: RuleSet, number: object) -> RoundInfo:
    if not isinstance(number, int) or isinstance(number, bool):
        raise OptionError(f'round must be a whole number, not "{number}"')
    return round_info(rules, number)


def _melds(texts: Sequence[str]) -> list[tuple[MeldCard, ...]]:
    melds = []
    for number, text in enumerate(texts, start=1):
        if not isinstance(text, str):
            raise CardError(f"meld {number} must be a string of cards")
        cards = parse_meld(text)
        if not cards:
            raise CardError(f"meld {number} has no cards")
        melds.append(cards)
    return melds


def _verify_cards_exist(cards: Sequence[Card], rules: RuleSet, players: int | None) -> None:
    row = deck_row(rules, players)
    verify_in_play(cards, row.decks, row.jokers, rules.preset.deck, rules.preset.name)


def _melds_asked(
    variant: str, overrides: Overrides, round_number: object, melds: Sequence[str], players: int | None
) -> tuple[RuleSet, RoundInfo, list[tuple[MeldCard, ...]]]:
    """The rules, the round and at least one meld of cards that exist in its decks, or the error why not."""
    rules = rules_from(variant, overrides)
    info = _round(rules, round_number)
    parsed = _melds(melds)
    if not parsed:
        raise CardError("give at least one meld")
    _verify_cards_exist([held.card for meld in parsed for held in meld], rules, players)
    return rules, info, parsed


def verify_hands_arranged(rules: RuleSet) -> None:
    """Raise OptionError where every card held counts in full (Contract Rummy): there the player who
    went out holds no cards, so no melds of theirs are checked as a way to go out, split from their
    hand, or laid off onto when the others score; the solver's arrangements never apply.

    >>> from engine.rules import rule_set
    >>> verify_hands_arranged(rule_set("pay-me"))
    >>> try:
    ...     verify_hands_arranged(rule_set("contract-rummy"))
    ... except OptionError as refusal:
    ...     print(str(refusal)[:63])
    in Contract Rummy every card held counts in full and the player
    """
    if scores_in_full(rules):
        raise OptionError(
            f"in {rules.preset.name} every card held counts in full and the player who went out holds no cards,"
            " so there are no melds of theirs to check or lay off onto"
        )


def _declared(
    rules: RuleSet, info: RoundInfo, declarer: Sequence[str], declarer_hand: str | None
) -> tuple[TableMeld, ...]:
    """The declarer's melds: as entered, or from their cards (melds split by ``|``, or a loose hand
    the engine splits, every open reading kept; D13)."""
    if declarer_hand is None:
        return table_melds(list(declarer), rules, info) if declarer else ()
    if declarer:
        raise OptionError("give the declarer's melds or the declarer's cards, not both")
    verify_hands_arranged(rules)
    if not isinstance(declarer_hand, str) or not declarer_hand.strip():
        raise CardError("the declarer's cards must be a string of cards")
    return declarer_melds(declarer_hand, rules, info)


def check_json(
    variant: str, round_number: object, overrides: Overrides, melds: Sequence[str], players: int | None = None
) -> dict[str, Any]:
    """Verdicts on melds, as ``check`` prints them; a legal meld says how it was read (D10).

    >>> check_json("pay-me", 5, [], ["5H 6H JK 2C"])["melds"][0]["reading_text"]
    'read as 4♥ 5♥ 6♥ 7♥'
    """
    rules, info, parsed = _melds_asked(variant, overrides, round_number, melds, players)
    verdicts = [check_meld(meld, rules, info) for meld in parsed]
    return {
        "valid": all(verdict.valid for verdict in verdicts),
        "melds": [verdict.as_json() for verdict in verdicts],
    }


def best_json(
    variant: str,
    round_number: object,
    overrides: Overrides,
    hand: str,
    declarer: Sequence[str] = (),
    players: int | None = None,
    declarer_hand: str | None = None,
) -> dict[str, Any]:
    """The least-penalty arrangement of a hand, as ``best`` prints it; with the declarer's
    melds (or cards), lay-offs onto them count too (D7), and "placements" says where each card
    laid off went (D11)."""
    rules = rules_from(variant, overrides)
    info = _round(rules, round_number)
    if not isinstance(hand, str):
        raise CardError("hand must be a string of cards")
    cards = parse_cards(hand)
    if not cards:
        raise CardError("the hand has no cards")
    if scores_in_full(rules):
        if declarer or declarer_hand is not None:
            verify_hands_arranged(rules)
        _verify_cards_exist(cards, rules, players)
        return held_in_full(cards, rules, info).as_json()
    declared = _declared(rules, info, declarer, declarer_hand)
    table_cards = [card for meld in declared for card in meld.cards]
    _verify_cards_exist(list(cards) + table_cards, rules, players)
    if not declared:
        return best_arrangement(cards, rules, info).as_json()
    return score_with_layoffs(cards, declared, rules, info).as_json()


def turn_scores_json(
    variant: str,
    round_number: object,
    overrides: Overrides,
    declarer: Sequence[str],
    hands: Sequence[str | None],
    players: int | None = None,
    declarer_hand: str | None = None,
) -> list[dict[str, Any] | None]:
    """``best --declarer`` for each player in lay-off order (D6): a player's lay-offs extend the
    melds the next player sees. None stands for a player whose cards are not known."""
    rules = rules_from(variant, overrides)
    info = _round(rules, round_number)
    parsed = [None if hand is None else parse_cards(hand) for hand in hands]
    if any(cards == () for cards in parsed):
        raise CardError("a hand has no cards")
    if scores_in_full(rules):
        if declarer or declarer_hand is not None:
            verify_hands_arranged(rules)
        _verify_cards_exist([card for hand in parsed if hand for card in hand], rules, players)
        return [None if hand is None else held_in_full(hand, rules, info).as_json() for hand in parsed]
    declared = _declared(rules, info, declarer, declarer_hand)
    table_cards = [card for meld in declared for card in meld.cards]
    _verify_cards_exist([card for hand in parsed if hand for card in hand] + table_cards, rules, players)
    return [None if score is None else score.as_json() for score in score_in_turn(parsed, declared, rules, info)]


def layoff_json(
    variant: str,
    round_number: object,
    overrides: Overrides,
    declarer: Sequence[str],
    onto: object,
    cards: str,
    players: int | None = None,
    declarer_hand: str | None = None,
    table: Sequence[str] = (),
) -> dict[str, Any]:
    """The verdict on one lay-off onto meld `onto` (from 1) of the declarer's melds, and where
    each card went ("placements").

    Where the preset lays off onto any meld on the table (Contract Rummy), `table` lists every
    meld on the table (the declarer's melds are taken as the table's too), and the answer says
    "table" for "declarer" (see `table_layoff`).
    """
    asked = _layoff_asked(variant, round_number, overrides, declarer, onto, cards, players, declarer_hand, table)
    rules, info, declared, number, laid = asked
    if rules.preset.lay_off_scope is LayOffScope.TABLE:
        return lay_off_on_table(declared, number, laid, rules, info).as_json()
    try:
        extended = verify_layoff(declared, number - 1, laid, rules, info)
    except IllegalLayoff as problem:
        return {
            "valid": False,
            "code": problem.code,
            "reason": str(problem),
            "declarer": [meld.as_json() for meld in declared],
            "placements": [],
        }
    after = [extended if index == number - 1 else meld for index, meld in enumerate(declared)]
    return {
        "valid": True,
        "code": None,
        "reason": None,
        "declarer": [meld.as_json() for meld in after],
        "placements": [placement.as_json() for placement in placements(declared[number - 1], extended, number - 1)],
    }


def table_layoff(
    variant: str,
    round_number: object,
    overrides: Overrides,
    onto: object,
    cards: str,
    players: int | None = None,
    table: Sequence[str] = (),
) -> LayoffOnTable:
    """`layoff_json`'s verdict on a lay-off onto meld `onto` (from 1) of the melds on the `table`,
    typed (engine.contracts.lay_off_on_table), where the preset lays off onto any meld there;
    the same refusals of the question asked.

    >>> verdict = table_layoff("contract-rummy", 2, {"joker_swap": True}, 1, "6H", table=["5H JK 7H 8H"])
    >>> verdict.valid, verdict.swap.words if verdict.swap else None
    (True, "6H takes the place of JK, and JK goes back to the player's hand")
    """
    rules, info, declared, number, laid = _layoff_asked(
        variant, round_number, overrides, (), onto, cards, players, None, table
    )
    if rules.preset.lay_off_scope is not LayOffScope.TABLE:
        raise OptionError(f"in {rules.preset.name} cards are laid off only onto the melds of the player who went out")
    return lay_off_on_table(declared, number, laid, rules, info)


def _layoff_asked(
    variant: str,
    round_number: object,
    overrides: Overrides,
    declarer: Sequence[str],
    onto: object,
    cards: str,
    players: int | None,
    declarer_hand: str | None,
    table: Sequence[str],
) -> tuple[RuleSet, RoundInfo, tuple[TableMeld, ...], int, tuple[MeldCard, ...]]:
    """A lay-off question checked (see `layoff_json`): the rules, the round, the melds laid off
    onto, the meld's number and the cards laid off."""
    rules = rules_from(variant, overrides)
    info = _round(rules, round_number)
    on_table = rules.preset.lay_off_scope is LayOffScope.TABLE
    if table and not on_table:
        raise OptionError(f"in {rules.preset.name} cards are laid off only onto the melds of the player who went out")
    if table and (declarer or declarer_hand is not None):
        raise OptionError("give the melds on the table or the declarer's melds, not both")
    if on_table and declarer_hand is not None:
        raise OptionError(f"in {rules.preset.name} give each meld on the table, not a player's cards")
    declared = table_melds(list(table), rules, info) if table else _declared(rules, info, declarer, declarer_hand)
    if not declared:
        raise CardError("give the melds on the table" if on_table else "give the declarer's melds")
    if not isinstance(cards, str):
        raise CardError("cards must be a string of cards")
    if not isinstance(onto, int) or isinstance(onto, bool):
        raise OptionError(f'onto must be a meld number, not "{onto}"')
    laid = parse_meld(cards)
    if not laid:
        raise CardError("give at least one card to lay off")
    _verify_cards_exist([held.card for held in laid] + [c for meld in declared for c in meld.cards], rules, players)
    return rules, info, tuple(declared), onto, laid


def contract_json(
    variant: str,
    overrides: Overrides,
    round_number: object,
    melds: Sequence[str],
    players: int | None = None,
    left_in_hand: int | None = None,
) -> dict[str, Any]:
    """Whether melds, as given, are exactly the deal's contract, as ``contract`` prints it (RULES.md 9).

    >>> contract_json("contract-rummy", None, 3, ["5H 6H 7H 8H"])["reason"]
    'deal 3 needs two runs; this is one run'
    """
    rules, info, parsed = _melds_asked(variant, overrides, round_number, melds, players)
    if left_in_hand is not None and (
        isinstance(left_in_hand, bool) or not isinstance(left_in_hand, int) or left_in_hand < 0
    ):
        raise OptionError(f'cards left in hand must be a number of cards from 0, not "{left_in_hand}"')
    return check_contract(parsed, rules, info, left_in_hand).as_json()
