"""What each bid's contract bills for the buyer's plan, vectorised over bids (and samples).

Every figure follows from the job's wall-clock hours on the bid (training.py) and the contract:
- the cost of the planned job: its GPUs for its billed hours, plus fees while it runs;
- the total commitment: what the signature approves (usage on demand; billed GPUs x term for a
  reserved term or a block; the larger of the minimum and the usage for committed deals);
- idle GPU-hours: what the commitment buys beyond the job, valued under the buyer's plan;
- the net cost of the plan (commitment - value of idle time, or leaving early where the
  contract allows and that is cheaper), which ranks the bids. Methodology section 9.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.billing_kinds import BILLING_KIND_SPECS, codes_where
from clusterbid.core.costmodel.delivery_cost import held_hours, late_remedy
from clusterbid.core.costmodel.payment_terms import cash_cost_share
from clusterbid.core.costmodel.real_arrays import floats
from clusterbid.core.costmodel.sla_credit import sla_credits

HOURS_PER_MONTH = 730.0
HOURS_PER_YEAR = 8760.0
BILLING_CODES = {spec.name: spec.code for spec in BILLING_KIND_SPECS}  # billing_kinds.py
# The formulas switch on what a kind does, never on its name (issue 33 item 3).
SPAN_CODES = codes_where(bills_for_a_span=True)  # GPUs x a span, used or not
SPEND_CODES = codes_where(minimum="spend")
GPU_HOUR_CODES = codes_where(minimum="gpu-hours")
USAGE_CODES = codes_where(commits=False)  # idle time is only billing round-up
EXIT_CODES = codes_where(may_exit_early=True)
TERM_SPAN_CODES = codes_where(bills_for_a_span=True, has_term=True)  # outlasting it: extension
IDLE_CODES = {"nothing": 0, "more-runs": 1, "other-work": 2}
# Float noise must not bill an extra increment: 100.0000000001 h at 1-hour billing is 100 h.
ROUNDING_SLACK = 1e-9


@dataclass(frozen=True, slots=True)
class ContractBill:
    """Per bid, in the evaluation currency and GPU-hours."""

    usage_hours: np.ndarray  # billed hours per job GPU after rounding and minimums
    job_cost: np.ndarray
    commitment: np.ndarray
    capacity_gpu_hours: np.ndarray  # what the commitment pays for
    used_gpu_hours: np.ndarray
    idle_value: np.ndarray
    exit_cost: np.ndarray  # leaving after the job where the contract allows it (inf: not allowed)
    plan_cost: np.ndarray
    outlasts_term: np.ndarray  # bool: the job runs past a reserved term (priced as an extension)
    delay_cost: (
        np.ndarray
    )  # the buyer's cost of the hours past the deadline, in the net cost (issue 31)
    cash_cost: (
        np.ndarray
    )  # the cost of cash of the bid's payment terms, in the net cost (payment_terms.py)
    cash_share: np.ndarray  # that cost per unit paid (negative: paid later than the buyer's terms)
    # Issue 39: remedies for a late block and the SLA credit the buyer can expect to collect, both
    # taken off the net cost; the headline credit (at face value) is reported, never counted.
    late_remedy: np.ndarray
    sla_credit: np.ndarray
    sla_headline_credit: np.ndarray

    # Figures the point estimate reports and the Monte Carlo does not need: derived on request.
    @property
    def idle_gpu_hours(self) -> np.ndarray:
        return self.capacity_gpu_hours - self.used_gpu_hours

    @property
    def leaves_early(self) -> np.ndarray:
        """bool: the plan's cost is the exit cost."""
        return self.exit_cost < self.commitment - self.idle_value

    @property
    def jobs_in_commitment(self) -> np.ndarray:
        return self.capacity_gpu_hours / self.used_gpu_hours

    @property
    def cost_if_plan_fails(self) -> np.ndarray:
        """The net cost if idle time turns out worth nothing (issue 31); cautious, it counts no SLA
        credit or late-delivery remedy (issue 39), which the net cost does."""
        return (
            np.minimum(self.commitment, self.exit_cost) * (1.0 + self.cash_share) + self.delay_cost
        )


def where(condition, if_true, if_false):
    """np.where without its pass over the arrays when the condition is the same everywhere, as it
    is for a condition on the bids' own figures in one of the Monte Carlo's blocks (bids of one
    billing kind, x samples). Same values and shape; the result may be a read-only view."""
    condition = np.asarray(condition)
    if condition.all() or not condition.any():
        chosen = if_true if condition.all() else if_false
        shape = np.broadcast_shapes(condition.shape, np.shape(if_true), np.shape(if_false))
        dtype = np.result_type(if_true, if_false)
        return np.broadcast_to(np.asarray(chosen, dtype=dtype), shape)
    return np.where(condition, if_true, if_false)


def escalated_hours(hours, escalation_per_year):
    """Hours weighted by the price multiplier in force: (1+e)^k during contract year k."""
    hours = floats(hours)
    rate = floats(escalation_per_year)
    # No bid escalates, or no hour reaches an anniversary (the Monte Carlo's usual case: k = 0
    # everywhere): every hour at the first year's price, without the power below.
    if not rate.any() or hours.max(initial=0.0) < HOURS_PER_YEAR:
        return hours + 0.0 * rate  # (the broadcast shape, as below)
    years = np.floor(hours / HOURS_PER_YEAR)
    factor = (1.0 + rate) ** years  # the Monte Carlo's costliest line: computed once
    safe_rate = np.where(rate > 0, rate, 1.0)
    whole = np.where(rate > 0, HOURS_PER_YEAR * (factor - 1.0) / safe_rate, HOURS_PER_YEAR * years)
    return whole + (hours - years * HOURS_PER_YEAR) * factor


def usage_hours(wall_hours, increment_hours, minimum_hours):
    """Hours billed per GPU for a run of `wall_hours`: rounded up to the increment, then the minimum."""
    inc = floats(increment_hours)
    safe = np.where(inc > 0, inc, 1.0)
    if not inc.any():  # billed by the second: no rounding pass
        return np.maximum(wall_hours, minimum_hours)
    rounded = where(inc > 0, np.ceil(wall_hours / safe - ROUNDING_SLACK) * safe, wall_hours)
    return np.maximum(rounded, minimum_hours)


@dataclass(frozen=True, slots=True)
class IdlePlan:
    """What the buyer's plan makes of idle reserved time (plan.py), as plain floats."""

    use: int  # IDLE_CODES
    value_per_gpu_hour: float = 0.0  # other-work
    further_runs: float = 0.0  # more-runs: idle GPU-hours beyond this many jobs are worth nothing
    alternative_price: float = float(
        "inf"
    )  # more-runs: a market reference caps an idle hour's worth
    decline_per_year: float = 0.0  # that reference's fall over the term, a fraction a year
    delay_cost_per_hour: float = 0.0  # the buyer's cost of finishing past the deadline (issue 31)
    capital_rate: float = 0.0  # the buyer's cost of capital, a fraction a year (payment_terms.py)
    baseline_payment_days: float = 0.0  # the buyer's usual payment terms, days after invoice


def mean_price_factor(start_hours, end_hours, decline_per_year: float):
    """The mean of (1 - d)^(t / 8,760 h) over [start, end]: a market price falling at d a year,
    averaged over the idle part of a term (1 when flat)."""
    start, end = np.asarray(start_hours, dtype=float), np.asarray(end_hours, dtype=float)
    if decline_per_year <= 0:
        return np.ones(np.broadcast(start, end).shape)
    rate = -np.log1p(-decline_per_year) / HOURS_PER_YEAR  # continuous decline per hour
    span = np.maximum(end - start, 1e-9)
    return (np.exp(-rate * start) - np.exp(-rate * np.maximum(end, start + 1e-9))) / (rate * span)


def bill(b, plan: IdlePlan, job_gpus, wall_hours) -> ContractBill:
    """The contract figures of each bid in `b` (BidArrays) for a job of `job_gpus` that holds
    them for `wall_hours` (burn-in included)."""
    n = floats(job_gpus, like=b.price_per_gpu_hour)
    kind = b.billing_kind
    # Issue 39: the job's block handed over late finishes late, and a term billed from the stated
    # date bills through the slip (delivery_cost.py); 0 slip leaves both as they were.
    finish_hours = wall_hours + b.slip_hours
    wall_hours = held_hours(b, wall_hours, np.isin(kind, SPAN_CODES))
    price, esc = b.price_per_gpu_hour, b.escalation_per_year
    hours = usage_hours(wall_hours, b.billing_increment_hours, b.minimum_billed_hours)
    usage_cost = n * price * escalated_hours(hours, esc)
    # Fees the bid does not state are a share of its GPU bill (issue 31); stated ones are sums.
    fee_share = b.one_off_fee_share + b.recurring_fee_share
    stated_running_fees = b.one_off_fees + b.recurring_fees_per_month * wall_hours / HOURS_PER_MONTH
    running_fees = stated_running_fees + fee_share * usage_cost
    job_cost = usage_cost + running_fees
    used = n * wall_hours

    # Reserved and block: the billed GPUs for the term; a job that outlasts a reserved term keeps
    # its own GPUs at the same rate (an extension, flagged: the provider has not quoted it).
    # Committed spend / GPU-hours: the minimum is owed; usage above it is billed at the price.
    # Each kind's figures are computed only when some bid bills that way: the Monte Carlo bills
    # bids x samples, and bids of one kind at a time.
    term = b.term_hours
    is_term = np.isin(kind, SPAN_CODES)
    is_spend = np.isin(kind, SPEND_CODES)
    is_hours = np.isin(kind, GPU_HOUR_CODES)
    has_term = is_term | is_spend | is_hours
    # Only a job that outlasts its term makes the span (and a reserved term's figures) vary by sample.
    outlasts = bool(np.any(has_term & (wall_hours > term)))
    span = np.maximum(term, wall_hours) if outlasts else term
    term_fees = b.one_off_fees + b.recurring_fees_per_month * span / HOURS_PER_MONTH
    value, capacity = usage_cost, n * hours
    if np.any(is_term):
        term_value = b.billed_gpus * price * escalated_hours(term, esc)
        term_capacity = b.billed_gpus * term
        if outlasts:
            term_value = term_value + n * price * (
                escalated_hours(span, esc) - escalated_hours(term, esc)
            )
            term_capacity = term_capacity + n * (span - term)
        value, capacity = where(is_term, term_value, value), where(is_term, term_capacity, capacity)
    if np.any(is_spend | is_hours):
        job_rate = usage_cost / np.maximum(
            n * hours, 1e-12
        )  # price per GPU-hour the job was billed at
        average_rate = price * escalated_hours(np.maximum(term, 1.0), esc) / np.maximum(term, 1.0)
        minimum = where(is_spend, b.committed_spend, b.committed_gpu_hours * average_rate)
        committed = np.maximum(minimum, usage_cost)
        value = where(is_spend | is_hours, committed, value)
        capacity = where(is_spend | is_hours, committed / job_rate, capacity)
    fees = where(
        has_term, term_fees + fee_share * value, running_fees
    )  # unstated: a share of the bill
    commitment = value + fees
    capacity = np.maximum(capacity, used)
    # More runs (issue 31): the commitment is shared by the job and the further runs the buyer
    # states that fit in it, k = min(1 + runs, GPU-hours bought / the job's), so the job's share is
    # commitment / k (a faster job never costs more); the further runs' share is worth at most what
    # they would cost elsewhere, (k - 1) x the job's GPU-hours x the buyer's alternative price,
    # averaged over the idle span as it falls. No runs stated: k = 1, idle time is worth nothing.
    jobs = np.minimum(1.0 + plan.further_runs, capacity / np.maximum(used, 1e-12))
    # The plan is one for the whole evaluation: only its own use of idle time is computed.
    if plan.use == IDLE_CODES["more-runs"] and not np.isfinite(plan.alternative_price):
        plan_value = commitment * (1.0 - 1.0 / jobs)  # no alternative price given: no cap
    elif plan.use == IDLE_CODES["more-runs"]:
        span_end = np.maximum(capacity / np.maximum(n, 1e-12), wall_hours)
        market = plan.alternative_price * mean_price_factor(
            wall_hours, span_end, plan.decline_per_year
        )
        elsewhere = np.where(
            np.isfinite(market),
            (jobs - 1.0) * used * np.where(np.isfinite(market), market, 0.0),
            np.inf,
        )  # no alternative price given: no cap (and no inf x 0)
        plan_value = np.minimum(commitment * (1.0 - 1.0 / jobs), elsewhere)
    elif plan.use == IDLE_CODES["other-work"]:
        plan_value = (capacity - used) * np.minimum(plan.value_per_gpu_hour, commitment / capacity)
    else:
        plan_value = np.zeros_like(commitment)
    # Idle time on demand is only billing round-up: nothing else can run in it.
    on_demand = np.isin(kind, USAGE_CODES)
    idle_value = where(on_demand, 0.0, plan_value)
    kept = commitment - idle_value
    # Leaving a reserved term after the job: the billed GPUs until then, the fee on the rest.
    may_leave = np.isin(kind, EXIT_CODES) & b.exit_allowed
    if np.any(may_leave):
        early = may_leave & (wall_hours < term)
        run = escalated_hours(wall_hours, esc)
        until_exit = b.billed_gpus * price * run
        remainder = b.billed_gpus * price * (escalated_hours(term, esc) - run)
        exit_fees = (
            stated_running_fees + fee_share * until_exit
        )  # unstated fees: on the GPUs billed till then
        exit_cost = np.where(early, until_exit + b.exit_fee_share * remainder + exit_fees, np.inf)
    else:
        exit_cost = np.full_like(kept, np.inf)
    # Finishing late costs the buyer its stated price per day past the deadline (none stated: 0);
    # hours_to_deadline is inf without a deadline, so nothing is late.
    if plan.delay_cost_per_hour:
        delay = plan.delay_cost_per_hour * np.maximum(finish_hours - b.hours_to_deadline, 0.0)
    else:
        delay = np.zeros_like(kept)
    # Paying sooner than the buyer's usual terms costs its cost of capital on what is paid: the
    # commitment, or the exit cost where the plan leaves early (payment_terms.py).
    paid = where(exit_cost < kept, exit_cost, commitment)
    cash_share = cash_cost_share(b.payment_days, plan.baseline_payment_days, plan.capital_rate)
    cash = cash_share * paid
    remedy = late_remedy(b, commitment)
    credit, headline = sla_credits(b, paid)
    return ContractBill(
        usage_hours=np.broadcast_to(hours, np.shape(commitment)),
        job_cost=job_cost,
        commitment=commitment,
        capacity_gpu_hours=capacity,
        used_gpu_hours=np.broadcast_to(used, np.shape(commitment)),
        idle_value=idle_value,
        exit_cost=exit_cost,
        plan_cost=np.minimum(kept, exit_cost) + delay + cash - remedy - credit,
        delay_cost=np.broadcast_to(delay, np.shape(commitment)),
        cash_cost=np.broadcast_to(cash, np.shape(commitment)),
        cash_share=np.broadcast_to(cash_share, np.shape(commitment)),
        outlasts_term=np.isin(kind, TERM_SPAN_CODES) & (wall_hours > term),
        late_remedy=np.broadcast_to(remedy, np.shape(commitment)),
        sla_credit=np.broadcast_to(credit, np.shape(commitment)),
        sla_headline_credit=np.broadcast_to(headline, np.shape(commitment)),
    )
