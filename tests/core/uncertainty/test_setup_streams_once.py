"""The Monte Carlo's set-up builds each random stream once (issue 32 item 4): a common stream,
such as the market's, is shared by every bid that draws from it, and was built again for each of
them. A count of generators built, not a time: it holds on a busy machine."""

from __future__ import annotations

from decimal import Decimal

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.uncertainty import draw_setup
from clusterbid.core.uncertainty.spreads import Spreads


def many_bids(count: int):
    """The demo's first bid copied `count` times under fresh ids and other prices."""
    demo = demo_evaluation()
    template = demo.bids[0].model_dump()
    bids = []
    for i in range(count):
        copy = {**template, "id": f"copy-{i:03d}"}
        copy["terms"] = {**template["terms"], "price_per_gpu_hour": Decimal(2) + Decimal(i) / 100}
        bids.append(copy)
    return demo.model_copy(update={"bids": [type(demo.bids[0]).model_validate(b) for b in bids]})


def test_every_stream_is_built_once_however_many_bids_share_it(monkeypatch):
    built: list[tuple[int, str, str]] = []
    real = draw_setup.stream

    def counting(seed: int, owner: str, name: str):
        built.append((seed, owner, name))
        return real(seed, owner, name)

    monkeypatch.setattr(draw_setup, "stream", counting)
    s = draw_setup.setup(many_bids(12), 5, Spreads(), None)
    assert s is not None and len(s.ids) == 12
    assert len(built) == len(set(built)), "a generator was built twice for the same stream"
    # Each common stream is one generator, shared by the bids that draw from it.
    assert len(s.shared_gens) == len({(n, o) for n, o in s.shared_gens})
    shared_owners = {owner for _, owner in s.shared_gens}
    assert shared_owners, "the demo's bids share at least the market's streams"
    assert not shared_owners & set(s.ids), "a common stream belongs to no single bid"
