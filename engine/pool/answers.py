"""Pool rummy's JSON answers (RULES.md 11.6), shared by the command line and, later, the web API.

>>> deal_json("pool-101", [], ["win", "drop", "middle", "37", "wrong"])
{'points': [0, 20, 40, 37, 80], 'winner': 1}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import parse_cards, parse_meld
from engine.errors import CardError, OptionError, VariantError
from engine.pool.count import count_hand
from engine.pool.cut import HAND_CARDS, PoolDeal, deal_by_cut, deal_by_wild, pool_deal
from engine.pool.deal import parse_result, score_deal
from engine.pool.errors import CutError, RecordError, Refusal, ResultError
from engine.pool.game import Standings, drops_left, end_game, play_deal, rejoin, start
from engine.pool.show import judge_show
from engine.rules import POOL_PRESETS, RuleSet, get_preset, parse_set_arguments, rule_set, verify_player_count

__all__ = ["best_json", "check_json", "deal_json", "game_json", "is_pool", "pool_rules", "schedule_json"]

Overrides = Mapping[str, object] | Sequence[str] | None


def is_pool(variant: str) -> bool:
    return str(variant).strip().lower() in POOL_PRESETS


def pool_rules(variant: str, overrides: Overrides) -> RuleSet:
    """A pool rule set from ``--set KEY=VALUE`` strings or a JSON object of options."""
    preset = get_preset(variant)
    if preset.kind != "pool":
        raise VariantError(f'"{variant}" is not pool rummy')
    if isinstance(overrides, Mapping):
        return rule_set(preset.id, overrides)
    if isinstance(overrides, str):
        raise OptionError("options must be KEY=VALUE pairs or a JSON object")
    return rule_set(preset.id, parse_set_arguments(list(overrides or [])))


def schedule_json(variant: str, overrides: Overrides, players: int | None) -> list[dict[str, Any]]:
    """One entry that holds for every deal; the cut rank is named per deal."""
    rules = pool_rules(variant, overrides)
    jokers = rules.options.jokers_per_deck * 2
    entry: dict[str, Any] = {
        "round": None,
        "cards": HAND_CARDS,
        "wild": ["JK"] if jokers else [],
        "cut_joker": rules.options.cut_joker,
        "multiplier": 1,
    }
    if players is not None:
        verify_player_count(rules.preset, players)
        entry |= {"decks": 2, "jokers": jokers}
    return [entry]


def deal_for(rules: RuleSet, cut: str | None, wild: str | None) -> PoolDeal:
    """The deal's wild cards from ``--cut`` or ``--wild``: exactly one of them, neither without a cut joker."""
    if cut is not None and wild is not None:
        raise CutError("give --cut or --wild, not both")
    if cut is not None:
        return deal_by_cut(rules, cut)
    if wild is not None:
        return deal_by_wild(rules, wild)
    if rules.options.cut_joker:
        raise CutError("give the deal's wild rank: --cut CARD (the card cut) or --wild RANK")
    return pool_deal(rules, None)


def check_json(
    variant: str, overrides: Overrides, melds: Sequence[str], cut: str | None, wild: str | None
) -> dict[str, Any]:
    """Each meld judged as grouped, and the melds together as a show."""
    rules = pool_rules(variant, overrides)
    deal = deal_for(rules, cut, wild)
    parsed = []
    for number, text in enumerate(melds, start=1):
        cards = parse_meld(text)
        if not cards:
            raise CardError(f"meld {number} has no cards")
        parsed.append(cards)
    if not parsed:
        raise CardError("give at least one meld")
    deal.verify_cards([held.card for meld in parsed for held in meld])
    show = judge_show(parsed, deal)
    return {
        "valid": all(meld.valid for meld in show.melds),
        "melds": [meld.as_json() for meld in show.melds],
        "show": {
            "valid": show.valid,
            "code": show.failure.value if show.failure else None,
            "reason": show.reason,
            "cards": show.cards,
            "penalty": 0 if show.valid else rules.options.wrong_show,
        },
    }


def best_json(variant: str, overrides: Overrides, hand: str, cut: str | None, wild: str | None) -> dict[str, Any]:
    """A losing hand's count (D-PR9)."""
    rules = pool_rules(variant, overrides)
    deal = deal_for(rules, cut, wild)
    cards = parse_cards(hand)
    if not cards:
        raise CardError("the hand has no cards")
    deal.verify_cards(cards)
    return count_hand(cards, deal).as_json()


def deal_json(variant: str, overrides: Overrides, results: Sequence[object]) -> dict[str, Any]:
    """One deal scored from the results entered, seat by seat."""
    rules = pool_rules(variant, overrides)
    if not rules.preset.min_players <= len(results) <= rules.preset.max_players:
        raise ResultError(f"a deal takes one result for each of 2 to 6 players, not {len(results)}")
    scored = score_deal(rules, [parse_result(result) for result in results])
    return {"points": list(scored.points), "winner": scored.winner + 1}


# --- a game record --------------------------------------------------------------------------------


def _record(text: str) -> dict[str, Any]:
    try:
        record = json.loads(text)
    except json.JSONDecodeError:
        raise RecordError(f"the game record is not JSON: {text.strip()[:60]!r}") from None
    if not isinstance(record, dict):
        raise RecordError("the game record must be one JSON object")
    return record


def _players(record: Mapping[str, Any], rules: RuleSet) -> tuple[str, ...]:
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) and name.strip() for name in players):
        raise RecordError('"players" must be a list of names')
    verify_player_count(rules.preset, len(players))
    repeated = next((name for name in players if players.count(name) > 1), None)
    if repeated is not None:
        raise RecordError(f'"{repeated}" is named twice among the players')
    return tuple(players)


def _buy_in(record: Mapping[str, Any]) -> int:
    buy_in = record.get("buy_in", 0)
    if not isinstance(buy_in, int) or isinstance(buy_in, bool) or buy_in < 0:
        raise RecordError(f'"buy_in" is a whole number of cents from 0, not "{buy_in}"')
    return buy_in


def _first_dealer(record: Mapping[str, Any], players: tuple[str, ...]) -> int:
    name = record.get("first_dealer", players[0])
    if name not in players:
        raise RecordError(f'the first dealer "{name}" is not a player')
    return players.index(name)


def _steps(record: Mapping[str, Any]) -> list[tuple[object, str, Any]]:
    """The record's steps in order: each deal's results, then its rejoins, then the end."""
    deals = record.get("deals", [])
    if not isinstance(deals, list):
        raise RecordError('"deals" must be a list')
    steps: list[tuple[object, str, Any]] = []
    for number, deal in enumerate(deals, start=1):
        if not isinstance(deal, dict) or not isinstance(deal.get("results", {}), dict):
            raise RecordError(f'deal {number} must be an object with "results"')
        rejoins = deal.get("rejoin", [])
        if not isinstance(rejoins, list):
            raise RecordError(f'deal {number}: "rejoin" must be a list of names')
        steps.append((number, "deal", deal.get("results", {})))
        steps.extend((number, "rejoin", name) for name in rejoins)
    end = record.get("end")
    if end is not None:
        if not isinstance(end, dict) or end.get("split") not in ("drops", "equal", "amounts"):
            raise RecordError('"end" must be {"split": "drops"}, {"split": "equal"} or {"split": "amounts", ...}')
        shares = end.get("shares", {})
        if not isinstance(shares, dict):
            raise RecordError('"shares" must be an object of cents by name')
        steps.append(("end", "end", (end["split"], shares)))
    return steps


def _apply(game: Standings, kind: str, value: Any) -> Standings:
    if kind == "deal":
        return play_deal(game, value)
    if kind == "rejoin":
        return rejoin(game, str(value))
    return end_game(game, value[0], value[1])


def game_json(text: str) -> dict[str, Any]:
    """The standings after replaying a game record, stopping at the first step the rules refuse."""
    record = _record(text)
    variant = record.get("variant")
    if not isinstance(variant, str):
        raise RecordError('"variant" must name a pool rummy preset')
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError('"options" must be an object')
    rules = pool_rules(variant, options)
    players = _players(record, rules)
    game = start(rules, players, _buy_in(record), _first_dealer(record, players))
    refused = None
    for at, kind, value in _steps(record):
        try:
            game = _apply(game, kind, value)
        except Refusal as refusal:
            refused = {"at": at, "code": refusal.code, "reason": str(refusal)}
            break
    return _standings_json(game) | {"refused": refused}


def _standings_json(game: Standings) -> dict[str, Any]:
    names = game.players
    nets = game.nets
    dealer = game.dealer
    return {
        "totals": dict(zip(names, game.totals, strict=True)),
        "in": [names[seat] for seat in game.seats_in],
        "out": list(game.out_names),
        "rejoins": dict(zip(names, game.rejoins, strict=True)),
        "drops_left": {names[seat]: drops_left(game, seat) for seat in game.seats_in},
        "pot": game.pot,
        "paid": dict(zip(names, game.paid, strict=True)),
        "dealer": None if dealer is None else names[dealer],
        "winner": None if game.winner is None else names[game.winner],
        "split": None
        if game.split is None
        else {"method": game.split[0], "shares": {names[seat]: game.split[1][seat] for seat in game.seats_in}},
        "nets": None if nets is None else dict(zip(names, nets, strict=True)),
    }
