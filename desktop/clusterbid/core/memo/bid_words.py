"""A bid as approvers know it: by its provider's name, not the evaluation's internal id (issue 38
item 6: the memo's tipping table and commitment chart named bids "prime-efa"). When one provider
made two bids the GPU model tells them apart, and their order when even that is shared."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any


def bid_label(bid: Any) -> str:
    """A bid in a sentence of the memo, without the rest of the evaluation at hand: its provider
    and GPU model, as the comparison table's first columns show it ("Northwind AI Cloud, H100-SXM")."""
    return label_of(bid.quote.provider, bid.capacity.gpu_model)


def label_of(provider: str, gpu_model: str) -> str:
    """bid_label from the two words alone (verify reads them from the memo's attached inputs)."""
    return f"{provider}, {gpu_model}" if gpu_model else provider


def bid_labels(scores: Iterable[Any]) -> dict[str, str]:
    """Bid id -> bid_label, with ", offer N" (N in the evaluation's order) where two bids share it."""
    bids = [score.bid for score in scores]
    shared = Counter(bid_label(bid) for bid in bids)
    seen: Counter[str] = Counter()
    labels = {}
    for bid in bids:
        label = bid_label(bid)
        seen[label] += 1
        labels[bid.id] = f"{label}, offer {seen[label]}" if shared[label] > 1 else label
    return labels


def bid_names(scores: Iterable[Any]) -> dict[str, str]:
    """Bid id -> the name to print: the provider; "provider, GPU model" when the provider made more
    than one bid; "provider, GPU model, offer N" (N in the evaluation's order) when that too is shared."""
    bids = [score.bid for score in scores]
    providers = Counter(bid.quote.provider for bid in bids)
    offers = Counter((bid.quote.provider, bid.capacity.gpu_model) for bid in bids)
    names: dict[str, str] = {}
    seen: Counter[tuple[str, str]] = Counter()
    for bid in bids:
        name = bid.quote.provider
        if providers[name] > 1:
            name = f"{name}, {bid.capacity.gpu_model}"
            offer = (bid.quote.provider, bid.capacity.gpu_model)
            seen[offer] += 1
            if offers[offer] > 1:  # the officer's words still: never the evaluation's id
                name = f"{name}, offer {seen[offer]}"
        names[bid.id] = name
    return names
