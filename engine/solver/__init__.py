"""The lowest-penalty arrangement of a hand (D7), and going out (D8).

The search is exact. Naturals that could never share a meld fall into separate
components; each component is solved by a memoised search over the multiset of
its remaining cards, which returns, for every number k of wild cards placed in its
melds, the least penalty of its leftover naturals. Components are then combined
by min-plus convolution. Wild cards are interchangeable in a meld, so the k wilds
melded are always the k most expensive ones.

The package, by job:

* `records`: the records its parts pass between them (`Meld`, `Split`; and `RawMeld`, `RunShapes`,
  `Code`, the plain tuples its two hottest loops read) and the `Arrangement` it answers with;
* `search`: one component's memoised search (`Component`);
* `combination`: a hand's naturals split into components (`components`), the components shared
  across hands, and their answers combined (`solve_split`);
* `sub_hands`: parts of one hand as lay-offs leave it (`SubHands`, for engine.layoffs);
* `hand`: a whole hand (`arrange`, `best_arrangement`, `penalty_values`);
* `declare`: going out (`going_out`, `can_go_out`, `verify_going_out`).

>>> from engine.rules import rule_set
>>> from engine.schedule import round_info
>>> from engine.cards import parse_cards
>>> rules = rule_set("pay-me")
>>> result = best_arrangement(parse_cards("7H 8H JK 9S 9D KC"), rules, round_info(rules, 4))
>>> result.penalty, [str(card) for card in result.unmelded]
(25, ['7H', '8H', 'KC'])
"""

from __future__ import annotations

from engine.solver.declare import GoingOut, can_go_out, going_out, verify_going_out
from engine.solver.hand import UNIT_VALUES, arrange, best_arrangement, penalty_values
from engine.solver.records import INF, MAX_RUN, Arrangement
from engine.solver.sub_hands import SubHands

__all__ = [
    "INF",
    "MAX_RUN",
    "UNIT_VALUES",
    "Arrangement",
    "GoingOut",
    "SubHands",
    "arrange",
    "best_arrangement",
    "can_go_out",
    "going_out",
    "penalty_values",
    "verify_going_out",
]
