"""The JSON contract of the app as pydantic models: the single source of truth (issue 12).

- Request bodies (`NewGame`, `RoundEntry`, the Play or Pay events, `CheckRequest`…) validate the
  structure of what a client sends: unknown or missing fields and types. `parse` turns pydantic's
  errors into the API's one sentence (`BodyError`). Rules of the game (who is a player, which
  scores are legal, which options a preset takes) stay in the services and the engine; where a
  limit belongs to them, the schema documents it (``json_schema_extra``) and they enforce it.
- Response models (`Game`, `PlayOrPayGame`, `AnyGame`, `Error`…) describe the answers; the tests
  validate real answers against the OpenAPI document built from them.
- `GameExport` is the export file, written field by field and versioned (`FORMAT_VERSION`): a
  database migration does not change it; changing it means a new version.

This module imports only the engine and pydantic, so every layer can use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    PlainSerializer,
    RootModel,
    SerializerFunctionWrapHandler,
    StrictInt,
    StrictStr,
    ValidationError,
    WithJsonSchema,
    create_model,
    model_serializer,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from engine import play_or_pay as pop
from engine.pot import EntryKind
from engine.rules import ALL_OPTION_SPECS, POOL_OPTION_SPECS, POOL_PRESETS, PRESETS, RUMMY_PRESETS, OptionSpec

PLAY_OR_PAY = "play-or-pay"
MAX_NAME_LENGTH = 40
MAX_CENTS = 100_000
MAX_PICKUPS = 99
EVENT_KINDS = ("play", "pay", "settle", "purchase")

DEALER_WAYS = ("chosen", "random", "high_card", "left_of_scorekeeper")
FORMAT = "card-table-companion/game"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Says:
    """The sentence a refused field gets; ``{input}`` stands for the value sent."""

    sentence: str


class BodyError(ValueError):
    """A request body that does not have the documented structure; the message is one sentence."""


# ================================================================ options


def _option_field(key: str) -> Any:
    spec = ALL_OPTION_SPECS[key]
    if spec.kind == "bool":
        return (bool | None, Field(default=None, description=spec.effect))
    if spec.kind == "choice":
        return (Literal[spec.choices] | None, Field(default=None, description=spec.effect))
    if spec.kind == "rounds":
        return (list[Annotated[int, Field(ge=1)]] | None, Field(default=None, description=spec.effect))
    # Contract Rummy's numbers ("number") and cards dealt per deal ("sizes"): numbers, or the same in words.
    number = Annotated[int, Field(ge=spec.minimum, le=spec.maximum)]
    if spec.kind == "number":
        return (number | str | None, Field(default=None, description=spec.effect))
    return (list[number] | number | str | None, Field(default=None, description=spec.effect))


Cents = Annotated[int, Field(ge=0, le=MAX_CENTS)]


class MoneyOptions(BaseModel):
    """The pot's amounts in cents, and Play or Pay's starting chips."""

    model_config = ConfigDict(extra="forbid")

    pot: bool | None = Field(None, description="Play for a pot: on by default for 3-13; a simple pot elsewhere.")
    ante: Cents | None = Field(None, description="Cents each player pays in at the start (default 50).")
    second_discard: Cents | None = Field(None, description="3-13 only: cents per second discard taken (default 5).")
    knock: Cents | None = Field(None, description="3-13 only: cents the knocker takes each round (default 15).")
    booby_cap: Cents | None = Field(None, description="3-13 only: most cents of the booby prize (default 50).")
    chips: Annotated[int, Field(ge=1, le=pop.MAX_CHIPS)] | None = Field(
        None, description=f"Play or Pay only: starting chips (default {pop.DEFAULT_CHIPS})."
    )


Options: type[BaseModel] = create_model(
    "Options",
    __base__=MoneyOptions,
    __doc__="House-rule options, one field per option of the engine's registry, and the money options; "
    "a game's state always lists every option of its kind.",
    **{key: _option_field(key) for key in ALL_OPTION_SPECS},
)


MAX_BUY_IN = 100_000_00
"""The largest pool buy-in in cents (companion.services.pool.MAX_BUY_IN, which checks it)."""


def _pool_option_field(spec: OptionSpec) -> Any:
    if spec.kind == "bool":
        return (bool | None, Field(default=None, description=spec.effect))
    if spec.kind == "choice":
        return (Literal[spec.choices] | None, Field(default=None, description=spec.effect))
    number = Annotated[int, Field(ge=spec.minimum, le=spec.maximum)]
    if spec.kind == "limit":  # a number, or its word for none ("off", "unlimited")
        return (number | Literal[spec.none_word] | None, Field(default=None, description=spec.effect))
    return (number | None, Field(default=None, description=spec.effect))


class PoolMoney(BaseModel):
    """Pool rummy's one money setting."""

    model_config = ConfigDict(extra="forbid")

    buy_in: Annotated[int, Field(ge=0, le=MAX_BUY_IN)] | None = Field(
        None, description="Cents each player pays into the pot at the start, and again at each rejoin (default 0)."
    )


PoolOptions: type[BaseModel] = create_model(
    "PoolOptions",
    __base__=PoolMoney,
    __doc__="Pool rummy's house options (RULES.md 11.5) and its buy-in; a game's state lists every one.",
    **{key: _pool_option_field(spec) for key, spec in POOL_OPTION_SPECS.items()},
)


class AnyOptions(RootModel[Options | PoolOptions]):
    """The options of a new game: a rummy game's or Play or Pay's (Options), or pool rummy's (PoolOptions)."""


@dataclass(frozen=True)
class DocumentedAs:
    """Documents a field validated as a plain JSON object by a model whose rules the services apply."""

    model: type[BaseModel]
    nullable: bool = False

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        documented = self.model.__pydantic_core_schema__
        return handler(core_schema.nullable_schema(documented) if self.nullable else documented)


# ================================================================ request bodies


class Body(BaseModel):
    """A request body: no unknown fields, no conversions between JSON types."""

    model_config = ConfigDict(extra="forbid", strict=True)

    has: ClassVar[str] = "the body has"
    """Starts the sentence listing the fields, after an unknown one: 'a game has'."""
    missing: ClassVar[str | None] = None
    """The sentence for a missing required field ({field}); None uses the field's own sentence."""


Version = Annotated[
    StrictInt | None,
    Says("version must be a whole number"),
    Field(description="Optional: the game version the client saw; a different one answers 409."),
]
Melds = list[Annotated[StrictStr, Field(examples=["4H 5H 6H"])]]


class NewGame(Body):
    """Start a game."""

    has: ClassVar[str] = "a game has"
    missing: ClassVar[str | None] = "a game needs a variant and a list of players"

    variant: Annotated[
        StrictStr,
        Says("variant must be a preset id such as pay-me"),
        Field(json_schema_extra={"enum": list(PRESETS)}),
    ]
    players: Annotated[
        list[Annotated[StrictStr, Field(json_schema_extra={"minLength": 1, "maxLength": MAX_NAME_LENGTH})]],
        Says("players must be a list of names"),
        Field(description="Unique names in seat order (clockwise).", json_schema_extra={"minItems": 2}),
    ]
    options: Annotated[
        dict[str, Any] | None,
        Says("options must be an object of house-rule options"),
        DocumentedAs(AnyOptions, nullable=True),
        Field(
            description="House rules; each preset says which it takes (the engine checks them). Pool rummy's "
            "buy-in (cents) is given here too."
        ),
    ] = None
    first_dealer: Annotated[
        StrictStr | None,
        Says("first_dealer must be a player's name"),
        Field(description="A player's name; left out or null draws one at random."),
    ] = None
    first_dealer_method: Annotated[
        Annotated[StrictStr, Field(json_schema_extra={"enum": list(DEALER_WAYS)})] | None,
        Says('first_dealer_method must be "chosen", "random", "high_card" or "left_of_scorekeeper"'),
        Field(
            description="How the table picked the first dealer (recorded; the game page says it): chosen and "
            "high_card need first_dealer (for high_card, the player who won the draw: King high, Ace low, ties "
            "draw again); random draws one; left_of_scorekeeper (3-13 only) needs scorekeeper. Left out: "
            "chosen when first_dealer is given, else random.",
        ),
    ] = None
    scorekeeper: Annotated[
        StrictStr | None,
        Says("scorekeeper must be a player's name"),
        Field(description="The score keeper's name, for first_dealer_method left_of_scorekeeper."),
    ] = None
    group: Annotated[
        StrictStr | None,
        Says("group must be a group's id"),
        Field(description="Start the game in this group; needs the group's key in X-Group-Key."),
    ] = None


ScoreValue = Annotated[
    Any,
    Field(json_schema_extra={"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "examples": ["10+5"]}]}),
]
Count = Annotated[Any, Field(json_schema_extra={"type": "integer", "minimum": 0})]


class RoundEntry(Body):
    """A round to score, or a correction of one: every player needs a score, typed in scores or
    worked out from their cards in hands."""

    has: ClassVar[str] = "a round has"

    went_out: Annotated[
        StrictStr,
        Says("went_out must be the name of the player who went out"),
        Field(description="The player who went out; their points must be 0."),
    ]
    scores: Annotated[
        dict[str, ScoreValue] | None,
        Says("scores must be an object of card points by player name"),
        Field(description="Card points by player, before the multiplier: a whole number, or a sum like '10+5'."),
    ] = None
    hands: Annotated[
        dict[str, StrictStr] | None,
        Says('hands must be an object of cards by player name, such as {"Ann": "7H 8H 9D"}'),
        Field(
            description="Cards by player, in place of their score: the engine scores the best arrangement "
            "(D7), with lay-offs onto the declarer's melds. A player in both scores and hands is a 400. The "
            "player who went out may give a plain hand (all cards must meld, with or without a discard as "
            "the preset says, else 400 with the engine's reason) or melds separated by '|'. The round keeps "
            "the cards in canonical notation and returns them as hands.",
            examples=[{"Ann": "7H 8C KS", "Bob": "4H 5H 6H | 9C 9D 9S"}],
        ),
    ] = None
    declarer: Annotated[
        Melds | None,
        Says('declarer must be a list of melds, such as ["4H 5H 6H", "9C 9D 9S"]'),
        Field(
            description="The melds of the player who went out (all their cards; each must be legal and "
            "together they must go out). Lay-offs onto them count when scoring hands. Do not also give the "
            "declarer in hands.",
        ),
    ] = None
    second_discards: Annotated[
        dict[str, Annotated[Any, Field(json_schema_extra={"type": "integer", "minimum": 0, "maximum": MAX_PICKUPS})]]
        | None,
        Says("second_discards must be an object of counts by player name"),
        Field(
            description="Second discards each player took this round (3-13 pot); players left out took none. "
            "When a correction leaves it out, the round keeps its earlier counts."
        ),
    ] = None
    exact_cut: Annotated[
        StrictStr | None,
        Says("exact_cut must be the name of the player who cut exactly"),
        Field(
            description="Contract Rummy with the exact cut: the player who cut exactly the cards needed for the "
            "deal; they score -50 that deal. When a correction leaves it out, the round keeps its earlier "
            'value; "" says nobody did.',
        ),
    ] = None
    version: Version = None


class BuyChange(Body):
    """Contract Rummy: count one buy more or one less for a player in the deal being played."""

    has: ClassVar[str] = "a buy has"
    missing: ClassVar[str | None] = "a buy needs a player and a change of 1 or -1"

    player: Annotated[StrictStr, Says("player must be a player's name")]
    change: Annotated[
        StrictInt,
        Says("change must be 1 (one buy more) or -1 (one buy less)"),
        Field(json_schema_extra={"enum": [1, -1]}, description="1 for a buy made, -1 to take one back."),
    ] = 1
    version: Version = None


class Rename(Body):
    """A player's name as it was, and as it should be."""

    has: ClassVar[str] = "a rename has"

    from_: Annotated[StrictStr, Says("rename.from must be a player's name"), Field(alias="from", examples=["Bbo"])]
    to: Annotated[StrictStr, Says("rename.to must be a player's name"), Field(examples=["Bob"])]


StartScore = Annotated[
    Literal["highest", "average", "zero"] | StrictInt | None,
    Says('start must be "highest", "average", "zero" or a whole number of points'),
    Field(
        description="What a late player's score starts from: the highest or the average (rounded half up) of the "
        "totals of the players at the table, zero (the default), or a number of points."
    ),
]


class PlayerChange(Body):
    """One change of players between rounds (issue 27): rename a player everywhere, seat a late player
    left of the next round's dealer, or take a player out from the next round."""

    has: ClassVar[str] = "a change of players has"

    rename: Annotated[
        Rename | None,
        Says('rename must be an object such as {"from": "Bbo", "to": "Bob"}'),
        Field(
            description="Rename a player everywhere: standings, history, sheets, exports, the group's records. "
            "Names stay unique, whatever their case."
        ),
    ] = None
    add: Annotated[
        StrictStr | None,
        Says("add must be the new player's name"),
        Field(
            description="Seat a late player left of the dealer of the next round; a 3-13 pot collects the ante "
            "from them. The preset's player limit holds.",
            examples=["Eve"],
        ),
    ] = None
    start: StartScore = None
    remove: Annotated[
        StrictStr | None,
        Says("remove must be the name of the player who leaves"),
        Field(
            description="Take a player out from the next round: their past rounds and money stay, they no longer "
            "deal or score, and the standings show them as left.",
            examples=["Cy"],
        ),
    ] = None
    version: Version = None


class Event(Body):
    """A Play or Pay event."""

    kind: ClassVar[str]


Player = Annotated[StrictStr, Says("player must be a player's name")]


class PlayEvent(Event):
    """A card played (a lead when no card is needed)."""

    kind: ClassVar[str] = "play"
    has: ClassVar[str] = "a play event has"

    type: Literal["play"]
    player: Player
    card: Annotated[StrictStr, Says('card must be a card such as "7H"'), Field(examples=["7H"])]
    version: Version = None


class PayEvent(Event):
    """A chip paid into the pot instead of playing."""

    kind: ClassVar[str] = "pay"
    has: ClassVar[str] = "a pay event has"

    type: Literal["pay"]
    player: Player
    version: Version = None


class SettleEvent(Event):
    """A whole hand entered in quick mode."""

    kind: ClassVar[str] = "settle"
    has: ClassVar[str] = "a settle event has"

    type: Literal["settle"]
    winner: Annotated[StrictStr, Says("winner must be a player's name")]
    cards_left: Annotated[
        dict[str, Count],
        Says("cards_left must be an object of counts by player name"),
        Field(description="Every player's cards at the end (the winner's may be left out)."),
    ]
    paid: Annotated[
        dict[str, Count],
        Says("paid must be an object of counts by player name"),
        Field(description="Chips each paid during play; players left out paid none."),
    ] = Field(default_factory=dict)
    replaces: Annotated[
        Count,
        Says("replaces must be a whole number of events"),
        Field(
            description="Quick mode midway: the number of cards and chips already recorded in the hand, all of "
            "which the hand entered replaces (the table confirmed it). 0 or left out for a hand not yet begun."
        ),
    ] = 0
    version: Version = None


class PurchaseEvent(Event):
    """Chips a player buys from the table, before the first hand or between hands (D17)."""

    kind: ClassVar[str] = "purchase"
    has: ClassVar[str] = "a purchase event has"

    type: Literal["purchase"]
    player: Player
    chips: Annotated[
        Any,
        Field(
            description="Chips bought; the engine refuses a purchase while a hand is being played.",
            json_schema_extra={"type": "integer", "minimum": 1, "maximum": pop.MAX_CHIPS},
        ),
    ]
    version: Version = None


EVENTS: dict[str, type[Event]] = {model.kind: model for model in (PlayEvent, PayEvent, SettleEvent, PurchaseEvent)}
EVENT_TYPE_ERROR = 'type must be "play", "pay", "settle" or "purchase"'


class PlayOrPayEvent(
    RootModel[Annotated[PlayEvent | PayEvent | SettleEvent | PurchaseEvent, Field(discriminator="type")]]
):
    """One event: a card played (or led), a chip paid, a hand entered in quick mode, or chips bought."""


class EndGame(Body):
    """End a Play or Pay game (D17), or split a pool game's pot; the body may be left out for Play or Pay."""

    has: ClassVar[str] = "ending a game takes"

    version: Version = None
    split: Annotated[
        Annotated[StrictStr, Field(json_schema_extra={"enum": ["drops", "equal", "amounts"]})] | None,
        Says('split must be "drops", "equal" or "amounts"'),
        Field(description="Pool rummy only: how the players still in share the pot (every one of them agrees)."),
    ] = None
    shares: Annotated[
        dict[str, StrictInt] | None,
        Says("shares must be an object of whole cents by the name of each player still in"),
        Field(
            description='Pool rummy, with split "amounts": each player still in and their cents, summing to the pot.'
        ),
    ] = None


PoolResult = Annotated[
    Any,
    Field(
        json_schema_extra={
            "anyOf": [
                {"type": "string", "enum": ["win", "drop", "middle", "full", "wrong"]},
                {"type": "integer", "minimum": 0},
            ]
        }
    ),
]


class PoolDeal(Body):
    """One deal of pool rummy (RULES.md 11.3): a result for every player still in, and the card cut."""

    has: ClassVar[str] = "a deal has"
    missing: ClassVar[str | None] = "a deal needs results: one for every player still in"

    results: Annotated[
        dict[str, PoolResult],
        Says("results must be an object of each player's result"),
        Field(description='Each player still in: "win" (one per deal), "drop", "middle", "full", "wrong" or a count.'),
    ]
    cut: Annotated[
        StrictStr | None,
        Says('cut must be a card such as "7H", or "JK" for a printed joker'),
        Field(description="The card cut after the deal (its rank is wild); optional, kept for the sheet."),
    ] = None
    wild: Annotated[
        StrictStr | None,
        Says('wild must be a rank such as "7" or "A", or "none"'),
        Field(description="Instead of the card cut: only the deal's wild rank (or none); optional."),
    ] = None
    version: Version = None


class PoolRejoin(Body):
    """A player put out by the last deal buys back in (RULES.md 11.4)."""

    has: ClassVar[str] = "a rejoin has"
    missing: ClassVar[str | None] = "a rejoin needs the player who buys back in"

    player: Annotated[StrictStr, Says("player must be a player's name")]
    version: Version = None


CheckRound = Annotated[
    StrictInt, Says('round must be a whole number, not "{input}"'), Field(json_schema_extra={"minimum": 1})
]
CheckRoundOrPool = Annotated[
    StrictInt | None,
    Says('round must be a whole number, not "{input}"'),
    Field(
        description="The round; pool rummy has none (left out, or null) and takes cut or wild instead.",
        json_schema_extra={"minimum": 1},
    ),
]
PoolCut = Annotated[
    StrictStr | None,
    Says('cut must be a card such as "7H", or "JK" for a printed joker'),
    Field(description="Pool rummy: the card cut (its rank is wild; JK makes the aces wild); not with wild."),
]
PoolWild = Annotated[
    StrictStr | None,
    Says('wild must be a rank such as "7" or "A", or "none"'),
    Field(description="Pool rummy: the deal's wild rank (or none), instead of cut."),
]
CheckVariant = Annotated[StrictStr, Says("variant must be a preset id such as pay-me"), Field(examples=["pay-me"])]
CheckOptions = Annotated[
    dict[str, Any] | list[StrictStr] | None,
    Says('options must be an object such as {"full_cycle": true}'),
    Field(description='House rules: an object such as {"full_cycle": true}, or the command line\'s KEY=VALUE strings.'),
]
CheckPlayers = Annotated[
    StrictInt | None,
    Says("players must be a whole number"),
    Field(
        description="Optional: the decks in play follow from it (RULES.md 1); left out or null means the "
        "preset's largest table. Each preset takes its own range of players.",
        json_schema_extra={
            "minimum": min(PRESETS[name].min_players for name in RUMMY_PRESETS),
            "maximum": max(PRESETS[name].max_players for name in RUMMY_PRESETS),
        },
    ),
]
Cards = Annotated[StrictStr, Field(examples=["7H 8H JK"])]
DeclarerHand = Annotated[
    StrictStr | None,
    Says("declarer_hand must be a string of cards"),
    Field(
        description="The declarer's cards in place of declarer: melds split by '|' (exact), or a loose hand the "
        "engine splits into the fewest melds, each keeping every legal reading until a lay-off needs one. "
        "Not together with declarer.",
        examples=["5H JK 6H | 9C 9D 9S"],
    ),
]


class Command(Body):
    """The body of a command of the meld checker, named like ``python -m engine <command>``."""

    command: ClassVar[str]

    @classmethod
    def required(cls) -> list[str]:
        return [name for name, field in cls.model_fields.items() if field.is_required()]


class PoolCommand(Command):
    """A command that also judges pool rummy (RULES.md 11.6): there the round may be left out."""

    @model_validator(mode="before")
    @classmethod
    def _no_round_in_pool(cls, body: Any) -> Any:
        if isinstance(body, dict) and "round" not in body and body.get("variant") in POOL_PRESETS:
            return {**body, "round": None}
        return body


class CheckRequest(PoolCommand):
    """Judge melds."""

    command: ClassVar[str] = "check"
    has: ClassVar[str] = "check takes"
    missing: ClassVar[str | None] = "check needs variant, round, melds; {field} is missing"

    variant: CheckVariant
    round: CheckRoundOrPool
    melds: Annotated[Melds, Says('melds must be a list of melds, each a string such as "4H 5H 6H"')]
    options: CheckOptions = None
    players: CheckPlayers = None
    cut: PoolCut = None
    wild: PoolWild = None


class BestRequest(PoolCommand):
    """The lowest-penalty arrangement of a hand."""

    command: ClassVar[str] = "best"
    has: ClassVar[str] = "best takes"
    missing: ClassVar[str | None] = "best needs variant, round, hand; {field} is missing"

    variant: CheckVariant
    round: CheckRoundOrPool
    hand: Annotated[Cards, Says("hand must be a string of cards")]
    options: CheckOptions = None
    players: CheckPlayers = None
    declarer: Annotated[Melds, Says('declarer must be a list of melds, each a string such as "4H 5H 6H"')] = Field(
        default_factory=list
    )
    declarer_hand: DeclarerHand = None
    cut: PoolCut = None
    wild: PoolWild = None


class LayoffRequest(Command):
    """Judge one lay-off onto the declarer's meld number onto (from 1)."""

    command: ClassVar[str] = "layoff"
    has: ClassVar[str] = "layoff takes"
    missing: ClassVar[str | None] = "layoff needs variant, round, declarer, onto, cards; {field} is missing"

    variant: CheckVariant
    round: CheckRound
    declarer: Annotated[Melds, Says('declarer must be a list of melds, each a string such as "4H 5H 6H"')] = Field(
        default_factory=list, description="The declarer's melds; or give declarer_hand."
    )
    onto: Annotated[
        StrictInt, Says('onto must be a meld number, not "{input}"'), Field(json_schema_extra={"minimum": 1})
    ]
    cards: Annotated[Cards, Says("cards must be a string of cards")]
    options: CheckOptions = None
    players: CheckPlayers = None
    declarer_hand: DeclarerHand = None
    table: Annotated[Melds, Says('table must be a list of melds, each a string such as "4H 5H 6H 7H"')] = Field(
        default_factory=list,
        description="Where cards may be laid off onto any meld on the table (Contract Rummy): every meld on the "
        "table, in place of declarer; onto numbers them from 1.",
    )


class ContractRequest(Command):
    """Whether melds, as given, are exactly the deal's contract (Contract Rummy's going down)."""

    command: ClassVar[str] = "contract"
    has: ClassVar[str] = "contract takes"
    missing: ClassVar[str | None] = "contract needs variant, round, melds; {field} is missing"

    variant: CheckVariant
    round: CheckRound
    melds: Annotated[Melds, Says('melds must be a list of melds, each a string such as "4H 5H 6H 7H"')]
    options: CheckOptions = None
    players: CheckPlayers = None
    left: Annotated[
        StrictInt | None,
        Says('left must be a number of cards, not "{input}"'),
        Field(
            description="Optional, as the command line's --left: the cards left in hand after going down "
            "(the last deal needs 0: going out with no discard).",
            json_schema_extra={"minimum": 0},
        ),
    ] = None


# ---------------------------------------------------------------- the translator

_ORDER = {"extra_forbidden": 0, "missing": 1}
BodyT = TypeVar("BodyT", bound=Body)


def sentence(error: ValidationError, model: type[Body]) -> str:
    """Pydantic's first error as the API's one sentence: unknown fields first, then missing ones."""
    first = min(error.errors(include_url=False), key=lambda item: _ORDER.get(item["type"], 2))
    field = str(first["loc"][0]) if first["loc"] else ""
    if first["type"] == "extra_forbidden":
        return f'unknown field "{field[:40]}"; {model.has} {", ".join(model.model_fields)}'
    if first["type"] == "missing" and model.missing is not None:
        return model.missing.replace("{field}", field)
    info = model.model_fields.get(field)
    says = next((item for item in info.metadata if isinstance(item, Says)), None) if info else None
    if says is None:
        return f"{field} {first['msg'][:1].lower()}{first['msg'][1:]}".strip()
    return says.sentence.replace("{input}", str(first.get("input"))[:40])


def parse(model: type[BodyT], body: object) -> BodyT:
    """The body as the model, or BodyError with one sentence."""
    try:
        return model.model_validate(body)
    except ValidationError as error:
        raise BodyError(sentence(error, model)) from None


def parse_event(body: dict[str, Any]) -> Event:
    """A Play or Pay event by its "type"."""
    model = EVENTS.get(body["type"]) if isinstance(body.get("type"), str) else None
    if model is None:
        raise BodyError(EVENT_TYPE_ERROR)
    return parse(model, body)


# ================================================================ answers


class Error(BaseModel):
    """Every refusal: one sentence; a 409 also carries the game as stored now."""

    error: str = Field(description="One sentence saying what was wrong.")
    current: dict[str, Any] | None = Field(
        default=None, description="On 409 only: the game's state as stored now, so the client can show it."
    )


Names = dict[str, int]


class PlayedRound(BaseModel):
    round: int
    cards: int
    wild: list[str] = Field(examples=[["JK", "2", "3"]])
    multiplier: int
    dealer: str
    went_out: str
    scores: dict[str, Annotated[int, Field(ge=0)]] = Field(description="Card points entered.")
    points: dict[str, int] = Field(
        description="Points on the sheet, after the multiplier (Contract Rummy: with -50 for an exact cut)."
    )
    hands: dict[str, str] | None = Field(None, description="The cards entered, when the engine scored them.")
    contract: list[Literal["set", "run"]] | None = Field(None, description="Contract Rummy: the deal's contract.")
    buys: Names | None = Field(None, description="Contract Rummy: buys each player made in the deal (when any).")
    exact_cut: str | None = Field(None, description="Contract Rummy: the player who cut exactly (when any).")


class NextRound(BaseModel):
    round: int
    cards: int
    wild: list[str]
    multiplier: int
    dealer: str
    first_player: str
    decks: int
    jokers: int
    contract: list[Literal["set", "run"]] | None = Field(
        None, description="Contract Rummy: the melds a player must lay down to go down this deal, in order."
    )
    no_final_discard: bool | None = Field(
        None, description="Contract Rummy: whether going out this deal needs no final discard (deal 7)."
    )


class PotEntry(BaseModel):
    round: int | None = Field(description="Null for the ante and the end payouts.")
    player: str | None
    kind: EntryKind
    amount: int = Field(description="Cents: positive paid into the pot, negative paid out.")


class Pot(BaseModel):
    """The pot, rebuilt from the rounds: sum(net) + balance = 0."""

    balance: int = Field(description="Cents in the pot now.")
    ledger: list[PotEntry]
    net: Names = Field(description="Cents each player received from the pot minus paid into it.")


class PlayerChangeDone(BaseModel):
    """A change of players as the game keeps it."""

    kind: Literal["rename", "add", "remove"]
    round: int = Field(description="The round (Play or Pay: the hand) the change was made before.")
    unit: Literal["hand", "deal"] | None = Field(
        None, description='Play or Pay: "hand"; pool rummy: "deal" (left out for rounds).'
    )
    event: int | None = Field(None, description="Play or Pay: the number of the join or leave event.")
    words: str = Field(description="The change in words, as the history shows it.")
    at: str | None = Field(None, description="When it was made (UTC).")
    undone_at: str | None = Field(None, description="When it was undone (UTC); left out while it stands.")
    name: str | None = Field(None, description="add and remove: the player.")
    start: int | None = Field(None, description="add: the points the player started from.")
    choice: str | None = Field(
        None, description='add: "highest", "average", "zero", "points", or "chips" (Play or Pay).'
    )
    from_: str | None = Field(None, alias="from", description="rename: the name it had.")
    to: str | None = Field(None, description="rename: the name it has.")


class Game(BaseModel):
    """A game played in rounds; a Play or Pay game is a PlayOrPayGame."""

    id: str
    variant: str
    options: Annotated[dict[str, Any], DocumentedAs(Options)]
    players: list[str]
    rounds: list[PlayedRound]
    totals: Names
    next_round: NextRound | None
    finished: bool
    winners: list[str] = Field(description="Empty until the game is finished; then the lowest totals (ties share).")
    version: int | None = None
    pot: Pot | None = Field(None, description="Null when the game has no pot.")
    group: str | None = Field(None, description="The id of the group that plays the game; null when none.")
    buys: Names | None = Field(
        None, description="Contract Rummy: each player's buys in the deal being played (left out for other games)."
    )
    buy_limit: int | None = Field(None, description="Contract Rummy: the most buys a player may make in a deal.")
    left: list[str] | None = Field(
        None,
        description="Players who left the table (issue 27): their totals and money stay; `players` lists those "
        "who play the next round. Left out while the players never changed.",
    )
    player_changes: list[PlayerChangeDone] | None = Field(
        None, description="Joins, leaves and renames in order, undone ones included. Left out while there are none."
    )


class ChipEntry(BaseModel):
    hand: int | None = Field(description="Null for the buy-in.")
    player: str
    kind: pop.ChipKind
    amount: int


class HandNow(BaseModel):
    """The hand being played."""

    number: int
    dealer: str
    turn: str
    lead: bool = Field(description="Whether the player to act starts a new sequence.")
    needed: str | None = Field(examples=["7H"])
    sequence_start: str | None
    suits_played: list[str]
    played: list[str]
    dealt: Names
    cards_left: Names
    paid: Names
    pot: int


class SettledHand(BaseModel):
    number: int
    dealer: str
    winner: str | None
    quick: bool
    payments: Names = Field(description="Chips each player won (+) or paid (-) in the hand.")
    pot: int
    entries: list[ChipEntry]


class Flag(BaseModel):
    hand: int
    player: str
    card: str
    message: str


class PlayOrPayOptions(BaseModel):
    chips: Annotated[int, Field(ge=1, le=pop.MAX_CHIPS)]


class PlayOrPayGame(BaseModel):
    """A Play or Pay game, rebuilt from its events: chips + hand.pot = chips bought."""

    id: str
    variant: Literal["play-or-pay"]
    options: PlayOrPayOptions
    players: list[str]
    first_dealer: str | None = None
    chips: Names = Field(description="Each player's chips now; below zero is owed.")
    hand: HandNow
    hands: list[SettledHand]
    flags: list[Flag]
    ledger: list[ChipEntry] | None = None
    events: int | None = None
    finished: bool | None = Field(None, description="Whether the table has ended the game.")
    bought: Names | None = Field(None, description="Chips each player bought: the starting stack and purchases.")
    results: Names | None = Field(
        None, description="Each player's result over the settled hands: chips held minus chips bought; sums to 0."
    )
    version: int | None = None
    group: str | None = Field(None, description="The id of the group that plays the game; null when none.")
    left: list[str] | None = Field(
        None,
        description="Players who left between hands (issue 27): their chips and results stay. Left out while none.",
    )
    player_changes: list[PlayerChangeDone] | None = Field(
        None, description="Joins, leaves and renames in order, undone ones included. Left out while there are none."
    )


class PoolDealRow(BaseModel):
    """A deal of pool rummy as played."""

    number: int
    dealer: str
    cut: str | None = Field(description='The card cut ("7H", "JK"), when the table entered it.')
    wild: str | None = Field(description='Else the wild rank entered ("7", "A", "none"), if any.')
    results: dict[str, str | int] = Field(
        description='Each player\'s result as entered: "win", "drop", "middle", "full", "wrong" or a count.'
    )
    points: Names = Field(description="What each result scored.")
    totals: Names = Field(description="Every player's total after the deal and its rejoins.")
    put_out: list[str] = Field(description="The players the deal put out.")
    rejoined: list[str] = Field(description="The players who bought back in straight after it.")


class PoolSplit(BaseModel):
    method: Literal["drops", "equal", "amounts"]
    shares: Names = Field(description="Cents each player still in took from the pot.")


class PoolGame(BaseModel):
    """A pool rummy game (RULES.md 11), rebuilt from its deals, rejoins and split: the standings of
    ``python -m engine pool-game`` for the same record, the deals played, and what may happen next."""

    id: str
    variant: Literal["pool-101", "pool-201"]
    options: PoolOptions
    players: list[str] = Field(description="Seat order, those who are out included.")
    first_dealer: str
    totals: Names
    in_: list[str] = Field(alias="in", description="The players still in, in seat order.")
    out: list[str] = Field(description="The players who are out.")
    rejoins: Names = Field(description="How many times each player bought back in.")
    drops_left: Names = Field(description="Each player still in: first drops they could still take and stay in.")
    pot: int = Field(description="Cents in the pot: every buy-in and rejoin.")
    paid: Names = Field(description="Cents each player paid into the pot.")
    dealer: str | None = Field(description="Who deals next; null once the game is over.")
    winner: str | None = Field(description="The last player left, who takes the pot; null otherwise.")
    split: PoolSplit | None = Field(description="How the pot was shared, when the players still in split it.")
    nets: Names | None = Field(description="Once the game is over: cents each took minus paid; they sum to 0.")
    may_rejoin: dict[str, str | None] = Field(
        description="Each player the last deal put out: null when they may rejoin now, else why not."
    )
    deals: list[PoolDealRow]
    events: int = Field(description="Deals, rejoins and the split recorded (at most 1,000).")
    finished: bool
    version: int | None = None
    group: str | None = Field(None, description="The id of the group that plays the game; null when none.")
    player_changes: list[PlayerChangeDone] | None = Field(
        None, description="Renames of misspelt names, in order, undone ones included. Left out while there are none."
    )


class EditKey(BaseModel):
    edit_key: str = Field(description="Send as X-Edit-Key to change the game.")


class CreatedGame(Game, EditKey):
    """A new game played in rounds, with its edit key."""


class CreatedPlayOrPayGame(PlayOrPayGame, EditKey):
    """A new Play or Pay game, with its edit key."""


class CreatedPoolGame(PoolGame, EditKey):
    """A new pool rummy game, with its edit key."""


class AnyGame(RootModel[Game | PlayOrPayGame | PoolGame]):
    """A game of any kind: played in rounds, Play or Pay, or pool rummy."""


class AnyCreatedGame(RootModel[CreatedGame | CreatedPlayOrPayGame | CreatedPoolGame]):
    """A new game of any kind, with its edit key."""


class GameSummary(BaseModel):
    id: str
    variant: str
    players: list[str]
    rounds_played: int
    finished: bool


class GameList(BaseModel):
    games: list[GameSummary] = Field(description="A page of games, the most recently played first.")
    page: int = Field(description="The page given, from 1.")
    next_page: int | None = Field(description="The next page, or null on the last.")


class Deleted(BaseModel):
    deleted: str


class GameVersion(BaseModel):
    id: str
    version: int


class NewKey(BaseModel):
    edit_key: str = Field(description="The new key.")


class CheckAnswer(RootModel[dict[str, Any]]):
    """Exactly what ``python -m engine check|best|layoff`` prints for the same arguments."""


# ================================================================ the export file


class Row(BaseModel):
    """A row of a table that belongs to a game, without its id and game_id."""

    model_config = ConfigDict(extra="forbid")


def utc_text(moment: datetime) -> str:
    """A stored time (naive, in UTC) as ISO 8601 with its zone: ``2026-11-21T09:30:00Z``.

    >>> utc_text(datetime(2026, 11, 21, 9, 30))
    '2026-11-21T09:30:00Z'
    """
    aware = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return aware.isoformat().replace("+00:00", "Z")


UtcDateTime = Annotated[
    datetime,
    PlainSerializer(utc_text, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
"""A date and time that an export writes in UTC with ``Z`` (an import also reads it without a zone)."""


class ExportedGame(Row):
    """The game's own values; an import gives it a new id, a new edit key and a new version count."""

    variant: str
    options: dict[str, Any]
    players: list[str] = Field(description="Seat order.")
    first_dealer: int = Field(description="The seat (0 for the first player) of round 1's dealer.")
    finished: bool = False
    created_at: UtcDateTime | None = None
    updated_at: UtcDateTime | None = None
    money: dict[str, Any] | None = Field(
        None, description="The pot's settings, Play or Pay's chips, or pool rummy's {\"buy_in\": cents}."
    )
    dealing: dict[str, Any] | None = Field(
        None,
        exclude_if=lambda value: value is None,  # files written before it was recorded read and write back as they were
        description='How the first dealer was chosen: {"method": "chosen"|"random"|"high_card"|'
        '"left_of_scorekeeper"}, with "scorekeeper" (a player\'s name) for the last. Left out when not recorded.',
    )
    group_id: str | None = Field(
        None,
        description="The group that played the game (left out when none); an import keeps it only "
        "with the group's key in X-Group-Key.",
    )
    buys: dict[str, int] | None = Field(
        None,
        exclude_if=lambda value: value is None,
        description="Contract Rummy: buys each player used in the deal being played (left out when none).",
    )
    seating: dict[str, Any] | None = Field(
        None,
        exclude_if=lambda value: value is None,
        description='Players who joined late, left or were renamed: {"table": {"seats": [{"name", "joined", '
        '"left", "start"}], "first_dealer"}, "changes": [...]}; players then lists those at the table for the '
        "next round. Left out while the players never changed.",
    )

    @model_serializer(mode="wrap")
    def _loose_game_has_no_group(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A loose game's export is written as before groups (format version 1 unchanged)."""
        data: dict[str, Any] = handler(self)
        if data.get("group_id") is None:
            data.pop("group_id", None)
        return data


def _left_out(value: object) -> bool:
    """Contract Rummy's fields are written only when they hold something: other games' files stay as before."""
    return value is None


BUYS_TEXT = "Contract Rummy: buys each player used in the deal (left out when none)."
EXACT_CUT_TEXT = "Contract Rummy: the player who cut exactly and scored -50 that deal (left out when none)."


class ExportedRound(Row):
    number: int
    went_out: str
    scores: dict[str, int]
    second_discards: dict[str, int] | None = None
    hands: dict[str, str] | None = None
    created_at: UtcDateTime | None = None
    buys: dict[str, int] | None = Field(None, exclude_if=_left_out, description=BUYS_TEXT)
    exact_cut: str | None = Field(None, exclude_if=_left_out, description=EXACT_CUT_TEXT)


class ExportedRevision(Row):
    """Earlier values of a round, kept when it was corrected or undone."""

    number: int
    action: Literal["corrected", "undone"]
    went_out: str
    scores: dict[str, int]
    second_discards: dict[str, int] | None = None
    hands: dict[str, str] | None = None
    changed_at: UtcDateTime | None = None
    buys: dict[str, int] | None = Field(None, exclude_if=_left_out, description=BUYS_TEXT)
    exact_cut: str | None = Field(None, exclude_if=_left_out, description=EXACT_CUT_TEXT)


class ExportedEvent(Row):
    number: int
    kind: Literal["play", "pay", "settle", "purchase", "join", "leave", "deal", "rejoin", "end"] = Field(
        description="Play or Pay: play, pay, settle, purchase, join, leave; pool rummy: deal, rejoin, end."
    )
    data: dict[str, Any] = Field(
        description="The event's fields, without type and version. Pool rummy: a deal's "
        '{"results": {name: result}, "cut"?: card, "wild"?: rank}, a rejoin\'s {"player"}, the end\'s '
        '{"split", "shares"?}.'
    )
    created_at: UtcDateTime | None = None


class ExportedDispute(Row):
    """A check made at the table; chain_id and result.chain hold the 1-based position of the
    "declarer" check that started a lay-off chain, not an id."""

    round_number: int
    kind: Literal["meld", "declarer", "layoff", "hand"]
    player: str | None = None
    cards: list[str]
    valid: bool = False
    reason: str | None = None
    result: dict[str, Any] | None = None
    chain_id: int | None = None
    created_at: UtcDateTime | None = None


class ExportedTables(Row):
    """Rows by table name, in the order stored."""

    disputes: list[ExportedDispute] = []
    game_events: list[ExportedEvent] = []
    round_revisions: list[ExportedRevision] = []
    rounds: list[ExportedRound] = []


class GameExport(BaseModel):
    """A whole game. Dates are ISO 8601 (UTC, no zone). `derived` (state, totals, ledger) is
    read-only; an import ignores it."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["card-table-companion/game"]
    format_version: Literal[1]
    game: ExportedGame
    tables: ExportedTables = ExportedTables()
    derived: dict[str, Any] | None = Field(None, description="Read-only: the game state, totals, winners, ledger.")


EXPORTED_TABLES: dict[str, type[Row]] = {
    name: field.annotation.__args__[0]  # type: ignore[union-attr]
    for name, field in ExportedTables.model_fields.items()
}
"""The export's row model of each table, by table name."""


# ================================================================ groups (issue 14)


class NewGroup(Body):
    """Start a group: the people who play together."""

    has: ClassVar[str] = "a group has"
    missing: ClassVar[str | None] = "a group needs a name"

    name: Annotated[
        StrictStr,
        Says("the group's name must be text"),
        Field(json_schema_extra={"minLength": 1, "maxLength": 80}, examples=["Thursday night"]),
    ]
    players: Annotated[
        list[Annotated[StrictStr, Field(json_schema_extra={"minLength": 1, "maxLength": MAX_NAME_LENGTH})]],
        Says("players must be a list of names"),
        Field(description="The members' names; players of the group's games join it."),
    ] = []


class CreatedGroup(BaseModel):
    id: str
    name: str
    players: list[str]
    edit_key: str = Field(description="Send as X-Group-Key to start games in the group; it edits them too.")


class GroupPlayer(BaseModel):
    name: str
    games: int = Field(description="Finished games played in the group.")
    wins: int = Field(description="A shared win counts for each winner.")
    win_rate: float
    points_per_round: float | None
    best: int | None = Field(description="The lowest final total.")
    worst: int | None = Field(description="The highest final total.")
    rating: float | None = Field(description="Skill estimate (Thurstone-Mosteller); null before a finished game.")
    uncertainty: float | None
    money_cents: int = Field(description="Balance over the group's money games; positive when owed money.")


class GroupGame(BaseModel):
    id: str
    variant: str
    name: str
    date: str
    players: list[str]
    winners: list[str]
    finished: bool


class HeadToHead(BaseModel):
    won: int
    lost: int
    tied: int


class Payment(BaseModel):
    from_: str = Field(alias="from")
    to: str
    cents: int


class GroupState(BaseModel):
    """A group's figures over its finished games."""

    id: str
    name: str
    players: list[GroupPlayer]
    games: list[GroupGame] = Field(description="Finished games first, then the unfinished ones.")
    head_to_head: dict[str, dict[str, HeadToHead]]
    settle_up: list[Payment] = Field(description="The fewest payments that settle every balance.")
