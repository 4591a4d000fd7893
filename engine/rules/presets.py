"""The presets (RULES.md 3, one seed text each): fixed facts, their deals and default options, as data."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.cards import Rank
from engine.deck import FIVE_CROWNS, STANDARD, Deck
from engine.errors import PlayerCountError, VariantError
from engine.rules.options import (
    CONTRACT_OPTION_KEYS,
    DEFAULT_DOUBLE_ROUNDS,
    FIVE_CROWNS_OPTION_KEYS,
    POOL_OPTION_KEYS,
    RUMMY_OPTION_KEYS,
    AceRule,
    Options,
    PenaltyTable,
    WildLimit,
)


class MeldKind(Enum):
    """A set (cards of one rank) or a run (cards of one suit in sequence)."""

    SET = "set"
    RUN = "run"


class LayOffScope(Enum):
    """Onto which melds a player may lay off cards."""

    DECLARER = "declarer"  # only the melds of the player who went out (D6)
    TABLE = "table"  # any meld on the table, once the player has gone down
    NONE = "none"


class HandScoring(Enum):
    """How the cards left in a hand score."""

    ARRANGED = "arranged"  # the lowest penalty over every arrangement into melds and lay-offs (D7)
    IN_FULL = "in_full"  # every card held counts in full, melded or not


@dataclass(frozen=True)
class Deal:
    """One deal of a preset's schedule, as data.

    ``wild_rank`` is the round's rank when the deal has one; ``contract`` the melds a player must
    lay down to go down (empty: no contract); ``no_final_discard`` that going out takes every card,
    with no discard.
    """

    cards: int
    wild_rank: Rank | None = None
    contract: tuple[MeldKind, ...] = ()
    multiplier: int = 1
    no_final_discard: bool = False


@dataclass(frozen=True)
class DeckRow:
    """How many decks and jokers a table of up to `max_players` uses."""

    max_players: int
    decks: int
    jokers: int


@dataclass(frozen=True)
class Preset:
    """A rule set as the seed text gives it: fixed facts plus default options."""

    id: str
    name: str
    seed: str
    kind: str  # "rummy", "stops" or "pool"
    min_players: int
    max_players: int
    deck_table: tuple[DeckRow, ...]
    wild_jokers: bool
    wild_twos: bool
    wild_round_rank: bool
    defaults: Options
    summary: str
    wild_text: str
    going_out_text: str
    after_going_out_text: str
    penalty_text: str
    money: str  # "none", "pot" or "chips"
    decisions: tuple[str, ...]
    discard_pile_text: str = ""  # how to start the discard pile (RULES.md 5)
    left_of_scorekeeper_deals: bool = False  # a way to pick the first dealer that only 3-13 has
    deals: tuple[Deal, ...] = ()  # the schedule, deal by deal
    full_cycle_deals: tuple[Deal, ...] = ()  # the schedule with the full cycle on, where the preset has one
    option_keys: tuple[str, ...] = RUMMY_OPTION_KEYS  # the house rules a game of this preset may set
    min_run_length: int = 3
    lay_off_scope: LayOffScope = LayOffScope.DECLARER  # with the lay_offs option on
    hand_scoring: HandScoring = HandScoring.ARRANGED
    max_meld_cards: int | None = None  # the most cards a meld may hold, where the seed sets a limit (D18)
    deck: Deck = STANDARD  # the faces of the cards in play; `deck_table` counts the decks (packs) and jokers

    @property
    def has_contracts(self) -> bool:
        """Whether the deals carry contracts (a player must go down with them)."""
        return any(deal.contract for deal in self.deals)

    def table_for(self, players: int) -> DeckRow:
        """Decks and jokers for a number of players.

        >>> PRESETS["pay-me"].table_for(4)
        DeckRow(max_players=4, decks=2, jokers=4)
        """
        verify_player_count(self, players)
        return next(row for row in self.deck_table if players <= row.max_players)

    @property
    def largest_table(self) -> DeckRow:
        return self.deck_table[-1]


def verify_player_count(preset: Preset, players: int) -> None:
    """Raise PlayerCountError unless the preset allows that many players."""
    if not preset.min_players <= players <= preset.max_players:
        raise PlayerCountError(
            f"{preset.name} takes {preset.min_players} to {preset.max_players} players, not {players}"
        )


def can_seat(preset: Preset, players: int) -> bool:
    """Whether the preset allows that many players."""
    return preset.min_players <= players <= preset.max_players


def _rising_deals(round_rank: bool) -> tuple[Deal, ...]:
    """The standard eleven deals, 3 to 13 cards; the round's rank is the number of cards dealt."""
    return tuple(Deal(cards, Rank(cards) if round_rank else None) for cards in range(3, 14))


def _full_cycle_deals(round_rank: bool) -> tuple[Deal, ...]:
    """3 to 14 cards and back to 3: 23 deals, Aces the rank of the 14-card deal (D2)."""
    rising = _rising_deals(round_rank)
    return (*rising, Deal(14, Rank.ACE if round_rank else None), *rising[::-1])


_SET, _RUN = MeldKind.SET, MeldKind.RUN


_CONTRACTS = (
    (_SET, _SET),
    (_SET, _RUN),
    (_RUN, _RUN),
    (_SET, _SET, _SET),
    (_SET, _SET, _RUN),
    (_SET, _RUN, _RUN),
    (_RUN, _RUN, _RUN),
)


_CONTRACT_DEALS = tuple(
    Deal(cards, None, contract, no_final_discard=number == len(_CONTRACTS))
    for number, (cards, contract) in enumerate(zip(Options().deal_sizes, _CONTRACTS, strict=True), start=1)
)


_RUMMY_DECISIONS = ("D1", "D5", "D6", "D7", "D8", "D9", "D10", "D11", "D13", "D14", "D15", "D16", "D18", "D19", "D21")


_STOCK_CARD_UP = "Turn the top card of the stock face up to start the discard pile."


_NO_LAY_OFF_DECISIONS = ("D1", "D7", "D8", "D9", "D10", "D14", "D15", "D16", "D21")


PRESETS: dict[str, Preset] = {
    preset.id: preset
    for preset in (
        Preset(
            id="pay-me",
            name="Pay Me",
            seed="000_846ffe8787e014f0.txt",
            kind="rummy",
            min_players=2,
            max_players=8,
            deck_table=(DeckRow(2, 1, 2), DeckRow(4, 2, 4), DeckRow(8, 3, 6)),
            wild_jokers=True,
            wild_twos=True,
            wild_round_rank=True,
            defaults=Options(),
            summary="Eleven rounds of contract rummy, 3 to 13 cards. Meld sets and runs; "
            'the first to meld every card declares "Pay Me". Lowest total wins.',
            wild_text="Jokers, all 2s and the round's rank are wild.",
            going_out_text="Declare with or without a final discard.",
            after_going_out_text="Each other player has one last turn, drawing from the stock only.",
            penalty_text="A-7 score 5; 8-K score 10; jokers, 2s and the round's rank score 15.",
            money="none",
            decisions=(
                *("D1", "D2", "D5", "D6", "D7", "D8", "D9", "D10", "D11", "D12", "D13", "D14", "D15", "D16"),
                *("D19", "D20", "D21"),
            ),
            discard_pile_text=_STOCK_CARD_UP,
            deals=_rising_deals(round_rank=True),
            full_cycle_deals=_full_cycle_deals(round_rank=True),
        ),
        Preset(
            id="pay-me-family",
            name="Pay Me (family rules)",
            seed="001_e66f4e8c7e0f68e1.txt",
            kind="rummy",
            min_players=2,
            max_players=6,
            deck_table=(DeckRow(4, 1, 2), DeckRow(6, 2, 4)),
            wild_jokers=True,
            wild_twos=False,
            wild_round_rank=True,
            defaults=Options(penalty_table=PenaltyTable.PAY_ME_FAMILY),
            summary="Pay Me as a family in Indiana plays it: eleven deals, 3 to 13 cards, "
            "the round's rank and jokers wild, 2s natural.",
            wild_text="Jokers and the round's rank are wild; 2s are natural.",
            going_out_text="Declare with or without a final discard.",
            after_going_out_text="Each other player draws once more from the stock and discards.",
            penalty_text="A-7 score 5; 8-K and jokers score 10; a card of the round's rank scores by its own rank.",
            money="none",
            decisions=(
                *("D1", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "D11", "D13", "D14", "D15", "D16"),
                *("D19", "D20", "D21"),
            ),
            discard_pile_text=_STOCK_CARD_UP,
            deals=_rising_deals(round_rank=True),
            full_cycle_deals=_full_cycle_deals(round_rank=True),
        ),
        Preset(
            id="three-thirteen",
            name="Three Thirteen",
            seed="002_b0494917e5d528f7.txt",
            kind="rummy",
            min_players=2,
            max_players=4,
            deck_table=(DeckRow(2, 1, 0), DeckRow(4, 2, 0)),
            wild_jokers=False,
            wild_twos=False,
            wild_round_rank=True,
            defaults=Options(
                wild_limit=WildLimit.NONE,
                no_adjacent_wilds=False,
                lay_offs=False,
                discard_to_go_out=True,
                penalty_table=PenaltyTable.THREE_THIRTEEN,
            ),
            summary="Eleven rounds, 3 to 13 cards, the round's rank wild and no jokers. "
            "Go out by melding every card but a final discard. No lay-offs.",
            wild_text="Only the round's rank is wild; any number of wilds, even all-wild melds.",
            going_out_text="Meld every card but one and discard it.",
            after_going_out_text="Each other player has one more turn.",
            penalty_text="Ace 1; 2-10 face value; J, Q, K 10; a wild scores its face value.",
            money="none",
            decisions=_NO_LAY_OFF_DECISIONS,
            discard_pile_text="The dealer turns the last card dealt face up to start the discard pile.",
            deals=_rising_deals(round_rank=True),
            full_cycle_deals=_full_cycle_deals(round_rank=True),
        ),
        Preset(
            id="3-13",
            name="3-13",
            seed="003_564429eeed7c9619.txt",
            kind="rummy",
            min_players=2,
            max_players=9,
            deck_table=(DeckRow(5, 2, 4), DeckRow(9, 3, 6)),
            wild_jokers=True,
            wild_twos=True,
            wild_round_rank=False,
            defaults=Options(
                ace=AceRule.HIGH,
                wild_limit=WildLimit.NONE,
                no_adjacent_wilds=False,
                discard_to_go_out=True,
                penalty_table=PenaltyTable.THREE_13,
                double_rounds=DEFAULT_DOUBLE_ROUNDS,
            ),
            summary="The money game: eleven rounds, 3 to 13 cards, jokers and 2s wild, aces high. "
            "Knock after a final discard; a pot pays the knocker each round and the winner at the end.",
            wild_text="Jokers and 2s are wild in every round; there is no round rank.",
            going_out_text="Meld every card but one, discard it, then knock.",
            after_going_out_text="Each other player has one more turn, from either pile.",
            penalty_text="A 15; 3-10 face value; J, Q, K 10; wilds 0. Rounds 10 and 11 score double.",
            money="pot",
            decisions=_RUMMY_DECISIONS,
            discard_pile_text="Start the discard pile staggered so that two cards show; "
            "taking the lower one costs the second-discard fee when the game has a pot.",
            left_of_scorekeeper_deals=True,
            deals=_rising_deals(round_rank=False),
            full_cycle_deals=_full_cycle_deals(round_rank=False),
            max_meld_cards=13,
        ),
        Preset(
            id="contract-rummy",
            name="Contract Rummy",
            seed="",
            kind="rummy",
            min_players=3,
            max_players=8,
            deck_table=(DeckRow(4, 2, 4), DeckRow(8, 3, 6)),
            wild_jokers=True,
            wild_twos=False,
            wild_round_rank=False,
            defaults=Options(
                ace=AceRule.BOTH,
                wild_limit=WildLimit.AT_LEAST_ONE_NATURAL,
                no_adjacent_wilds=False,
                penalty_table=PenaltyTable.CONTRACT_RUMMY,
            ),
            summary="Seven deals, each with a contract: the sets and runs a player must lay down to go down, "
            "from two sets in the first deal to three runs in the last. Runs need 4 cards. "
            "The first to play every card ends the deal. Lowest total wins.",
            wild_text="Jokers are wild (2s too, with the house rule). A meld may hold any number of wild cards, "
            "side by side too, but needs at least one natural card.",
            going_out_text="Go down once a deal with exactly the deal's contract; on later turns lay off onto "
            "any meld on the table. Go out with or without a final discard, except in the last deal: "
            "there you go down and go out at once, with no discard.",
            after_going_out_text="The deal ends at once; everyone else scores every card still held.",
            penalty_text="Every card held counts in full: 2-10 face value; J, Q, K 10; A 15; joker 15.",
            money="none",
            decisions=("D1", "D8", "D9", "D10", "D13", "D14", "D16", "D21", "D22", "D23", "D24", "D25", "D26", "D27"),
            discard_pile_text=_STOCK_CARD_UP,
            deals=_CONTRACT_DEALS,
            option_keys=CONTRACT_OPTION_KEYS,
            min_run_length=4,
            lay_off_scope=LayOffScope.TABLE,
            hand_scoring=HandScoring.IN_FULL,
        ),
        Preset(
            id="five-crowns",
            name="Five Crowns",
            seed="",
            kind="rummy",
            min_players=2,
            max_players=7,
            deck_table=(DeckRow(7, 2, 6),),
            wild_jokers=True,
            wild_twos=False,
            wild_round_rank=True,
            defaults=Options(
                wild_limit=WildLimit.NONE,
                no_adjacent_wilds=False,
                lay_offs=False,
                discard_to_go_out=True,
                penalty_table=PenaltyTable.FIVE_CROWNS,
            ),
            summary="Eleven rounds, 3 to 13 cards, on a deck of five suits (stars too) from 3 to King, "
            "two packs and six jokers. Lay down books and runs; the first to lay down every card but a "
            "final discard goes out, and everyone else has one more turn. Lowest total wins.",
            wild_text="Jokers and the round's rank are wild: 3s in round 1 up to Kings in round 11. "
            "Any number of wilds in a meld, side by side too, even melds of wild cards only.",
            going_out_text="Lay down every card but one in books and runs, and discard the last.",
            after_going_out_text="Each other player has one more turn: draw, lay down books and runs, discard. "
            "Nobody lays off onto another player's melds.",
            penalty_text="3-10 face value; J 11, Q 12, K 13; a card of the round's rank 20; a joker 50.",
            money="none",
            decisions=(
                *("D1", "D7", "D8", "D9", "D10", "D16", "D21"),
                *(f"D-FC{number}" for number in range(1, 11)),
            ),
            discard_pile_text=_STOCK_CARD_UP,
            deals=_rising_deals(round_rank=True),
            option_keys=FIVE_CROWNS_OPTION_KEYS,
            deck=FIVE_CROWNS,
        ),
        Preset(
            id="play-or-pay",
            name="Play or Pay",
            seed="004_86746446384aefff.txt",
            kind="stops",
            min_players=3,
            max_players=10,
            deck_table=(DeckRow(10, 1, 0),),
            wild_jokers=False,
            wild_twos=False,
            wild_round_rank=False,
            defaults=Options(),
            summary="A Stops game with chips: play the next card of the suit or pay a chip; "
            "the first player out of cards takes the pot.",
            wild_text="No wild cards.",
            going_out_text="Play your last card.",
            after_going_out_text="Every other player pays one chip per card still held.",
            penalty_text="One chip per card left in hand.",
            money="chips",
            decisions=("D17",),
            discard_pile_text="There is no discard pile: the whole deck is dealt.",
        ),
    )
}


def _pool_preset(limit: int, first_drop: int, middle_drop: int, cutoff: int) -> Preset:
    """Pool rummy to `limit` (RULES.md 11): 13 cards, two decks with a printed joker each, a cut joker."""
    return Preset(
        id=f"pool-{limit}",
        name=f"Pool Rummy {limit}",
        seed="",
        kind="pool",
        min_players=2,
        max_players=6,
        deck_table=(DeckRow(6, 2, 2),),
        wild_jokers=True,
        wild_twos=False,
        wild_round_rank=False,
        defaults=Options(
            distinct_suit_sets=True,
            ace=AceRule.BOTH,
            wild_limit=WildLimit.NONE,
            no_adjacent_wilds=False,
            wild_in_place_natural=True,
            lay_offs=False,
            discard_to_go_out=True,
            pool_limit=limit,
            first_drop=first_drop,
            middle_drop=middle_drop,
            rejoin_cutoff=cutoff,
        ),
        summary=f"Indian 13-card rummy played as a pool: every deal adds points, a player whose total reaches "
        f"{limit} is out and may buy back in, and the last player standing takes the pot.",
        wild_text="The printed jokers and every card of the rank cut after the deal; a printed joker cut "
        "makes the aces wild.",
        going_out_text="Show 13 cards in melds, with two sequences or more, at least one of them pure.",
        after_going_out_text="The deal ends; every other player scores the count of their cards.",
        penalty_text="A, K, Q, J 10; 2-10 face value; wild cards 0; a count scores at most 80.",
        money="pot",
        decisions=(),
        discard_pile_text=_STOCK_CARD_UP,
        option_keys=POOL_OPTION_KEYS,
        lay_off_scope=LayOffScope.NONE,
    )


POOL_PRESETS: dict[str, Preset] = {
    preset.id: preset for preset in (_pool_preset(101, 20, 40, 79), _pool_preset(201, 25, 50, 174))
}
PRESETS.update(POOL_PRESETS)


RUMMY_PRESETS = tuple(preset_id for preset_id, preset in PRESETS.items() if preset.kind == "rummy")


def get_preset(variant: str) -> Preset:
    """Look a preset up by id; raise VariantError naming the id when there is none."""
    key = str(variant).strip().lower()
    preset = PRESETS.get(key)
    if preset is None:
        raise VariantError(f'unknown variant "{variant}"; variants are: {", ".join(PRESETS)}')
    return preset
