"""Tables for the data-analysis tasks: generated with Faker, or read from ``--sources`` CSV files.

A :class:`Table` is a tuple of typed :class:`Column` s. A cell is an ``int``, a ``float``, a
``str`` (dates are ISO strings) or ``None`` for a missing value. Besides its values a column
carries what the tasks need to know about it:

- ``fmt``: how its values are written (``id``, ``date``, ``person``, ``money``...), so that
  table_join can write the same information another way;
- ``family``: columns of one family cannot be told apart from their values (two date columns,
  two prices); column_type never offers two of them for one sample. Empty for source columns,
  whose distinguishability is judged from the data (:func:`indistinguishable`);
- ``role`` (number, date, code or text): column_type's subtask;
- ``lo`` / ``hi``: the range a numeric column's values are drawn from (or, for a source
  column, the range they span);
- ``synonyms``: other names a second system might give the column (table_join).

Without sources, a table follows one of six schemas (people, orders, products, flights, weather,
books) and every value comes from the question's rng: Faker is seeded from it per table, the
rest is drawn from it directly. With sources, the tasks draw from the given CSV files newest
first, each file only while no earlier question of the release drew on it (a table's CSV text is
the question's material, :func:`fresh_source_tables`); a file that pandas cannot parse, or with
fewer than 2 columns or 3 rows, is a :class:`~ladderbench.errors.UserError` naming the file and
the reason.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import random
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from ladderbench.errors import UserError
from ladderbench.live.base import Sources

if TYPE_CHECKING:
    from faker import Faker

Cell = int | float | str | None

MIN_SOURCE_COLUMNS = 2
MIN_SOURCE_ROWS = 3

# ---------------------------------------------------------------- tables


@dataclass(frozen=True)
class Column:
    """One column: its name, its values (one per row) and what the tasks know about it."""

    name: str
    values: tuple[Cell, ...]
    fmt: str = "text"
    family: str = ""
    role: str = "text"
    lo: float | None = None
    hi: float | None = None
    synonyms: tuple[str, ...] = ()

    @property
    def present(self) -> list[Cell]:
        return [v for v in self.values if v is not None]

    @property
    def numeric(self) -> bool:
        vals = self.present
        return bool(vals) and all(_is_number(v) for v in vals)

    @property
    def integral(self) -> bool:
        vals = self.present
        return bool(vals) and all(isinstance(v, int) and not isinstance(v, bool) for v in vals)

    def take(self, rows: Sequence[int]) -> Column:
        return replace(self, values=tuple(self.values[i] for i in rows))


@dataclass(frozen=True)
class Table:
    """A named table (a schema name, or the source file it came from)."""

    name: str
    columns: tuple[Column, ...]

    @property
    def n_rows(self) -> int:
        return len(self.columns[0].values) if self.columns else 0

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def rows(self) -> list[list[Cell]]:
        return [list(r) for r in zip(*(c.values for c in self.columns))]

    def select(self, rows: Sequence[int], cols: Sequence[int] | None = None) -> Table:
        picked = self.columns if cols is None else tuple(self.columns[j] for j in cols)
        return Table(self.name, tuple(c.take(rows) for c in picked))


def _is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def cell_text(v: object) -> str:
    """A cell as CSV writes it: "" for missing, shortest round-trip text for floats."""
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(v)


def csv_text(columns: Sequence[str], rows: Sequence[Sequence[Cell]], sep: str = ",") -> str:
    """A header line and one line per row, quoted as Python's csv module (and pandas) quote."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sep, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([cell_text(v) for v in row])
    return out.getvalue().rstrip("\n")


# ---------------------------------------------------------------- telling columns apart


def shape(s: str) -> str:
    """The look of a string: letters to A/a, digits to 9, runs collapsed ("B12" -> "A9")."""
    mapped = "".join(
        "A" if ch.isupper() else "a" if ch.isalpha() else "9" if ch.isdigit() else ch for ch in s
    )
    return re.sub(r"(.)\1+", r"\1", mapped)


def _range(col: Column) -> tuple[float, float]:
    if col.lo is not None and col.hi is not None:
        return col.lo, col.hi
    vals = [float(v) for v in col.present]  # type: ignore[arg-type]
    return min(vals), max(vals)


def indistinguishable(a: Column, b: Column) -> bool:
    """Whether values of one column could pass for values of the other.

    Same family; or both numeric of the same kind (whole numbers or not) with overlapping
    ranges; or, for columns without a family (source tables), both text sharing a value or a
    shape. A whole-number column and a decimal one are told apart by the decimal point.
    """
    if a.family and a.family == b.family:
        return True
    if a.numeric and b.numeric:
        if a.integral != b.integral:
            return False
        (alo, ahi), (blo, bhi) = _range(a), _range(b)
        return alo <= bhi and blo <= ahi
    if a.numeric or b.numeric:
        return False
    if a.family and b.family:
        return False
    av = {cell_text(v) for v in a.present}
    bv = {cell_text(v) for v in b.present}
    return bool(av & bv) or bool({shape(v) for v in av} & {shape(v) for v in bv})


# ---------------------------------------------------------------- Faker and vocabularies


@lru_cache(maxsize=1)
def _faker_instance() -> Faker:
    from faker import Faker

    return Faker("en_US")


def seeded_faker(rng: random.Random) -> Faker:
    """The shared Faker instance, reseeded from ``rng`` (so its output is the rng's)."""
    fake = _faker_instance()
    fake.seed_instance(rng.randrange(2**32))
    return fake


PRODUCTS = (
    'Desk Lamp "Nova"',
    "USB-C Cable, 2 m",
    '27" Monitor',
    'Espresso Maker "Bella"',
    "Notebook, A5, dotted",
    "Wireless Mouse",
    "Standing Desk, Oak",
    "Kettle 1.7 L",
    'Backpack "Trail 30"',
    "Headphones, over-ear",
    "Yoga Mat",
    'Phone Case "Slim"',
    "Chef's Knife 8\"",
    'Board Game "Harbor"',
    "LED Strip, 5 m",
    "Water Bottle 750 ml",
    'Office Chair "Ergo"',
    "Garden Hose, 15 m",
    "Blender 600 W",
    "Desk Organizer",
)
PRODUCT_CATEGORIES = (
    "Electronics",
    "Home & Kitchen",
    "Toys, Games",
    "Garden",
    "Office Supplies",
    "Sports, Outdoors",
)
ORDER_STATUSES = ("pending", "shipped", "delivered", "cancelled", "returned")
AIRLINES = (
    ("AA", "American Airlines"),
    ("BA", "British Airways"),
    ("LH", "Lufthansa"),
    ("AF", "Air France"),
    ("KL", "KLM"),
    ("EK", "Emirates"),
    ("QF", "Qantas"),
    ("JL", "Japan Airlines"),
    ("AC", "Air Canada"),
    ("IB", "Iberia"),
)
AIRPORTS = (
    "JFK",
    "LHR",
    "CDG",
    "FRA",
    "AMS",
    "DXB",
    "SYD",
    "HND",
    "YYZ",
    "MAD",
    "SFO",
    "ORD",
    "SIN",
    "BCN",
    "LAX",
)
AIRCRAFT = (
    'Boeing 787-9 "Dreamliner"',
    "Airbus A350-900",
    "Boeing 737 MAX 8",
    "Airbus A320neo",
    "Embraer E190",
    'Airbus A380-800 "Superjumbo"',
    "Boeing 777-300ER",
    "ATR 72-600, turboprop",
)
FLIGHT_STATUSES = ("On time", "Delayed", "Cancelled", "Boarding", "Landed")
CONDITIONS = (
    "Sunny",
    "Partly cloudy",
    "Overcast",
    "Rain, light",
    "Rain, heavy",
    "Snow",
    "Fog",
    "Thunderstorms",
)
GENRES = ("Mystery", "Science fiction", "Biography", "History", "Poetry", "Travel", "Fantasy")
_TITLE_ADJ = ("Quiet", "Last", "Silver", "Hidden", "Northern", "Broken", "Golden", "Distant")
_TITLE_NOUN = ("Harbor", "Garden", "Letters", "River", "Summer", "Station", "Orchard", "Winter")
_TITLE_THING = ("Salt", "Stone", "Sky", "Ash", "Iron", "Rain", "Glass", "Bread")


def _days(rng: random.Random, n: int, start: dt.date, span: int) -> list[dt.date]:
    return [start + dt.timedelta(days=rng.randrange(span)) for _ in range(n)]


def _iso(days: Sequence[dt.date]) -> tuple[str, ...]:
    return tuple(d.isoformat() for d in days)


def _floats(rng: random.Random, n: int, lo: float, hi: float, places: int) -> tuple[float, ...]:
    return tuple(round(rng.uniform(lo, hi), places) for _ in range(n))


def _ints(rng: random.Random, n: int, lo: int, hi: int) -> tuple[int, ...]:
    return tuple(rng.randint(lo, hi) for _ in range(n))


def _ids(rng: random.Random, n: int, lo: int, hi: int, template: str) -> tuple[str, ...]:
    return tuple(template.format(k) for k in rng.sample(range(lo, hi), n))


def _names(fake: Faker, n: int) -> list[tuple[str, str]]:
    return [(fake.first_name(), fake.last_name()) for _ in range(n)]


def _title(rng: random.Random) -> str:
    adj, noun, thing = rng.choice(_TITLE_ADJ), rng.choice(_TITLE_NOUN), rng.choice(_TITLE_THING)
    pattern = rng.randrange(4)
    if pattern == 0:
        return f"The {adj} {noun}"
    if pattern == 1:
        return f"{thing}, {rng.choice(_TITLE_THING)} and {noun}"
    if pattern == 2:
        return f'Letters to "{adj} {noun}"'
    return f"{noun}: A {adj} Story"


# ---------------------------------------------------------------- schemas


def _people(fake: Faker, rng: random.Random, n: int) -> list[Column]:
    names = _names(fake, n)
    return [
        Column(
            "person_id",
            _ids(rng, n, 100, 10000, "P-{:04d}"),
            "id",
            "person_id",
            "code",
            synonyms=("PersonID", "MemberNo", "contact_ref"),
        ),
        Column(
            "full_name",
            tuple(f"{f} {last}" for f, last in names),
            "person",
            "person_name",
            "text",
            synonyms=("Name", "ContactName", "member"),
        ),
        Column(
            "email",
            tuple(fake.email() for _ in range(n)),
            "text",
            "email",
            "text",
            synonyms=("EmailAddress", "e_mail", "MailTo"),
        ),
        Column(
            "birth_date",
            _iso(_days(rng, n, dt.date(1950, 1, 1), 56 * 365)),
            "date",
            "date",
            "date",
            synonyms=("DOB", "DateOfBirth", "born_on"),
        ),
        Column(
            "city",
            tuple(fake.city() for _ in range(n)),
            "text",
            "city",
            "text",
            synonyms=("Town", "HomeCity", "residence"),
        ),
        Column(
            "job",
            tuple(fake.job() for _ in range(n)),
            "text",
            "job",
            "text",
            synonyms=("Occupation", "JobTitle", "profession"),
        ),
        Column(
            "address",
            tuple(fake.address().replace("\n", ", ") for _ in range(n)),
            "text",
            "address",
            "text",
            synonyms=("StreetAddress", "mailing_address", "Addr"),
        ),
        Column(
            "height_cm",
            _ints(rng, n, 150, 200),
            "int",
            "height",
            "number",
            150,
            200,
            synonyms=("Height", "stature_cm", "HeightCM"),
        ),
        Column(
            "weight_kg",
            _floats(rng, n, 45, 130, 1),
            "float",
            "body_weight",
            "number",
            45,
            130,
            synonyms=("Weight", "BodyWeightKg", "mass_kg"),
        ),
        Column(
            "annual_income",
            _ints(rng, n, 18000, 250000),
            "int",
            "income",
            "number",
            18000,
            250000,
            synonyms=("Income", "YearlyIncome", "salary_usd"),
        ),
        Column(
            "member_since",
            _iso(_days(rng, n, dt.date(2010, 1, 1), 16 * 365)),
            "date",
            "date",
            "date",
            synonyms=("JoinDate", "joined", "RegisteredOn"),
        ),
    ]


def _orders(fake: Faker, rng: random.Random, n: int) -> list[Column]:
    names = _names(fake, n)
    ordered = _days(rng, n, dt.date(2024, 1, 1), 3 * 365)
    shipped = [d + dt.timedelta(days=rng.randint(1, 9)) for d in ordered]
    quantity = _ints(rng, n, 1, 24)
    price = _floats(rng, n, 2, 400, 2)
    return [
        Column(
            "order_id",
            _ids(rng, n, 10000, 99999, "ORD-{:05d}"),
            "id",
            "order_id",
            "code",
            synonyms=("OrderNo", "order_ref", "OrderNumber"),
        ),
        Column(
            "customer",
            tuple(f"{last}, {f}" for f, last in names),
            "person_lf",
            "person_name",
            "text",
            synonyms=("CustomerName", "client", "BuyerName"),
        ),
        Column(
            "order_date",
            _iso(ordered),
            "date",
            "date",
            "date",
            synonyms=("OrderDt", "date_ordered", "PurchaseDate"),
        ),
        Column(
            "ship_date",
            _iso(shipped),
            "date",
            "date",
            "date",
            synonyms=("ShippedOn", "dispatch_date", "ShipDt"),
        ),
        Column(
            "product",
            tuple(rng.choice(PRODUCTS) for _ in range(n)),
            "text",
            "product",
            "text",
            synonyms=("Item", "ProductName", "article"),
        ),
        Column(
            "quantity",
            quantity,
            "int",
            "quantity",
            "number",
            1,
            24,
            synonyms=("Qty", "units", "QuantityOrdered"),
        ),
        Column(
            "unit_price",
            price,
            "money",
            "money",
            "number",
            2,
            400,
            synonyms=("PriceEach", "UnitCost", "price_per_unit"),
        ),
        Column(
            "total",
            tuple(round(q * p, 2) for q, p in zip(quantity, price)),
            "money",
            "money",
            "number",
            2,
            9600,
            synonyms=("Amount", "OrderTotal", "line_total"),
        ),
        Column(
            "status",
            tuple(rng.choice(ORDER_STATUSES) for _ in range(n)),
            "category",
            "order_status",
            "text",
            synonyms=("State", "OrderStatus", "fulfilment"),
        ),
        Column(
            "country",
            tuple(fake.country() for _ in range(n)),
            "text",
            "country",
            "text",
            synonyms=("ShipCountry", "destination", "CountryName"),
        ),
    ]


def _products(fake: Faker, rng: random.Random, n: int) -> list[Column]:
    return [
        Column(
            "sku",
            _ids(rng, n, 10000, 99999, "SKU-{:05d}"),
            "id",
            "sku",
            "code",
            synonyms=("ItemCode", "product_code", "StockNo"),
        ),
        Column(
            "product_name",
            tuple(rng.sample(PRODUCTS, n) if n <= len(PRODUCTS) else rng.choices(PRODUCTS, k=n)),
            "text",
            "product",
            "text",
            synonyms=("Title", "ItemName", "description"),
        ),
        Column(
            "category",
            tuple(rng.choice(PRODUCT_CATEGORIES) for _ in range(n)),
            "category",
            "product_category",
            "text",
            synonyms=("Department", "ProductGroup", "segment"),
        ),
        Column(
            "brand",
            tuple(fake.company() for _ in range(n)),
            "text",
            "company",
            "text",
            synonyms=("Manufacturer", "Maker", "vendor"),
        ),
        Column(
            "price",
            _floats(rng, n, 1, 900, 2),
            "money",
            "money",
            "number",
            1,
            900,
            synonyms=("ListPrice", "retail_price", "PriceUSD"),
        ),
        Column(
            "stock",
            _ints(rng, n, 0, 500),
            "int",
            "stock",
            "number",
            0,
            500,
            synonyms=("OnHand", "inventory", "UnitsInStock"),
        ),
        Column(
            "rating",
            _floats(rng, n, 1, 5, 1),
            "float",
            "rating",
            "number",
            1,
            5,
            synonyms=("Stars", "AvgRating", "review_score"),
        ),
        Column(
            "weight_kg",
            _floats(rng, n, 0.05, 30, 2),
            "float",
            "weight",
            "number",
            0.05,
            30,
            synonyms=("Weight", "mass_kg", "ShippingWeight"),
        ),
        Column(
            "released",
            _iso(_days(rng, n, dt.date(2015, 1, 1), 11 * 365)),
            "date",
            "date",
            "date",
            synonyms=("LaunchDate", "release_date", "AvailableFrom"),
        ),
        Column(
            "discontinued",
            tuple(rng.choice(("yes", "no", "no")) for _ in range(n)),
            "yesno",
            "flag",
            "text",
            synonyms=("IsDiscontinued", "retired", "EndOfLife"),
        ),
    ]


def _flights(fake: Faker, rng: random.Random, n: int) -> list[Column]:
    carriers = [rng.choice(AIRLINES) for _ in range(n)]
    numbers = rng.sample(range(100, 9999), n)
    routes = [rng.sample(AIRPORTS, 2) for _ in range(n)]
    start = dt.datetime(2026, 1, 1)
    departures = [
        start + dt.timedelta(days=rng.randrange(365), minutes=5 * rng.randrange(288))
        for _ in range(n)
    ]
    return [
        Column(
            "flight_no",
            tuple(f"{code}{num}" for (code, _), num in zip(carriers, numbers)),
            "flight",
            "flight_no",
            "code",
            synonyms=("FlightNumber", "flt", "FlightCode"),
        ),
        Column(
            "airline",
            tuple(name for _, name in carriers),
            "category",
            "airline",
            "text",
            synonyms=("Carrier", "AirlineName", "operator"),
        ),
        Column(
            "origin",
            tuple(r[0] for r in routes),
            "code",
            "airport",
            "code",
            synonyms=("From", "DepartureAirport", "orig"),
        ),
        Column(
            "destination",
            tuple(r[1] for r in routes),
            "code",
            "airport",
            "code",
            synonyms=("To", "ArrivalAirport", "dest"),
        ),
        Column(
            "aircraft",
            tuple(rng.choice(AIRCRAFT) for _ in range(n)),
            "category",
            "aircraft",
            "text",
            synonyms=("Equipment", "PlaneType", "fleet_type"),
        ),
        Column(
            "departure",
            tuple(d.strftime("%Y-%m-%d %H:%M") for d in departures),
            "datetime",
            "datetime",
            "date",
            synonyms=("DepartureTime", "sched_dep", "DepartsAt"),
        ),
        Column(
            "duration_min",
            _ints(rng, n, 45, 960),
            "int",
            "duration",
            "number",
            45,
            960,
            synonyms=("Duration", "FlightTime", "block_minutes"),
        ),
        Column(
            "distance_km",
            _ints(rng, n, 1000, 15000),
            "int",
            "distance",
            "number",
            1000,
            15000,
            synonyms=("Distance", "RouteKm", "km_flown"),
        ),
        Column(
            "fare",
            _floats(rng, n, 39, 2500, 2),
            "money",
            "money",
            "number",
            39,
            2500,
            synonyms=("Price", "TicketPrice", "fare_usd"),
        ),
        Column(
            "gate",
            tuple(f"{rng.choice('ABCDEF')}{rng.randint(1, 40)}" for _ in range(n)),
            "code",
            "gate",
            "code",
            synonyms=("GateNo", "boarding_gate", "Gate_ID"),
        ),
        Column(
            "status",
            tuple(rng.choice(FLIGHT_STATUSES) for _ in range(n)),
            "category",
            "flight_status",
            "text",
            synonyms=("FlightStatus", "state", "Remarks"),
        ),
    ]


def _weather(fake: Faker, rng: random.Random, n: int) -> list[Column]:
    highs = _floats(rng, n, -5, 38, 1)
    lows = tuple(round(h - rng.uniform(2, 12), 1) for h in highs)
    return [
        Column(
            "reading_id",
            _ids(rng, n, 100, 999999, "W-{:06d}"),
            "id",
            "reading_id",
            "code",
            synonyms=("ObservationID", "record_no", "ReadingNo"),
        ),
        Column(
            "station",
            tuple(f"{fake.city()}, {fake.state_abbr()}" for _ in range(n)),
            "text",
            "city",
            "text",
            synonyms=("Location", "StationName", "site"),
        ),
        Column(
            "date",
            _iso(_days(rng, n, dt.date(2025, 1, 1), 2 * 365)),
            "date",
            "date",
            "date",
            synonyms=("ObsDate", "day", "MeasuredOn"),
        ),
        Column(
            "temp_max_c",
            highs,
            "float",
            "temperature",
            "number",
            -5,
            38,
            synonyms=("HighC", "max_temp", "TempHigh"),
        ),
        Column(
            "temp_min_c",
            lows,
            "float",
            "temperature",
            "number",
            -17,
            36,
            synonyms=("LowC", "min_temp", "TempLow"),
        ),
        Column(
            "humidity_pct",
            _ints(rng, n, 15, 100),
            "int",
            "humidity",
            "number",
            15,
            100,
            synonyms=("RelHumidity", "rh", "Humidity"),
        ),
        Column(
            "precip_mm",
            _floats(rng, n, 0, 60, 1),
            "float",
            "precipitation",
            "number",
            0,
            60,
            synonyms=("Rainfall", "precipitation", "RainMM"),
        ),
        Column(
            "wind_kph",
            _floats(rng, n, 0, 90, 1),
            "float",
            "wind",
            "number",
            0,
            90,
            synonyms=("WindSpeed", "wind", "GustKph"),
        ),
        Column(
            "conditions",
            tuple(rng.choice(CONDITIONS) for _ in range(n)),
            "category",
            "conditions",
            "text",
            synonyms=("Sky", "Summary", "weather_desc"),
        ),
    ]


def _books(fake: Faker, rng: random.Random, n: int) -> list[Column]:
    names = _names(fake, n)
    return [
        Column(
            "isbn",
            tuple(fake.isbn13() for _ in range(n)),
            "isbn",
            "isbn",
            "code",
            synonyms=("ISBN13", "BookCode", "isbn_no"),
        ),
        Column(
            "title",
            tuple(_title(rng) for _ in range(n)),
            "text",
            "title",
            "text",
            synonyms=("BookTitle", "name", "Work"),
        ),
        Column(
            "author",
            tuple(f"{last}, {f}" for f, last in names),
            "person_lf",
            "person_name",
            "text",
            synonyms=("Writer", "AuthorName", "by"),
        ),
        Column(
            "publisher",
            tuple(fake.company() for _ in range(n)),
            "text",
            "company",
            "text",
            synonyms=("Imprint", "PublishedBy", "press"),
        ),
        Column(
            "year",
            _ints(rng, n, 1950, 2025),
            "int",
            "year",
            "number",
            1950,
            2025,
            synonyms=("PubYear", "published", "YearPublished"),
        ),
        Column(
            "pages",
            _ints(rng, n, 90, 1200),
            "int",
            "pages",
            "number",
            90,
            1200,
            synonyms=("PageCount", "length_pages", "NumPages"),
        ),
        Column(
            "price",
            _floats(rng, n, 4, 90, 2),
            "money",
            "money",
            "number",
            4,
            90,
            synonyms=("ListPrice", "RetailPrice", "cost"),
        ),
        Column(
            "genre",
            tuple(rng.choice(GENRES) for _ in range(n)),
            "category",
            "genre",
            "text",
            synonyms=("Category", "Subject", "shelf"),
        ),
        Column(
            "rating",
            _floats(rng, n, 1, 5, 1),
            "float",
            "rating",
            "number",
            1,
            5,
            synonyms=("Stars", "AvgRating", "review_score"),
        ),
    ]


SchemaFn = Callable[["Faker", random.Random, int], list[Column]]
SCHEMAS: dict[str, SchemaFn] = {
    "people": _people,
    "orders": _orders,
    "products": _products,
    "flights": _flights,
    "weather": _weather,
    "books": _books,
}


def generate_table(rng: random.Random, n_rows: int, schema: str | None = None) -> Table:
    """A fresh table of ``n_rows`` rows following ``schema`` (drawn from ``rng`` if None)."""
    if n_rows < 1:
        raise ValueError(f"n_rows must be positive, got {n_rows}")
    if schema is None:
        schema = rng.choice(sorted(SCHEMAS))
    if schema not in SCHEMAS:
        raise ValueError(f"unknown table schema {schema!r}; known: {', '.join(sorted(SCHEMAS))}")
    fake = seeded_faker(rng)
    return Table(schema, tuple(SCHEMAS[schema](fake, rng, n_rows)))


# ---------------------------------------------------------------- source tables

_INT = re.compile(r"-?(?:0|[1-9]\d{0,14})")
_FLOAT = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|-?\.\d+")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _source_column(name: str, raw: Sequence[str]) -> Column:
    """A source column, its kind inferred from all its (non-empty) strings."""
    texts = [" ".join(s.split()) for s in raw]
    present = [s for s in texts if s]
    if present and all(_INT.fullmatch(s) for s in present):
        return Column(name, tuple(int(s) if s else None for s in texts), "int", "", "number")
    if present and all(_FLOAT.fullmatch(s) for s in present):
        values = tuple(float(s) if s else None for s in texts)
        if all(math.isfinite(v) for v in values if v is not None):
            return Column(name, values, "float", "", "number")
    cells = tuple(s or None for s in texts)
    if present and all(_DATE.fullmatch(s) for s in present):
        return Column(name, cells, "date", "date", "date")
    code = present and all(" " not in s and any(ch.isdigit() for ch in s) for s in present)
    return Column(name, cells, "text", "", "code" if code else "text")


@lru_cache(maxsize=64)
def _parse_source(name: str, text: str) -> Table:
    import pandas as pd

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except (ValueError, csv.Error, pd.errors.ParserError) as exc:
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise UserError(f"--sources {name}: pandas cannot parse it as CSV ({reason})") from None
    n_rows, n_cols = frame.shape
    if n_cols < MIN_SOURCE_COLUMNS:
        raise UserError(
            f"--sources {name}: a table needs at least {MIN_SOURCE_COLUMNS} columns, "
            f"it has {n_cols}"
        )
    if n_rows < MIN_SOURCE_ROWS:
        raise UserError(
            f"--sources {name}: a table needs at least {MIN_SOURCE_ROWS} rows, it has {n_rows}"
        )
    columns: list[Column] = []
    seen: set[str] = set()
    for j, label in enumerate(frame.columns):
        base = " ".join(str(label).split()) or f"column_{j + 1}"
        col_name, k = base, 2
        while col_name.casefold() in seen:
            col_name, k = f"{base}_{k}", k + 1
        seen.add(col_name.casefold())
        columns.append(_source_column(col_name, [str(v) for v in frame.iloc[:, j].tolist()]))
    return Table(name, tuple(columns))


def source_tables(sources: Sources) -> tuple[Table, ...]:
    """Every ``--sources`` table, in sorted file order (validated: see the module docstring)."""
    return tuple(_parse_source(name, sources.tables[name]) for name in sorted(sources.tables))


def fresh_source_tables(sources: Sources, task: str) -> tuple[Table, ...]:
    """The ``--sources`` tables no earlier question drew on, newest first (validated).

    A table is material as a whole (its CSV text): once a question used it, no other question
    of the release draws on it. Raises :class:`UserError` when every table was used.
    """
    names = sources.newest_first(sources.tables)
    fresh = set(sources.fresh(sources.tables[name] for name in names))
    unused = [name for name in names if sources.tables[name] in fresh]
    if not unused:
        raise UserError(
            f"{task}: every --sources table ({len(names)}) was already served; run "
            "'ladderbench live fetch' and pass --sources with new tables (or lower --per-task)"
        )
    return tuple(_parse_source(name, sources.tables[name]) for name in unused)


def sample_indices(rng: random.Random, n: int, k: int) -> list[int]:
    """``k`` of ``range(n)`` (all of them if ``k >= n``), kept in order."""
    return sorted(rng.sample(range(n), min(n, k)))
