"""Common random numbers: one standard-normal stream per (seed, bid id, input name).

A bid's draws depend on nothing else, so editing, adding or removing another bid leaves its
samples, and so its percentiles, exactly as they were. Market-wide shocks use the reserved
owner name below, so every bid sees the same one.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np

MARKET = "\x00market"  # not a valid bid id (ids start with a letter or digit)
STACK = "\x00stack"  # the software stack behind the buyer's baseline (issue 36), every bid
# Suffix of a stream drawn from the stack's own numbers: an unstated stack's FP8 gain goes with
# its BF16 reach (the published stacks rank the same on both), so one draw sets both.
WITH_STACK = " \x00with the stack"


def seed_owner(owner: str) -> str:
    """Whose numbers a common stream draws: the stack's for a stream that follows the stack."""
    return STACK if owner.endswith(WITH_STACK) else owner


@lru_cache(maxsize=4096)  # a bid's id is digested once for all its inputs, not once per stream
def _words(text: str) -> tuple[int, ...]:
    """A stable 256-bit digest of `text` as 32-bit words (Python's hash() is salted per process)."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, len(digest), 4))


def stream(seed: int, owner: str, input_name: str) -> np.random.Generator:
    """The generator of one input of one bid (or of the market)."""
    entropy = [seed & 0xFFFFFFFF, seed >> 32, *_words(owner), *_words(input_name)]
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy)))
