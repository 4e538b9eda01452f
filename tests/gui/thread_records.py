"""Shared by the tests of what runs on the window's thread: two bids whose cost rank rests on a
default (the spares 'unsure' does not state), and a recorder of which thread calls a function."""

from __future__ import annotations

import sys
import threading

from tests.conftest import bid_dict, evaluation_dict

from clusterbid.core.evaluation import Evaluation

EXACT_FIT = {"gpus_offered": 512, "largest_contiguous_block_gpus": 512, "spare_pool_gpus": 0}


def two_bids_resting_on_spares() -> Evaluation:
    """'unsure' is $2.40 but states no spares (0 by default: a failed node waits 72 h; 16 at the
    range's top: a spare on hand), 'rival' is $2.50 with 16 spares. Alike otherwise, so with 16
    spares 'unsure' is cheaper (cost rank 1) and with none it is second: the spares decide."""
    unsure = bid_dict(
        "unsure",
        capacity=EXACT_FIT,
        reliability={"node_replacement_hours": 72},
        terms={"price_per_gpu_hour": "2.40", "currency": "USD"},
        provenance={"capacity.spare_pool_gpus": {"kind": "not_stated"}},
    )
    rival = bid_dict("rival", reliability={"node_replacement_hours": 72})
    return Evaluation.model_validate(evaluation_dict([unsure, rival]))


def record_threads(monkeypatch, name: str, real) -> list[bool]:
    """Wrap `real` wherever a clusterbid module holds it; each call appends whether it ran on the
    window's (main) thread."""
    on_main: list[bool] = []

    def recorded(*args, **kwargs):
        on_main.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    for module in list(sys.modules.values()):
        if (
            getattr(module, "__name__", "").startswith("clusterbid")
            and getattr(module, name, None) is real
        ):
            monkeypatch.setattr(module, name, recorded)
    return on_main
