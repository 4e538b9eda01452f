"""Public list prices per GPU-hour kept beside the catalog (resources/catalog/reference_prices.toml),
and a bid's price judged against them: the memo's price reasonableness check. Not used in scoring:
a reference price is a market fact with a date, not a figure of any bid."""

from __future__ import annotations

import datetime as dt
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from clusterbid.core.catalog import default_catalog
from clusterbid.core.errors import InputError
from clusterbid.resources import resource_path

# A reserved term often sits below on-demand list prices; less than half the lowest is unusual
# enough to ask what is not in the price (support, storage, network, a shorter term than it looks).
FAR_BELOW = 0.5


class ReferencePrice(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    gpu: str = Field(min_length=1, description="A catalog GPU id")
    provider: str = Field(min_length=3, description="Who publishes the price, which offer")
    usd_per_gpu_hour: float = Field(gt=0, lt=1000)
    as_of: dt.date = Field(description="The date the published price was read")
    source: str = Field(min_length=20, description="Where it is published, and how it was read")


@lru_cache(maxsize=4)
def load_reference_prices(path: Path | None = None) -> tuple[ReferencePrice, ...]:
    """The reference prices, every entry checked; InputError names the entry and the rule."""
    path = path or resource_path("catalog", "reference_prices.toml")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path.name}: not valid TOML ({exc})") from None
    catalog = default_catalog()
    prices = []
    for index, entry in enumerate(raw.get("price", []), start=1):
        label = f"{path.name} [[price]] #{index}"
        try:
            price = ReferencePrice.model_validate(entry)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()
            )
            raise InputError(f"{label}: {problems}") from None
        if price.gpu not in catalog.gpus:
            raise InputError(
                f"{label}: gpu {price.gpu!r} is not in the catalog; use one of "
                f"{', '.join(catalog.gpus)}"
            )
        prices.append(price)
    return tuple(prices)


@dataclass(frozen=True, slots=True)
class PriceCheck:
    references: tuple[ReferencePrice, ...]
    verdict: str  # in words, for the memo
    flagged: bool


def check_price(gpu: str, price_usd: float | None) -> PriceCheck:
    """A bid's price per GPU-hour (USD; None when the bid is in another currency) against the
    public list prices kept for its GPU."""
    references = tuple(
        sorted(
            (p for p in load_reference_prices() if p.gpu == gpu), key=lambda p: p.usd_per_gpu_hour
        )
    )
    if not references:
        return PriceCheck((), f"no reference price is kept for {gpu}: not checked", True)
    if price_usd is None:
        return PriceCheck(
            references, "the bid is not priced in USD, the references' currency: not compared", True
        )
    low, high = references[0].usd_per_gpu_hour, references[-1].usd_per_gpu_hour
    if price_usd > high:
        return PriceCheck(
            references,
            f"{price_usd / high - 1:.0%} above the highest public list price: "
            "ask the provider what justifies it",
            True,
        )
    if price_usd < FAR_BELOW * low:
        return PriceCheck(
            references,
            f"{1 - price_usd / low:.0%} below the lowest public list price: "
            "ask what the price leaves out",
            True,
        )
    if price_usd < low:
        return PriceCheck(
            references,
            f"{1 - price_usd / low:.0%} below the lowest public on-demand price "
            "(usual for a committed term)",
            False,
        )
    return PriceCheck(references, "within the range of public on-demand list prices", False)
