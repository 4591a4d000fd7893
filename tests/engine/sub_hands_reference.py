"""SubHands.arrangement as it was before its read-off was made faster (a call of `choice` for
every card and meld, the parts' states found by `_states`), kept here to check the engine's
against: the same arrangement, card for card."""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import Card
from engine.solver import (
    Arrangement,
    SubHands,
    _arrangement,
    _Choice,
    _Component,
    _dearest_first,
    _Meld,
    _rebuild_extras,
    _shares,
    _state,
    _wilds_melded,
)


def reference_arrangement(parts: SubHands, packed: int, wilds: list[Card]) -> Arrangement:
    """What SubHands.arrangement gave before (its penalty not multiplied)."""
    values = parts.values
    total, fixed, splits = parts.totals(packed)
    wild_values = _dearest_first(wilds, values)
    leftover = fixed + sum([values[card.code] for card in wild_values])
    best_cost, melded_wilds = _wilds_melded(total, leftover, wild_values, values)
    found = _states(parts, packed)
    shares = _shares(melded_wilds, splits)
    wild_pool = wild_values[:melded_wilds]
    melds: list[tuple[Card, ...]] = []
    unmelded: list[Card] = []
    for (component, state, cards), share in zip(found, shares, strict=False):
        _rebuild(_chooser(component), state, cards, share, wild_pool, melds, unmelded)
    field = parts.field
    loners = [parts.card_of[code] for shift, _, code in parts.loners if packed >> shift & field]
    melded_loners = None
    if loners and parts.melds_loners:
        melded_loners = sorted(loners, key=lambda card: values[card.code], reverse=True)
    else:
        unmelded += loners
    _rebuild_extras(shares[len(found) :], melded_loners, parts.all_wild, wild_pool, melds, unmelded)
    unmelded += wild_values[melded_wilds:]
    return _arrangement(best_cost, melds, unmelded)


def _chooser(component: _Component) -> Callable[[int, int], _Choice]:
    def choice(state: int, wilds: int) -> _Choice:
        costs = component.costs
        least = costs[state][wilds]
        first = ((state & -state).bit_length() - 1) >> 1
        if costs[state - (1 << 2 * first)][wilds] + component.values[first] == least:
            return first
        for meld in component._melds(first, state):
            melded = meld[1]
            if melded <= wilds and costs[state - meld[7]][wilds - melded] == least:
                return meld
        raise AssertionError("a solved state's least value is reached by one of its choices")

    return choice


def _rebuild(
    choose: Callable[[int, int], _Choice],
    state: int,
    cards: list[Card],
    wilds: int,
    wild_pool: list[Card],
    melds: list[tuple[Card, ...]],
    unmelded: list[Card],
) -> None:
    while state:
        choice = choose(state, wilds)
        if isinstance(choice, int):
            unmelded.append(cards[choice])
            state -= 1 << 2 * choice
            continue
        taken = wild_pool[: choice[1]]
        del wild_pool[: choice[1]]
        melds.append(_lay_out(cards, choice, taken))
        state -= choice[7]
        wilds -= choice[1]


def _lay_out(cards: list[Card], meld: _Meld, wilds: list[Card]) -> tuple[Card, ...]:
    used, _, suit, layout, _, _, room_above, _ = meld
    if suit < 0:
        return tuple([cards[index] for index in used] + wilds)
    in_gaps = layout.count(-1)
    extra = len(wilds) - in_gaps
    below = extra - min(extra, room_above)
    gap_wilds = iter(wilds[below : below + in_gaps])
    laid = wilds[:below]
    laid += [cards[index] if index >= 0 else next(gap_wilds) for index in layout]
    laid += wilds[below + in_gaps :]
    return tuple(laid)


def _states(parts: SubHands, packed: int) -> list[tuple[_Component, int, list[Card]]]:
    """SubHands._states as it was: the components holding any of the naturals counted in `packed`,
    each with its state and its cards by the component's indexes."""
    found = []
    for component, where, mask, _, cards in parts.parts:
        if packed & mask:
            found.append((component, _state(packed, where, parts.field), cards))
    return found
