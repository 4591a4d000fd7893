"""Lay-offs against the brute-force lay-off reference (tests/engine/layoff_reference.py).

Every preset, every ``ace`` setting, and every option that limits wild cards; declarer runs from 3 to
13 cards, so aces meet both ends of long runs (issue 11, section 1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.cards import Card, MeldCard, Rank
from engine.deck import STANDARD_SUITS
from engine.layoffs import TableMeld, can_lay_off, lay_off, score_in_turn, score_with_layoffs, table_melds
from engine.melds import MeldKind
from engine.rules import RuleSet, rule_set
from engine.schedule import RoundInfo, round_info
from tests.engine import layoff_reference as ref

PRESETS = ("pay-me", "pay-me-family", "three-thirteen", "3-13")
DECKS = {"pay-me": (3, 6), "pay-me-family": (2, 4), "three-thirteen": (2, 0), "3-13": (3, 6)}
NATURALS = tuple(Card(rank, suit) for suit in STANDARD_SUITS for rank in Rank)
FACES = (Card.JOKER, *NATURALS)
CHECK = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)

Drawn = tuple[list[str], tuple[Card, ...], RuleSet, RoundInfo]


@st.composite
def options(draw: st.DrawFn) -> dict[str, object]:
    chosen: dict[str, object] = {"ace": draw(st.sampled_from(["low", "high", "both"]))}
    for key in ("no_aces_in_runs", "no_adjacent_wilds", "wild_in_place_natural"):
        if draw(st.integers(0, 3)) == 0:
            chosen[key] = draw(st.booleans())
    if draw(st.booleans()):
        chosen["wild_limit"] = draw(st.sampled_from(["none", "not_more_than_naturals"]))
    chosen["lay_offs"] = True
    return chosen


@st.composite
def layoff_games(draw: st.DrawFn, roles: bool = True) -> Drawn:
    """The declarer's one or two melds (written with wild roles when `roles`), and a hand of cards
    near their ends, aces and wild cards among them."""
    variant = draw(st.sampled_from(PRESETS))
    rules = rule_set(variant, draw(options()))
    info = round_info(rules, draw(st.integers(1, rules.rounds)))
    ctx = ref.ctx_of(rules, info)
    decks, jokers = DECKS[variant]
    counts: Counter[Card] = Counter()

    def take(pool: Sequence[Card]) -> Card | None:
        pool = [card for card in pool if counts[card] < (jokers if card.is_joker else decks)]
        if not pool:
            return None
        card = draw(st.sampled_from(pool))
        counts[card] += 1
        return card

    wilds = [card for card in FACES if info.is_wild(card) and (jokers or not card.is_joker)]
    written: list[str] = []
    near: list[Card] = []
    for _ in range(draw(st.integers(1, 2))):
        is_set = not draw(st.integers(0, 2))
        if not is_set:
            suit = draw(st.sampled_from(list(STANDARD_SUITS)))
            length = draw(st.integers(3, 13))
            assume(ctx.high - ctx.low + 1 >= length)
            start = draw(st.integers(ctx.low, ctx.high - length + 1))
            stands = [Card(ref.rank_at(place), suit) for place in range(start, start + length)]
            near += [
                Card(ref.rank_at(place), suit)
                for place in (start - 2, start - 1, start + length, start + length + 1)
                if 1 <= place <= 14
            ]
            near.append(Card(Rank.ACE, suit))
        else:
            rank = draw(st.sampled_from(list(Rank)))
            stands = [Card(rank, draw(st.sampled_from(list(STANDARD_SUITS)))) for _ in range(draw(st.integers(3, 4)))]
            near += [Card(rank, suit) for suit in STANDARD_SUITS]
        laid = []
        for role in stands:
            card = take(wilds) if wilds and not draw(st.integers(0, 4)) else None
            card = card or take([role])
            assume(card is not None)
            assert card is not None
            # In a set the reference leaves a wild's suit free, so a role that a wild standing for
            # itself would change (when that counts as natural) is not written there.
            written_role = roles and info.is_wild(card) and not (is_set and rules.options.wild_in_place_natural)
            laid.append(f"{card}={role}" if written_role else str(card))
        text = " ".join(laid)
        assume(ref.all_layouts([MeldCard.parse(token) for token in text.split()], ctx))
        written.append(text)
    hand = []
    for _ in range(draw(st.integers(1, 5))):
        pick = draw(st.integers(0, 5))
        pool = near if pick < 3 else wilds if pick == 3 else list(NATURALS)
        card = take(pool or NATURALS)
        if card is not None:
            hand.append(card)
    assume(hand)
    return written, tuple(hand), rules, info


def layouts(meld: TableMeld) -> frozenset[ref.Layout]:
    """The engine's readings of a meld on the table, as the reference writes them."""
    found = set()
    for reading in meld.readings:
        if reading.kind is MeldKind.SET:
            rank = reading.read_as[0].rank
            assert rank is not None
            found.add(ref._set(rank, reading.cards))
        else:
            suit = reading.read_as[0].suit
            assert suit is not None
            found.add(ref._run(suit, list(zip(reading.positions, reading.cards, reading.read_as, strict=True))))
    return frozenset(found)


def reference_table(written: list[str], ctx: ref.Ctx) -> list[frozenset[ref.Layout]]:
    return [ref.written_layouts([MeldCard.parse(token) for token in text.split()], ctx) for text in written]


def same_readings(engine: frozenset[ref.Layout], reference: frozenset[ref.Layout], ctx: ref.Ctx) -> bool:
    """The same readings, up to which of several wild cards that count as wild stands where: the
    engine keeps one of those, as they are the same for every lay-off."""
    return canonical(engine, ctx) == canonical(reference, ctx)


def canonical(layouts: frozenset[ref.Layout], ctx: ref.Ctx) -> set[object]:
    found: set[object] = set()
    for layout in layouts:
        if layout[0] == "set" or ctx.in_place:
            found.add(layout)
            continue
        cells = layout[2]
        wild = tuple(sorted((str(card) for _, card, _ in cells if ctx.is_wild(card))))  # type: ignore[attr-defined]
        shape = tuple((place, stands, ctx.is_wild(card)) for place, card, stands in cells)  # type: ignore[attr-defined]
        found.add((layout[1], shape, wild))
    return found


@CHECK
@given(data=layoff_games(), pick=st.lists(st.booleans(), min_size=5, max_size=5), onto=st.integers(0, 1))
def test_a_lay_off_is_legal_exactly_when_the_reference_finds_a_place(data: Drawn, pick: list[bool], onto: int) -> None:
    written, hand, rules, info = data
    ctx = ref.ctx_of(rules, info)
    table = table_melds(written, rules, info)
    onto = min(onto, len(table) - 1)
    laid = [MeldCard(card) for card, chosen in zip(hand, pick, strict=False) if chosen]
    assume(laid)
    assert same_readings(layouts(table[onto]), reference_table(written, ctx)[onto], ctx), written
    expected = ref.can_lay_off(layouts(table[onto]), laid, ctx)
    assert can_lay_off(table, onto, laid, rules, info) == expected, (written, onto, [str(c) for c in laid])


def check_best(hand: Sequence[Card], table: Sequence[TableMeld], rules: RuleSet, info: RoundInfo) -> None:
    score = score_with_layoffs(hand, table, rules, info)
    expected = ref.reference_best_layoffs(hand, [layouts(meld) for meld in table], rules, info)
    laid = sum(len(cards) for _, cards in score.layoffs)
    context = f"hand={[str(c) for c in hand]} table={[str(m) for m in table]} got={score.as_json()} {expected}"
    assert score.arrangement.penalty == expected.penalty * 1, context
    assert laid == expected.fewest_laid, "not the fewest cards laid off (D11)\n" + context
    used = Counter(card for meld in score.arrangement.melds for card in meld) + Counter(score.arrangement.unmelded)
    used += Counter(card for _, cards in score.layoffs for card in cards)
    assert used == Counter(hand), context
    ctx = ref.ctx_of(rules, info)
    for after in score.melds_after:
        for layout in layouts(after):
            assert ref.layout_ok(layout, ctx), context


@CHECK
@given(data=layoff_games())
def test_best_with_the_declarers_melds_matches_the_reference(data: Drawn) -> None:
    written, hand, rules, info = data
    check_best(hand, table_melds(written, rules, info), rules, info)


@CHECK
@given(data=layoff_games(), split=st.integers(1, 4))
def test_turn_order_chains_match_the_reference_at_every_turn(data: Drawn, split: int) -> None:
    """D6: each player scores like the reference on the melds as the players before left them."""
    written, hand, rules, info = data
    first, second = hand[:split], hand[split:]
    assume(first and second)
    table = table_melds(written, rules, info)
    one, unknown, two = score_in_turn([first, None, second], table, rules, info)
    assert one is not None and unknown is None and two is not None
    check_best(first, table, rules, info)
    check_best(second, one.melds_after, rules, info)
    assert two.arrangement == score_with_layoffs(second, one.melds_after, rules, info).arrangement


# --- open readings (D13): wild cards written without the card they stand for ------------------------


@CHECK
@given(data=layoff_games(roles=False), pick=st.lists(st.booleans(), min_size=5, max_size=5), onto=st.integers(0, 1))
def test_open_readings_and_lay_offs_match_the_reference(data: Drawn, pick: list[bool], onto: int) -> None:
    written, hand, rules, info = data
    ctx = ref.ctx_of(rules, info)
    table = table_melds(written, rules, info)
    onto = min(onto, len(table) - 1)
    for meld, expected in zip(table, reference_table(written, ctx), strict=True):
        assert same_readings(layouts(meld), expected, ctx), (written, rules.options, info)
    laid = [MeldCard(card) for card, chosen in zip(hand, pick, strict=False) if chosen]
    assume(laid)
    assert can_lay_off(table, onto, laid, rules, info) == ref.can_lay_off(layouts(table[onto]), laid, ctx)
    if can_lay_off(table, onto, laid, rules, info):
        after = lay_off(table, onto, laid, rules, info)[onto]
        placements = ref.layoff_results(layouts(table[onto]), laid, ctx)
        context = ([str(card) for card in laid], rules.options, info.number, str(after))
        assert any(same_readings(layouts(after), value, ctx) for value in placements.values()), context


@CHECK
@given(data=layoff_games(roles=False), split=st.integers(1, 4))
def test_open_readings_chain_in_turn_like_the_reference(data: Drawn, split: int) -> None:
    written, hand, rules, info = data
    first, second = hand[:split], hand[split:]
    assume(first and second)
    table = table_melds(written, rules, info)
    one, two = score_in_turn([first, second], table, rules, info)
    assert one is not None and two is not None
    check_best(first, table, rules, info)
    check_best(second, one.melds_after, rules, info)
