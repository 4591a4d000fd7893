"""The decisions of RULES.md section 4, where the seed texts are unclear: each in words, for the rules pages."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.options import CONTRACT_OPTION_SPECS
from engine.rules.presets import Preset


@dataclass(frozen=True)
class Decision:
    """A decision of RULES.md section 4, where the seed texts are unclear."""

    id: str
    title: str
    text: str
    option: str | None
    option_text: str = ""  # the sentence about `option`, said only where the preset takes that option

    def text_for(self, preset: Preset) -> str:
        """The decision in words for a preset: the sentence about its house rule only if the preset takes it.

        >>> from engine.rules import PRESETS
        >>> "Wild in its own place" in DECISIONS["D1"].text_for(PRESETS["pay-me"])
        True
        >>> "Wild in its own place" in DECISIONS["D1"].text_for(PRESETS["contract-rummy"])
        False
        """
        if self.option_text and self.option in preset.option_keys:
            return f"{self.text} {self.option_text}"
        return self.text


DECISIONS: dict[str, Decision] = {
    decision.id: decision
    for decision in (
        Decision(
            "D1",
            "A wild card is always wild",
            'The original Pay Me rules define naturals as "non-wild" cards and say a wild may stand for "a card '
            'of its own denomination". So in round 3 of Pay Me (5s wild), 5♥ 5♠ 5♦ is three wild '
            "cards and no naturals: not a legal meld.",
            "wild_in_place_natural",
            "The house rule Wild in its own place is natural lets a wild card that stands exactly for itself "
            "count as natural.",
        ),
        Decision(
            "D2",
            "Full Cycle length",
            "The original Pay Me rules say 22 rounds but also say the deal rises from 3 to 14 cards and falls "
            "back to 3, which is 23 deals. The schedule follows the described deals: 3, 4, …, 14, "
            "13, …, 3 (23 rounds), with the round's rank wild as usual and Aces wild in the "
            "14-card round.",
            "full_cycle",
        ),
        Decision(
            "D3",
            "Jokers in Pay Me (family rules)",
            "The family rules play with jokers in the deck and name the round's rank as wild; jokers are "
            "taken to be wild as well. Twos are natural.",
            None,
        ),
        Decision(
            "D4",
            "Pay Me (family rules) penalties",
            "The family rules list only a 10-point and a 5-point tier (the card pictures are lost): A-7 "
            "score 5, 8-K and jokers score 10; a card of the round's wild rank scores by its own "
            "rank's tier.",
            "penalty_table",
        ),
        Decision(
            "D5",
            "A run's wild positions are fixed once laid down",
            "A lay-off may not replace a wild (the original Pay Me rules). A lay-off extends a meld at an end "
            "(runs) or adds a card of the rank (sets); the meld must stay legal under the preset (wild "
            "limit, no adjacent wilds). The same position can be filled only once (the family rules' questions "
            "and answers: a second 4♥ cannot also be laid off on A-2-3♥).",
            "lay_offs",
        ),
        Decision(
            "D6",
            "Lay-offs chain in turn order",
            "Players lay off one after another, starting left of the player who went out; a meld "
            "extended by an earlier player can be extended further by a later one. Lay-offs go only "
            "onto the melds of the player who went out, never onto another player's melds (the family "
            "rules' questions and answers).",
            "lay_offs",
        ),
        Decision(
            "D7",
            "Scoring a hand",
            "A player's penalty is the minimum over every way of splitting their hand into their "
            "own melds, lay-offs (where allowed) and leftovers. The companion can compute it from "
            "the cards entered; a table may also type the points directly.",
            None,
        ),
        Decision(
            "D8",
            "The declarer scores 0",
            "The player who went out must have melded every card; the companion can verify this "
            "from the cards entered.",
            None,
        ),
        Decision("D9", "Ties", "Equal lowest totals share the win.", None),
        Decision(
            "D10",
            "The cards decide, not the order they are written in",
            "A player may arrange their cards as they lay them down, so a meld is refused only when no "
            "arrangement of its cards is legal. In Pay Me round 5, 5♥ 6♥ JK 2♣ is accepted, read as "
            "JK=4♥ 5♥ 6♥ 2♣=7♥. The written order only chooses between legal readings, and the companion "
            "shows how it read the meld. A card's role written with = (JK=7♥) is binding.",
            None,
        ),
        Decision(
            "D11",
            "Equally good choices",
            "When a player's lowest penalty can be reached in several ways, the companion lays off as few "
            "cards as possible (a player keeps their own melds), then puts a laid-off wild at the upper end "
            "of a run. It lists every lay-off (which card went onto which meld, and where), so a table that "
            "played it otherwise can see it and type the points.",
            "lay_offs",
        ),
        Decision(
            "D12",
            "Wild aces in runs",
            "In the full cycle's 14-card round aces are wild: an ace is then a wild card and may stand in a "
            "run for any other rank, even with No aces in runs, which only stops a card standing for an ace "
            "in a run.",
            "full_cycle",
        ),
        Decision(
            "D13",
            "Open readings",
            "Some melds can be read in more than one way: a meld of wild cards only; cards that make both a "
            "set and a run (in 3-13, 2♥ 3♥ JK is three 3s or 2♥ 3♥ 4♥); a wild whose place is not fixed "
            "(in 5♥ JK 6♥ the joker may be 4♥ or 7♥). Every legal reading stays open until a lay-off needs "
            "one, and that lay-off fixes it for the players after: once Bob lays off 3♥ below JK=4♥, Cy can "
            "no longer lay off 8♥. A role written with = fixes it at once. The cards of the player who went "
            "out, entered all together, are split into the fewest melds, each kept open in the same way; "
            "entering the melds one by one is exact.",
            "lay_offs",
        ),
        Decision(
            "D14",
            "One ace per run",
            "When aces count both low and high, a run may start or end with an ace but not both: never "
            "A-2-…-K-A, so a run holds at most 13 cards.",
            "ace",
        ),
        Decision(
            "D15",
            "House rules outside their own game",
            "Doubled rounds, switched on without naming rounds (the 3-13 default), doubles the last two deals "
            "actually played: rounds 10 and 11, or 22 and 23 with the full cycle. Rounds a table names itself "
            "stay as named. Under a penalty table that scores cards by face value, a joker left in hand scores 15.",
            "double_rounds",
        ),
        Decision(
            "D16",
            "When the stock runs out",
            "The discard pile, except its top card, is shuffled to make a new stock; a round always ends "
            "with someone going out. A misdeal is dealt again and is not recorded.",
            None,
        ),
        Decision(
            "D17",
            "Play or Pay money",
            "When chips stand for money, players buy chips from the table before the first hand or between "
            "hands, as many as they like. Each purchase is written in the ledger, and undo takes it back "
            "like any other entry. A player's result is the chips they hold minus the chips they bought, so "
            "the results add up to zero. Without money, everyone starts with the same stack. The game ends "
            "when the table says so, and only between hands: a hand under way is settled (or undone) first, "
            "because until it is settled the chips paid during it lie in the pot and belong to no one, so "
            "the results would not add up to zero.",
            None,
        ),
        Decision(
            "D18",
            "At most 13 cards in a meld",
            'The original 3-13 rules say "you can have as many as 13 cards in any set or run". So no meld, laid '
            "down or made longer by lay-offs, holds more than 13 cards: a lay-off that would make a 14th card "
            "is refused for that reason.",
            None,
        ),
        Decision(
            "D19",
            "Lay-offs narrow open readings",
            "When a meld can still be read in more than one way, each lay-off rules out only the readings that "
            "no longer fit the cards laid so far; every reading that still fits stays open for the players "
            "after. In 3-13, Bob's 9♣ 10♣ on the all-wild JK 2♠ 2♦ leaves the three wild cards free to "
            "stand below 9♣ (as 6♣ 7♣ 8♣) or above 10♣ (as J♣ Q♣ K♣), whichever a later card needs: "
            "Cy's A♣ still fits, as J-Q-K-A.",
            "lay_offs",
        ),
        Decision(
            "D20",
            "The last turn when another player can go out too",
            "After a player goes out, each other player has one last turn. A player who can then also meld "
            "every card need not draw or discard on that turn (the original Pay Me rules); their cards then "
            "score nothing. The companion does not follow turns, so it does not check this: enter their cards "
            "or their points as usual.",
            None,
        ),
        Decision(
            "D21",
            "Seats by the high-card draw",
            "With the high-card draw, each player draws a card (King high, Ace low; ties draw again); players "
            "then pick their seats in the order of their cards, highest first, and the highest card deals first "
            "(the original Pay Me rules). List the players as they then sit, clockwise.",
            None,
        ),
        Decision(
            "D22",
            "The exact cut",
            "A player who cuts exactly the cards needed for the deal has 50 taken off their card points that "
            "deal: 15 points held becomes −35, and nothing held becomes −50.",
            "exact_cut",
        ),
        Decision(
            "D23",
            "The joker swap",
            "Only a printed joker can be taken, and only from a run (in a set a joker stands for no card in "
            "particular), by a player who has gone down, by playing in its place the one natural card it "
            "stands for: one card takes one joker. An ace takes a joker that stands for an ace at either end "
            "of a run. What the player then does with the joker is the table's business. Wild 2s are never "
            "taken.",
            "joker_swap",
        ),
        Decision(
            "D24",
            "Two melds of a kind in one contract",
            "Two sets of the same rank (the decks are shuffled together) count as two sets. Two runs of the "
            "same suit count as two runs, even when they touch (3♥–6♥ and 7♥–10♥): the contract names the "
            "melds laid down, not the longest run their cards could make.",
            None,
        ),
        Decision(
            "D25",
            "Wild 2s held",
            "With twos wild, a 2 left in hand scores its face value, 2, like any 2: the points for a joker "
            "count for jokers only.",
            "twos_wild",
        ),
        Decision(
            "D26",
            "Ranges of the house rules",
            f"Cards dealt: {CONTRACT_OPTION_SPECS['deal_sizes'].minimum} to "
            f"{CONTRACT_OPTION_SPECS['deal_sizes'].maximum} a deal (15 cards for each of 8 players fit in "
            f"3 decks and 6 jokers). Buys: {CONTRACT_OPTION_SPECS['buys_per_deal'].minimum} to "
            f"{CONTRACT_OPTION_SPECS['buys_per_deal'].maximum} a deal for each player.",
            None,
        ),
        Decision(
            "D27",
            "Who may buy",
            "A player who is not next to play may buy the top discard: they take it together with one extra "
            "card from the stock. The companion does not know whose turn it is, so it does not check who "
            "buys: its buy counter counts the buys the table reports.",
            "buys_per_deal",
        ),
        Decision(
            "D-FC1",
            "Writing the stars",
            'The fifth suit is written R (from "stars") or ★, also ☆ or ⭐: 7R, 7★, 10r. S stays spades. '
            "The asterisk is a joker, never a suit, so 7* is refused rather than read as 7★: a mistyped "
            '"7 *" must not silently become another hand.',
            None,
        ),
        Decision(
            "D-FC2",
            "Books may repeat suits",
            "A book is three or more cards of one rank, whatever their suits: K♠ K♦ K♥ K♥ is a book, as in "
            "the publisher's own example.",
            "distinct_suit_sets",
            "With the house rule, a book must show at least three different suits; a wild may supply a missing suit.",
        ),
        Decision(
            "D-FC3",
            "Wild cards",
            "A meld may hold any number of wild cards, side by side too, and a meld of wild cards only is "
            "legal. A card of the round's rank is always a wild card: it scores 20 when left in hand, even "
            "where it could have stood for itself.",
            "wild_limit",
            "House rules can limit the wild cards in a meld, keep them apart in a run, or count a wild "
            "standing for itself as natural.",
        ),
        Decision(
            "D-FC4",
            "Going out needs a discard",
            "A player goes out by laying down every card but one in books and runs and discarding the last. "
            "The discard may be a card that would have fitted a meld.",
            "discard_to_go_out",
            "With the house rule off, a player may also go out holding nothing.",
        ),
        Decision(
            "D-FC5",
            "The last turn, no lay-offs",
            "After a player goes out, each other player has one more turn, in order from the left of the "
            "player who went out: draw, lay down books and runs from their own hand, discard. Nobody plays "
            "on another player's books or runs.",
            "lay_offs",
            "With the house rule, the others may lay off onto the melds of the player who went out, and only those.",
        ),
        Decision(
            "D-FC6",
            "Going out on the last turn",
            "A player who lays down every card but the discard on their last turn scores 0, like the player "
            "who went out first.",
            None,
        ),
        Decision(
            "D-FC7",
            "2 to 7 players",
            "The game takes 2 to 7 players. Later editions add a solitaire game, which needs no referee.",
            None,
        ),
        Decision(
            "D-FC8",
            "One deck for every table",
            "Two packs shuffled together, 116 cards with six jokers, serve every number of players.",
            None,
        ),
        Decision(
            "D-FC9",
            "Cards outside the deck",
            "The deck has no aces and no 2s: an ace or a 2 typed in a Five Crowns game is refused as a "
            "mistake, and so is a star card in any other game.",
            None,
        ),
        Decision(
            "D-FC10",
            "The ends of a run",
            "3 is the lowest card and King the highest: a wild card never stands below 3 or above King and "
            "runs never wrap, so a run holds at most eleven cards.",
            None,
        ),
    )
}


def decision_order(decision: str) -> tuple[int, int]:
    """Where a decision comes on a rules page: section 4's by number, then a game's own (D-FC1 …).

    >>> sorted(["D-FC10", "D9", "D-FC2", "D13"], key=decision_order)
    ['D9', 'D13', 'D-FC2', 'D-FC10']
    """
    prefix, _, number = decision.rpartition("-FC")
    return (0, int(decision[1:])) if not prefix else (1, int(number))
