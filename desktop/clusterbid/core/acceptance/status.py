"""Pass, fail or missing per acceptance test, from the files returned and the outcomes recorded,
with the remedy owed for each failure."""

from __future__ import annotations

from dataclasses import dataclass

from clusterbid.core.acceptance.model import AcceptancePlan, AcceptanceTest
from clusterbid.core.acceptance.node_judging import judge_dcgm, judge_soak
from clusterbid.core.acceptance.results import (
    RecordedOutcome,
    read_result,
    recorded_outcomes,
    returned_files,
)
from clusterbid.core.costmodel.recipe_fit import container_mismatch, shape_mismatches
from clusterbid.core.errors import InputError
from clusterbid.core.evidence.model import Evidence, EvidenceKind
from clusterbid.core.evidence.throughput import ThroughputRow
from clusterbid.core.evidence_request.ladder_fit import fit_ladder, runs_at_layout
from clusterbid.core.store.document import EvaluationDocument
from clusterbid.core.workload import Workload

STATE_WORDS = {"pass": "passed", "fail": "failed", "missing": "missing: nothing returned yet"}


@dataclass(frozen=True, slots=True)
class AcceptanceResult:
    test: AcceptanceTest
    state: str  # "pass", "fail" or "missing"
    measured: float | None  # in the test's unit
    files: tuple[str, ...]
    notes: tuple[str, ...]
    evidence: tuple[Evidence, ...]  # what the files read as (for the what-if), never the bid's

    @property
    def remedy_owed(self) -> str | None:
        return self.test.remedy if self.state == "fail" else None


def _busbw(
    test: AcceptanceTest, files: list[tuple[str, bytes]]
) -> tuple[float | None, list[str], list[Evidence]]:
    """The highest plateau among the runs at the test's scale; other scales and flagged figures
    are named and left out (a flagged busbw is no more trusted after award than before)."""
    gpus = test.runs[0].gpus
    notes, kept = [], []
    for name, data in files:
        for item in read_result(test, name, data).evidence:
            if item.kind is not EvidenceKind.ALLREDUCE_BUSBW:
                continue
            if item.scale_gpus != gpus:
                notes.append(
                    f"{name}: ran on {item.scale_gpus:,} GPUs; the test asks {gpus:,}: not counted"
                )
            elif item.suspect:
                notes.append(f"{name}: {item.value:g} GB/s flagged ({item.suspect}): not counted")
            else:
                kept.append(item)
    return (max(e.value for e in kept) if kept else None), notes, kept


def _off_layout(row: ThroughputRow, w: Workload) -> str | None:
    """What of the workload's shape the row ran differently, in words (None: it ran the shape)."""
    asked = {
        "GPUs": (row.gpus, w.job_gpus),
        "TP": (row.tp, w.tensor_parallel),
        "PP": (row.pp, w.pipeline_parallel),
        "CP": (row.cp, w.context_parallel),
        "sequence length": (row.sequence_length, w.sequence_length),
        "global batch tokens": (
            row.global_batch_tokens or w.global_batch_tokens,
            w.global_batch_tokens,
        ),
    }
    off = [
        f"{name} {ran:,} (the test asks {want:,})"
        for name, (ran, want) in asked.items()
        if ran != want
    ]
    said = [f"ran at {'; '.join(off)}"] if off else []
    said += shape_mismatches(row.num_attention_heads, row.vocab_size, w)
    software = container_mismatch(row.container_image, w)
    return "; ".join(said + ([software] if software else [])) or None


def _step_time(
    test: AcceptanceTest, files: list[tuple[str, bytes]], w: Workload
) -> tuple[float | None, list[str], list[Evidence]]:
    notes, steps, kept, ladder = [], [], [], []
    for name, data in files:
        reading = read_result(test, name, data)
        table = reading.throughput
        ladder += runs_at_layout(table.results if table else (), w)
        for result, item in zip(table.results if table else (), reading.evidence, strict=False):
            row = result.row
            off = _off_layout(row, w)
            if off and runs_at_layout([result], w):  # the recipe at a smaller rung: fitted
                notes.append(
                    f"{name} line {row.line or '-'}: a rung of the scale ladder on "
                    f"{row.gpus:,} GPUs: carried to the job's size by the fit below, not judged"
                )
                continue
            if off:
                notes.append(f"{name} line {row.line or '-'}: {off}: not counted")
                continue
            tokens = result.tokens_per_second
            step = row.step_time_s or (w.global_batch_tokens / tokens if tokens else None)
            if step is None:
                notes.append(f"{name}: gives neither a step time nor tokens per second")
                continue
            steps.append(step)
            kept.append(item)
    # The request's scale ladder returned here too: its fit carries the smaller runs to the
    # job's size, beside the figure scored (shown, never judged: the test asks the job's size).
    fitted = fit_ladder(ladder, w, test.scored or 0.0, test.scored_source)
    if fitted is not None:
        notes.append(fitted.words()[0].upper() + fitted.words()[1:])
    return (min(steps) if steps else None), notes, kept


def _read_returned(
    test: AcceptanceTest,
    plan: AcceptancePlan,
    files: dict[str, list[tuple[str, bytes]]],
    workload: Workload,
) -> tuple[list[tuple[str, bytes]], float | None, list[str], list[Evidence]]:
    """(files, measured, notes, evidence) of one test from the files returned for it; the
    contiguous block is read from the job-block all-reduce's files."""
    own = files.get(test.test_id, [])
    measured: float | None = None
    notes: list[str] = []
    evidence: list[Evidence] = []
    if test.test_id.startswith("ACC-busbw-"):
        measured, notes, evidence = _busbw(test, own)
    elif test.test_id == "ACC-contiguous-block":
        block = plan.test("ACC-busbw-job-block")
        own = files.get("ACC-busbw-job-block", [])
        if block is not None and own:
            _, notes, found = _busbw(block, own)
            measured = float(max(e.scale_gpus for e in found)) if found else None
            notes.append(
                "check the hostfile against the provider's topology map: one spine or rail group"
            )
    elif test.test_id == "ACC-step-time":
        measured, notes, evidence = _step_time(test, own, workload)
    return own, measured, notes, evidence


def _recorded_notes(test: AcceptanceTest, outcome: RecordedOutcome) -> list[str]:
    """An outcome recorded by hand, and whether the figure recorded with it agrees."""
    notes = [f"recorded: {outcome.note}"]
    measured = outcome.measured
    if (
        measured is not None
        and test.threshold is not None
        and test.passes(measured) != outcome.passed
    ):
        notes.append("the recorded outcome disagrees with the figure recorded; the outcome stands")
    return notes


def judge_tests(document: EvaluationDocument, plan: AcceptancePlan) -> list[AcceptanceResult]:
    files = returned_files(document, plan)
    outcomes = recorded_outcomes(document, plan)
    workload = document.evaluation.workload
    if not isinstance(workload, Workload):
        raise InputError("an inference evaluation: acceptance plans cover training bids only")
    bids = {b.id: b for b in document.evaluation.bids}
    results = []
    for test in plan.tests:
        own, measured, notes, evidence = _read_returned(test, plan, files, workload)
        judged, bid = None, bids.get(plan.bid_id)
        if own and bid is not None and test.test_id == "ACC-dcgm":
            judged = judge_dcgm(own, bid)
        elif own and bid is not None and test.test_id == "ACC-soak":
            judged = judge_soak(test, own, bid)
        outcome = outcomes.get(test.test_id)
        if judged is not None and (judged[0] != "missing" or outcome is None):
            state, measured, notes = judged  # the files, not a hand record, where they decide
        elif measured is not None and test.threshold is not None:
            state = "pass" if test.passes(measured) else "fail"
        elif outcome is not None:
            state, measured = "pass" if outcome.passed else "fail", outcome.measured
            notes += _recorded_notes(test, outcome)
        else:
            state = "missing"
        results.append(
            AcceptanceResult(
                test, state, measured, tuple(n for n, _ in own), tuple(notes), tuple(evidence)
            )
        )
    return results
