"""The memo names a bid by its provider; a provider's second bid by its GPU model too, and by its
order when even that is shared, never by the evaluation's id (core/memo/bid_words.py)."""

from __future__ import annotations

from types import SimpleNamespace

from clusterbid.core.memo.bid_words import bid_names


def _score(bid_id: str, provider: str, gpu: str) -> SimpleNamespace:
    bid = SimpleNamespace(
        id=bid_id, quote=SimpleNamespace(provider=provider), capacity=SimpleNamespace(gpu_model=gpu)
    )
    return SimpleNamespace(bid=bid)


def test_a_bid_is_named_by_its_provider_and_told_apart_only_when_needed():
    scores = [
        _score("helio-h200", "Helio", "H200-SXM"),
        _score("quarry-h100", "Quarry GPU", "H100-SXM"),
        _score("quarry-h200", "Quarry GPU", "H200-SXM"),
        _score("ridge-a", "Ridge", "H200-SXM"),
        _score("ridge-b", "Ridge", "H200-SXM"),
    ]
    assert bid_names(scores) == {
        "helio-h200": "Helio",
        "quarry-h100": "Quarry GPU, H100-SXM",
        "quarry-h200": "Quarry GPU, H200-SXM",
        "ridge-a": "Ridge, H200-SXM, offer 1",
        "ridge-b": "Ridge, H200-SXM, offer 2",
    }


def test_copies_of_one_offer_are_told_apart_by_their_order_in_words():
    from clusterbid.core.memo.bid_words import bid_labels

    scores = [
        _score("helio-a", "Helio", "H200-SXM"),
        _score("helio-b", "Helio", "H200-SXM"),
        _score("quarry", "Quarry GPU", "H100-SXM"),
    ]
    assert bid_labels(scores) == {
        "helio-a": "Helio, H200-SXM, offer 1",
        "helio-b": "Helio, H200-SXM, offer 2",
        "quarry": "Quarry GPU, H100-SXM",
    }
