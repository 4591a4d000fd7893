"""The engine's command line (RULES.md section 8): JSON on stdout, exit status 2 on bad input."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from engine.api import best_json, check_json, contract_json, layoff_json, rules_from, schedule_json, variants_json
from engine.errors import EngineError
from engine.pool import answers as pool


class UsageError(Exception):
    """Bad command-line usage; reported as one line with exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def command_parser() -> argparse.ArgumentParser:
    """The command line, every command and option: the API twins test reads its options from here."""
    parser = _Parser(prog="python -m engine", description="Card Table Companion rules engine.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    commands.add_parser("variants", help="list every preset and its parameters")

    schedule = commands.add_parser("schedule", help="the rounds of a preset")
    _add_rules_arguments(schedule)
    schedule.add_argument("--players", type=int)

    check = commands.add_parser("check", help="judge melds")
    _add_rules_arguments(check)
    check.add_argument("--round", type=int)
    check.add_argument("--players", type=int)
    _add_cut_arguments(check)
    check.add_argument("melds", nargs="+", metavar="MELD")

    best = commands.add_parser("best", help="the lowest-penalty arrangement of a hand")
    _add_rules_arguments(best)
    best.add_argument("--round", type=int)
    best.add_argument("--players", type=int)
    best.add_argument("--declarer", action="append", default=[], metavar="MELD")
    best.add_argument("--declarer-hand", metavar="CARDS", help="the declarer's cards; melds split by |, or loose")
    best.add_argument("--jsonl", action="store_true", help="read {round, hand} objects from stdin")
    _add_cut_arguments(best)
    best.add_argument("hand", nargs="?", metavar="HAND")

    layoff = commands.add_parser(
        "layoff",
        help="judge one lay-off onto a declarer's meld, or onto any meld on the table (Contract Rummy)",
    )
    _add_rules_arguments(layoff)
    layoff.add_argument("--round", type=int, required=True)
    layoff.add_argument("--players", type=int)
    layoff.add_argument("--declarer", action="append", default=[], metavar="MELD")
    layoff.add_argument("--declarer-hand", metavar="CARDS", help="the declarer's cards; melds split by |, or loose")
    layoff.add_argument(
        "--meld",
        action="append",
        default=[],
        dest="table",
        metavar="MELD",
        help="a meld on the table, one per meld, where cards may be laid off onto any meld (Contract Rummy)",
    )
    layoff.add_argument("--onto", type=int, required=True, help="the meld's number, from 1")
    layoff.add_argument("cards", metavar="CARDS")

    contract = commands.add_parser("contract", help="whether melds are exactly the deal's contract (Contract Rummy)")
    _add_rules_arguments(contract)
    contract.add_argument("--round", type=int, required=True)
    contract.add_argument("--players", type=int)
    contract.add_argument(
        "--left", type=int, metavar="N", help="cards left in hand after going down (the last deal needs 0)"
    )
    contract.add_argument("melds", nargs="+", metavar="MELD")
    _add_pool_commands(commands)
    return parser


def _add_pool_commands(commands: Any) -> None:
    """Pool rummy's own commands (RULES.md 11.6)."""
    deal = commands.add_parser("deal", help="score one deal of pool rummy from the results entered")
    _add_rules_arguments(deal)
    deal.add_argument("results", nargs="+", metavar="RESULT", help="win, drop, middle, full, wrong or a count")
    commands.add_parser("pool-game", help="the standings of a pool rummy game record read from stdin")


def _add_cut_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cut", metavar="CARD", help="pool rummy: the card cut (JK for a printed joker)")
    parser.add_argument("--wild", metavar="RANK", help="pool rummy: the deal's wild rank, or none")


def _add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", required=True)
    parser.add_argument("--set", action="append", default=[], dest="overrides", metavar="KEY=VALUE")


def _emit(payload: Any, out: TextIO) -> None:
    out.write(json.dumps(payload, ensure_ascii=False) + "\n")


def _run_pool(args: argparse.Namespace, out: TextIO) -> bool:
    """Pool rummy's commands (RULES.md 11.6); False when the command is not for pool rummy."""
    if args.command == "pool-game":
        _emit(pool.game_json(sys.stdin.read()), out)
        return True
    variant = getattr(args, "variant", None)
    if args.command == "deal":
        _emit(pool.deal_json(args.variant, args.overrides, args.results), out)
        return True
    if variant is None or not pool.is_pool(variant):
        if getattr(args, "cut", None) is not None or getattr(args, "wild", None) is not None:
            raise UsageError("--cut and --wild are for pool rummy only")
        return False
    if args.command == "schedule":
        _emit(pool.schedule_json(variant, args.overrides, args.players), out)
    elif args.command == "check":
        _emit(pool.check_json(variant, args.overrides, args.melds, args.cut, args.wild), out)
    elif args.command == "best":
        if args.declarer or args.declarer_hand is not None or args.jsonl:
            raise UsageError("pool rummy has no lay-offs: best takes no --declarer, --declarer-hand or --jsonl")
        if args.hand is None or not args.hand.strip():
            raise UsageError("best needs a HAND")
        _emit(pool.best_json(variant, args.overrides, args.hand, args.cut, args.wild), out)
    else:
        raise UsageError(f"pool rummy has no lay-offs and no contracts: there is no {args.command} to judge")
    return True


def _run(args: argparse.Namespace, out: TextIO) -> None:
    if _run_pool(args, out):
        return
    if args.command == "check" and args.round is None:
        raise UsageError("the following arguments are required: --round")
    if args.command == "variants":
        _emit(variants_json(), out)
    elif args.command == "schedule":
        _emit(schedule_json(args.variant, args.overrides, args.players), out)
    elif args.command == "check":
        _emit(check_json(args.variant, args.round, args.overrides, args.melds, args.players), out)
    elif args.command == "best":
        _run_best(args, out)
    elif args.command == "layoff":
        if not args.declarer and args.declarer_hand is None and not args.table:
            raise UsageError("layoff needs --declarer (one per meld), --declarer-hand or --meld (one per meld)")
        _emit(
            layoff_json(
                args.variant,
                args.round,
                args.overrides,
                args.declarer,
                args.onto,
                args.cards,
                args.players,
                args.declarer_hand,
                args.table,
            ),
            out,
        )
    elif args.command == "contract":
        if args.left is not None and args.left < 0:
            raise UsageError(f"--left takes a number of cards from 0, not {args.left}")
        _emit(contract_json(args.variant, args.overrides, args.round, args.melds, args.players, args.left), out)


def _run_best(args: argparse.Namespace, out: TextIO) -> None:
    if args.jsonl:
        if args.hand is not None:
            raise UsageError("--jsonl reads hands from standard input; give no HAND argument")
        rules_from(args.variant, args.overrides)  # a bad variant or option fails once, before any line
        for line in sys.stdin:
            if line.strip():  # as usual for JSON Lines, blank lines are not records
                _emit(_best_line(args, line), out)
                out.flush()
        return
    if args.hand is None:
        raise UsageError("best needs a HAND, or --jsonl")
    if not args.hand.strip():
        raise UsageError("the HAND has no cards")
    if args.round is None:
        raise UsageError("best needs --round")
    _emit(
        best_json(args.variant, args.round, args.overrides, args.hand, args.declarer, args.players, args.declarer_hand),
        out,
    )


def _best_line(args: argparse.Namespace, line: str) -> dict[str, Any]:
    try:
        request = json.loads(line)
    except json.JSONDecodeError:
        return {"error": f"line is not JSON: {line.strip()[:60]!r}"}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object with round and hand"}
    try:
        round_number = request.get("round", args.round)
        hand = request.get("hand")
        if not isinstance(hand, str) or not hand.strip():
            return {"error": 'each line needs "hand": a string of cards'}
        if not isinstance(round_number, int) or isinstance(round_number, bool):
            return {"error": 'each line needs "round": a whole number'}
        declarer = request.get("declarer", args.declarer)
        if not isinstance(declarer, list) or not all(isinstance(meld, str) for meld in declarer):
            return {"error": '"declarer" must be a list of meld strings'}
        return best_json(args.variant, round_number, args.overrides, hand, declarer, args.players, args.declarer_hand)
    except EngineError as error:
        return {"error": str(error)}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; return the exit status."""
    out = out or sys.stdout
    try:
        args = command_parser().parse_args(argv)
        _run(args, out)
    except (UsageError, EngineError) as error:
        message = " ".join(str(error).split())
        sys.stderr.write(f"error: {message}\n")
        return 2
    return 0
