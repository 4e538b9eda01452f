"""The serving memo's tables in words: the service behind every figure (section 2), the ranked
comparison (section 3) and, per bid, how its throughput was established (what was not verified).

Apart from serving_memo.py (which lays the memo out) because each is rows of words, read by the
layout and checked by the tests without building a PDF."""

from __future__ import annotations

from clusterbid.core.costmodel.engine_efficiency import engine_relation, run_engine_name
from clusterbid.core.costmodel.serving_bill_gpus import bill_headings, gpus_beside_bill, grows
from clusterbid.core.costmodel.serving_calibration import above_ceiling
from clusterbid.core.costmodel.serving_evidence_shape import carried_across_lengths
from clusterbid.core.costmodel.serving_growth_words import growth_words
from clusterbid.core.engine_names import engine_words
from clusterbid.core.evidence.model import EvidenceGrade, EvidenceKind
from clusterbid.core.memo.bid_words import bid_labels, bid_names
from clusterbid.core.memo.serving_printed import band_cell
from clusterbid.core.report import format_money
from clusterbid.core.serving_scoring import ServingScorecard
from clusterbid.core.serving_traffic import profile_words
from clusterbid.core.serving_words import billing_basis, engine_memo_words


def service_rows(scorecard: ServingScorecard) -> list[tuple[str, str]]:
    w = scorecard.evaluation.workload
    return [
        ("Service", w.name),
        (
            "Model",
            f"{w.total_params_billions:g}B parameters, {w.precision.upper()} weights "
            f"({w.weight_bytes / 1e9:,.0f} GB); {engine_memo_words(w)}",
        ),
        ("Request", f"{w.prompt_tokens:,} prompt + {w.output_tokens:,} output tokens"),
        (
            "Latency targets",
            f"first token within {w.ttft_target_ms:g} ms for {w.ttft_percentile:g}% of requests at "
            f"peak; {w.tpot_target_ms:g} ms per output token",
        ),
        (
            "Traffic",
            f"{w.peak_requests_per_s:g} requests/s at peak, {w.average_requests_per_s:g} on average"
            + (f"; {profile_words(w)}" if profile_words(w) else "")
            + (f"; {growth_words(w)}" if growth_words(w) else ""),
        ),
        ("Billing basis", billing_basis(w)),
    ]


def _bill_heads(scorecard: ServingScorecard) -> tuple[str, str]:
    """The bill's and its GPUs' headings: a growing service's mean month beside GPUs reserved."""
    gpus, bill = bill_headings(any(grows(s.estimate) for s in scorecard.ranked))
    return bill[0].upper() + bill[1:], gpus


def comparison_rows(scorecard: ServingScorecard) -> list[tuple[str, ...]]:
    currency = scorecard.evaluation.currency
    rows = [
        (
            "#",
            "Bid / provider",
            "GPU",
            "Price per GPU-h",
            "Per M output tokens",
            *_bill_heads(scorecard),
            "Gates and flags",
        )
    ]
    names = bid_names(scorecard.scores)  # a provider's second bid by its GPU model, then its order
    for score in scorecard.scores:
        e = score.estimate
        findings = [f"CANNOT SERVE: {g.message}" for g in e.gates] + [
            f"Flag: {w.message}" for w in e.warnings
        ]
        serves = e.passes_gates
        rows.append(
            (
                "-" if score.rank is None else str(score.rank),
                names[
                    e.bid.id
                ],  # the provider; with the GPU model beside it, as the table shows it
                e.bid.capacity.gpu_model,
                format_money(e.price_per_gpu_hour, currency, cents=True),
                format_money(e.cost_per_million_tokens, currency, cents=True)
                + " point"
                + (
                    f"\n{band_cell(scorecard, e.bid.id)}"
                    if serves and band_cell(scorecard, e.bid.id)
                    else ""
                )
                if serves
                else "-",
                format_money(e.monthly_cost, currency) if serves else "-",
                gpus_beside_bill(e) if serves else "-",
                "\n".join(findings) or "serves within the targets",
            )
        )
    return rows


def _throughput_trust(e, workload) -> str:
    """How far the decode throughput the bid was costed with can be trusted, in words, what it
    made of the bid's engine when it was used, and whether the run measured another engine than
    the one the buyer states (the score output and the app say so too)."""
    ev = e.throughput_evidence
    if ev is not None:
        factor = e.hbm_efficiency / e.assumed_hbm_efficiency
        used = (
            f" Costed at that figure, the engine runs at {factor:.2f}x the assumed efficiencies "
            f"(HBM {e.hbm_efficiency:.0%}, compute {e.compute_efficiency:.0%})."
        )
        carried = _carried(ev, workload)
        return _evidence_trust(ev, asks=bool(carried)) + used + carried
    return (
        f"modelled from the {e.bid.capacity.gpu_model} spec sheet ({e.hbm_bandwidth_tb_s:g} TB/s "
        f"of HBM at the assumed {e.hbm_efficiency:.0%}, compute at the assumed "
        f"{e.compute_efficiency:.0%}); ask for measured output tokens/s at the proposed batch "
        "and latency." + _unused_benchmark(e)
    )


def _unused_benchmark(e) -> str:
    """A serving benchmark kept on file but not used (flagged above what the GPUs can run, or on
    a GPU the precision does not suit): said, so an approver sees it earned nothing."""
    kept = [
        ev
        for ev in e.bid.evidence
        if ev.kind is EvidenceKind.SERVING_DECODE_THROUGHPUT
        and ev.grade is not EvidenceGrade.DERIVED
    ]
    if not kept:
        return ""
    ev = kept[0]
    too_fast = any(above_ceiling(n) for n in e.calibration_notes)
    return (
        f" A serving benchmark on file ({ev.value:,.4g} {ev.unit} on {ev.scale_gpus:,} "
        f"GPU{'' if ev.scale_gpus == 1 else 's'}) "
        + ("reads as faster than these GPUs can run and " if too_fast else "")
        + "was not used, nor counted as evidence: ask the provider how it was measured, or "
        "record a reason to use it."
    )


def _carried(ev, workload) -> str:
    """What the memo says of a run carried to the service: other lengths, another engine."""
    words = ""
    if carried_across_lengths(ev, workload.prompt_tokens, workload.output_tokens):
        words += (
            f" It ran at {ev.prompt_tokens or workload.prompt_tokens:,.0f}-token prompts and "
            f"{ev.output_tokens or workload.output_tokens:,.0f}-token outputs, carried to the "
            f"service's {workload.prompt_tokens:,} and {workload.output_tokens:,} (published "
            "runs carried so came within 12%)."
        )
    name = run_engine_name(ev)
    stated = engine_words(workload.serving_engine)
    # The memo words the same four cases the score output's note does (a tester saw the memo ask
    # for "a run on that engine" where the note asked only for the version).
    words += {
        "unnamed": f" It does not state the engine it ran on: ask whether it was the one you "
        f"state ({stated}).",
        "no-version": f" It ran on {name} without a version: ask which version (you state "
        f"{stated}).",
        "other": f" It ran on {name}, not on the engine you state ({stated}): ask for a run on "
        "that engine.",
        "unknown": f" It ran on {name}, not known to be the engine you state ({stated}): ask for "
        "a run on that engine.",
    }.get(engine_relation(workload.serving_engine, name) or "same", "")
    return words


def _evidence_trust(ev, asks: bool = False) -> str:
    """`asks`: the run is carried to the service, and what follows asks for a run (then an
    independent measurement does not end in \"nothing to ask\", a tester saw both)."""
    what = (
        f"the decode throughput of {ev.value:,g} {ev.unit} on {ev.scale_gpus:,} "
        f"GPU{'' if ev.scale_gpus == 1 else 's'}"
    )
    when = ev.measured_on.isoformat() if ev.measured_on else "undated"
    log = (
        f"raw log {ev.artefact_name or 'attached'} (SHA-256 {ev.artefact_sha256[:12]}...)"
        if ev.artefact_sha256
        else "no raw log attached"
    )
    if ev.grade is EvidenceGrade.PROVIDER_CLAIM:
        return (
            f"{what} is the provider's claim only ({when}, {log}); ask for the benchmark's log and "
            "settings."
        )
    if ev.grade is EvidenceGrade.MEASURED_PROVIDER:
        return f"{what} was measured by the provider, not independently ({when}, {log})."
    return (
        f"{what} was measured independently ({ev.measured_by.replace('_', ' ')}, {when}, {log})"
        + ("." if asks else "; nothing to ask.")
    )


def unverified(scorecard: ServingScorecard, recommended: str | None = None) -> list[str]:
    """Every bid, the recommended one first (the override's, if any), then by rank, excluded bids
    last: how its throughput, the figure the cost per token rests on, was established."""
    order = sorted(
        scorecard.scores, key=lambda s: (s.bid.id != recommended, s.rank is None, s.rank or 0)
    )
    workload = scorecard.evaluation.workload
    labels = bid_labels(scorecard.scores)  # copies of one offer told apart by their order, in words
    return [
        f"{labels[score.bid.id]}: {_throughput_trust(score.estimate, workload)}" for score in order
    ]
