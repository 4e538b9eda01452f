"""How far each non-cost weight can move before the winner changes, solved in closed form.

With raw weights w (0..100) and criteria c_i in 0..1, bid i scores sum_k w_k c_ik / sum_k w_k.
Moving one weight w_j to x changes every score's denominator alike, so the ranking follows the
numerators N_i(x) = A_i + x c_ij with A_i = sum_{k != j} w_k c_ik: straight lines in x. The
winner W loses to bid i where the lines cross, x* = (A_W - A_i) / (c_ij - c_Wj); the tipping
points are the nearest crossings above and below the current weight inside 0..100.
"""

from __future__ import annotations

from dataclasses import dataclass

from clusterbid.core.criteria import criterion_words
from clusterbid.core.scoring import BidScore, Scorecard

WEIGHT_RANGE = (0.0, 100.0)  # what CriteriaWeights accepts


@dataclass(frozen=True, slots=True)
class TippingPoint:
    """Raw weight now, the nearest values below/above where another bid overtakes the winner
    (None: not within 0..100), and who wins past the nearer one (None: the winner holds)."""

    current: float
    lower: float | None
    upper: float | None
    winner_then: str | None
    winner_below: str | None
    winner_above: str | None

    def as_json(self, *, winner_then: bool = True) -> dict[str, float | str | None]:
        """As `clusterbid score --json` prints it, for every kind (weights to 4 decimals);
        `winner_then=False` leaves out who wins past the nearer point (serving's JSON)."""
        printed: dict[str, float | str | None] = {
            "current": self.current,
            "lower": None if self.lower is None else round(self.lower, 4),
            "upper": None if self.upper is None else round(self.upper, 4),
        }
        if winner_then:
            printed["winner_then"] = self.winner_then
        return printed | {"winner_below": self.winner_below, "winner_above": self.winner_above}


def _crossing(winner: BidScore, other: BidScore, raw: dict[str, float], name: str) -> float | None:
    """The weight x at which `other`'s score equals the winner's (None: parallel lines)."""
    slope = other.criteria[name] - winner.criteria[name]
    if slope == 0:
        return None
    rest = lambda s: sum(raw[k] * v for k, v in s.criteria.items() if k != name)  # noqa: E731
    return (rest(winner) - rest(other)) / slope


def tipping_points(scorecard: Scorecard) -> dict[str, TippingPoint]:
    """One entry per weight of the policy (cost included: an officer asks how low it may go);
    empty crossings when fewer than two bids rank."""
    raw = scorecard.evaluation.policy.weights.model_dump()
    ranked = scorecard.ranked
    points = {}
    for name, current in raw.items():
        if name == "provider_rating" and not current and not scorecard.evaluation.provider_ratings:
            continue  # issue 39: nobody rated, nothing weighed: no bid can tip on it
        lower = upper = below = above = None
        if len(ranked) >= 2:
            winner = ranked[0]
            others_total = sum(v for k, v in raw.items() if k != name)
            for other in ranked[1:]:
                x = _crossing(winner, other, raw, name)
                if x is None:
                    continue
                gains_above = other.criteria[name] > winner.criteria[name]
                if gains_above and current <= x <= WEIGHT_RANGE[1] and (upper is None or x < upper):
                    upper, above = x, other.bid.id
                # All weights at zero is not a valid policy, so x = 0 only counts beside others.
                valid_low = x > WEIGHT_RANGE[0] or (x == WEIGHT_RANGE[0] and others_total > 0)
                if not gains_above and valid_low and x <= current and (lower is None or x > lower):
                    lower, below = x, other.bid.id
        nearer = _nearer(current, lower, upper)
        winner_then = below if nearer == "lower" else above if nearer == "upper" else None
        points[name] = TippingPoint(current, lower, upper, winner_then, below, above)
    return points


def _nearer(current: float, lower: float | None, upper: float | None) -> str | None:
    if lower is None and upper is None:
        return None
    if upper is None or (lower is not None and current - lower <= upper - current):
        return "lower"
    return "upper"


# The weights as an officer reads them (the policy's field names are for the JSON).
WEIGHT_WORDS = {**criterion_words(), "cost_per_million_tokens": "Cost per million output tokens"}


def weight_text(value: float) -> str:
    """A raw weight as printed, to a tenth: never "-0.0" (a crossing that rounds to zero is zero)."""
    return f"{max(value, 0.0) + 0.0:.1f}"


def tipping_sentence(point: TippingPoint, bid_words: dict[str, str]) -> str:
    """What happens past each edge, in words: `bid_words` names each bid by provider and id. A
    crossing at 0 is where the rival draws level, since no weight goes below it."""

    def rival(bid_id: str | None) -> str:
        return bid_words.get(bid_id or "", bid_id or "another bid")

    if point.lower is None:
        below = "holds down to 0"
    elif weight_text(point.lower) == "0.0":
        below = f"at 0 {rival(point.winner_below)} draws level"
    else:
        below = f"below {weight_text(point.lower)} {rival(point.winner_below)} wins"
    above = (
        "holds up to 100"
        if point.upper is None
        else f"above {weight_text(point.upper)} {rival(point.winner_above)} wins"
    )
    return f"{below}; {above}"
