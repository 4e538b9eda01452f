"""Validate JSON into any pydantic model, with errors that name the file, the field and the rule.

The bottom of core's file reading: models (workloads, evaluation) use it, so it imports none of
them; documents.py adds reading a whole evaluation from a file or a .clusterbid document."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from clusterbid.core.errors import InputError

Model = TypeVar("Model", bound=BaseModel)
WORKLOAD_TAGS = ("training", "inference")


def describe_location(loc: tuple[str | int, ...]) -> str:
    """('bids', 2, 'terms', 'price_per_gpu_hour') -> 'bids[2].terms.price_per_gpu_hour'."""
    text = ""
    for index, part in enumerate(loc):
        if index and loc[index - 1] == "workload" and part in WORKLOAD_TAGS:
            continue  # the tag pydantic adds for the workload kind; the user never typed it
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(document)"


def one_line_problems(exc: ValidationError, whole: str = "(document)") -> str:
    """Every problem on one line, `field: rule; field: rule` (a refused edit, a catalog entry)."""
    return "; ".join(
        f"{describe_location(e['loc']) if e['loc'] else whole}: "
        f"{e['msg'].removeprefix('Value error, ')}"
        for e in exc.errors()
    )


def describe_validation_error(exc: ValidationError, source: str) -> str:
    lines = [f"{source}: {exc.error_count()} problem(s):"]
    for error in exc.errors():
        message = error["msg"].removeprefix("Value error, ")
        where = describe_location(error["loc"])
        got = ""
        if error["type"] not in ("missing", "value_error", "assertion_error") and not isinstance(
            error.get("input"), (dict, list)
        ):
            got = f" (got {error['input']!r})"
        lines.append(f"  - {where}: {message}{got}")
    return "\n".join(lines)


def parse_model(model: type[Model], text: str, source: str) -> Model:
    """Validate JSON text into `model`; raise InputError listing every field and rule broken."""
    from clusterbid.core.json_input import loads

    data = loads(text, source)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InputError(describe_validation_error(exc, source)) from None
    except InputError as exc:  # raised inside a validator (e.g. catalog problems)
        raise InputError(f"{source}: {exc}") from None


def read_model(model: type[Model], path: Path) -> Model:
    from clusterbid.core.json_input import read_json_text

    return parse_model(model, read_json_text(path), str(path))
