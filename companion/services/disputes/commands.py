"""The command line's answers for the JSON API (``POST /api/check``, ``/api/best``, ``/api/layoff``,
``/api/contract``): exactly what ``python -m engine check|best|layoff|contract`` prints, from
`engine.api`, so the API and the command line say the same. The pages use the typed checks
(companion.services.disputes.checks) instead."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.bounds import MAX_HAND_CARDS
from companion.errors import InvalidInput
from companion.services.store import engine_call
from engine.api import best_json, check_json, contract_json, layoff_json
from engine.cards import split_tokens
from engine.pool import answers as pool

NOT_POOL_CUT = "cut and wild are for pool rummy only"
POOL_NO_LAYOFFS = "pool rummy has no lay-offs: best takes no declarer or declarer_hand"
POOL_NOTHING_TO_JUDGE = "pool rummy has no lay-offs and no contracts: there is no {command} to judge"


def is_pool_variant(variant: object) -> bool:
    return isinstance(variant, str) and pool.is_pool(variant)


def verify_cut(variant: object, cut: str | None, wild: str | None) -> None:
    """A cut or a wild rank only for pool rummy, as the command line's ``--cut`` and ``--wild``."""
    if (cut is not None or wild is not None) and not is_pool_variant(variant):
        raise InvalidInput(NOT_POOL_CUT)


def _verify_pool_size(texts: Sequence[str]) -> None:
    """A guard for the server, not a rule: a pool show or hand of more cards than anyone holds is refused."""
    count = sum(len(split_tokens(text)) for text in texts)
    if count > MAX_HAND_CARDS:
        raise InvalidInput(f"a pool rummy hand holds 13 cards (14 after drawing), not {count}")


def _verify_pool_cut(variant: str, options: Any, cut: str | None, wild: str | None) -> None:
    """The engine's refusals of the cut, in the API's field names rather than the command line's flags."""
    if cut is not None and wild is not None:
        raise InvalidInput("give cut or wild, not both")
    rules = engine_call(pool.pool_rules, variant, options)
    if not rules.options.cut_joker and (cut is not None or wild is not None):
        field = "cut" if cut is not None else "wild"
        raise InvalidInput(f"{field} is not allowed: with the cut joker off, only the printed jokers are wild")
    if rules.options.cut_joker and cut is None and wild is None:
        raise InvalidInput('give the deal\'s wild rank: cut (the card cut, such as "7H") or wild (a rank such as "7")')


def pool_check_command(variant: str, options: Any, melds: list[str], cut: str | None, wild: str | None) -> Any:
    """Each meld as grouped and the melds as a show, as ``python -m engine check --cut|--wild`` prints them."""
    _verify_pool_size(melds)
    _verify_pool_cut(variant, options, cut, wild)
    return engine_call(pool.check_json, variant, options, melds, cut, wild)


def pool_best_command(variant: str, options: Any, hand: str, cut: str | None, wild: str | None) -> Any:
    """A losing hand's count, as ``python -m engine best --cut|--wild`` prints it."""
    _verify_pool_size([hand])
    _verify_pool_cut(variant, options, cut, wild)
    return engine_call(pool.best_json, variant, options, hand, cut, wild)


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
