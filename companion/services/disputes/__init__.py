"""Settling disputes at the table (issue 5): meld checks, the declarer check, lay-off chains,
scoring hands from their cards, and the log of every check made in a game.

Like the other services, this package only asks the engine and passes its answers on: every
verdict, reason and arrangement comes from the engine's typed answers (`engine.melds`,
`engine.solver`, `engine.layoffs`, `engine.contracts`, `engine.penalties`), turned into JSON only
where the log keeps them or the JSON API answers with them. Nothing here decides a rule.

- `table`: the table a check is made at, and the cards entered;
- `views`: cards and verdicts as the pages show them;
- `checks`: the checks themselves (melds, a hand, going out, a lay-off, going down);
- `log`: the log of checks kept in a game; `chain`: the checks a game keeps and its lay-off chains;
- `scoring`: a round scored from the cards, and the rule on points typed beside them;
- `commands`: the command line's JSON answers, for the JSON API.
"""

from __future__ import annotations

from companion.services.disputes.chain import (
    Chain,
    add_layoff,
    current_chain,
    has_chain,
    log_hand,
    log_melds,
    rejudge,
    start_chain,
    turn_order,
    verify_chain,
)
from companion.services.disputes.checks import (
    ALREADY_DOWN,
    WHEN_DOWN,
    DeclarerCheck,
    GoingDown,
    LayoffVerdict,
    TableLayoff,
    best_hand,
    check_declarer,
    check_melds,
    going_down,
    lay_off,
    table_layoff,
    typed_points,
)
from companion.services.disputes.commands import (
    POOL_NO_LAYOFFS,
    POOL_NOTHING_TO_JUDGE,
    best_command,
    check_command,
    contract_command,
    is_pool_variant,
    layoff_command,
    pool_best_command,
    pool_check_command,
    verify_cut,
)
from companion.services.disputes.log import (
    LogEntry,
    RoundLogs,
    game_log,
    get_entry,
    log_by_round,
    log_check,
    log_page,
    log_stamp,
)
from companion.services.disputes.scoring import (
    CardsRound,
    declarer_table,
    hands_in_turn,
    score_entries,
    score_hands,
    verify_typed_points,
)
from companion.services.disputes.table import (
    Table,
    canonical,
    canonical_kept_hand,
    checker_table,
    clean_melds,
    deal_contract,
    game_table,
    is_contract_game,
    table,
    verify_hand_size,
)
from companion.services.disputes.views import Face, HandView, MeldView, face, faces, for_people, hand_view, meld_views

__all__ = [
    "ALREADY_DOWN",
    "POOL_NOTHING_TO_JUDGE",
    "POOL_NO_LAYOFFS",
    "WHEN_DOWN",
    "CardsRound",
    "Chain",
    "DeclarerCheck",
    "Face",
    "GoingDown",
    "HandView",
    "LayoffVerdict",
    "LogEntry",
    "MeldView",
    "RoundLogs",
    "Table",
    "TableLayoff",
    "add_layoff",
    "best_command",
    "best_hand",
    "canonical",
    "canonical_kept_hand",
    "check_command",
    "check_declarer",
    "check_melds",
    "checker_table",
    "clean_melds",
    "contract_command",
    "current_chain",
    "deal_contract",
    "declarer_table",
    "face",
    "faces",
    "for_people",
    "game_log",
    "game_table",
    "get_entry",
    "going_down",
    "hand_view",
    "hands_in_turn",
    "has_chain",
    "is_contract_game",
    "is_pool_variant",
    "lay_off",
    "layoff_command",
    "log_by_round",
    "log_check",
    "log_hand",
    "log_melds",
    "log_page",
    "log_stamp",
    "meld_views",
    "pool_best_command",
    "pool_check_command",
    "rejudge",
    "score_entries",
    "score_hands",
    "start_chain",
    "table",
    "table_layoff",
    "turn_order",
    "typed_points",
    "verify_chain",
    "verify_cut",
    "verify_hand_size",
    "verify_typed_points",
]
