"""Python's cyclic garbage collector held back while a memo is made (issue 32).

A 500-bid memo makes millions of short-lived objects (reportlab's paragraphs, fragments, table
cells), almost all freed by reference counting the moment they are done with. The collector
still walks the young ones every 700 allocations and, now and then, every object the process
holds (the models, the catalog, the libraries): a fifth of the memo's CPU seconds at 500 bids.
So while a memo is made, what the process held before is set aside (gc.freeze: not walked) and
the young generation is collected every 50,000 allocations; both are put back afterwards. The
memo's bytes do not depend on when objects are collected.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 50_000  # allocations between collections of the young generation (Python: 700)
OLDER_THRESHOLDS = (20, 100)  # young collections per middle one, middle ones per full one

_lock = threading.Lock()
_depth = 0  # memos being made at once (the app may export while verify re-renders)
_saved: tuple[int, int, int] = gc.get_threshold()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Hold the collector back for the body; the last memo to finish puts the settings back."""
    global _depth, _saved
    with _lock:
        if _depth == 0:
            _saved = gc.get_threshold()
            gc.freeze()
            gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.set_threshold(*_saved)
                gc.unfreeze()
