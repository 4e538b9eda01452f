"""Export the scored comparison (one row per bid, ranked) to an XLSX or CSV table: training and
serving evaluations alike, from the scorecard the door shows or has just scored."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint


@dataclass(frozen=True)
class ExportedComparison:
    path: Path
    bids: int  # the bids of the evaluation, ranked or failing a gate, one row each


def score_for_comparison(evaluation: Any) -> Any:
    """The scorecard `clusterbid export` writes: the point ranking, or the serving scorecard."""
    from clusterbid.core.workloads import is_serving

    if is_serving(evaluation):
        from clusterbid.core.serving_scoring import score_serving_evaluation

        return score_serving_evaluation(evaluation)
    from clusterbid.core.scoring import score_evaluation

    return score_evaluation(evaluation)


def export_comparison(
    scorecard: Any, path: Path | str, progress: ProgressCallback, cancel: CancelToken
) -> ExportedComparison:
    """Write `scorecard`'s comparison table to `path` (.xlsx or .csv, whole or not at all)."""
    from clusterbid.core.interchange import export_table
    from clusterbid.core.workloads import is_serving

    evaluation = scorecard.evaluation
    if is_serving(evaluation):
        from clusterbid.core.serving_report import serving_comparison_rows

        rows = serving_comparison_rows(scorecard)
    else:
        from clusterbid.core.report import comparison_rows

        rows = comparison_rows(scorecard)
    checkpoint(cancel)
    progress(0.5, f"writing {Path(path).name}")
    written = export_table(path, rows, title=evaluation.title)
    return ExportedComparison(Path(written), len(evaluation.bids))
