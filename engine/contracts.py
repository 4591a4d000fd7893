"""Contracts and buys (RULES.md 9): going down with exactly the deal's melds, and counting buys.

A deal's contract is the sets and runs a player must lay down, all at once, to go down: each
meld may be longer than its minimum, but no meld may be missing and none may be extra. A meld
whose cards make both a set and a run counts as whichever the contract needs.

>>> from engine.rules import rule_set
>>> from engine.schedule import round_info
>>> from engine.cards import parse_meld
>>> rules = rule_set("contract-rummy")
>>> verdict = check_contract([parse_meld("5H 6H 7H 8H")], rules, round_info(rules, 3))
>>> verdict.valid, verdict.reason
(False, 'deal 3 needs two runs; this is one run')
>>> check_contract([parse_meld("5H 6H 7H 8H"), parse_meld("9S 10S JK QS")], rules, round_info(rules, 3)).valid
True
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Card, MeldCard, parse_meld
from engine.errors import BuyError, ContractError, IllegalLayoff
from engine.layoffs import Placement, TableMeld, placements, verify_layoff
from engine.melds import Reading, Verdict, check_meld, open_readings
from engine.rules import LayOffScope, MeldKind, RuleSet
from engine.schedule import RoundInfo, contract_words

__all__ = [
    "ContractVerdict",
    "JokerSwap",
    "LayoffOnTable",
    "buys_limit",
    "can_buy",
    "can_go_down",
    "can_lay_off_now",
    "can_swap_joker",
    "check_contract",
    "contract_words",
    "lay_off_on_table",
    "parse_meld",
    "verify_buy",
    "verify_contract",
    "verify_go_down",
    "verify_joker_swap",
    "verify_may_lay_off",
]


@dataclass(frozen=True)
class ContractVerdict:
    """Whether melds are exactly a deal's contract; the verdict on each meld, read as the kind it fills."""

    valid: bool
    reason: str | None
    melds: tuple[Verdict, ...]

    def as_json(self) -> dict[str, object]:
        return {"valid": self.valid, "reason": self.reason, "melds": [verdict.as_json() for verdict in self.melds]}


def check_contract(
    melds: Sequence[Sequence[MeldCard]], rules: RuleSet, info: RoundInfo, left_in_hand: int | None = None
) -> ContractVerdict:
    """Judge melds laid down to go down; never raises for melds that miss the contract.

    ``left_in_hand``, when known, is how many cards the player keeps after going down: in a deal
    that ends with no final discard (deal 7), going down is going out, so it must be 0.
    Raises ContractError for a deal without a contract.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> from engine.cards import parse_meld
    >>> rules = rule_set("contract-rummy")
    >>> sets = [parse_meld("5H 5S 5D"), parse_meld("KC KD JK")]
    >>> check_contract(sets, rules, round_info(rules, 1)).valid
    True
    >>> check_contract([*sets, parse_meld("9C 9D 9H")], rules, round_info(rules, 1)).reason
    'deal 1 needs two sets; these are three sets'
    """
    if not info.contract:
        raise ContractError(f"{rules.preset.name} has no contracts: round {info.number} has none")
    verdicts = tuple(check_meld(meld, rules, info) for meld in melds)
    for number, verdict in enumerate(verdicts, start=1):
        if not verdict.valid:
            reason = (verdict.reason or "").rstrip(".")
            return ContractVerdict(False, f"meld {number} is not a legal meld: {reason}", verdicts)
    filled = _fill(melds, rules, info)
    if filled is None:
        given = tuple(verdict.kind for verdict in verdicts if verdict.kind is not None)
        return ContractVerdict(False, _mismatch(info, given), verdicts)
    if info.no_final_discard and left_in_hand:
        return ContractVerdict(
            False,
            f"in deal {info.number} a player goes down and out at once, with no discard; "
            f"{left_in_hand} card{'s' if left_in_hand != 1 else ''} would be left in hand",
            filled,
        )
    return ContractVerdict(True, None, filled)


def _fill(melds: Sequence[Sequence[MeldCard]], rules: RuleSet, info: RoundInfo) -> tuple[Verdict, ...] | None:
    """The melds read as the kinds that make up the contract exactly, or None when no reading does."""
    if len(melds) != len(info.contract):
        return None
    kinds = [_kinds(meld, rules, info) for meld in melds]
    wanted = sorted(kind.value for kind in info.contract)
    for choice in itertools.product(*(list(options) for options in kinds)):
        if sorted(kind.value for kind in choice) == wanted:
            return tuple(kinds[index][kind] for index, kind in enumerate(choice))
    return None


def _kinds(meld: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> dict[MeldKind, Verdict]:
    """Each kind the meld can be read as, with the verdict reading it so (the preferred reading first)."""
    preferred = check_meld(meld, rules, info)
    found: dict[MeldKind, Verdict] = {}
    if preferred.kind is not None:
        found[preferred.kind] = preferred
    held = tuple(meld)
    for reading in open_readings(held, rules, info):
        if reading.kind not in found:
            found[reading.kind] = Verdict(
                held, reading.kind, reading.read_as, None, None, reading.positions, reading.wild
            )
    return found


def _as_verdict(held: tuple[MeldCard, ...], reading: Reading) -> Verdict:
    return Verdict(held, reading.kind, reading.read_as, None, None, reading.positions, reading.wild)


def _mismatch(info: RoundInfo, given: tuple[MeldKind, ...]) -> str:
    """``deal 3 needs two runs; this is one run``."""
    these = "this is" if len(given) == 1 else "these are"
    return f"deal {info.number} needs {contract_words(info.contract)}; {these} {contract_words(given)}"


def verify_contract(
    melds: Sequence[Sequence[MeldCard]], rules: RuleSet, info: RoundInfo, left_in_hand: int | None = None
) -> ContractVerdict:
    """The verdict on melds that are exactly the contract; raise ContractError with the reason otherwise.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> from engine.cards import parse_meld
    >>> rules = rule_set("contract-rummy")
    >>> verify_contract([parse_meld("5H 6H 7H 8H")], rules, round_info(rules, 3))
    Traceback (most recent call last):
    ...
    engine.errors.ContractError: deal 3 needs two runs; this is one run
    """
    verdict = check_contract(melds, rules, info, left_in_hand)
    if not verdict.valid:
        raise ContractError(verdict.reason or "these melds are not the deal's contract")
    return verdict


def can_go_down(
    melds: Sequence[Sequence[MeldCard]], rules: RuleSet, info: RoundInfo, left_in_hand: int | None = None
) -> bool:
    """Whether the melds are exactly the deal's contract (False for a deal without one)."""
    if not info.contract:
        return False
    return check_contract(melds, rules, info, left_in_hand).valid


# --- buys -------------------------------------------------------------------------


def buys_limit(rules: RuleSet) -> int:
    """How many buys each player has per deal: the option where the preset takes it, else none.

    >>> from engine.rules import rule_set
    >>> buys_limit(rule_set("contract-rummy")), buys_limit(rule_set("contract-rummy", {"buys_per_deal": 5}))
    (3, 5)
    >>> buys_limit(rule_set("pay-me"))
    0
    """
    if "buys_per_deal" not in rules.preset.option_keys:
        return 0
    return rules.options.buys_per_deal


def verify_buy(rules: RuleSet, used: int, player: str, *, next_to_play: bool = False) -> None:
    """Raise BuyError unless a player who has bought `used` times this deal may buy once more.

    Only a player who is not next may buy: the next player simply draws the discard.

    >>> from engine.rules import rule_set
    >>> verify_buy(rule_set("contract-rummy"), 3, "Ann")
    Traceback (most recent call last):
    ...
    engine.errors.BuyError: Ann has used all 3 buys this deal
    >>> verify_buy(rule_set("contract-rummy"), 0, "Bob", next_to_play=True)
    Traceback (most recent call last):
    ...
    engine.errors.BuyError: Bob plays next, so Bob draws the discard instead of buying it
    """
    limit = buys_limit(rules)
    if isinstance(used, bool) or not isinstance(used, int) or used < 0:
        raise BuyError(f'buys used must be a whole number from 0, not "{used}"')
    if limit == 0:
        raise BuyError(f"{rules.preset.name} is played without buying in this game")
    if next_to_play:
        raise BuyError(f"{player} plays next, so {player} draws the discard instead of buying it")
    if used >= limit:
        if limit == 1:
            raise BuyError(f"{player} has used the one buy of this deal")
        raise BuyError(f"{player} has used all {limit} buys this deal")


def can_buy(rules: RuleSet, used: int, *, next_to_play: bool = False) -> bool:
    """Whether a player who has bought `used` times this deal may buy once more."""
    try:
        verify_buy(rules, used, "the player", next_to_play=next_to_play)
    except BuyError:
        return False
    return True


# --- going down and laying off, turn by turn ----------------------------------------------


def verify_go_down(rules: RuleSet, info: RoundInfo, player: str, *, already_down: bool) -> None:
    """Raise ContractError unless the player may go down now: once per deal, in a deal with a contract.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> rules = rule_set("contract-rummy")
    >>> verify_go_down(rules, round_info(rules, 2), "Ann", already_down=True)
    Traceback (most recent call last):
    ...
    engine.errors.ContractError: Ann has already gone down this deal
    """
    if not info.contract:
        raise ContractError(f"{rules.preset.name} has no contracts: round {info.number} has none")
    if already_down:
        raise ContractError(f"{player} has already gone down this deal")


def verify_may_lay_off(rules: RuleSet, player: str, *, gone_down: bool, went_down_this_turn: bool) -> None:
    """Raise ContractError unless the player may lay off onto the table's melds now: where lay-offs
    go onto any meld on the table, only after going down, and on a later turn than that.

    >>> from engine.rules import rule_set
    >>> verify_may_lay_off(rule_set("contract-rummy"), "Bob", gone_down=False, went_down_this_turn=False)
    Traceback (most recent call last):
    ...
    engine.errors.ContractError: Bob has not gone down yet; only a player who has gone down lays off
    """
    if rules.preset.lay_off_scope is not LayOffScope.TABLE:
        raise ContractError(f"in {rules.preset.name} cards are laid off only onto the melds of the player who went out")
    if not gone_down:
        raise ContractError(f"{player} has not gone down yet; only a player who has gone down lays off")
    if went_down_this_turn:
        raise ContractError(f"{player} went down this turn; lay-offs start on {player}'s next turn")


def can_lay_off_now(rules: RuleSet, *, gone_down: bool, went_down_this_turn: bool) -> bool:
    """Whether a player may lay off onto the table's melds now (see verify_may_lay_off)."""
    try:
        verify_may_lay_off(rules, "the player", gone_down=gone_down, went_down_this_turn=went_down_this_turn)
    except ContractError:
        return False
    return True


# --- joker swaps --------------------------------------------------------------------


@dataclass(frozen=True)
class JokerSwap:
    """A natural card played in a run in place of the joker that stood for it; the joker goes back
    to the player's hand (option ``joker_swap``)."""

    meld: TableMeld  # the run after the swap
    card: Card  # the natural card played
    joker: Card  # the joker taken back

    @property
    def words(self) -> str:
        return f"{self.card} takes the place of {self.joker}, and {self.joker} goes back to the player's hand"

    def as_json(self) -> dict[str, object]:
        return {"card": str(self.card), "joker": str(self.joker), "text": self.words}


def verify_joker_swap(meld: TableMeld, cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> JokerSwap:
    """Play one natural card in place of the joker standing for it in a run; raise IllegalLayoff when
    the game has no joker swap or no joker of the meld stands for that card.

    Only a run's joker can be taken: in a set a joker stands for no card in particular.

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> from engine.layoffs import table_melds
    >>> rules = rule_set("contract-rummy", {"joker_swap": True})
    >>> info = round_info(rules, 2)
    >>> (run,) = table_melds(["5H JK 7H 8H"], rules, info)
    >>> swap = verify_joker_swap(run, parse_meld("6H"), rules, info)
    >>> str(swap.meld), swap.words
    ('5H 6H 7H 8H', "6H takes the place of JK, and JK goes back to the player's hand")
    """
    held = tuple(cards)
    if "joker_swap" not in rules.preset.option_keys or not rules.options.joker_swap:
        raise IllegalLayoff("no_joker_swap", f"{rules.preset.name} is played without joker swaps in this game.")
    if len(held) != 1 or held[0].role is not None or info.is_wild(held[0].card):
        raise IllegalLayoff("not_a_swap", "A joker is taken back by playing the one natural card it stands for.")
    card = held[0].card
    for reading in meld.readings:
        if reading.kind is not MeldKind.RUN:
            continue
        for index, (laid, stands) in enumerate(zip(reading.cards, reading.read_as, strict=True)):
            if laid.is_joker and stands == card:
                swapped = (*reading.cards[:index], card, *reading.cards[index + 1 :])
                return JokerSwap(replace(reading, cards=swapped), card, laid)
    raise IllegalLayoff("not_a_swap", f"No joker in {meld} stands for {card}, so {card} cannot take one back.")


def can_swap_joker(meld: TableMeld, cards: Sequence[MeldCard], rules: RuleSet, info: RoundInfo) -> bool:
    """Whether the card takes a joker back from the run."""
    try:
        verify_joker_swap(meld, cards, rules, info)
    except IllegalLayoff:
        return False
    return True


# --- a lay-off onto any meld on the table ----------------------------------------------------


@dataclass(frozen=True)
class LayoffOnTable:
    """The verdict on a lay-off onto any meld on the table (where the game lays off so): the melds
    after it (unchanged where it is refused), the refusal's code and reason, where each card went,
    and with the joker swap, the natural that took a joker back."""

    melds: tuple[TableMeld, ...]
    code: str | None = None
    reason: str | None = None
    placements: tuple[Placement, ...] = ()
    swap: JokerSwap | None = None

    @property
    def valid(self) -> bool:
        return self.code is None

    def as_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "code": self.code,
            "reason": self.reason,
            "table": [meld.as_json() for meld in self.melds],
            "placements": [placement.as_json() for placement in self.placements],
            "swap": None if self.swap is None else self.swap.as_json(),
        }


def lay_off_on_table(
    melds: Sequence[TableMeld], onto: int, laid: Sequence[MeldCard], rules: RuleSet, info: RoundInfo
) -> LayoffOnTable:
    """A lay-off onto meld `onto` (from 1) of the melds on the table; with the joker swap, a natural
    played where a joker stands in a run takes the joker back (`swap` says so).

    >>> from engine.rules import rule_set
    >>> from engine.schedule import round_info
    >>> from engine.layoffs import table_melds
    >>> rules = rule_set("contract-rummy", {"joker_swap": True})
    >>> info = round_info(rules, 2)
    >>> verdict = lay_off_on_table(table_melds(["5H JK 7H 8H"], rules, info), 1, parse_meld("6H"), rules, info)
    >>> verdict.valid, str(verdict.melds[0]), verdict.swap.words
    (True, '5H 6H 7H 8H', "6H takes the place of JK, and JK goes back to the player's hand")
    """
    on_table = tuple(melds)
    if not 1 <= onto <= len(on_table):
        count = len(on_table)
        where = f"There is no meld {onto} on the table; it holds {count} meld{'' if count == 1 else 's'}."
        return LayoffOnTable(on_table, "not_on_table", where)
    target = on_table[onto - 1]
    try:
        extended = verify_layoff(on_table, onto - 1, laid, rules, info)
    except IllegalLayoff as problem:
        if problem.code == "replaces_wild" and can_swap_joker(target, laid, rules, info):
            swap = verify_joker_swap(target, laid, rules, info)
            return LayoffOnTable(_replaced(on_table, onto, swap.meld), swap=swap)
        return LayoffOnTable(on_table, problem.code, str(problem))
    return LayoffOnTable(_replaced(on_table, onto, extended), placements=placements(target, extended, onto - 1))


def _replaced(melds: tuple[TableMeld, ...], onto: int, meld: TableMeld) -> tuple[TableMeld, ...]:
    """The melds with meld `onto` (from 1) replaced."""
    return tuple(meld if index == onto - 1 else other for index, other in enumerate(melds))
