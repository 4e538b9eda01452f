"""The shape of the figures a memo prints, shared by every evaluation kind: the ranking, the bids
set aside, and each bid's rank with the figures its kind prints (training_printed.py,
serving_printed.py). `clusterbid verify` compares these with a re-score, key for key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def printed_figures(scorecard: Any, bid_figures: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
    """`bid_figures(estimate)`: one bid's figures as printed, after its rank (the keys' order is
    the inputs attachment's, so it must not change: the memo's bytes depend on it)."""
    return {
        "ranking": [s.bid.id for s in scorecard.ranked],
        "excluded": [s.bid.id for s in scorecard.scores if s.rank is None],
        "bids": {
            s.estimate.bid.id: {"rank": s.rank, **bid_figures(s.estimate)} for s in scorecard.scores
        },
    }
