"""Dates and contract findings: when the job starts and finishes on a bid, the deadline and
block-length gates, and the terms an officer must see because the bid left them open."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from clusterbid.core.bid import Bid
from clusterbid.core.billing_kinds import spec_of
from clusterbid.core.costmodel.gates import Finding
from clusterbid.core.plan import ComputePlan
from clusterbid.core.provenance import DOCUMENTED_DEFAULTS
from clusterbid.core.provenance.resolve import billed_spare_gpus, spare_pool_stated, term_applies
from clusterbid.core.terms import BILLING_WORDS
from clusterbid.core.workload import Workload


@dataclass(frozen=True, slots=True)
class ScheduleDates:
    start: dt.date | None  # None: neither a handover date nor a start date is known
    finish: dt.date | None
    basis: str  # where the start date comes from, in words


def schedule(
    plan: ComputePlan, bid: Bid, wall_hours: float, job_gpus: int | None = None
) -> ScheduleDates:
    """The job starts at the later of the buyer's start date and the bid's handover (its stated
    date, or the start date plus the provisioning lead time), and runs `wall_hours`. A phased
    delivery (issue 39) hands the job over when its contiguous phases reach `job_gpus`."""
    lead = bid.terms.provisioning_lead_days
    handover = bid.capacity.available_from
    basis = "the bid's handover date"
    if bid.delivery is not None and job_gpus is not None:
        handover = bid.delivery.block_handover(job_gpus) or bid.delivery.phases[-1].handover
        basis = "the handover of the phase that completes the job's contiguous block"
    if handover is None and plan.start_date is not None:
        handover = plan.start_date + dt.timedelta(days=lead)
        basis = (
            f"the plan's start date + {lead} days' provisioning"
            if lead
            else "the plan's start date"
        )
    if handover is None:
        return ScheduleDates(None, None, "no handover date and no start date in the plan")
    start = handover
    if plan.start_date is not None and plan.start_date > handover:
        start, basis = plan.start_date, "the plan's start date"
    finish = (dt.datetime.combine(start, dt.time()) + dt.timedelta(hours=wall_hours)).date()
    return ScheduleDates(start, finish, basis)


def contract_findings(
    workload: Workload, bid: Bid, figures: dict, dates: ScheduleDates
) -> tuple[list[Finding], list[Finding]]:
    """(gates, warnings) that follow from the contract and the plan, for a bid's figures."""
    gates: list[Finding] = []
    warnings: list[Finding] = []
    terms, plan, n = bid.terms, workload.plan, workload.job_gpus
    days = figures["wall_hours"] / 24.0
    if bid.delivery is not None and bid.delivery.block_handover(n) is None:
        warnings.append(
            Finding(
                "delivery_block_short",
                (
                    f"the delivery's contiguous phases never add up to the job's {n:,} GPUs: the "
                    "job is taken to start "
                    "at the last phase's handover; ask the provider when one block of that size is "
                    "handed over"
                ),
            )
        )
    if terms.billing is None:
        warnings.append(
            Finding(
                "billing_not_stated",
                f"the bid does not say how it bills: read as {BILLING_WORDS[terms.billing_kind]} "
                "from its "
                f"{terms.term_months}-month term and {terms.committed_gpu_hours:,.0f} committed "
                "GPU-hours; ask the provider",
            )
        )
    if plan.deadline is not None:
        if dates.finish is None:
            warnings.append(
                Finding(
                    "finish_date_unknown",
                    f"the deadline ({plan.deadline.isoformat()}) cannot be checked: {dates.basis}",
                )
            )
        elif dates.finish > plan.deadline:
            gates.append(
                Finding(
                    "misses_deadline",
                    f"the job would finish on {dates.finish.isoformat()}, after the deadline of "
                    f"{plan.deadline.isoformat()} (starts {dates.start.isoformat()}, runs "
                    f"{days:,.1f} days)",
                )
            )
    ceiling = plan.commitment_ceiling
    if ceiling is not None and figures["commitment"] > float(ceiling):
        gates.append(
            Finding(
                "commitment_above_ceiling",
                f"the contract commits {figures['commitment']:,.0f}, above the buyer's ceiling of "
                f"{float(ceiling):,.0f}",
            )
        )
    if (
        plan.idle_use == "more-runs"
        and plan.further_runs is None
        and figures["idle_gpu_hours"] > 0
        and spec_of(terms.billing_kind).commits
    ):  # on demand, idle time is only billing round-up
        warnings.append(
            Finding(
                "further_runs_not_stated",
                f"the plan runs more jobs in idle reserved time but does not say how many: its "
                f"{figures['idle_gpu_hours']:,.0f} idle GPU-hours are counted as worth nothing; "
                "state further_runs",
            )
        )
    if terms.bills_for_a_term and terms.reserved_gpus is not None and terms.reserved_gpus < n:
        gates.append(
            Finding(
                "reserves_fewer_gpus_than_job",
                f"the contract reserves {terms.reserved_gpus:,} GPUs; the planned job needs {n:,}",
            )
        )
    spec = spec_of(terms.billing_kind)
    if spec.needs_block_days and figures["wall_hours"] > terms.block_days * 24.0:
        gates.append(
            Finding(
                "job_outlasts_block",
                f"the job needs {days:,.1f} days; the block booking is {terms.block_days:,} days",
            )
        )
    if figures["outlasts_term"]:
        warnings.append(
            Finding(
                "job_outlasts_term",
                f"the job runs {days:,.1f} days, past the {terms.term_months}-month term: the "
                "extra time is priced "
                "at the same rate on the job's GPUs, which the provider has not quoted",
            )
        )
    if terms.bills_for_a_term and terms.reserved_gpus is None and bid.capacity.gpus_offered > n:
        warnings.append(
            Finding(
                "reserved_gpus_not_stated",
                "the bid does not say how many GPUs the term reserves: all "
                f"{bid.capacity.gpus_offered:,} offered "
                f"are billed, {bid.capacity.gpus_offered - n:,} more than the job uses",
            )
        )
    unstated = _unstated_test(bid)
    if spec.may_exit_early and terms.exit_clause and unstated("terms.early_exit_fee_percent"):
        warnings.append(
            Finding(
                "exit_fee_not_stated",
                "the bid allows an early exit but does not state its fee: priced as no exit (the "
                "whole rest of "
                "the term owed) until the fee is in writing; ask the provider",
            )
        )
    if terms.term_months > 12 and unstated("terms.price_escalation_percent_per_year"):
        warnings.append(
            Finding(
                "escalation_not_stated",
                f"the {terms.term_months}-month term does not state its price escalation: priced "
                "at the cautious "
                f"{DOCUMENTED_DEFAULTS['terms.price_escalation_percent_per_year'].value:g}% a year "
                "from the first "
                "anniversary; ask the provider",
            )
        )
    warnings += unstated_fee_findings(bid)
    spares = billed_spare_gpus(bid)
    if terms.bills_for_a_term and spares and not spare_pool_stated(bid):
        warnings.append(
            Finding(
                "spare_pool_not_stated",
                "the bid does not state its spare pool: none is taken to be on hand, and one node "
                f"({spares:,} GPUs) "
                "is billed for the term as a pool it may add, unless spares are free in writing; "
                "ask the provider",
            )
        )
    elif terms.bills_for_a_term and spares:
        warnings.append(
            Finding(
                "spares_billed",
                f"the {spares:,}-GPU spare pool is billed for the term: it is not stated free in "
                "writing",
            )
        )
    return gates, warnings


FEE_WORDS = {"terms.one_off_fees": "one-off", "terms.recurring_fees_per_month": "recurring"}
STEP_WORDS = {
    "terms.billing_increment_hours": "billing increment",
    "terms.minimum_billed_hours": "minimum billed hours",
}


def _unstated_test(bid: Bid):
    """Whether nobody stated a term: recorded as not stated or a default, not the buyer's assumption."""
    said = bid.provenance
    return lambda path: path in said and not said[path].verified and said[path].kind != "assumption"


def unstated_fee_findings(bid: Bid) -> list[Finding]:
    """Fees, billing steps, minimums and payment terms the bid leaves empty (issue 31): each priced
    at its cautious default where it can matter, and flagged so the officer asks the provider."""
    unstated = _unstated_test(bid)
    found = []
    fees = [path for path in FEE_WORDS if unstated(path)]
    if fees:
        priced = " and ".join(
            f"{FEE_WORDS[path]} fees at {DOCUMENTED_DEFAULTS[path].value:g}%" for path in fees
        )
        found.append(
            Finding(
                "fees_not_stated",
                f"the bid does not state its {' or '.join(FEE_WORDS[path] for path in fees)} fees: "
                "priced at "
                f"{priced} of the GPU bill until they are in writing; ask the provider",
            )
        )
    steps = [path for path in STEP_WORDS if unstated(path) and term_applies(bid, path)]
    if steps:
        found.append(
            Finding(
                "billing_step_not_stated",
                f"the bid does not state its {' or '.join(STEP_WORDS[path] for path in steps)}: "
                "usage is priced in "
                "whole hours, at least one hour per GPU, until they are in writing; ask the "
                "provider",
            )
        )
    # Payment terms not stated are priced as due on invoice (the cost of cash against the buyer's
    # own terms, payment_terms.py); flagged where a term ties up more than a year's bill, as
    # escalation is (every memo's fee line says it anyway).
    if bid.terms.term_months > 12 and bid.terms.payment_terms_days is None:
        found.append(
            Finding(
                "payment_terms_not_stated",
                f"the {bid.terms.term_months}-month term does not state when its invoices are due: "
                "priced as due on "
                "invoice, at the cost of cash of paying before your usual terms; ask when invoices "
                "fall due and "
                "whether the term is invoiced in advance",
            )
        )
    return found
