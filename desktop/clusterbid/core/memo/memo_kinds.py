"""What each evaluation kind (core/kinds.py) provides to the memo: the figures it prints, which
the memo's inputs record and `clusterbid verify` re-scores and compares.

The memo's pages of each kind are still drawn by their own modules (content.py and story.py for a
training run, serving_memo.py for an inference service); render.py picks them by the same tag.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clusterbid.core.kinds import SERVING, TRAINING, kind_of_scorecard
from clusterbid.core.memo.training_printed import printed_results


@dataclass(frozen=True)
class MemoKind:
    """One kind's part of the memo."""

    printed: Callable[[Any], dict[str, Any]]  # the figures printed, formatted as printed
    # Whether the memo's own pages of this kind are the serving memo's (serving_memo.py).
    own_pages: bool
    # Whether its page 1 weighs the first-ranked bid against cheaper passing ones (issue 34): the
    # officer's trade-off rationale is then asked for before the memo is made.
    tradeoff_section: bool


def _printed_serving_results(scorecard: Any) -> dict[str, Any]:
    """The serving memo's printed figures; its modules (the serving model, its Monte Carlo) are
    imported only for a serving memo, as core/kinds.py imports each kind's own (a training memo's
    export and verify never load them)."""
    from clusterbid.core.memo.serving_printed import printed_serving_results

    return printed_serving_results(scorecard)


MEMO_KINDS: dict[str, MemoKind] = {
    TRAINING.tag: MemoKind(printed=printed_results, own_pages=False, tradeoff_section=True),
    SERVING.tag: MemoKind(printed=_printed_serving_results, own_pages=True, tradeoff_section=False),
}


def memo_kind(scorecard: Any) -> MemoKind:
    """The memo part of the kind `scorecard` was scored as."""
    return MEMO_KINDS[kind_of_scorecard(scorecard).tag]
