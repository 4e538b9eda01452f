"""Read the training-throughput evidence format (resources/evidence-formats.md) from CSV or JSON."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.provenance import parse_measured_by, parse_measured_on
from clusterbid.core.evidence.throughput import ThroughputResult, build_row, evaluate_row

REQUIRED_COLUMNS = ("model", "active_params_b", "precision", "sequence_length", "tp", "pp", "dp", "gpus",
                    "gpu_model", "measured_by")  # fmt: skip
OPTIONAL_COLUMNS = ("cp", "tokens_per_second", "step_time_s", "mfu", "global_batch_tokens", "mfu_denominator",
                    "mfu_flops_basis", "measured_on", "num_attention_heads", "vocab_size",
                    "container_image")  # fmt: skip
COLUMNS = REQUIRED_COLUMNS + OPTIONAL_COLUMNS
# A throughput file lists a handful of runs; anything this large is not one, and refusing it
# early keeps a fuzzed or mistaken input from costing memory.
MAX_ROWS = 10_000
MAX_LINE_CHARS = 64 * 1024
MAX_JSON_CHARS = 16 * 1024 * 1024
JSON_FORMAT_TAG = "clusterbid-throughput/1"


@dataclass(frozen=True)
class ThroughputTable:
    """Every row of one file, evaluated; `output_format` is 'csv' or 'json'."""

    source: str
    output_format: str
    results: tuple[ThroughputResult, ...]


def _clean_cells(
    raw: dict[str, object], source: str, line: int | None, where: str
) -> dict[str, object]:
    """Drop empty cells, normalise who measured it and when, refuse unknown columns (typos lose data)."""
    cells: dict[str, object] = {}
    for key, value in raw.items():
        if key not in COLUMNS:
            raise EvidenceParseError(
                source,
                line,
                f"{where}unknown column {key[:60]!r}; the columns are: {', '.join(COLUMNS)}",
            )
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        cells[key] = value.strip() if isinstance(value, str) else value
    for key in (
        "measured_by",
        "measured_on",
        "precision",
        "mfu_denominator",
        "mfu_flops_basis",
        "gpu_model",
        "container_image",
    ):
        if key in cells and not isinstance(cells[key], str):
            raise EvidenceParseError(
                source, line, f"{where}{key} must be text, found {str(cells[key])[:40]!r}"
            )
    if "measured_by" in cells:
        cells["measured_by"] = parse_measured_by(
            str(cells["measured_by"]), source, line, f"{where}measured_by"
        )
    if "measured_on" in cells:
        cells["measured_on"] = parse_measured_on(
            str(cells["measured_on"]), source, line, f"{where}measured_on"
        )
    for key in ("precision", "mfu_flops_basis"):
        if key in cells:
            cells[key] = str(cells[key]).lower()
    return cells


def parse_throughput_csv(text: str, source: str = "<csv>") -> ThroughputTable:
    """Rows of a throughput CSV ('#' lines are comments); raises EvidenceParseError only."""
    header: list[str] | None = None
    results: list[ThroughputResult] = []
    for lineno, line in enumerate(text.lstrip("\ufeff").split("\n"), start=1):
        if len(line) > MAX_LINE_CHARS:
            raise EvidenceParseError(
                source, lineno, f"line is {len(line)} characters long (limit {MAX_LINE_CHARS})"
            )
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            cells = [cell.strip() for cell in next(csv.reader([line.rstrip("\r")], strict=True))]
        except csv.Error as exc:
            raise EvidenceParseError(source, lineno, f"not a CSV line ({exc})") from None
        if header is None:
            header = _header(cells, source, lineno)
            continue
        if len(cells) != len(header):
            raise EvidenceParseError(
                source, lineno, f"expected {len(header)} cells like the header, found {len(cells)}"
            )
        if len(results) >= MAX_ROWS:
            raise EvidenceParseError(
                source, lineno, f"more than {MAX_ROWS} rows: not a throughput evidence file"
            )
        row = build_row(
            _clean_cells(dict(zip(header, cells, strict=True)), source, lineno, ""),
            source,
            lineno,
            "",
        )
        results.append(evaluate_row(row, source))
    if header is None:
        raise EvidenceParseError(
            source,
            None,
            f"no header line; the first line must name the columns: {', '.join(REQUIRED_COLUMNS)}, "
            "...",
        )
    if not results:
        raise EvidenceParseError(source, None, "a header but no data rows")
    return ThroughputTable(source, "csv", tuple(results))


def _header(cells: list[str], source: str, lineno: int) -> list[str]:
    names = [cell.lower() for cell in cells]
    if len(names) == 1 and ";" in names[0]:
        raise EvidenceParseError(
            source, lineno, "the header is separated by ';': save the file with commas"
        )
    unknown = [name for name in names if name not in COLUMNS]
    if unknown:
        raise EvidenceParseError(
            source,
            lineno,
            f"unknown column {unknown[0][:60]!r}; the columns are: {', '.join(COLUMNS)}",
        )
    repeated = [name for name in names if names.count(name) > 1]
    if repeated:
        raise EvidenceParseError(source, lineno, f"column {repeated[0]!r} appears twice")
    missing = [name for name in REQUIRED_COLUMNS if name not in names]
    if missing:
        raise EvidenceParseError(source, lineno, f"missing column(s): {', '.join(missing)}")
    return names


def parse_throughput_json(text: str, source: str = "<json>") -> ThroughputTable:
    """{"format": "clusterbid-throughput/1", "rows": [{column: value, ...}, ...]}; EvidenceParseError only."""
    if len(text) > MAX_JSON_CHARS:
        raise EvidenceParseError(
            source, None, f"{len(text)} characters is too large for a throughput evidence file"
        )
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EvidenceParseError(source, exc.lineno, f"not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise EvidenceParseError(
            source, None, "JSON nested too deeply for an evidence file"
        ) from None
    except ValueError as exc:  # an integer of more than 4,300 digits (Python's int_max_str_digits)
        raise EvidenceParseError(
            source, None, f"holds a number that is too long ({str(exc).split(';')[0]})"
        ) from None
    if not isinstance(document, dict) or not isinstance(document.get("rows"), list):
        raise EvidenceParseError(source, None, 'expected an object with a "rows" list')
    tag = document.get("format", JSON_FORMAT_TAG)
    if tag != JSON_FORMAT_TAG:
        raise EvidenceParseError(
            source, None, f"format {str(tag)[:60]!r} is not {JSON_FORMAT_TAG!r}"
        )
    extra = sorted(set(document) - {"format", "rows", "comment"})
    if extra:
        raise EvidenceParseError(
            source, None, f"unknown top-level key {extra[0][:60]!r}; expected format, rows, comment"
        )
    rows = document["rows"]
    if not rows:
        raise EvidenceParseError(source, None, 'the "rows" list is empty')
    if len(rows) > MAX_ROWS:
        raise EvidenceParseError(
            source, None, f"more than {MAX_ROWS} rows: not a throughput evidence file"
        )
    results = []
    for index, record in enumerate(rows):
        where = f"rows[{index}]."
        if not isinstance(record, dict):
            raise EvidenceParseError(
                source, None, f"rows[{index}]: expected an object, found {type(record).__name__}"
            )
        row = build_row(_clean_cells(record, source, None, where), source, None, where)
        results.append(evaluate_row(row, source, where))
    return ThroughputTable(source, "json", tuple(results))
