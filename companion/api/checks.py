"""The engine's judgements as JSON (issue 5): ``POST /api/check``, ``/api/best``, ``/api/layoff`` and
(issue 15) ``/api/contract``.

Each takes the command line's arguments as fields and answers with exactly what
``python -m engine check|best|layoff`` prints: both call `engine.api` (through
companion.services.disputes). Bad input is a 400 ``{"error": "<one sentence>"}``, the engine's
own sentence where the engine found the problem.
"""

from __future__ import annotations

from flask import Response, jsonify

from companion import schemas
from companion.api import bodies
from companion.api.http import bp, json_object_body
from companion.errors import InvalidInput
from companion.services import disputes

LAYOFF_DECLARER_MISSING = "layoff needs variant, round, declarer, onto, cards; declarer is missing"
LAYOFF_TABLE_MISSING = "layoff needs variant, round, table, onto, cards; table is missing"


@bp.post("/check")
def check() -> Response:
    """Verdicts on melds, as ``python -m engine check`` prints them."""
    body = bodies.parse(schemas.CheckRequest)
    disputes.verify_cut(body.variant, body.cut, body.wild)
    if disputes.is_pool_variant(body.variant):
        return jsonify(disputes.pool_check_command(body.variant, body.options, body.melds, body.cut, body.wild))
    return jsonify(disputes.check_command(body.variant, body.round, body.options, body.melds, body.players))


@bp.post("/best")
def best() -> Response:
    """The least-penalty arrangement of a hand, as ``python -m engine best`` prints it."""
    body = bodies.parse(schemas.BestRequest)
    disputes.verify_cut(body.variant, body.cut, body.wild)
    if disputes.is_pool_variant(body.variant):
        if body.declarer or body.declarer_hand is not None:
            raise InvalidInput(disputes.POOL_NO_LAYOFFS)
        return jsonify(disputes.pool_best_command(body.variant, body.options, body.hand, body.cut, body.wild))
    disputes.verify_hand_size(body.hand, body.variant)
    args = (body.variant, body.round, body.options, body.hand, body.declarer, body.players, body.declarer_hand)
    return jsonify(disputes.best_command(*args))


@bp.post("/layoff")
def layoff() -> Response:
    """The verdict on one lay-off, as ``python -m engine layoff`` prints it."""
    _refuse_pool("layoff")
    body = bodies.parse(schemas.LayoffRequest)
    if "declarer" not in body.model_fields_set and body.declarer_hand is None and not body.table:
        on_table = disputes.is_contract_game(body.variant)
        raise InvalidInput(LAYOFF_TABLE_MISSING if on_table else LAYOFF_DECLARER_MISSING)
    args = (body.variant, body.round, body.options, body.declarer, body.onto, body.cards, body.players)
    return jsonify(disputes.layoff_command(*args, declarer_hand=body.declarer_hand, table=body.table))


@bp.post("/contract")
def contract() -> Response:
    """Whether melds are exactly the deal's contract, as ``python -m engine contract`` prints it."""
    _refuse_pool("contract")
    body = bodies.parse(schemas.ContractRequest)
    args = (body.variant, body.round, body.options, body.melds, body.players, body.left)
    return jsonify(disputes.contract_command(*args))


def _refuse_pool(command: str) -> None:
    """Pool rummy has no lay-offs and no contracts (RULES.md 11.6): said before the body is read, since
    its round is left out."""
    if disputes.is_pool_variant(json_object_body().get("variant")):
        raise InvalidInput(disputes.POOL_NOTHING_TO_JUDGE.format(command=command))
