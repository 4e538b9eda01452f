"""Request evidence from a provider: the pack (a letter and its JSON) of the measurements worth
most to the decision, written to a folder and, from a .clusterbid document, kept in it so the
files the provider returns are matched to the requests."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clusterbid.core.errors import InputError
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.store import EvaluationDocument


@dataclass(frozen=True)
class RequestPackResult:
    pack: Any  # RequestPack: the requests, their ids and the deadline
    paths: tuple[Path, ...]  # the letter and the JSON written
    kept: bool  # kept in the document (returned files are matched to it)
    value: Any = (
        None  # the ValueOfInformation that ranked the requests (the officer's, not the pack's)
    )

    def written_words(self) -> str:
        """What the officer is told once the pack is written: where each file is, and why the
        document keeps a copy (the app's status bar; the command line prints the same paths)."""
        asked = len(self.pack.requests)
        where = " and ".join(str(path) for path in self.paths)
        kept = (
            "; kept in the evaluation, so files the provider returns are matched to it"
            if self.kept
            else ""
        )
        return (
            f"Request for evidence to {self.pack.provider} ({asked} measurement(s), due "
            f"{self.pack.deadline.isoformat()}) written to {where}{kept}"
        )


def value_requests(
    evaluation: Evaluation,
    bid_id: str,
    progress: ProgressCallback,
    cancel: CancelToken,
    samples: int = DEFAULT_SAMPLES,
    source: str = "",
) -> Any:
    """The value of information that ranks the requests; an unknown bid is refused (naming
    `source`, the file) before the Monte Carlo runs."""
    from clusterbid.core.uncertainty.value_of_information import value_of_information

    if bid_id not in {b.id for b in evaluation.bids}:
        known = ", ".join(b.id for b in evaluation.bids) or "none"
        where = f" in {source}" if source else ""
        raise InputError(f"--bid {bid_id!r}: no such bid{where} (bids: {known})")
    from clusterbid.core.serving_workload import InferenceWorkload

    checkpoint(cancel)
    progress(0.1, "valuing what each measurement would settle")
    if isinstance(evaluation.workload, InferenceWorkload):  # issue 37: serving's own draws
        from clusterbid.core.uncertainty.serving_value import serving_value

        return serving_value(evaluation, samples)
    return value_of_information(evaluation, samples)


def request_evidence(
    evaluation: Evaluation,
    bid_id: str,
    value: Any,
    folder: Path,
    progress: ProgressCallback,
    cancel: CancelToken,
    *,
    issued: dt.date,
    deadline: dt.date | None = None,
    document: EvaluationDocument | None = None,
) -> RequestPackResult:
    """Write the pack; with `document`, keep it there as well (one audited row)."""
    from clusterbid.core.evidence_request.export import export_pack

    checkpoint(cancel)
    progress(0.8, "writing the request")
    pack, paths = export_pack(evaluation, bid_id, value, Path(folder), issued, deadline, document)
    return RequestPackResult(pack, tuple(paths), document is not None, value)
