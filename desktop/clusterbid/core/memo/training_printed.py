"""The figures a training memo prints, as printed: what `clusterbid verify` compares and the memo's
inputs attachment records (the serving memo's are in serving_printed.py; memo_kinds.py picks)."""

from __future__ import annotations

from typing import Any

from clusterbid.core.memo.printed_figures import printed_figures
from clusterbid.core.money import money
from clusterbid.core.scoring import Scorecard


def printed_results(scorecard: Scorecard) -> dict[str, Any]:
    """Exactly the figures the memo prints, formatted as printed, so a re-score can be compared."""

    def figures(e: Any) -> dict[str, Any]:
        passed = e.passes_gates
        return {
            "total_commitment": str(money(e.commitment)) if passed else None,
            "net_plan_cost": str(money(e.plan_cost)) if passed else None,
            "wall_hours": f"{e.wall_hours:.1f}" if passed else None,
            "effective_mfu": f"{e.effective_mfu:.3f}" if passed else None,
            "goodput": f"{e.goodput:.3f}" if passed else None,
            "busbw_gb_s": f"{e.node_busbw_gb_s:.1f}",
        }

    return printed_figures(scorecard, figures)
