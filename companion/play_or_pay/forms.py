"""The forms of the Play or Pay pages; each carries a CSRF token (Flask-WTF)."""

from __future__ import annotations

from wtforms import HiddenField, IntegerField, SelectField
from wtforms.validators import InputRequired, NumberRange

from companion.games.forms import ActionForm, FirstDealerForm
from companion.services import play_or_pay


class PlayOrPayForm(FirstDealerForm):
    chips = IntegerField(
        "Starting chips, each player",
        default=play_or_pay.DEFAULT_CHIPS,
        validators=[
            InputRequired(f"enter a whole number of chips from 1 to {play_or_pay.MAX_CHIPS}"),
            NumberRange(1, play_or_pay.MAX_CHIPS, f"a whole number of chips from 1 to {play_or_pay.MAX_CHIPS}"),
        ],
    )


class HandEventForm(ActionForm):
    """One tap on the hand screen: played, paid, or a lead (a card of the grid)."""

    type = HiddenField()
    player = HiddenField()
    card = HiddenField()


class PurchaseForm(ActionForm):
    """Chips a player buys from the table between hands (D17)."""

    player = SelectField("Who buys", choices=[])
    chips = IntegerField(
        "Chips bought",
        validators=[
            InputRequired(f"enter a whole number of chips from 1 to {play_or_pay.MAX_CHIPS}"),
            NumberRange(1, play_or_pay.MAX_CHIPS, f"a whole number of chips from 1 to {play_or_pay.MAX_CHIPS}"),
        ],
    )


def purchase_form(players: list[str] | tuple[str, ...], version: int | None = None) -> PurchaseForm:
    form = PurchaseForm(data={"version": version} if version is not None else None)
    form.player.choices = [(name, name) for name in players]
    return form
