"""The shape of the model a serving benchmark ran (issue 37), from resources/catalog/models.toml.

A provider's benchmark is often of another model than the service being bought (a 70B run for an
8B service). Its engine factor carries to the service only when the run's step is worked out with
the run's own model: its weights, its KV cache per token (layers x KV heads x head dim, which the
parameter count does not give: Llama 2 7B holds 4x the KV cache per token of Llama 3 8B) and its
all-reduce size. Names are matched as a benchmark file or an officer writes them.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from clusterbid.core.errors import InputError
from clusterbid.core.model_parsing import one_line_problems
from clusterbid.resources import resource_path

# Endings and starts a published model id adds to the model's name (Meta-Llama-3.1-8B-Instruct).
_DROPPED_ENDINGS = ("instruct", "chat", "hf", "fp8", "base")


class ModelShape(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, max_length=64)
    aliases: tuple[str, ...] = ()
    params_billions: float = Field(gt=0, le=100_000)
    active_params_billions: float | None = Field(None, gt=0, le=100_000)
    layers: int = Field(ge=1, le=1000)
    hidden_size: int = Field(ge=1, le=1_000_000)
    kv_heads: int = Field(ge=1, le=4096)
    head_dim: int = Field(ge=1, le=4096)
    source: str = Field(min_length=1)

    @property
    def active_billions(self) -> float:
        return self.active_params_billions or self.params_billions

    def kv_bytes_per_token(self, bytes_per_value: float) -> float:
        """Keys and values of every layer for one token."""
        return 2.0 * self.layers * self.kv_heads * self.head_dim * bytes_per_value


def name_key(name: str) -> str:
    """A name as compared: the last part of a path or hub id, lower case, letters, digits and
    dots only, without a "Meta" start or an "Instruct"/"chat"/"hf"/"FP8"/"base" ending."""
    key = re.sub(r"[^a-z0-9.]", "", name.strip().rsplit("/", 1)[-1].lower())
    changed = True
    while changed:
        changed = False
        for ending in _DROPPED_ENDINGS:
            if key.endswith(ending) and len(key) > len(ending):
                key, changed = key[: -len(ending)], True
    return key.removeprefix("meta") if len(key) > 4 else key


@lru_cache(maxsize=1)
def model_catalog() -> dict[str, ModelShape]:
    """Every model of the bundled catalog by each of its name keys (id and aliases)."""
    path = resource_path("catalog", "models.toml")
    try:
        entries = tomllib.loads(path.read_text(encoding="utf-8")).get("model", [])
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path.name}: not valid TOML ({exc})") from None
    by_key: dict[str, ModelShape] = {}
    for index, raw in enumerate(entries, start=1):
        try:
            shape = ModelShape.model_validate(raw)
        except ValidationError as exc:
            raise InputError(f"{path.name} [[model]] #{index}: {one_line_problems(exc)}") from None
        for name in (shape.id, *shape.aliases):
            other = by_key.setdefault(name_key(name), shape)
            if other.id != shape.id:
                raise InputError(f"{path.name}: {name!r} names both {other.id} and {shape.id}")
    return by_key


def find_model(name: str | None) -> ModelShape | None:
    """The catalog's model for a name as written, or None (not named, or not in the catalog)."""
    return model_catalog().get(name_key(name)) if name else None


def known_models() -> list[str]:
    return list(dict.fromkeys(shape.id for shape in model_catalog().values()))


def model_named(name: str, what: str) -> ModelShape:
    """The catalog's model for a name the officer typed; InputError naming `what` and the
    catalog's models otherwise."""
    shape = find_model(name)
    if shape is None:
        raise InputError(
            f"{what} {name[:60]!r} is not in the model catalog; give one of: "
            f"{', '.join(known_models())}, or leave it out and give the run's model size"
        )
    return shape
