"""The forms of the Play or Pay pages; each carries a CSRF token (Flask-WTF)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, NumberRange

from companion.games.forms import ActionForm
from companion.services import play_or_pay


class PlayOrPayForm(FlaskForm):
    players = TextAreaField(
        "Players, in seat order (clockwise), one name per line",
        validators=[InputRequired("Enter the players' names, one per line.")],
    )
    first_dealer = SelectField("First dealer", default="random")
    chips = IntegerField(
        "Starting chips, each player",
        default=play_or_pay.DEFAULT_CHIPS,
        validators=[
            InputRequired("Enter the starting chips."),
            NumberRange(1, play_or_pay.MAX_CHIPS, f"A whole number from 1 to {play_or_pay.MAX_CHIPS}."),
        ],
    )

    def player_names(self) -> list[str]:
        return [line for line in (self.players.data or "").splitlines() if line.strip()]

    def dealer_name(self) -> str | None:
        choice = self.first_dealer.data or "random"
        names = [name.strip() for name in self.player_names()]
        if not (choice.isascii() and choice.isdigit()):
            return None
        seat = int(choice)
        return names[seat] if seat < len(names) else f"Player {seat + 1}"


class HandEventForm(ActionForm):
    """One tap on the hand screen: played, paid, or a lead (rank and suit)."""

    type = HiddenField()
    player = HiddenField()
    card = HiddenField()
    rank = StringField("Rank")
    suit = StringField()


class PurchaseForm(ActionForm):
    """Chips a player buys from the table between hands (D17)."""

    player = SelectField("Who buys", choices=[])
    chips = IntegerField(
        "Chips bought",
        validators=[
            InputRequired("Enter how many chips."),
            NumberRange(1, play_or_pay.MAX_CHIPS, f"A whole number from 1 to {play_or_pay.MAX_CHIPS}."),
        ],
    )


def purchase_form(players: list[str] | tuple[str, ...], version: int | None = None) -> PurchaseForm:
    form = PurchaseForm(data={"version": version} if version is not None else None)
    form.player.choices = [(name, name) for name in players]
    return form
