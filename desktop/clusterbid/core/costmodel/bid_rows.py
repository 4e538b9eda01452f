"""Each bid's row of model inputs, kept from one build of the arrays to the next.

Reading a bid into its row (catalog look-ups, its effective terms and reliability, the contract,
the deadline, delivery and SLA figures) is Python work per bid: about 70 ms CPU at 500 bids, run
by the scoring and again by the default effects after every edit (issue 32 item 1). An edit
changes one bid, the weights or the workload, so almost every row is the one already built.

A row is a function of the workload the model runs, the bid, the catalog and the bid's exchange
rate only. Bids, workloads and catalogs are frozen models (core/base.py, catalog.py), so a row
is kept under the bid object itself (the same object: the same inputs) and handed back only for
the same workload (equal and stating the same fields: `same_workload`), the same catalog object
and the same rate. An edited bid is a new object and is read again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

Row = dict[str, Any]
Kept = dict[int, tuple[object, float, Row]]  # id(bid) -> (bid, rate, row)

# The rows of the last two builds per workload are kept: the scoring and the default effects
# build the same bids back to back, and undo or a Monte Carlo may alternate between two
# snapshots. Several workloads are kept at once: a workload that leaves its schedule unstated
# builds every bid under each candidate schedule (schedule_range.py) before the chosen one.
GENERATIONS = 2
WORKLOADS = 16


class BidRowMemory:
    """Rows by bid, per workload and catalog; safe across the app's worker threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # Most recently used last: ((workload, catalog), generations newest first).
        self._contexts: list[tuple[tuple[object, object], list[Kept]]] = []

    def rows(
        self,
        workload: object,
        catalog: object,
        bids: list[Any],
        rates: list[float],
        read: Callable[[Any, float], Row],
    ) -> list[Row]:
        """The row of each bid, read with `read(bid, rate)` unless an identical one is kept."""
        with self._lock:
            kept = next(
                (list(gens) for c, gens in self._contexts if _same_context(c, workload, catalog)),
                [],
            )
        built: Kept = {}
        rows = []
        for bid, rate in zip(bids, rates, strict=True):
            row = _find(kept, bid, rate)
            if row is None:
                row = read(bid, rate)
            built[id(bid)] = (bid, rate, row)
            rows.append(row)
        with self._lock:
            now = self._take(workload, catalog)  # moved to the end: the most recently used
            generations = now[1] if now is not None else []
            self._contexts.append(((workload, catalog), [built, *generations][:GENERATIONS]))
            del self._contexts[:-WORKLOADS]
        return rows

    def forget(self) -> None:
        """Drop every kept row (tests compare a warm build with a cold one)."""
        with self._lock:
            self._contexts = []

    def _take(
        self, workload: object, catalog: object
    ) -> tuple[tuple[object, object], list[Kept]] | None:
        """Remove and return the entry of this workload and catalog, if one is kept."""
        for i, (context, _generations) in enumerate(self._contexts):
            if _same_context(context, workload, catalog):
                return self._contexts.pop(i)
        return None


def _same_context(context: tuple[object, object], workload: object, catalog: object) -> bool:
    # The catalog is one loaded object (default_catalog() is cached); a workload edit or a
    # different schedule is a new, unequal workload, and every row is read again.
    kept_workload, kept_catalog = context
    return kept_catalog is catalog and same_workload(kept_workload, workload)


def same_workload(kept: object, workload: object) -> bool:
    """The same workload to the model: equal, and stating the same fields (an unstated schedule
    is chosen by the model, a stated one is run as stated: equal values, different runs)."""
    return kept is workload or (
        kept == workload
        and getattr(kept, "model_fields_set", None) == getattr(workload, "model_fields_set", None)
    )


def _find(kept: list[Kept], bid: object, rate: float) -> Row | None:
    for generation in kept:
        entry = generation.get(id(bid))
        if entry is not None and entry[0] is bid and entry[1] == rate:
            return entry[2]
    return None


# One memory for the process: the app scores on worker threads, the command line once.
ROWS = BidRowMemory()
