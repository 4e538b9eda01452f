"""Parse the JSON file nccl-tests writes with -J (format version 2) into an NcclTestsRun."""

from __future__ import annotations

import json
import math
from typing import Any

from pydantic import ValidationError

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.nccl_checks import finish_run
from clusterbid.core.evidence.nccl_raw import MAX_RESULT_ROWS, NodeCount, RawRun
from clusterbid.core.evidence.nccl_result import (
    PROGRAM_NAME,
    NcclTestsResult,
    NcclTestsRow,
    NcclTestsRun,
)

# A -J file holds one run; with per-iteration timings a few MB. Refuse absurd inputs up front.
MAX_JSON_CHARS = 256 * 1024 * 1024
# nccl-tests writes doubles with %lf: six decimals.
_JSON_RESOLUTION = 0.5e-6


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, problem: str) -> EvidenceParseError:
        return EvidenceParseError(self.source, None, f"{path}: {problem}")

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected an object, found {type(value).__name__}")
        return value

    def key(self, parent: dict[str, Any], key: str, path: str) -> Any:
        if key not in parent:
            raise self.fail(path, f"missing {key!r}")
        return parent[key]

    def number(self, value: Any, path: str) -> float:
        # nccl-tests writes NaN as the string "nan"; booleans are not numbers here.
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(path, f"expected a number, found {str(value)[:40]!r}")
        if not math.isfinite(value) or value < 0:
            raise self.fail(path, f"expected a finite number >= 0, found {value!r}")
        return float(value)

    def integer(self, value: Any, path: str) -> int:
        # root is written as a padded string ("    -1"), sizes as bare integers.
        digits = value.strip().lstrip("-") if isinstance(value, str) else ""
        if (
            digits.isascii() and digits.isdigit() and len(value) < 40
        ):  # not U+00B2: int() refuses it
            return int(value.strip())
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise self.fail(path, f"expected a whole number, found {str(value)[:40]!r}")

    def half(self, record: dict[str, Any], path: str) -> NcclTestsResult:
        time_key = "cpu_time" if "cpu_time" in record else "time"
        nwrong = record.get("nwrong")
        wrong = None
        if nwrong is not None:
            count = self.number(nwrong, f"{path}.nwrong")
            if count != int(count):
                raise self.fail(f"{path}.nwrong", f"expected a count, found {nwrong!r}")
            wrong = int(count)
        return NcclTestsResult(
            time_us=self.number(self.key(record, time_key, path), f"{path}.{time_key}"),
            algbw_gb_s=self.number(self.key(record, "alg_bw", path), f"{path}.alg_bw"),
            busbw_gb_s=self.number(self.key(record, "bus_bw", path), f"{path}.bus_bw"),
            wrong=wrong,
        )

    def row(self, record: dict[str, Any], path: str) -> NcclTestsRow:
        out_of_place = self.key(record, "out_of_place", path)
        if out_of_place is None:
            raise self.fail(
                f"{path}.out_of_place",
                "no out-of-place result (trace replay output is not supported)",
            )
        redop = self.key(record, "redop", path)
        kind = self.key(record, "type", path)
        if not isinstance(redop, str) or not isinstance(kind, str):
            raise self.fail(path, "type and redop must be strings")
        root = self.integer(record.get("root", -1), f"{path}.root")
        try:
            return NcclTestsRow(
                size_bytes=self.integer(self.key(record, "size", path), f"{path}.size"),
                count=self.integer(self.key(record, "count", path), f"{path}.count"),
                type=kind, redop=redop, root=root if root >= 0 else None,
                out_of_place=self.half(
                    self.obj(out_of_place, f"{path}.out_of_place"), f"{path}.out_of_place"),
                in_place=self.half(
                    self.obj(self.key(record, "in_place", path), f"{path}.in_place"),
                    f"{path}.in_place"),
            )  # fmt: skip
        except ValidationError as exc:
            raise self.fail(path, f"not valid: {exc.errors()[0]['msg']}") from None


def parse_nccl_tests_json(
    text: str,
    source: str = "<json>",
    *,
    collective_hint: str | None = None,
    nic_aggregate_gb_s: float | None = None,
    nodes: NodeCount | None = None,
) -> list[NcclTestsRun]:
    """The run in a nccl-tests -J file (a one-item list, like the text parser); EvidenceParseError only."""
    if len(text) > MAX_JSON_CHARS:
        raise EvidenceParseError(
            source, None, f"{len(text)} characters is too large for a nccl-tests JSON file"
        )
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EvidenceParseError(
            source, exc.lineno, f"not valid JSON ({exc.msg}); a run that crashed leaves it unclosed"
        ) from None
    except RecursionError:
        raise EvidenceParseError(
            source, None, "JSON nested too deeply for an evidence file"
        ) from None
    except ValueError as exc:  # an integer of more than 4,300 digits (Python's int_max_str_digits)
        raise EvidenceParseError(
            source, None, f"holds a number that is too long ({str(exc).split(';')[0]})"
        ) from None
    reader = _Reader(source)
    top = reader.obj(document, "document")
    raw = RawRun(source=source, output_format="json")
    args = top.get("args")
    if isinstance(args, list) and args and isinstance(args[0], str):
        match = PROGRAM_NAME.search(args[0])
        raw.program = match[1] if match else None
    if isinstance(top.get("nccl_version"), int):
        raw.version = f"nccl {top['nccl_version']}"
    config = reader.obj(top.get("config", {}), "config")
    devices = config.get("devices", [])
    if not isinstance(devices, list):
        raise reader.fail("config.devices", "expected a list")
    for i, device in enumerate(devices):
        device = reader.obj(device, f"config.devices[{i}]")
        rank = reader.integer(
            reader.key(device, "rank", f"config.devices[{i}]"), f"config.devices[{i}].rank"
        )
        host, info = device.get("hostname"), device.get("device_info")
        raw.rank_hosts[rank] = host if isinstance(host, str) else "?"
        raw.rank_gpus[rank] = info.strip() if isinstance(info, str) else "?"
    results = reader.key(top, "results", "document")
    if not isinstance(results, list):
        raise reader.fail("results", "expected a list")
    if len(results) > MAX_RESULT_ROWS:
        raise reader.fail(
            "results",
            f"{len(results):,} result rows, more than the {MAX_RESULT_ROWS:,} a file may "
            "hold (a sweep is tens of sizes): attach each run's output on its own",
        )
    for i, record in enumerate(results):
        raw.rows.append(reader.row(reader.obj(record, f"results[{i}]"), f"results[{i}]"))
        raw.resolutions.append((_JSON_RESOLUTION,) * 4)
    if "out_of_bounds" in top:
        bounds = reader.obj(top["out_of_bounds"], "out_of_bounds")
        raw.out_of_bounds = reader.integer(
            reader.key(bounds, "count", "out_of_bounds"), "out_of_bounds.count"
        )
    if "average_bus_bandwidth" in top:
        average = reader.obj(top["average_bus_bandwidth"], "average_bus_bandwidth")
        bandwidth = reader.key(average, "bandwidth", "average_bus_bandwidth")
        raw.avg_busbw = reader.number(bandwidth, "average_bus_bandwidth.bandwidth")
    if not raw.rows:
        raise EvidenceParseError(
            source, None, "the JSON 'results' list is empty: no per-size rows to score"
        )
    raw.given_nodes = nodes
    return [finish_run(raw, collective_hint, nic_aggregate_gb_s)]
