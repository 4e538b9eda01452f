"""Every published FP8-over-BF16 training gain on H100, and what a stack that does not state its
own takes from them (issue 36).

The catalog once gave every FP8 job llm-foundry's 1.31x, a figure measured on a 3B model with a
2023 stack. The published gains run from 1.25x (torchao float8 on Llama3-8B) to 1.75x (NeMo 24.07
with Transformer Engine, flat from 5B to 70B): they differ more by stack than by model size. So a
stack that is not stated, or that publishes no gain of its own, takes the geometric middle of the
published range as its point and the range's ends as its P10 and P90, instead of the lowest one as
if it were known. The list lives in resources/catalog/stacks.toml, each entry with its source.
"""

from __future__ import annotations

import math
import tomllib
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from clusterbid.core.errors import InputError
from clusterbid.core.model_parsing import one_line_problems
from clusterbid.resources import resource_path


class PublishedFp8Gain(BaseModel):
    """One published FP8 throughput over BF16 throughput on H100, same publication, with source."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    model: str = Field(min_length=2)
    params_billions: float = Field(gt=0)
    gain: float = Field(gt=0.5, le=2.0, description="FP8 throughput / BF16 throughput")
    stack: str = Field(min_length=3, description="the software that ran, in words")
    source: str = Field(min_length=10)


@lru_cache(maxsize=1)
def published_fp8_gains() -> tuple[PublishedFp8Gain, ...]:
    """The [[fp8_gain]] entries of stacks.toml; refuses a file without any, naming the entry."""
    path = resource_path("catalog", "stacks.toml")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path.name}: not valid TOML ({exc})") from None
    gains = []
    for index, entry in enumerate(raw.get("fp8_gain", [])):
        try:
            gains.append(PublishedFp8Gain.model_validate(entry))
        except ValidationError as exc:
            raise InputError(
                f"{path.name} [[fp8_gain]] #{index + 1}: {one_line_problems(exc)}"
            ) from None
    if not gains:
        raise InputError(
            f"{path.name}: no [[fp8_gain]] entry; FP8 jobs need at least one published gain"
        )
    return tuple(gains)


def published_fp8_range() -> tuple[float, float]:
    """The lowest and highest published FP8 gain."""
    values = [entry.gain for entry in published_fp8_gains()]
    return min(values), max(values)


def borrowed_fp8_gain() -> float:
    """The point for a stack that states no FP8 gain: the geometric middle of the published
    range, so that its ends sit equally far on either side (neither end is known to apply)."""
    low, high = published_fp8_range()
    return math.sqrt(low * high)


def borrowed_fp8_words() -> str:
    """Whose figure the borrowed gain is, in words, for the assumptions and the memo."""
    low, high = published_fp8_range()
    return (
        f"the middle of the published H100 gains, {low:.2f}x-{high:.2f}x across "
        f"{len(published_fp8_gains())} runs of several stacks (stack's own not published)"
    )
