"""The Monte Carlo's outcomes kept whole as they are drawn (issue 32 item 1), so one set of draws
serves more than one ranking: `decide` tallies the point ranking's run, then the decided ranking
on the very same samples (common random numbers) instead of drawing them all again. Every bid's
draws come from its own streams (streams.py), so a bid's samples do not depend on which ranking
or which other bids they are tallied with.

Draws are made lazily, one pass of CHUNK samples at a time, only as far as a tally asks: a tally
that needs more samples than the first one took continues the same streams where they stopped.
`checkpoint` is called before each block of bids of each pass; the app's worker raises there
when a newer edit supersedes the run, so a cancelled run stops within one block of one pass."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from clusterbid.core.uncertainty.draw_setup import CHUNK, Outcomes, Setup
from clusterbid.core.uncertainty.sampling import chunks


@dataclass(frozen=True, slots=True)
class PassOutcomes:
    """One pass's outcomes of some bids, (bids, samples of the pass), in the tally's bid order."""

    cost: np.ndarray
    finish_hours: np.ndarray


class KeptOutcomes:
    """Outcomes of every bid of `setup` over up to `samples` draws, drawn on demand."""

    def __init__(
        self, setup: Setup, samples: int, checkpoint: Callable[[], None] | None = None
    ) -> None:
        count = len(setup.ids)
        self.setup = setup
        self.samples = samples
        # Pages of these are only touched as samples are written: an early stop never holds the
        # rest.
        self.cost = np.empty((count, samples), dtype=np.float32)
        self.hours = np.empty((count, samples), dtype=np.float32)
        self.commitment = np.empty((count, samples), dtype=np.float32)
        # Issue 39: kept only when some bid's handover is drawn late; otherwise it is the hours
        # (and a thousand bids at the sample cap stay inside their memory budget).
        self.late = any(block.slips for block in setup.blocks)
        self.finish_hours = (
            np.empty((count, samples), dtype=np.float32) if self.late else self.hours
        )
        into = Outcomes(self.cost, self.hours, self.commitment, self.finish_hours)
        self._passes: Iterator[object] = chunks(
            setup, samples, into=into, between_blocks=checkpoint
        )
        self.drawn = 0  # samples drawn so far (every bid, every array)
        self.passes_run = 0

    def draw_to(self, end: int) -> None:
        """Draw passes until the first `end` samples exist (at most `samples`)."""
        while self.drawn < min(end, self.samples):
            next(self._passes)  # writes its outcomes into the kept arrays
            self.drawn = min(self.drawn + CHUNK, self.samples)
            self.passes_run += 1

    def pass_of(self, rows: list[int] | None, start: int, n: int) -> PassOutcomes:
        """Samples start..start+n of `rows` (None: every bid in set-up order, as views)."""
        self.draw_to(start + n)
        if rows is None:
            cost = self.cost[:, start : start + n]
            return PassOutcomes(cost, self.finish_hours[:, start : start + n])
        return PassOutcomes(
            self.cost[rows, start : start + n], self.finish_hours[rows, start : start + n]
        )
