"""The flat bid-sheet layout (one row per bid, dotted column keys), derived from the Bid model."""

from __future__ import annotations

import datetime as dt
import re
import types
import typing
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from clusterbid.core.bid import Bid
from clusterbid.core.catalog import default_catalog
from clusterbid.core.provenance.defaults import FEE_DEFAULTS, TERMS_DEFAULTS

# Evidence items carry artefacts and grades of their own; they are attached separately, not typed
# into a provider's bid sheet.
# Provenance has columns of its own ("source.<field>", interchange.sources), not the model's mapping.
# A phased delivery (issue 39) is a list of phases, entered in the bid's JSON or the wizard.
EXCLUDED_KEYS = frozenset({"evidence", "provenance", "delivery"})

# Fields whose allowed values live in the catalog (their validators look them up there), not in
# the type; listed here because a validator's lookup cannot be read off the model.
CATALOG_CHOICES = {
    "capacity.gpu_model": lambda: tuple(default_catalog().gpus),
    "fabric.technology": lambda: tuple(default_catalog().fabrics),
}

LIST_SEPARATOR = ";"
YES, NO = "yes", "no"

# Units follow the naming convention of the models (unit in the field name); first match wins.
_UNIT_RULES: tuple[tuple[str, str], ...] = (
    (r"per_gpu_hour$", "currency/GPU-h"),
    (r"_per_month$", "currency/month"),
    (r"_gbit_s$", "Gbit/s"),
    (r"_gb_s$", "GB/s"),
    (r"_percent_per_year$", "%/year"),
    (r"_percent$", "%"),
    (r"_per_1000_gpu_days$", "per 1000 GPU-days"),
    (r"_gpu_hours$", "GPU-h"),
    (r"_hours$", "h"),
    (r"_months$", "months"),
    (r"_days$", "days"),
    (r"(_spend|_fees)$", "currency"),
    (r"_ratio$", "x:1"),
    (r"(^gpus_|_gpus$)", "GPUs"),
    (r"^nics_", "NICs"),
)
_HEADER = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(?:\[[^\]]*\])?\s*$")


@dataclass(frozen=True)
class Column:
    """One sheet column: where the value goes in the Bid, how to read it, and what it means."""

    key: str  # dotted path in the Bid, e.g. "capacity.gpus_offered"
    kind: str  # "str", "int", "float", "decimal", "date", "bool", "choice" or "list"
    required: bool
    default: object
    unit: str
    description: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None  # inclusive
    maximum: float | None = None  # inclusive
    above: float | None = None  # exclusive lower bound
    max_length: int | None = None
    pattern: str | None = None
    decimal_places: int | None = None

    @property
    def header(self) -> str:
        return f"{self.key} [{self.unit}]" if self.unit else self.key

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(self.key.split("."))

    def rule_text(self) -> str:
        """The constraints in plain words, for the Instructions sheet."""
        parts = ["required" if self.required else f"optional (blank = {_show_default(self)})"]
        if self.kind == "choice":
            parts.append("one of: " + ", ".join(self.choices))
        elif self.kind == "list":
            parts.append(f"any of: {', '.join(self.choices)}, separated by '{LIST_SEPARATOR}'")
        elif self.kind == "bool":
            parts.append(f"{YES} or {NO}")
        elif self.kind == "date":
            parts.append("a date, YYYY-MM-DD")
        elif self.kind == "int":
            parts.append("a whole number")
        elif self.kind in ("float", "decimal"):
            parts.append("a number")
        if self.minimum is not None:
            parts.append(f"at least {_num(self.minimum)}")
        if self.above is not None:
            parts.append(f"above {_num(self.above)}")
        if self.maximum is not None:
            parts.append(f"at most {_num(self.maximum)}")
        if self.max_length is not None:
            parts.append(f"at most {self.max_length} characters")
        if self.decimal_places is not None:
            parts.append(f"at most {self.decimal_places} decimal places")
        if self.pattern is not None:
            parts.append(f"pattern {self.pattern}")
        return "; ".join(parts)


def _num(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:g}"


def _show_default(column: Column) -> str:
    if column.key in UNSTATED_TERMS:  # issue 31: a blank term is not stated, never 0 or "none"
        return "not stated, priced at its cautious default"
    if column.key.startswith("sla_claims."):  # issue 39: the cautious terms of published SLAs
        return "not stated, taken at the cautious end of published SLA terms"
    if column.default is None or column.default == ():
        return "none"
    if column.default == "":
        return "empty"
    if isinstance(column.default, bool):
        return YES if column.default else NO
    return str(column.default)


# Commercial terms whose blank cell means "not stated" (methodology section 9).
UNSTATED_TERMS = frozenset({*TERMS_DEFAULTS, *FEE_DEFAULTS})


def _unit(name: str, kind: str) -> str:
    if kind == "decimal" and not any(re.search(p, name) for p, _ in _UNIT_RULES[:2]):
        return "currency"
    if kind == "date":
        return "YYYY-MM-DD"
    if kind == "bool":
        return f"{YES}/{NO}"
    if kind == "list":
        return f"{LIST_SEPARATOR}-separated"
    return next((unit for pattern, unit in _UNIT_RULES if re.search(pattern, name)), "")


def _strip_optional(annotation: object) -> object:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _kind_and_choices(key: str, annotation: object) -> tuple[str, tuple[str, ...]]:
    annotation = _strip_optional(annotation)
    if key in CATALOG_CHOICES:
        return "choice", CATALOG_CHOICES[key]()
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return "choice", tuple(str(a) for a in typing.get_args(annotation))
    if origin is tuple:
        inner = typing.get_args(annotation)[0]
        literal = typing.get_origin(inner) is typing.Literal
        return "list", tuple(str(a) for a in typing.get_args(inner)) if literal else ()
    simple = {
        bool: "bool",
        int: "int",
        float: "float",
        Decimal: "decimal",
        str: "str",
        dt.date: "date",
    }
    if annotation in simple:
        return simple[annotation], ()
    raise TypeError(
        f"{key}: no sheet representation for {annotation!r}; extend interchange.columns"
    )


def _column(key: str, name: str, info: FieldInfo) -> Column:
    kind, choices = _kind_and_choices(key, info.annotation)
    # Bounds of differing types (numbers, a pattern, a length) by Column's field names; Column
    # checks each when the dataclass is built, so the values are left to it untyped here.
    bounds: dict[str, typing.Any] = {}
    for meta in info.metadata:
        if isinstance(meta, annotated_types.Ge):
            bounds["minimum"] = meta.ge
        elif isinstance(meta, annotated_types.Le):
            bounds["maximum"] = meta.le
        elif isinstance(meta, annotated_types.Gt):
            bounds["above"] = meta.gt
        elif isinstance(meta, annotated_types.MaxLen):
            bounds["max_length"] = meta.max_length
        else:  # pydantic's general metadata carries pattern and decimal places as attributes
            if getattr(meta, "pattern", None):
                bounds["pattern"] = meta.pattern
            if getattr(meta, "decimal_places", None) is not None:
                bounds["decimal_places"] = meta.decimal_places
    description = info.description or ""
    if not description and kind == "choice":
        description = f"{key.split('.')[0].capitalize()} {name.replace('_', ' ')}"
    return Column(
        key=key,
        kind=kind,
        required=info.is_required(),
        default=None if info.is_required() else info.get_default(call_default_factory=True),
        unit=_unit(name, kind),
        description=description,
        choices=choices,
        **bounds,
    )


def _walk(model: type[BaseModel], prefix: str) -> list[Column]:
    columns: list[Column] = []
    for name, info in model.model_fields.items():
        key = f"{prefix}{name}"
        if key in EXCLUDED_KEYS:
            continue
        annotation = _strip_optional(info.annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            columns.extend(_walk(annotation, f"{key}."))
        else:
            columns.append(_column(key, name, info))
    return columns


def _source_columns() -> list[Column]:
    from clusterbid.core.interchange.sources import RULE, source_keys

    return [
        Column(
            key=key,
            kind="source",
            required=False,
            default=None,
            unit="",
            description=f"Where {key.split('.', 1)[1]} comes from: {RULE}; empty = the provider's if "
            "the figure is given, not stated if it is empty",
        )
        for key in source_keys()
    ]


@lru_cache(maxsize=1)
def bid_columns() -> tuple[Column, ...]:
    """Every sheet column of a Bid, in model order (id first), then the provenance columns."""
    return tuple(_walk(Bid, "")) + tuple(_source_columns())


def columns_by_key() -> dict[str, Column]:
    return {column.key: column for column in bid_columns()}


def parse_header(text: object) -> str | None:
    """The dotted key of a header cell ("terms.price_per_gpu_hour [currency/GPU-h]" -> key), or None."""
    if not isinstance(text, str):
        return None
    match = _HEADER.match(text)
    return match.group(1) if match else None


def column_letter(index: int) -> str:
    """Excel column letters for a 0-based index (0 -> A, 26 -> AA)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters
