"""Pool rummy's rules in words, as a rules page shows them (RULES.md 11): the rules in short, and
decisions D-PR1 to D-PR20 (their codes are for headings only; the texts say the rule in words).

>>> [line.title for line in rules_in_short(rule_set("pool-201"))][:3]
['Players', 'Cards', 'Wild cards']
>>> rules_in_short(rule_set("pool-201"))[6].text
'A player whose total reaches 201 is out.'
>>> DECISIONS[3].id, DECISIONS[3].title
('D-PR4', 'A wild card in its own place is natural')
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules import EliminatedAt, PrintedJokerCut, RuleSet, rule_set

__all__ = ["DECISIONS", "PoolDecision", "RuleLine", "rule_set", "rules_in_short"]


@dataclass(frozen=True)
class RuleLine:
    """One rule as the rules page shows it."""

    title: str
    text: str


@dataclass(frozen=True)
class PoolDecision:
    """A decision where the sources disagree or are silent; `id` is for the heading only."""

    id: str
    title: str
    text: str


def _cutoff(rules: RuleSet) -> str:
    cutoff = rules.options.rejoin_cutoff
    if cutoff is None:
        return "at any total, as long as that total is not itself out"
    return f"only while the highest total still in is at most {cutoff}"


def _wild_cards(rules: RuleSet) -> str:
    """Which cards are wild under the game's options (D-PR2, D-PR3)."""
    options = rules.options
    jokers = "the printed jokers" if options.jokers_per_deck else ""
    if not options.cut_joker:
        return "The printed jokers only: no card is cut." if jokers else "No wild cards: no card is cut."
    cut = "every card of the rank cut after the deal"
    if not jokers:
        return f"{cut.capitalize()}."
    if options.printed_joker_cut is PrintedJokerCut.ACES:
        return f"The printed jokers and {cut}; a printed joker cut makes the aces wild."
    return f"The printed jokers and {cut}; a printed joker cut makes nothing more wild."


def rules_in_short(rules: RuleSet) -> tuple[RuleLine, ...]:
    """The rules of a pool game in words, with its house options applied."""
    options = rules.options
    limit = options.pool_limit
    out = f"reaches {limit}" if options.eliminated_at is EliminatedAt.REACH else f"goes above {limit}"
    return (
        RuleLine("Players", "2 to 6, 13 cards each."),
        RuleLine("Cards", f"Two 52-card decks with {options.jokers_per_deck * 2} printed jokers."),
        RuleLine("Wild cards", _wild_cards(rules)),
        RuleLine(
            "Melds",
            "A sequence is 3 or more cards of one suit in order, ace low or high, never around the corner. "
            "A set is 3 or 4 cards of one rank, each of a different suit.",
        ),
        RuleLine(
            "The show",
            "13 cards, every one in a meld, with two sequences or more, at least one of them pure: "
            "no card in it acting as a wild card.",
        ),
        RuleLine(
            "Scoring a deal",
            f"Winner 0; first drop {options.first_drop}; middle drop {options.middle_drop}; full count "
            f"{options.full_count}; wrong show {options.wrong_show}; otherwise the count of the cards left, at most "
            f"{options.full_count}.",
        ),
        RuleLine("Out", f"A player whose total {out} is out."),
        RuleLine(
            "Rejoining",
            f"A player put out may buy back in straight after that deal, {_cutoff(rules)}, "
            "at the highest total still in plus 1.",
        ),
        RuleLine(
            "The pot",
            "Every buy-in goes into the pot; the last player standing takes it, or the players "
            "still in agree to split it.",
        ),
    )


DECISIONS: tuple[PoolDecision, ...] = (
    PoolDecision(
        "D-PR1",
        "Cards",
        "Two decks and one printed joker each, 106 cards, for 2 to 6 players; a table "
        "may keep both jokers of each deck, or none.",
    ),
    PoolDecision(
        "D-PR2",
        "The cut joker",
        "Every card of the cut card's rank is wild for the deal, in all suits "
        "and both decks. A table may play with the printed jokers only.",
    ),
    PoolDecision(
        "D-PR3", "A printed joker cut", "Then the aces are wild; a table may keep only the printed jokers wild instead."
    ),
    PoolDecision(
        "D-PR4",
        "A wild card in its own place is natural",
        "A card of the wild rank standing for itself, "
        "in its own place, keeps a sequence pure: with 8♣ wild, 8♣ 9♣ 10♣ is pure, 8♣ 10♣ J♣ is not. "
        "Only one card stands in a place, so with 5s wild 5♥ 5♥ 6♥ 7♥ is a sequence but not pure. "
        "A printed joker is never natural.",
    ),
    PoolDecision(
        "D-PR5",
        "Sets",
        "Three or four cards, each suit at most once: 7♠ 7♠ 7♥ is not a set. A table "
        "may allow longer sets, their natural cards still of different suits.",
    ),
    PoolDecision("D-PR6", "Aces", "A-2-3 and Q-K-A are sequences, K-A-2 is not; one ace per sequence."),
    PoolDecision(
        "D-PR7",
        "Wild cards per meld",
        "Any number, side by side too; a group of wild cards only is a "
        "meld and may be the second sequence, never the pure one. A table may require at least one card "
        "standing for itself.",
    ),
    PoolDecision(
        "D-PR8",
        "A valid show",
        "Exactly 13 cards, all in melds, at least two sequences, at least one pure. No sequence needs four cards.",
    ),
    PoolDecision(
        "D-PR9",
        "A losing hand's count",
        "Without two sequences, one pure, every card counts, even those "
        "in sets or a lone pure sequence; wild cards count 0; a count above the full count scores the "
        "full count.",
    ),
    PoolDecision(
        "D-PR10",
        "Drops are entered, not checked",
        "The table enters a first or middle drop; a drop "
        "that takes a player to the limit puts them out like any other points.",
    ),
    PoolDecision(
        "D-PR11",
        "One winner per deal",
        "The player who made a valid show, or the last player left when "
        "all the others dropped or showed wrongly. A wrong show costs its points and the deal goes on.",
    ),
    PoolDecision(
        "D-PR12",
        "Out on reaching the limit",
        "A total at the limit puts a player out; a table may keep a player at exactly the limit in.",
    ),
    PoolDecision(
        "D-PR13",
        "Rejoining",
        "At the highest total still in plus 1, paying a buy-in, straight after the "
        "deal that put the player out, while that highest total is at most the cutoff. Players rejoining "
        "after the same deal all come back at the same total. Rejoins are unlimited unless the table sets "
        "a limit; without a cutoff, a rejoin whose total would itself be out is refused.",
    ),
    PoolDecision(
        "D-PR14",
        "The end of the game",
        "When one player is left the game is over and that player takes "
        "the pot; no one rejoins, not even a player put out by that very deal.",
    ),
    PoolDecision(
        "D-PR15",
        "The split",
        "Only when every player still in agrees. The suggested split gives each "
        "player a buy-in for each drop left above the fewest, then shares the rest equally; it needs at "
        "least one buy-in left to share. A table may split equally or type the amounts.",
    ),
    PoolDecision(
        "D-PR16", "The deal passes to the left", "Skipping players who are out; a player who rejoins keeps their seat."
    ),
    PoolDecision(
        "D-PR17",
        "A limit on drops",
        "A table may limit the drops, first and middle together, a player "
        "takes in a game; drops taken carry over a rejoin.",
    ),
    PoolDecision(
        "D-PR18",
        "What a count may be",
        "A whole number from 0 up; a count above the full count is kept as entered and scores the full count.",
    ),
    PoolDecision(
        "D-PR19",
        "The stock runs out",
        "The discard pile but its top card is shuffled into a new stock, as in the other games.",
    ),
    PoolDecision(
        "D-PR20",
        "Copies of cards",
        "Two decks hold two of each card and the printed jokers; the cut "
        "card stays in play, so a hand may hold both copies of it.",
    ),
)
