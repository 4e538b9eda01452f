"""What reading one evidence file gave (EvidenceReading: format, fingerprint, parsed content,
graded evidence, flags, notes) and its plain JSON view for `evidence parse --json`."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field

from clusterbid.core.evidence.evidence_file import EvidenceFormat
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.evidence.nccl_result import NcclFlag, NcclTestsRun
from clusterbid.core.evidence.scaling import ScalingTable
from clusterbid.core.evidence.throughput_readers import ThroughputTable
from clusterbid.core.evidence.training_log import TrainingLog


@dataclass(frozen=True)
class EvidenceReading:
    """What one file held: its format, fingerprint, parsed content, graded Evidence and flags."""

    source: str
    format: EvidenceFormat
    sha256: str
    nccl_runs: tuple[NcclTestsRun, ...] = ()
    throughput: ThroughputTable | None = None
    scaling: ScalingTable | None = None
    training_log: TrainingLog | None = None
    evidence: tuple[Evidence, ...] = ()
    notes: tuple[str, ...] = field(default=())
    first_run_number: int = 1  # `--run N` keeps one run: it is still called run N

    def flags(self) -> tuple[NcclFlag, ...]:
        """Every red flag of the file, whichever format it was."""
        found: list[NcclFlag] = []
        for run in self.nccl_runs:
            found += run.flags
        if self.throughput is not None:
            for result in self.throughput.results:
                where = f"line {result.row.line}: " if result.row.line else ""
                found += [NcclFlag(code=f.code, message=where + f.message) for f in result.flags]
        if self.scaling is not None:
            found += self.scaling.flags
        if self.training_log is not None:
            found += self.training_log.flags
        return tuple(found)


def reading_to_json(reading: EvidenceReading) -> dict[str, object]:
    """A plain JSON view for `clusterbid evidence parse --json` and scripts."""
    out: dict[str, object] = {
        "source": reading.source,
        "format": reading.format,
        "sha256": reading.sha256,
    }
    if reading.nccl_runs:
        numbered = enumerate(reading.nccl_runs, start=reading.first_run_number)
        out["nccl_runs"] = [_run_json(index, run) for index, run in numbered]
    if reading.throughput is not None:
        out["throughput_rows"] = [
            json.loads(result.model_dump_json()) for result in reading.throughput.results
        ]
    if reading.scaling is not None:
        table = reading.scaling
        out["scaling"] = {
            "setup": {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in vars(table.setup).items()},
            "exponent": table.fit.exponent, "coefficient": table.fit.coefficient,
            "rms_relative_error": table.fit.rms_relative_error,
            "points": [vars(p) for p in table.points],
        }  # fmt: skip
    if reading.training_log is not None:
        log = reading.training_log
        out["training_log"] = {
            "arguments": {k: log.arguments[k] for k in sorted(log.arguments)},
            "step_times_s": list(log.step_times_s),
            "step_time_s": log.step_time_s,
        }
    out["flags"] = [flag.model_dump() for flag in reading.flags()]
    out["notes"] = list(reading.notes)
    out["evidence"] = [json.loads(item.model_dump_json()) for item in reading.evidence]
    return out


def _run_json(index: int, run: NcclTestsRun) -> dict[str, object]:
    """One run with its per-size curve: what the officer needs to judge a sweep, saturated or not."""
    out: dict[str, object] = json.loads(run.model_dump_json(exclude={"rows"}))
    curve = []
    for row in run.rows:
        point: dict[str, object] = {"bytes": row.size_bytes, "line": row.line}
        for name, half in (("out_of_place", row.out_of_place), ("in_place", row.in_place)):
            point[name] = {
                "time_us": half.time_us,
                "algbw_gb_s": half.algbw_gb_s,
                "busbw_gb_s": half.busbw_gb_s,
            }
        curve.append(point)
    return {"run": index} | out | {"rows": len(run.rows), "curve": curve}
