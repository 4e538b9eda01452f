"""The officer's view of value of information: "Ask X for Y: 22% chance it changes the choice,
worth about $Z". Written once for the CLI, the app and the memo."""

from __future__ import annotations

from dataclasses import dataclass

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence.model import GRADE_WORDS
from clusterbid.core.money import format_money
from clusterbid.core.uncertainty.value_of_information import InputValue, ValueOfInformation

ASK_FOR = {
    "busbw": "an nccl-tests all_reduce log on 2+ nodes",
    "baseline_mfu": "a training-throughput run of this workload",
    "failure_rate": "its fleet's failure record (failures per 1,000 GPU-days)",
    "replacement_hours": "a node-replacement time written into the contract",
    "uptime": "an uptime SLA written into the contract, with its service credits",
}


@dataclass(frozen=True, slots=True)
class Ask:
    provider: str
    value: InputValue
    text: str


MIN_WORTH = 0.5


def asks(
    evaluation: Evaluation, voi: ValueOfInformation, bid_id: str | None = None, limit: int = 3
) -> list[Ask]:
    """The requests most worth making, largest first; one bid's only when bid_id is given. A value
    that prints as zero (float noise of the bin averages, under half a currency unit) is no request."""
    providers = {b.id: b.quote.provider for b in evaluation.bids}
    chosen = [
        v
        for v in voi.values
        if v.evpi >= MIN_WORTH and (bid_id is None or bid_id in (v.informs or (v.bid_id,)))
    ][:limit]
    return [
        Ask(providers[v.bid_id], v, ask_text(providers, v, evaluation.currency)) for v in chosen
    ]


def _now(source: str) -> str:
    """What backs the figure now, in words: an evidence grade is kept as its id in the Monte
    Carlo's inputs (and `score --json`); the officer reads the grade's words."""
    grades = {grade.value: words for grade, words in GRADE_WORDS.items()}
    return grades.get(source, source)


def ask_text(providers: dict[str, str], v: InputValue, currency: str) -> str:
    """`providers`: each bid's provider by bid id (officers read names, not ids)."""
    return ask_words(providers, v, ASK_FOR[v.input], format_money(v.evpi, currency))


def ask_words(providers: dict[str, str], v: InputValue, ask_for: str, worth: str) -> str:
    """One measurement worth asking for, in the officer's words, for any kind: what to ask whom
    for (`ask_for`), what backs the figure now, the chance it changes the choice and `worth`."""
    sharing = [providers.get(bid_id, bid_id) for bid_id in v.informs]
    shared = (
        f"; one measurement for {', '.join(sharing)}, which share this figure"
        if len(sharing) > 1
        else ""
    )
    return (
        f"Ask {providers.get(v.bid_id, v.bid_id)} for {ask_for} (now: {_now(v.source)}{shared}): "
        f"{v.change_probability:.0%} chance it "
        f"changes the choice, worth about {worth}"
    )


def voi_lines(
    evaluation: Evaluation, voi: ValueOfInformation, bid_id: str | None = None
) -> list[str]:
    """A short plain-text account: the choice, the total value, then the top requests."""
    if voi.choice is None:
        return ["Value of information: no bid passes the gates, so there is no choice to change."]
    fmt = lambda v: format_money(v, evaluation.currency)  # noqa: E731
    lines = [
        f"Value of information ({voi.samples:,} Monte Carlo samples, seed {voi.seed}, {voi.bins} "
        "bins): "
        f"lowest expected net plan cost now: {voi.choice} ({fmt(voi.expected_cost[voi.choice])}).",
        f"Knowing every input of every bid exactly would be worth {fmt(voi.total_evpi)} in "
        "expectation.",
    ]
    if bid_id is not None and bid_id not in voi.expected_cost:
        return [
            *lines,
            f"  {bid_id} fails a gate, so the Monte Carlo does not sample it: no value is computed "
            "for it.",
        ]
    found = asks(evaluation, voi, bid_id)
    lines += [f"  {a.text}" for a in found]
    if not found:
        lines.append(
            "  No single measurement"
            + (f" of {bid_id}" if bid_id else "")
            + " can change the choice."
        )
    return lines


STATE_WORDS = {"answered": "answered", "late": "answered after the deadline", "refused": "refused",
               "partly answered": "partly answered",
               "open": "awaiting an answer", "overdue": "no answer by the deadline"}  # fmt: skip


def memo_lines(
    evaluation: Evaluation, voi: ValueOfInformation | None, statuses=()
) -> tuple[str, ...]:
    """The memo's short section: the measurements most worth asking for, then each issued
    request's state (`statuses`: evidence_request.status.RequestStatus, from the document)."""
    lines = [] if voi is None else [a.text + "." for a in asks(evaluation, voi)]
    for s in statuses:
        when = f" on {s.returned_on.isoformat()}" if s.returned_on else ""
        reason = f" ({s.note})" if s.state in ("refused", "partly answered") and s.note else ""
        lines.append(
            f"Request {s.request.request_id} to {s.provider}, {s.request.title}, due "
            f"{s.deadline.isoformat()}: "
            f"{STATE_WORDS[s.state]}{when}{reason}."
        )
    return tuple(lines)
