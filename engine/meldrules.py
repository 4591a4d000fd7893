"""The meld rules of one rule set and round, read once: the one adapter between the options and the
code that judges melds (engine.melds), searches hands (engine.solver) and checks lay-offs
(engine.layoffs). A new meld option is read here, and only here.

>>> from engine.cards import Card, Rank, Suit
>>> from engine.rules import rule_set
>>> from engine.schedule import round_info
>>> rules = rule_set("3-13")
>>> meld = meld_rules(rules, round_info(rules, 5))
>>> meld.lowest, meld.highest, meld.positions(Rank.ACE), meld.min_run, meld.all_wild
(2, 14, (14,), 3, True)
>>> meld.is_wild(Card.JOKER), meld.is_wild(Card(Rank.TWO, Suit.CLUBS)), meld.is_wild(Card(Rank.SEVEN, Suit.CLUBS))
(True, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.caches import IdentityCache
from engine.cards import Card, MeldCard, Rank, Suit
from engine.deck import ACE_HIGH, ACE_LOW, CODES, Deck, every_code
from engine.rules import AceRule, RuleSet, WildLimit
from engine.schedule import RoundInfo

__all__ = ["MAX_RUN", "MeldRules", "deck_run_range", "meld_rules", "rank_positions", "run_range", "wild_table"]

MAX_RUN = 13  # D14: a run may start or end with an ace, never both, so it holds 13 cards at most


def deck_run_range(deck: Deck, ace: AceRule, no_aces: bool) -> tuple[int, int, int]:
    """The lowest and highest place a run may use with a deck's ranks, and the most cards a run holds:
    one of each rank (an ace at one end only, D14). A deck with no aces runs from its lowest rank to
    its highest (Five Crowns: 3 to King, eleven cards).

    >>> from engine.deck import FIVE_CROWNS, STANDARD
    >>> deck_run_range(FIVE_CROWNS, AceRule.LOW, no_aces=False), deck_run_range(STANDARD, AceRule.BOTH, False)
    ((3, 13, 11), (1, 14, 13))
    """
    no_aces = no_aces or Rank.ACE not in deck.ranks
    lowest, highest = run_range(ace, no_aces)
    places = [place for rank in deck.ranks for place in rank_positions(rank, ace, no_aces)]
    return max(lowest, min(places)), min(highest, max(places)), min(MAX_RUN, len(deck.ranks))


def rank_positions(rank: Rank, ace: AceRule, no_aces: bool) -> tuple[int, ...]:
    """Where a rank may stand in a run: 2-13 for most, 1 and/or 14 for an ace.

    >>> rank_positions(Rank.ACE, AceRule.BOTH, no_aces=False)
    (1, 14)
    """
    if rank is not Rank.ACE:
        return (int(rank),)
    if no_aces:
        return ()
    return {AceRule.LOW: (ACE_LOW,), AceRule.HIGH: (ACE_HIGH,), AceRule.BOTH: (ACE_LOW, ACE_HIGH)}[ace]


def run_range(ace: AceRule, no_aces: bool) -> tuple[int, int]:
    """The lowest and highest place a card may take in a run.

    >>> run_range(AceRule.HIGH, no_aces=False)
    (2, 14)
    """
    lowest = ACE_LOW + 1 if no_aces or ace is AceRule.HIGH else ACE_LOW
    highest = ACE_HIGH - 1 if no_aces or ace is AceRule.LOW else ACE_HIGH
    return lowest, highest


@dataclass(frozen=True)
class MeldRules:
    """Everything a meld's legality depends on, for one rule set and round.

    `key` holds every field, so a cache keyed by it never answers under other rules; `search_key`
    leaves out the wild table alone, for caches of work on natural cards only (the solver's
    components), which no wild table can change.
    """

    wild: tuple[bool, ...]  # by card code: whether the card is wild this round (D1)
    ace: AceRule
    no_aces: bool  # no card stands as an ace in a run
    lowest: int  # the lowest place a run may use
    highest: int  # the highest place a run may use
    ace_places: tuple[int, ...]  # where an ace may stand in a run
    min_run: int
    max_run: int
    wild_limit: WildLimit
    no_adjacent: bool  # no two wilds side by side in a run
    distinct_suits: bool  # a set shows three different suits or more
    in_place_natural: bool  # a wild standing exactly for itself counts as natural
    suits: tuple[Suit, ...]  # the suits a wild may stand as
    max_meld: int | None = None  # the most cards a meld may hold, where the game sets a limit (D18)
    ranks: tuple[Rank, ...] = tuple(Rank)  # the ranks of the deck: what a meld of wild cards only may stand as
    game: str = field(default="", compare=False)  # the preset's name, for reasons given in words
    places_by_rank: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)  # by rank number
    search_key: tuple[object, ...] = field(init=False, repr=False, compare=False)
    key: tuple[object, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "places_by_rank", ((), *(self.positions(rank) for rank in Rank)))
        search: tuple[object, ...] = (self.ace, self.no_aces, self.min_run, self.max_run, self.wild_limit)
        search += (self.no_adjacent, self.distinct_suits, self.in_place_natural, self.suits, self.max_meld, self.ranks)
        object.__setattr__(self, "search_key", search)
        object.__setattr__(self, "key", (self.wild, *search))

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def limit(self) -> bool:
        """Never more wilds than naturals in a meld."""
        return self.wild_limit is WildLimit.NOT_MORE_THAN_NATURALS

    @property
    def all_wild(self) -> bool:
        """Melds of wild cards only are legal."""
        return self.wild_limit is WildLimit.NONE

    @property
    def jokers_wild(self) -> bool:
        return self.wild[0]

    def is_wild(self, card: Card) -> bool:
        return self.wild[card.code]

    def positions(self, rank: Rank | int) -> tuple[int, ...]:
        """Where a rank may stand in a run."""
        return self.ace_places if rank == Rank.ACE else (int(rank),)

    def is_free(self, held: MeldCard) -> bool:
        """A wild card written without a role: the reading decides what it stands for."""
        return held.role is None and self.wild[held.card.code]

    def counts_as_wild(self, held: Card, stands_for: Card) -> bool:
        """Whether a card counts as wild where it stands for `stands_for` (D1; wild_in_place_natural)."""
        return self.wild[held.code] and not (self.in_place_natural and held == stands_for)

    def with_aces_anywhere(self) -> MeldRules:
        """The same rules with an ace at either end of a run (to say why a run was refused)."""
        lowest, highest = run_range(AceRule.BOTH, no_aces=False)
        ace_places = rank_positions(Rank.ACE, AceRule.BOTH, no_aces=False)
        return replace(self, ace=AceRule.BOTH, no_aces=False, lowest=lowest, highest=highest, ace_places=ace_places)


def _wild_table(info: RoundInfo, _: None) -> tuple[bool, ...]:
    wild = [info.is_wild(Card.JOKER)] + [False] * (CODES - 1)
    for code, rank, suit in every_code():
        wild[code] = info.is_wild(Card(rank, suit))
    return tuple(wild)


_WILD_TABLES: IdentityCache[RoundInfo, None, tuple[bool, ...]] = IdentityCache("wild cards by round", 1024)


def wild_table(info: RoundInfo) -> tuple[bool, ...]:
    """Whether each card code is wild in a round (D1), as RoundInfo.is_wild says: the one table
    the solver, the lay-off code and MeldRules read."""
    return _WILD_TABLES.get(info, None, _wild_table)


def _read(rules: RuleSet, info: RoundInfo) -> MeldRules:
    options = rules.options
    deck = rules.preset.deck
    no_aces = options.no_aces_in_runs or Rank.ACE not in deck.ranks
    lowest, highest, max_run = deck_run_range(deck, options.ace, no_aces)
    return MeldRules(
        wild=wild_table(info),
        ace=options.ace,
        no_aces=no_aces,
        lowest=lowest,
        highest=highest,
        ace_places=rank_positions(Rank.ACE, options.ace, no_aces),
        min_run=rules.preset.min_run_length,
        max_run=max_run,
        wild_limit=options.wild_limit,
        no_adjacent=options.no_adjacent_wilds,
        distinct_suits=options.distinct_suit_sets,
        in_place_natural=options.wild_in_place_natural,
        suits=deck.suits,
        max_meld=rules.preset.max_meld_cards,
        ranks=deck.ranks,
        game=rules.preset.name,
    )


_BY_ROUND: IdentityCache[RuleSet, RoundInfo, MeldRules] = IdentityCache("meld rules by rule set and round", 1024)


def meld_rules(rules: RuleSet, info: RoundInfo) -> MeldRules:
    """The meld rules of a rule set and round, remembered by the identity of both (hashing a whole
    rule set costs more than reading it again)."""
    return _BY_ROUND.get(rules, info, _read)
