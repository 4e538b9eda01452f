"""A bid as approvers know it: by its provider's name, not the evaluation's internal id (issue 38
item 6: the memo's tipping table and commitment chart named bids "prime-efa"). When one provider
made two bids the GPU model tells them apart, and the id only when even that is shared."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any


def bid_names(scores: Iterable[Any]) -> dict[str, str]:
    """Bid id -> the name to print: the provider; "provider, GPU model" when the provider made more
    than one bid; "provider, GPU model (id)" when that too is shared."""
    bids = [score.bid for score in scores]
    providers = Counter(bid.quote.provider for bid in bids)
    offers = Counter((bid.quote.provider, bid.capacity.gpu_model) for bid in bids)
    names = {}
    for bid in bids:
        name = bid.quote.provider
        if providers[name] > 1:
            name = f"{name}, {bid.capacity.gpu_model}"
            if offers[(bid.quote.provider, bid.capacity.gpu_model)] > 1:
                name = f"{name} ({bid.id})"
        names[bid.id] = name
    return names
