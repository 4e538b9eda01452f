"""The request-for-evidence pack of one serving bid (issue 33 item 2): the benchmark that would
settle the serving Monte Carlo's largest doubt for this bid, and the terms to state in writing.

What the serving bands draw (uncertainty/serving_draws.py) and who can settle it:
- the HBM (decode) and compute (prefill) efficiencies: one benchmark run sets one engine factor
  for both (serving_calibration), so one measured request settles both - the pack's request;
- payment terms and the SLA credit (failure rate, repair): the provider states them - questions;
- traffic growth: the buyer's own forecast, nothing a provider can measure - never asked.
The request runs at the bid's GPU and tensor-parallel degree and at the batch the estimate says
one replica holds within the targets, so the returned file tests the figure the cost rests on.
"""

from __future__ import annotations

import datetime as dt

from clusterbid.core.costmodel.serving_estimate import ServingEstimate, estimate_serving
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence_request.build import WITNESS, request_id
from clusterbid.core.evidence_request.model import EvidenceRequest, RequestPack
from clusterbid.core.evidence_request.serving_recipe import RECIPE, server_command, serving_runs
from clusterbid.core.serving_workload import InferenceWorkload
from clusterbid.core.uncertainty.value_of_information import ValueOfInformation

MODEL_PLACEHOLDER = "MODEL"  # the provider serves the buyer's model, named in the letter's notes


def _estimate(evaluation: Evaluation, bid_id: str) -> ServingEstimate:
    workload = evaluation.workload
    if not isinstance(workload, InferenceWorkload):
        raise InputError(
            "this evaluation buys a training job; a serving request for evidence needs a serving "
            "(inference) evaluation - use the training request on it instead"
        )
    bid = next((b for b in evaluation.bids if b.id == bid_id), None)
    if bid is None:
        known = ", ".join(b.id for b in evaluation.bids) or "none"
        raise InputError(f"--bid {bid_id!r}: no such bid in this evaluation (bids: {known})")
    estimate = estimate_serving(workload, [bid]).bids[0]
    if estimate.gates or estimate.tensor_parallel is None:
        # No replica of this offer fits the service: a benchmark recipe would not start.
        reasons = "; ".join(g.message for g in estimate.gates) or "no replica fits the offer"
        raise InputError(
            f"--bid {bid_id!r}: this bid cannot serve the workload as offered ({reasons}), so "
            "there is no benchmark to ask for; ask the provider for an offer that can serve it"
        )
    return estimate


def _benchmark_request(w: InferenceWorkload, e: ServingEstimate, rid: str) -> EvidenceRequest:
    tp = e.tensor_parallel or w.tensor_parallel or 1
    gpu = e.bid.capacity.gpu_model
    notes = [
        f"Recipe: {RECIPE}.",
        f"Serve {w.name} ({MODEL_PLACEHOLDER} below: the weights the buyer names) on {tp} "
        f"{gpu} GPU(s), tensor parallel {tp}, started as: "
        f"`{server_command(w, MODEL_PLACEHOLDER, tp)}`.",
        f"Each request: {w.prompt_tokens:,} prompt tokens, {w.output_tokens:,} output tokens "
        f"(the buyer's averages). Targets: first token within {w.ttft_target_ms:g} ms, each "
        f"further token within {w.tpot_target_ms:g} ms.",
        "Run every concurrency below on the same server, one after the other, and return each "
        "result JSON unedited.",
    ]
    return EvidenceRequest(
        request_id=rid,
        bid_id=e.bid.id,
        input="serving_efficiency",
        evidence_kind="serving_decode_throughput",
        title=f"Serving throughput and latency of the buyer's model on {gpu}, tensor parallel {tp}",
        runs=serving_runs(
            w, MODEL_PLACEHOLDER, tp, e.bid.capacity.gpus_per_node, rid, near_slo=e.batch
        ),
        instructions=notes,
        formats=["vLLM benchmark_serving result JSON (vllm bench serve --save-result)"],
    )


# What each question settles (serving_value.py's inputs): its value is the largest of theirs.
QUESTION_INPUTS = (("payment_days",), ("failure_rate", "replacement_hours"))


def _ordered(questions: list[str], voi: ValueOfInformation | None, bid_id: str) -> list[str]:
    """The questions, the one worth most to the decision first (as it stands without a value)."""
    if voi is None:
        return questions
    worth = {v.input: v.evpi for v in voi.values if bid_id in (v.informs or (v.bid_id,))}
    value = [max(worth.get(name, 0.0) for name in names) for names in QUESTION_INPUTS]
    order = sorted(range(len(questions)), key=lambda k: -value[k])  # stable: ties keep theirs
    return [questions[k] for k in order]


def build_serving_pack(
    evaluation: Evaluation,
    bid_id: str,
    issued_on: dt.date,
    deadline: dt.date,
    voi: ValueOfInformation | None = None,
) -> RequestPack:
    """One serving bid's pack: its benchmark request, then the terms to state in writing, those
    worth most to the decision first (`voi`: serving_value.py; the pack itself names no value)."""
    estimate = _estimate(evaluation, bid_id)
    if deadline <= issued_on:
        raise InputError(f"deadline {deadline} must come after the day of issue, {issued_on}")
    w = evaluation.workload
    assert isinstance(w, InferenceWorkload)  # _estimate refused any other
    rid = request_id(evaluation, bid_id, "serving_efficiency", issued_on)
    questions = [
        "Payment terms: the days after the invoice the payment is due, as in the contract.",
        "Service credits: the uptime the contract promises, what a breach pays back, and node or "
        "GPU failures per 1,000 GPU-days on this fleet over the last 90 days.",
    ]
    return RequestPack(
        evaluation=evaluation.title,
        provider=estimate.bid.quote.provider,
        bid_id=bid_id,
        issued_on=issued_on,
        deadline=deadline,
        requests=[_benchmark_request(w, estimate, rid)],
        witness=dict(WITNESS),
        questions=_ordered(questions, voi, bid_id),
    )
