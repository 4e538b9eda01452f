"""Tipping points of the serving ranking's weights, by the one closed-form solver (tipping.py).

The serving scorecard names its cost criterion `cost_per_million_tokens` where the policy's
raw weights call it `cost_to_finish`; this view renames the weight so the shared solver reads
both kinds of scorecard alike (the solver reads only `evaluation.policy.weights`, `ranked`,
and each score's `criteria` and `bid`).
"""

from __future__ import annotations

from types import SimpleNamespace

from clusterbid.core.serving_scoring import COST_CRITERION, ServingScorecard
from clusterbid.core.uncertainty.tipping import (
    WEIGHT_WORDS,
    TippingPoint,
    tipping_points,
    tipping_sentence,
)


def serving_tipping_points(scorecard: ServingScorecard) -> dict[str, TippingPoint]:
    raw = scorecard.evaluation.policy.weights.model_dump()
    raw = {
        COST_CRITERION if name == "cost_to_finish" else name: value for name, value in raw.items()
    }
    weights = SimpleNamespace(model_dump=lambda: dict(raw))
    view = SimpleNamespace(
        evaluation=SimpleNamespace(
            policy=SimpleNamespace(weights=weights),
            provider_ratings=scorecard.evaluation.provider_ratings,
        ),
        ranked=scorecard.ranked,
    )
    return tipping_points(view)


def tipping_json(points: dict[str, TippingPoint]) -> dict:
    return {name: t.as_json(winner_then=False) for name, t in points.items()}


def tipping_lines(scorecard: ServingScorecard, points: dict[str, TippingPoint]) -> list[str]:
    if not scorecard.ranked:
        return []
    bid_words = {s.bid.id: f"{s.bid.quote.provider} ({s.bid.id})" for s in scorecard.scores}
    lines = [
        "Tipping points of the weights (raw 0-100; winner now: "
        f"{bid_words[scorecard.ranked[0].bid.id]})"
    ]
    for name, t in points.items():
        lines.append(
            f"  {WEIGHT_WORDS.get(name, name):<31} {t.current:>6g}: "
            f"{tipping_sentence(t, bid_words)}"
        )
    return lines
