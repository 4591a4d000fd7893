"""The HTML forms; each carries a CSRF token (Flask-WTF)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, NumberRange, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from companion.bounds import whole_number
from companion.errors import InvalidInput
from companion.services.pot import AMOUNT_TITLES, MAX_CENTS, MAX_PICKUPS, POT_KEYS
from companion.services.store import OptionSpec

POINTS_PATTERN = r"\s*\d{1,5}(\s*\+\s*\d{1,5})*\s*"
MAX_SEATS = 9
DEALER_MISSING = {
    "chosen": "Choose who deals first.",
    "high_card": "Choose the player who won the high-card draw.",
}
MAX_ROUNDS = 23  # a 3-13 full cycle; a standard game has 11 rounds


ROUND_CHOICES = [SelectChoice(str(number), str(number)) for number in range(1, MAX_ROUNDS + 1)]


class RoundsField(SelectMultipleField):
    """A choice of rounds, as checkboxes (a house rule such as the doubled rounds)."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class FirstDealerForm(FlaskForm):
    """A new-game form's players and how the first dealer is chosen (RULES.md 5)."""

    players = TextAreaField(
        "Players, in seat order (clockwise), one name per line",
        validators=[InputRequired("Enter the players' names, one per line.")],
    )
    # The seat of the player who deals first, where the way needs one (chosen, high-card draw); "random"
    # is still read from a form of before, which had it among the seats.
    first_dealer = SelectField("The player who deals first", validate_choice=False)
    # Not required: without a way picked, the first dealer select says it (a seat is chosen, else random).
    # The services check the way, in the engine's words.
    first_dealer_method = RadioField("How the first dealer is chosen", choices=[], validate_choice=False)
    scorekeeper = SelectField("Score keeper", default="0", choices=[])

    def player_names(self) -> list[str]:
        return [line for line in (self.players.data or "").splitlines() if line.strip()]

    def scorekeeper_name(self) -> str | None:
        """The score keeper's name (3-13: the player to their left deals first)."""
        choice = self.scorekeeper.data or ""
        names = [name.strip() for name in self.player_names()]
        seat = whole_number(choice, 3) if choice.isdecimal() else None
        if seat is None:
            return None
        return names[seat] if seat < len(names) else f"Player {seat + 1}"

    def dealer_choice(self) -> tuple[str | None, str | None, str | None]:
        """(first dealer, how they were chosen, score keeper) as the services take them; the method is None
        when the form did not send one (a form of before), which keeps the first dealer select's meaning."""
        method = self.first_dealer_method.raw_data[0] if self.first_dealer_method.raw_data else None
        if not method:
            return self.dealer_name(), None, None
        if method == "random":
            return None, method, None
        if method == "left_of_scorekeeper":
            return None, method, self.scorekeeper_name()
        return self.dealer_name(), method, None

    def checked_dealer_choice(self) -> tuple[str | None, str | None, str | None]:
        """dealer_choice, or InvalidInput when the way needs a player and none was chosen."""
        dealer, method, scorekeeper = self.dealer_choice()
        if dealer is None and method in DEALER_MISSING:
            raise InvalidInput(DEALER_MISSING[method])
        return dealer, method, scorekeeper

    def dealer_name(self) -> str | None:
        """The chosen first dealer's name, or None for a random draw."""
        choice = self.first_dealer.data or "random"
        names = [name.strip() for name in self.player_names()]
        seat = whole_number(choice, 3) if choice.isdecimal() else None
        if seat is None:
            return None
        return names[seat] if seat < len(names) else f"Player {seat + 1}"


TYPED_KINDS = ("bool", "choice", "rounds")
"""Option kinds with a field of their own; any other (numbers, deal sizes) is typed in words and read by the engine."""


def field_refusal(title: str, message: str) -> str:
    """A refused field in the style of the engine's option errors: the field's title, a colon, then lower case.

    >>> field_refusal("Chips bought", "A whole number from 1 to 10000.")
    'Chips bought: a whole number from 1 to 10000'
    """
    return f"{title}: {message[:1].lower()}{message[1:].rstrip('.')}"


def form_refusal(form: FlaskForm) -> str:
    """A form's refused fields as one sentence (the page adds the capital and the full stop)."""
    return "; ".join(field_refusal(form[name].label.text, messages[0]) for name, messages in form.errors.items())


def option_text(value: object) -> str:
    """An option's value as the text of its field: a list as "10, 10, 12".

    >>> option_text([10, 12]), option_text(15)
    ('10, 12', '15')
    """
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value)
    return str(value)


class NewGameForm(FirstDealerForm):
    variant = HiddenField()
    option_specs: dict[str, OptionSpec] = {}  # noqa: RUF012 - set per preset by new_game_form

    def option_fields(self) -> list[Any]:
        return [self[f"opt_{key}"] for key in self.option_specs]

    def option_values(self) -> dict[str, Any]:
        """The options as entered; a list of rounds left as the form filled it in is left out, so the
        preset's own default applies (3-13 doubles the last two rounds actually played, with the full
        cycle too), not the rounds the form happened to show."""
        values = {key: self[f"opt_{key}"].data for key in self.option_specs if not self._list_left_as_filled(key)}
        values.update({key: self[f"opt_{key}"].data for key in POT_KEYS if f"opt_{key}" in self})  # the pot
        return values

    def _list_left_as_filled(self, key: str) -> bool:
        field = self[f"opt_{key}"]
        if self.option_specs[key].kind in ("bool", "choice"):
            return False
        return "".join(str(field.data or "").split()) == "".join(str(field.default or "").split())

    def pot_fields(self) -> list[Any]:
        return [self[f"opt_{key}"] for key in POT_KEYS if f"opt_{key}" in self]


def seat_choices(max_players: int) -> list[SelectChoice]:
    """A seat of the players' list (the page names them after the players typed)."""
    return [SelectChoice(str(seat), f"Player {seat + 1} in the list") for seat in range(max_players)]


def set_dealer_ways(form: Any, ways: Sequence[Any], max_players: int) -> None:
    """Offer the preset's ways to pick the first dealer (companion.services.store.first_dealer_ways)."""
    form.first_dealer_method.choices = [SelectChoice(way.value, way.label) for way in ways]
    form.scorekeeper.choices = seat_choices(max_players)


def dealer_choices(max_players: int) -> list[SelectChoice]:
    """The first dealer's seat in the players' list (a random draw is one of the ways, not a seat)."""
    return [SelectChoice(str(seat), f"Player {seat + 1} in the list") for seat in range(max_players)]


def new_game_form(
    defaults: dict[str, Any], max_players: int, specs: dict[str, OptionSpec], extra: dict[str, Any] | None = None
) -> NewGameForm:
    """The new-game form with one field per house-rule option of the preset, preset defaults filled in
    (and `extra` fields: pool rummy's buy-in)."""
    fields: dict[str, Any] = {"option_specs": dict(specs), **(extra or {})}
    for key, spec in specs.items():
        default = defaults[key]
        if spec.kind == "bool":
            fields[f"opt_{key}"] = BooleanField(spec.title, default=default, description=spec.effect)
        elif spec.kind == "choice":
            fields[f"opt_{key}"] = SelectField(
                spec.title,
                choices=[SelectChoice(value, spec.label(value)) for value in spec.choices],
                default=default,
                description=spec.effect,
            )
        elif spec.kind == "rounds":  # the rounds a house rule names (doubled rounds): one checkbox per round
            fields[f"opt_{key}"] = RoundsField(
                spec.title,
                choices=ROUND_CHOICES,
                default=[str(number) for number in default],
                description=spec.effect,
            )
        else:  # a number or a list of numbers, typed in words; the engine reads it and says what is wrong
            fields[f"opt_{key}"] = StringField(spec.title, default=option_text(default), description=spec.effect)
    fields.update(_pot_fields(defaults))
    form_class = type("NewGameOptionsForm", (NewGameForm,), fields)
    form: NewGameForm = form_class()
    form.first_dealer.choices = dealer_choices(max_players)
    return form


class ImportForm(FlaskForm):
    """A game exported as JSON, to play on here (companion.services.transfer)."""

    document = FileField(
        "Exported game (JSON file)", validators=[FileRequired("Choose the exported JSON file of a game.")]
    )


class ActionForm(FlaskForm):
    """A button that changes a game (undo, rematch, delete): CSRF token and the game version seen."""

    version = HiddenField()

    def expected_version(self) -> int | None:
        data = str(self.version.data or "")
        return whole_number(data) if data.isdecimal() else None


class BuyForm(ActionForm):
    """Contract Rummy: one buy more (+1) or less (-1) for a player; the button pressed sends the change."""

    player = HiddenField()
    change = HiddenField()

    def change_value(self) -> int | None:
        data = str(self.change.data or "").strip()
        return int(data) if data in ("1", "-1") else None


class RoundForm(ActionForm):
    went_out = RadioField("Who went out?", validators=[InputRequired("Choose who went out.")], choices=[])
    round_number = HiddenField()  # the round the form was opened for, so a lost race is told apart
    # Contract Rummy with the exact cut: who cut exactly ("" for nobody); the services check the name.
    exact_cut = RadioField("Who cut exactly?", choices=[], validate_choice=False, default="")

    def posted_round(self) -> int | None:
        """The round number the browser sent back (not the default a fresh form gets)."""
        data = str((self.round_number.raw_data or [""])[0])
        return int(data) if data.isdecimal() and len(data) <= 3 else None

    def score_values(self, players: Sequence[str]) -> dict[str, str]:
        return {name: field.data for name, field in zip(players, self["scores"], strict=True)}

    def second_discard_values(self, players: Sequence[str]) -> dict[str, int]:
        return {name: field.data or 0 for name, field in zip(players, self["second_discards"], strict=True)}


def _pot_fields(defaults: dict[str, Any]) -> dict[str, Any]:
    """The pot's switch and amounts in cents (companion.services.pot), for the keys the preset offers."""
    fields: dict[str, Any] = {}
    if "pot" in defaults:
        fields["opt_pot"] = BooleanField(
            "Play for a pot", default=defaults["pot"], description="Amounts in cents; the lowest total takes the pot."
        )
    for key, title in AMOUNT_TITLES.items():
        if key in defaults:
            fields[f"opt_{key}"] = IntegerField(
                title,
                default=defaults[key],
                validators=[Optional(), NumberRange(0, MAX_CENTS, f"a whole number of cents from 0 to {MAX_CENTS}")],
            )
    return fields


def round_form(players: Sequence[str], data: dict[str, Any] | None = None) -> RoundForm:
    """The form for one round's scores: who went out, then card points for each player."""
    scores = FieldList(
        StringField(validators=[InputRequired("Enter the card points (0 if none).")]),
        min_entries=len(players),
        max_entries=len(players),
    )
    pickups = FieldList(  # second discards taken, for the 3-13 pot (companion.services.pot)
        IntegerField(default=0, validators=[Optional(), NumberRange(0, MAX_PICKUPS)]),
        min_entries=len(players),
        max_entries=len(players),
    )
    form_class = type("PlayersRoundForm", (RoundForm,), {"scores": scores, "second_discards": pickups})
    form: RoundForm = form_class(data=data)
    form.went_out.choices = [SelectChoice(name, name) for name in players]
    form.exact_cut.choices = [SelectChoice("", "Nobody"), *(SelectChoice(name, name) for name in players)]
    return form


START_CHOICES = ("highest", "average", "zero", "points")


class PlayersForm(ActionForm):
    """A change of players on the game page (issue 27): which change, and the fields it needs."""

    change = HiddenField()
    old = StringField("Player")
    new = StringField("Right name")
    name = StringField("Name")
    start = StringField("Starts from", default="highest")
    points = StringField("Points")
    leaving = StringField("Player who leaves")

    def start_value(self) -> str | int:
        """The start the table chose: a choice, or the points typed (InvalidInput when they are not a number)."""
        choice = str(self.start.data or "zero")
        if choice != "points":
            return choice
        text = str(self.points.data or "").strip()
        digits = text.removeprefix("-")
        if not digits.isdecimal() or len(digits) > 6:
            raise InvalidInput(f'type the points the new player starts from as a whole number, not "{text[:20]}"')
        return int(text)

    def typed(self) -> dict[str, str]:
        """What was typed, to put back in the forms after a refusal."""
        keys = ("change", "old", "new", "name", "start", "points", "leaving")
        return {key: str(getattr(self, key).data or "") for key in keys}


def buy_in_fields() -> dict[str, Any]:
    """Pool rummy's buy-in, typed as money ("5.00"); companion.services.pool.money_cents reads it."""
    return {
        "buy_in": StringField(
            "Buy-in, each player",
            default="",
            description="Everyone pays it into the pot at the start, and again to rejoin. Leave it empty to play "
            "without money.",
        )
    }
