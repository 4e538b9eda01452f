"""The officer's view of a serving bid's value of information (issue 37): "Ask X for Y: 36% chance
it changes the choice, worth about $0.0263 per million output tokens", as summary.py says it for
training. The values come from serving_value.py; the pack the provider gets names none of them."""

from __future__ import annotations

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.evidence_request.summary import ask_words
from clusterbid.core.money import SYMBOLS
from clusterbid.core.uncertainty.value_of_information import InputValue, ValueOfInformation

ASK_FOR = {
    "serving_efficiency": "the pack's serving benchmark runs",
    "payment_days": "its payment terms in writing",
    "failure_rate": "its fleet's failure record (failures per 1,000 GPU-days)",
    "replacement_hours": "a node-replacement time written into the contract",
}
# A value under this share of the chosen bid's expected cost per million tokens is not asked for:
# on the demo, draws shuffled to carry no information were valued at up to 0.014% of it (the bin
# means' noise, seeds 1-5; methodology section 11): the floor stays five times clear of that.
NOISE_SHARE = 0.001


def per_million(amount: float, currency: str) -> str:
    """Serving costs are a few currency units per million tokens: four decimals, not cents."""
    symbol = SYMBOLS.get(currency)
    text = f"{amount:,.4f}"
    return f"{symbol}{text}" if symbol else f"{text} {currency}"


def noise_floor(voi: ValueOfInformation) -> float:
    if voi.choice is None:
        return 0.0
    return NOISE_SHARE * voi.expected_cost[voi.choice]


def serving_asks(
    voi: ValueOfInformation, bid_id: str | None = None, limit: int = 4
) -> list[InputValue]:
    """The measurements most worth making, largest first; one bid's only when bid_id is given."""
    floor = noise_floor(voi)
    return [
        v
        for v in voi.values
        if v.evpi > floor and (bid_id is None or bid_id in (v.informs or (v.bid_id,)))
    ][:limit]


def ask_line(evaluation: Evaluation, v: InputValue) -> str:
    """The training words (summary.ask_words), worth counted per million output tokens."""
    providers = {b.id: b.quote.provider for b in evaluation.bids}
    worth = f"{per_million(v.evpi, evaluation.currency)} per million output tokens"
    return ask_words(providers, v, ASK_FOR[v.input], worth)


def serving_voi_lines(
    evaluation: Evaluation, voi: ValueOfInformation, bid_id: str | None = None
) -> list[str]:
    """A short plain-text account: the choice, the total value, then the requests worth making."""
    if voi.choice is None:
        return ["Value of information: no bid passes the gates, so there is no choice to change."]

    def money(amount: float) -> str:
        return per_million(amount, evaluation.currency)

    lines = [
        f"Value of information ({voi.samples:,} serving Monte Carlo samples, seed {voi.seed}, "
        f"{voi.bins} bins): lowest expected cost now: {voi.choice} "
        f"({money(voi.expected_cost[voi.choice])} per million output tokens).",
        f"Knowing every drawn figure of every bid exactly would be worth {money(voi.total_evpi)} "
        "per million output tokens in expectation.",
    ]
    if bid_id is not None and bid_id not in voi.expected_cost:
        return [
            *lines,
            f"  {bid_id} fails a gate or never serves, so no value is computed for it.",
        ]
    found = serving_asks(voi, bid_id)
    lines += [f"  {ask_line(evaluation, v)}" for v in found]
    if not found:
        lines.append(
            "  No single measurement"
            + (f" of {bid_id}" if bid_id else "")
            + " can change the choice (every value is below "
            f"{money(noise_floor(voi))} per million, the sampling noise)."
        )
    return lines
