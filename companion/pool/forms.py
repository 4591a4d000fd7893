"""What the pool page's forms send (each carries a CSRF token through ActionForm): one deal's results
and cut, a rejoin, a split. The results and shares are one field per seat, read here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.errors import InvalidInput
from companion.services import pool

RESULT_WORDS = ("win", "drop", "middle", "full", "wrong")
CUT_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "JK"
MAX_COUNT_DIGITS = 4


@dataclass(frozen=True)
class DealEntry:
    """A deal as typed on the page: the cut (a rank, "JK" or ""), each seat's tap and typed count."""

    cut: str = ""
    taps: dict[int, str] = field(default_factory=dict)
    counts: dict[int, str] = field(default_factory=dict)

    def cut_body(self) -> dict[str, str]:
        """The cut as the service takes it: a rank tapped is the wild rank, the printed joker is the card cut."""
        if not self.cut:
            return {}
        if self.cut == JOKER:
            return {"cut": JOKER}
        if self.cut not in CUT_RANKS:
            raise InvalidInput(f'"{self.cut[:8]}" is not a rank of the cut grid')
        return {"wild": self.cut}

    def results(self, players: Sequence[str], seats: Sequence[int]) -> dict[str, str | int]:
        """Each player still in: the result tapped, or the count typed (one of the two)."""
        results: dict[str, str | int] = {}
        for seat in seats:
            name = players[seat]
            tap = self.taps.get(seat, "")
            count = self.counts.get(seat, "").strip()
            if tap and count:
                raise InvalidInput(f"{name}: tap a result or type a count, not both")
            if tap:
                if tap not in RESULT_WORDS:
                    raise InvalidInput(f'{name}: "{tap[:12]}" is not a result')
                results[name] = tap
            elif count:
                if not (count.isascii() and count.isdigit()) or len(count) > MAX_COUNT_DIGITS:
                    raise InvalidInput(f'{name}: a count is a whole number of points, not "{count[:12]}"')
                results[name] = int(count)
            else:
                raise InvalidInput(f"{name} has no result: tap one or type the count")
        return results


def deal_entry(form: Mapping[str, str], seats: int) -> DealEntry:
    return DealEntry(
        cut=str(form.get("cut", "")),
        taps={seat: str(form.get(f"result-{seat}", "")) for seat in range(seats)},
        counts={seat: str(form.get(f"count-{seat}", "")) for seat in range(seats)},
    )


def typed_shares(form: Mapping[str, str], players: Sequence[str], seats: Sequence[int]) -> dict[str, str]:
    return {players[seat]: str(form.get(f"share-{seat}", "")) for seat in seats}


def shares_cents(typed: Mapping[str, str], pot: int) -> dict[str, int]:
    """Typed amounts (money) in cents; they must add up to the pot."""
    shares = {name: pool.money_cents(text.strip() or "0", name) for name, text in typed.items()}
    total = sum(shares.values())
    if total != pot:
        raise InvalidInput(
            f"the amounts typed add up to {pool_money(total)}, not the pot of {pool_money(pot)}: "
            f"{pool_money(abs(pot - total))} {'left over' if total < pot else 'too much'}"
        )
    return shares


def pool_money(cents: int) -> str:
    from companion.services.pot import format_cents

    return format_cents(cents)
