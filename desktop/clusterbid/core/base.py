"""Shared pydantic settings: frozen snapshots, no unknown fields, no NaN or infinity."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

STRICT = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, validate_default=True)


class FrozenModel(BaseModel):
    """Base of every domain model: an edit builds a new validated snapshot."""

    model_config = STRICT


# Money stays Decimal in the models (floats only inside the numpy cost model).
MoneyAmount = Annotated[Decimal, Field(ge=0, max_digits=16, decimal_places=4, allow_inf_nan=False)]
PositiveMoney = Annotated[
    Decimal, Field(gt=0, max_digits=16, decimal_places=4, allow_inf_nan=False)
]
CurrencyCode = Annotated[str, Field(pattern=r"^[A-Z]{3}$", description="ISO 4217 code, e.g. USD")]
