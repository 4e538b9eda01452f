"""Export the scored comparison (one row per bid, ranked) to an XLSX or CSV table: training and
serving evaluations alike, from the scorecard the door shows or has just scored."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clusterbid.core.kinds import kind_of
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint


@dataclass(frozen=True)
class ExportedComparison:
    path: Path
    bids: int  # the bids of the evaluation, ranked or failing a gate, one row each


def score_for_comparison(evaluation: Any) -> Any:
    """The scorecard `clusterbid export` writes: its kind's point ranking (core/kinds.py)."""
    return kind_of(evaluation).point_score(evaluation)


def export_comparison(
    scorecard: Any, path: Path | str, progress: ProgressCallback, cancel: CancelToken
) -> ExportedComparison:
    """Write `scorecard`'s comparison table to `path` (.xlsx or .csv, whole or not at all)."""
    from clusterbid.core.interchange import export_table

    evaluation = scorecard.evaluation
    rows = kind_of(evaluation).comparison_rows(scorecard)
    checkpoint(cancel)
    progress(0.5, f"writing {Path(path).name}")
    written = export_table(path, rows, title=evaluation.title)
    return ExportedComparison(Path(written), len(evaluation.bids))
