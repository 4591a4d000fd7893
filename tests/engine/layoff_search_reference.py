"""The lay-off search as it was before it was made faster (every candidate lay-off in the order it
is generated, checked and solved unless its points cannot beat the best so far), kept here
to check the engine's search against (D6, D7, D11).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from engine.cards import Card, MeldCard
from engine.errors import IllegalLayoff
from engine.layoff_candidates import layoff_candidates as _layoff_candidates
from engine.layoff_check import wild_height as _height
from engine.layoffs import LayoffScore, TableMeld, placements, verify_layoff
from engine.rules import RuleSet
from engine.schedule import RoundInfo
from engine.solver import Arrangement, arrange, penalty_values

_Best = tuple[Arrangement, tuple[tuple[int, tuple[Card, ...]], ...], tuple[TableMeld, ...], int]


def _preference(best: _Best) -> tuple[int, int, int]:
    return best[0].penalty, sum(len(cards) for _, cards in best[1]), -best[3]


def reference_score(
    hand: Sequence[Card], declarer: Sequence[TableMeld], rules: RuleSet, info: RoundInfo
) -> LayoffScore:
    """What engine.layoffs.score_with_layoffs gave before its search was made faster."""
    values = penalty_values(rules.options.penalty_table, info)

    def solve(cards: Counter[Card]) -> Arrangement:
        return arrange(list(cards.elements()), rules, info, values)

    best: _Best = (solve(Counter(hand)), (), tuple(declarer), 0)
    if rules.options.lay_offs and declarer:
        best = _search(Counter(hand), tuple(declarer), rules, info, solve, best)
    arrangement, layoffs, after, _ = best
    scored = Arrangement(arrangement.melds, arrangement.unmelded, arrangement.penalty * info.multiplier)
    placed = tuple(placement for index, _ in layoffs for placement in placements(declarer[index], after[index], index))
    return LayoffScore(scored, layoffs, after, placed)


def reference_in_turn(
    hands: Sequence[Sequence[Card]], declarer: Sequence[TableMeld], rules: RuleSet, info: RoundInfo
) -> list[LayoffScore]:
    on_table = tuple(declarer)
    scored = []
    for hand in hands:
        score = reference_score(hand, on_table, rules, info)
        on_table = score.melds_after
        scored.append(score)
    return scored


def _search(
    hand: Counter[Card],
    declarer: tuple[TableMeld, ...],
    rules: RuleSet,
    info: RoundInfo,
    solve: Callable[[Counter[Card]], Arrangement],
    best: _Best,
) -> _Best:
    values = penalty_values(rules.options.penalty_table, info)
    known: dict[tuple[int, frozenset[tuple[Card, int]]], _Best] = {}

    def extend(index: int, used: tuple[Card, ...]) -> TableMeld | None:
        try:
            return verify_layoff(declarer, index, [MeldCard(card) for card in used], rules, info)
        except IllegalLayoff:
            return None

    def search(index: int, cards: Counter[Card]) -> _Best:
        key = (index, frozenset(cards.items()))
        if key in known:
            return known[key]
        if index == len(declarer):
            result: _Best = (solve(cards), (), (), 0)
        else:
            kept = search(index + 1, cards)
            result = (kept[0], kept[1], (declarer[index], *kept[2]), kept[3])
            for used in _layoff_candidates(declarer[index], cards, rules, info, values):
                # Keeping the cards instead scores at most their points more.
                if kept[0].penalty - sum(values[card.code] for card in used) > result[0].penalty:
                    continue
                extended = extend(index, used)
                if extended is None:
                    continue
                rest = search(index + 1, cards - Counter(used))
                laid = len(used) + sum(len(cards) for _, cards in rest[1])
                if (rest[0].penalty, laid) > _preference(result)[:2]:
                    continue
                height = rest[3] + max(0, _height(declarer[index], extended, info))
                candidate = (rest[0], ((index, used), *rest[1]), (extended, *rest[2]), height)
                if _preference(candidate) < _preference(result):
                    result = candidate
        known[key] = result
        return result

    found = search(0, hand)
    return found if _preference(found) < _preference(best) else best
