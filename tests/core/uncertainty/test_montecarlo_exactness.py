"""Issue 32 item 4: the fast paths change no figure. Percentiles by selection equal a full sort's;
billing over bids x samples equals a per-sample bill written here from methodology section 9;
cache-sized blocks give the samples one block gives; the adaptive stop is the documented rule."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusterbid.core.costmodel.contract import BILLING_CODES, IDLE_CODES, IdlePlan, bill
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.uncertainty import draw_setup, montecarlo, run_monte_carlo


def full_sort_percentiles(row: np.ndarray) -> list[float]:
    """P10/P50/P90 by sorting every sample, with linear interpolation between order statistics."""
    ordered = sorted(float(v) for v in row)
    out = []
    for p in (10, 50, 90):
        position = p / 100 * (len(ordered) - 1)
        low = math.floor(position)
        high = min(low + 1, len(ordered) - 1)
        out.append(ordered[low] + (ordered[high] - ordered[low]) * (position - low))
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4), st.integers(1, 300), st.integers(0, 2**32 - 1), st.booleans())
def test_selection_percentiles_equal_a_full_sort_on_the_same_samples(bids, samples, seed, ties):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((bids, samples)).astype(np.float32)
    if ties:  # costs that repeat exactly (zero spread, floors and caps)
        values = np.round(values * 2) / 2
    expected = [full_sort_percentiles(row) for row in values]
    got = montecarlo.percentiles(values.copy())
    assert np.allclose(got.T, expected, rtol=1e-6, atol=1e-6)


# --- billing: bids x samples against one sample at a time -------------------------------------------

HOURS_PER_YEAR, MONTH = 8760.0, 730.0


def escalated(hours: float, rate: float) -> float:
    """Hours weighted by (1 + rate)^k in contract year k, year by year."""
    total, year = 0.0, 0
    while hours > 0:
        part = min(hours, HOURS_PER_YEAR)
        total += part * (1 + rate) ** year
        hours -= part
        year += 1
    return total


def market_mean(start: float, end: float, decline: float) -> float:
    """Mean of (1 - decline)^(t / 8,760) over [start, end], by the midpoint rule."""
    steps = 4000
    width = (end - start) / steps
    return (
        sum((1 - decline) ** ((start + (i + 0.5) * width) / HOURS_PER_YEAR) for i in range(steps))
        / steps
    )


def one_sample_bill(c: dict, plan: dict, n: float, wall: float) -> tuple[float, float]:
    """(commitment, net plan cost) of one bid for one sample's wall-clock hours (section 9)."""
    kind, price, esc = c["kind"], c["price"], c["esc"]
    billed_hours = wall if not c["inc"] else math.ceil(wall / c["inc"] - 1e-9) * c["inc"]
    billed_hours = max(billed_hours, c["minimum"])
    usage = n * price * escalated(billed_hours, esc)
    # Fees the bid does not state are a share of its GPU bill (section 9); stated ones are sums.
    share = c["one_off_share"] + c["monthly_share"]
    stated_fees = c["one_off"] + c["monthly"] * wall / MONTH
    running_fees = stated_fees + share * usage
    term = c["term"]
    if kind in ("reserved", "block"):
        span = max(term, wall)
        value = c["billed"] * price * escalated(term, esc) + n * price * (
            escalated(span, esc) - escalated(term, esc)
        )
        capacity = c["billed"] * term + n * (span - term)
    elif kind in ("committed-spend", "committed-gpu-hours"):
        span = max(term, wall)
        minimum = (
            c["spend"]
            if kind == "committed-spend"
            else c["gpu_hours"] * price * escalated(term, esc) / term
        )
        value = max(minimum, usage)
        capacity = value / (usage / (n * billed_hours))
    else:
        value, capacity = usage, n * billed_hours
    fees = (
        c["one_off"] + c["monthly"] * span / MONTH + share * value
        if kind != "on-demand"
        else running_fees
    )
    commitment = value + fees
    used = n * wall
    capacity = max(capacity, used)
    if kind == "on-demand" or plan["use"] == "nothing":
        idle_value = 0.0
    elif plan["use"] == "other-work":
        idle_value = (capacity - used) * min(plan["worth"], commitment / capacity)
    else:
        jobs = min(1 + plan["runs"], capacity / used)
        idle_value = commitment * (1 - 1 / jobs)
        if plan["alt"] is not None:
            end = max(capacity / n, wall)
            idle_value = min(
                idle_value,
                (jobs - 1) * used * plan["alt"] * market_mean(wall, end, plan["decline"]),
            )
    kept, paid = commitment - idle_value, commitment
    if kind == "reserved" and c["exit"] and wall < term:
        until_exit = c["billed"] * price * escalated(wall, esc)
        leave = (
            until_exit
            + c["fee"] * c["billed"] * price * (escalated(term, esc) - escalated(wall, esc))
            + stated_fees
            + share * until_exit
        )
        if leave < kept:
            kept, paid = leave, leave
    # Payment terms: the cost of cash of paying (baseline - days) days sooner, on what is paid.
    cash = CAPITAL_RATE * (BASELINE_DAYS - c["days"]) / 365.0 * paid
    return commitment, kept + cash


CAPITAL_RATE, BASELINE_DAYS = 0.08, 30.0  # the buyer's defaults: 8% a year, net 30
CONTRACTS = [
    {"kind": "on-demand", "inc": 8.0, "minimum": 120.0, "term": 0.0, "days": 0.0},
    {"kind": "on-demand", "inc": 0.0, "minimum": 0.0, "term": 0.0, "days": 60.0},
    {
        "kind": "on-demand",
        "inc": 1.0,
        "minimum": 1.0,
        "term": 0.0,
        "one_off_share": 0.02,
        "monthly_share": 0.10,
    },
    {
        "kind": "reserved",
        "inc": 0.0,
        "minimum": 0.0,
        "term": 3 * MONTH,
        "exit": True,
        "fee": 0.5,
        "one_off_share": 0.02,
        "monthly_share": 0.10,
    },
    {
        "kind": "reserved",
        "inc": 0.0,
        "minimum": 0.0,
        "term": 3 * MONTH,
        "exit": True,
        "fee": 0.5,
        "days": 0.0,
    },
    {
        "kind": "reserved",
        "inc": 0.0,
        "minimum": 0.0,
        "term": 24 * MONTH,
        "esc": 0.10,
        "exit": True,
        "fee": 0.8,
    },
    {"kind": "reserved", "inc": 1.0, "minimum": 0.0, "term": 1 * MONTH, "monthly": 5000.0},
    {"kind": "block", "inc": 0.0, "minimum": 0.0, "term": 20 * 24.0, "one_off": 12000.0},
    {
        "kind": "committed-spend",
        "inc": 1.0,
        "minimum": 0.0,
        "term": 12 * MONTH,
        "spend": 2_000_000.0,
        "esc": 0.05,
    },
    {
        "kind": "committed-gpu-hours",
        "inc": 0.0,
        "minimum": 0.0,
        "term": 18 * MONTH,
        "gpu_hours": 400_000.0,
        "esc": 0.03,
        "monthly": 900.0,
    },
]
PLANS = [
    {"use": "nothing"},
    {"use": "more-runs", "runs": 2.0, "alt": None, "decline": 0.0},
    {"use": "more-runs", "runs": 6.0, "alt": 3.1, "decline": 0.2},
    {"use": "other-work", "worth": 2.0},
]


def _arrays(contracts: list[dict]) -> SimpleNamespace:
    """The bids' contract columns as bill() reads them, (bids, 1)."""

    def column(key, default=0.0):
        return np.array([[float(c.get(key, default))] for c in contracts])

    return SimpleNamespace(
        billing_kind=np.array([[float(BILLING_CODES[c["kind"]])] for c in contracts]),
        price_per_gpu_hour=column("price", 7.0),
        escalation_per_year=column("esc"),
        billing_increment_hours=column("inc"),
        minimum_billed_hours=column("minimum"),
        one_off_fees=column("one_off"),
        recurring_fees_per_month=column("monthly"),
        term_hours=column("term"),
        billed_gpus=column("billed", 288.0),
        committed_spend=column("spend"),
        committed_gpu_hours=column("gpu_hours"),
        exit_allowed=np.array([[bool(c.get("exit"))] for c in contracts]),
        exit_fee_share=column("fee"),
        one_off_fee_share=column("one_off_share"),
        recurring_fee_share=column("monthly_share"),
        payment_days=column("days", 30.0),
        # Issue 39: handed over on the stated date and no SLA credit stated: neither moves the bill.
        slip_hours=column("slip"),
        billed_through_slip=column("billed_through"),
        late_credit_per_week=column("late"),
        late_damages_per_hour=column("damages"),
        late_remedy_cap=column("cap"),
        sla_headline_share=column("sla"),
    )


def _idle_plan(plan: dict) -> IdlePlan:
    if plan["use"] == "more-runs":
        alt = float("inf") if plan["alt"] is None else plan["alt"]
        return IdlePlan(
            IDLE_CODES["more-runs"],
            further_runs=plan["runs"],
            alternative_price=alt,
            decline_per_year=plan["decline"],
            capital_rate=CAPITAL_RATE,
            baseline_payment_days=BASELINE_DAYS,
        )
    return IdlePlan(
        IDLE_CODES[plan["use"]],
        value_per_gpu_hour=plan.get("worth", 0.0),
        capital_rate=CAPITAL_RATE,
        baseline_payment_days=BASELINE_DAYS,
    )


@pytest.mark.parametrize("plan", PLANS, ids=[p["use"] + str(i) for i, p in enumerate(PLANS)])
@pytest.mark.parametrize("grouped", [True, False], ids=["one-kind-blocks", "mixed-block"])
def test_billing_bids_x_samples_equals_one_sample_at_a_time(plan, grouped):
    contracts = [
        {
            "price": 7.0,
            "esc": 0.0,
            "exit": False,
            "fee": 0.0,
            "one_off": 0.0,
            "monthly": 0.0,
            "one_off_share": 0.0,
            "monthly_share": 0.0,
            "days": 30.0,
            "billed": 288.0,
            **c,
        }
        for c in CONTRACTS
    ]
    rng = np.random.default_rng(32)
    # Wall-clock hours across the terms' ends and anniversaries, some exactly on a billing step.
    walls = np.concatenate(
        [rng.uniform(50, 20_000, 40), [100.0, 104.0, 730.0, 2190.0, 8760.0, 13140.0]]
    )
    n, idle = 256.0, _idle_plan(plan)
    groups = [[c] for c in contracts] if grouped else [contracts]
    for group in groups:
        got = bill(_arrays(group), idle, n, np.broadcast_to(walls, (len(group), len(walls))))
        for row, c in enumerate(group):
            for col, wall in enumerate(walls):
                commitment, cost = one_sample_bill(c, plan, n, float(wall))
                assert got.commitment[row, col] == pytest.approx(commitment, rel=1e-9), (
                    c["kind"],
                    wall,
                )
                assert got.plan_cost[row, col] == pytest.approx(cost, rel=1e-6), (c["kind"], wall)


# --- blocks and the adaptive stop --------------------------------------------------------------------


def test_cache_sized_blocks_give_the_samples_of_one_block(monkeypatch):
    ev = demo_evaluation()
    blocked = run_monte_carlo(ev, 6000, precision=None)
    monkeypatch.setattr(draw_setup, "BLOCK_CELLS", 10**9)  # every bid of a kind in one block
    assert run_monte_carlo(ev, 6000, precision=None) == blocked
    monkeypatch.setattr(draw_setup, "BLOCK_CELLS", 1)  # one bid per block
    assert run_monte_carlo(ev, 6000, precision=None) == blocked


def half_width(wins: float, samples: int) -> float:
    """95% Agresti-Coull half-width of a share seen `wins` times in `samples`."""
    z = 1.959964
    total = samples + z * z
    share = (wins + z * z / 2) / total
    return z * math.sqrt(share * (1 - share) / total)


def test_the_adaptive_stop_is_the_first_pass_that_knows_every_chance_to_one_point():
    ev = demo_evaluation()
    adaptive = run_monte_carlo(ev)  # the default: at most 20,000, +/-1 point
    drawn = adaptive.samples
    assert drawn % 4096 == 0 and drawn < 20_000
    wins = [b.win_probability * drawn for b in adaptive.bids.values()]
    assert max(half_width(w, drawn) for w in wins) <= 0.01
    earlier = run_monte_carlo(ev, drawn - 4096, precision=None)  # the pass before it did not
    assert (
        max(
            half_width(b.win_probability * earlier.samples, earlier.samples)
            for b in earlier.bids.values()
        )
        > 0.01
    )
    # The same draws as a fixed run of that many samples, and the same every time (the CLI and the
    # app both call it with the document's seed: their memos stay byte-identical).
    assert run_monte_carlo(ev, drawn, precision=None) == adaptive
    assert run_monte_carlo(ev) == adaptive


def test_without_a_precision_exactly_the_samples_asked_are_drawn():
    assert run_monte_carlo(demo_evaluation(), 5000, precision=None).samples == 5000
    # A cap below one pass is the whole draw, whatever the precision.
    assert run_monte_carlo(demo_evaluation(), 1000).samples == 1000
