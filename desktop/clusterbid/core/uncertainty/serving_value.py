"""Value of information for serving (issue 37): which measurement, of which serving bid, could
change the choice, and what choosing without it costs in expectation, per million output tokens.

The serving decision is the bid with the lowest expected cost per million output tokens over the
draws in which it serves (its band's mean, serving_bands.ServingBand.decision_cost("expected")).
The draws are the serving bands' own (serving_montecarlo.draw_serving, the same seed), kept whole,
and valued by training's binning estimator (value_of_information.value_from_samples): a bid's
cost is nan in a draw where it cannot serve, so its mean in a bin is over the draws that serve.

What evidence could settle, per bid (serving_draws.py, serving_reliability.py):
- serving_efficiency: the HBM-efficiency multiplier (decode), the bid's engine factor once a
  benchmark measured it. Without evidence (or with a bare claim) it is a market-wide shock shared
  by every such bid plus the bid's own part, so its value counts every bid on the shock; the
  compute efficiency those bids share (the buyer's stack) is not binned on: the value is a lower
  bound there (conditioning on less than the run would show);
- payment_days: drawn only where the bid states no payment terms;
- failure_rate and replacement_hours: as training draws them (the SLA credit reads them).
The buyer's traffic growth is drawn too, but no provider can measure it: never valued.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.serving_estimate import ServingEstimate, ServingEstimates
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence.model import EvidenceGrade
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.core.serving_scoring import gated_draws, serving_run
from clusterbid.core.uncertainty.draw_setup import checked
from clusterbid.core.uncertainty.sampling import PlanSamples
from clusterbid.core.uncertainty.serving_draws import MARKET_MBU_SIGMA, MBU_SIGMA, PAYMENT_PATH
from clusterbid.core.uncertainty.serving_montecarlo import ServingDraws
from clusterbid.core.uncertainty.serving_reliability import reliability_factors
from clusterbid.core.uncertainty.spreads import (
    Spreads,
    UncertainInput,
    failure_rate_input,
    replacement_hours_input,
)
from clusterbid.core.uncertainty.streams import MARKET
from clusterbid.core.uncertainty.term_ranges import term_ranges
from clusterbid.core.uncertainty.value_of_information import ValueOfInformation, value_from_samples

ASSUMED = "the workload's assumed efficiencies"
UNSTATED_TERMS = "not stated, drawn from due on invoice to net 30"


def _efficiency(e: ServingEstimate) -> UncertainInput:
    """The bid's efficiency as serving_draws draws it: shared with every bid drawn on the market's
    shock (no evidence, or a claim without a log), else its own run's."""
    evidence = e.throughput_evidence
    grade = None if evidence is None else evidence.grade
    shared = grade is None or grade is EvidenceGrade.PROVIDER_CLAIM
    return UncertainInput(
        name="serving_efficiency",
        point=1.0,
        median_factor=1.0,
        sigma=MBU_SIGMA[None] if shared else MBU_SIGMA.get(grade, MARKET_MBU_SIGMA),
        shared_sigma=MARKET_MBU_SIGMA if shared else 0.0,
        source=ASSUMED if grade is None else grade.value,
        evidence=evidence,
        shared_streams=((MARKET, MARKET_MBU_SIGMA),) if shared else (),
    )


def _payment(bid: Bid) -> UncertainInput | None:
    """Payment days, where they are drawn (terms nobody stated): the bid's own stream only."""
    if not any(term.path == PAYMENT_PATH for term in term_ranges(bid)):
        return None
    return UncertainInput("payment_days", 0.0, 1.0, 1.0, 0.0, UNSTATED_TERMS, None)


def _inputs(
    estimates: Sequence[ServingEstimate], spreads: Spreads
) -> tuple[tuple[UncertainInput, ...], ...]:
    rows = []
    for e in estimates:
        drawn = [_efficiency(e), _payment(e.bid)]
        drawn += [failure_rate_input(e.bid, spreads), replacement_hours_input(e.bid, spreads)]
        rows.append(tuple(put for put in drawn if put is not None))
    return tuple(rows)


def value_of_draws(
    run: ServingEstimates,
    gated: Sequence[ServingEstimate],
    drawn: ServingDraws,
    seed: int,
    spreads: Spreads | None = None,
) -> ValueOfInformation:
    """Every (bid, input) pair of the bids that pass the gates (`gated`: must-haves applied) and
    serve in some draw, valued on the serving draws; largest value first."""
    spreads = spreads or Spreads()
    served = np.isfinite(drawn.per_million).any(axis=1)
    keep = [i for i, e in enumerate(gated) if e.passes_gates and served[i]]
    reliability = reliability_factors([e.bid for e in run.bids], drawn.samples, seed, spreads)
    factors = {
        "serving_efficiency": drawn.mbu[keep],
        "payment_days": drawn.payment_days[keep],
        **{name: f[keep] for name, f in reliability.items()},
    }
    per_million = drawn.per_million[keep]
    plan = PlanSamples(
        seed=seed,
        ids=tuple(run.bids[i].bid.id for i in keep),
        inputs=_inputs([run.bids[i] for i in keep], spreads),
        cost=np.where(np.isfinite(per_million), per_million, np.nan),
        factors=factors,
    )
    return value_from_samples(plan)


def serving_value(
    evaluation: Evaluation, samples: int = DEFAULT_SAMPLES, seed: int | None = None
) -> ValueOfInformation:
    """Draw the serving bands' samples (the policy's seed, as scoring draws them) and value them."""
    seed = checked(evaluation, samples, seed)  # the sample count and seed refused as training's
    run, gated = serving_run(evaluation)
    gated, drawn = gated_draws(run, gated, samples, seed)  # as scoring draws and gates them
    return value_of_draws(run, gated, drawn, seed)
