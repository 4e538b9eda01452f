"""Evaluation kinds as plug-ins: what a training run and an inference service each provide to
the generic paths (score, export, the memo's inputs, the app's first paint, the command line).

A generic path asks `kind_of(evaluation)` (or `kind_of_scorecard`) and calls what the kind
provides, instead of testing which kind it holds. Adding a kind is one `EvaluationKind` here
(and its memo in `core/memo/memo_kinds.py`); see CONTRIBUTING.md.

Each kind's own modules are imported inside its functions: a training score never loads the
serving model, and the other way round (none of them imports this module, so no circle hides).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clusterbid.core.costmodel import MODEL_VERSION, SERVING_MODEL_VERSION
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.workloads import workload_kind


@dataclass(frozen=True)
class EvaluationKind:
    """One kind of evaluation and what it provides to the generic paths."""

    tag: str  # the workload's `kind` field in evaluation files ("training", "inference")
    buys: str  # what such an evaluation buys, in words: "a training run"
    model_version: str  # the cost model the memo's inputs record
    # Whether its comparison is kept for the next start's first paint (core/comparison_table.py).
    keeps_first_paint: bool
    # Whether a panel of evaluators and requests for evidence exist for it (core/panel,
    # core/evidence_request): both work on a training job's bids only, so far.
    has_panel: bool
    has_evidence_requests: bool
    # Where its plan inputs (Edit > Plan Inputs, `clusterbid plan`) sit in the workload: the field
    # holding them, or "" for the workload itself.
    plan_field: str
    point_score: Callable[[Evaluation], Any]  # the scorecard without the Monte Carlo's decision
    # The Monte Carlo driver: (the scorecard ranked on the policy's decision basis, its bands)
    # over `samples` draws of the policy's seed. A serving scorecard carries its own bands
    # (drawn at its own sample count): its bands here are None.
    monte_carlo: Callable[[Evaluation, int], tuple[Any, Any]]
    # The tipping points of (evaluation, bands, scorecard): None where the kind words its own.
    tipping: Callable[[Evaluation, Any, Any], Any]
    report_json: Callable[[Any, Any, Any], dict[str, Any]]  # `clusterbid score --json`
    report_table: Callable[[Any, Any, Any], str]  # `clusterbid score`
    comparison_rows: Callable[[Any], list[dict[str, Any]]]  # `clusterbid export`, one per bid


# -- training ------------------------------------------------------------------------------------
def _training_point(evaluation: Evaluation) -> Any:
    from clusterbid.core.scoring import score_evaluation

    return score_evaluation(evaluation)


def _training_monte_carlo(evaluation: Evaluation, samples: int) -> tuple[Any, Any]:
    from clusterbid.core.uncertainty.decision import decide

    return decide(evaluation, samples)  # ranked on the policy's decision basis


def _training_tipping(evaluation: Evaluation, uncertainty: Any, scorecard: Any) -> Any:
    from clusterbid.core.uncertainty import analyse_sensitivity

    return analyse_sensitivity(evaluation, uncertainty, scorecard)


def _training_json(scorecard: Any, uncertainty: Any, sensitivity: Any) -> dict[str, Any]:
    from clusterbid.core.report import scorecard_to_json
    from clusterbid.core.uncertainty.waterfall import waterfall

    report = scorecard_to_json(scorecard, uncertainty, sensitivity)
    # Issue 34: why the first-ranked bid wins, from the runner-up's net cost to its own.
    parts = waterfall(scorecard, uncertainty)
    report["waterfall"] = parts.to_json(scorecard.evaluation.currency) if parts else None
    return report


def _training_table(scorecard: Any, uncertainty: Any, sensitivity: Any) -> str:
    from clusterbid.core.report import format_ranking_table

    return format_ranking_table(scorecard, uncertainty, sensitivity)


def _training_rows(scorecard: Any) -> list[dict[str, Any]]:
    from clusterbid.core.report import comparison_rows

    return comparison_rows(scorecard)


# -- inference (serving) -------------------------------------------------------------------------
def _serving_point(evaluation: Evaluation) -> Any:
    from clusterbid.core.serving_scoring import score_serving_evaluation

    return score_serving_evaluation(evaluation)


def _serving_monte_carlo(evaluation: Evaluation, _samples: int) -> tuple[Any, None]:
    # The serving scorecard draws its own bands at its own sample count (uncertainty/
    # serving_montecarlo.py), and is ranked on its policy's basis by score_serving_evaluation.
    return _serving_point(evaluation), None


def _no_tipping(_evaluation: Evaluation, _uncertainty: Any, _scorecard: Any) -> None:
    """The serving memo and table word their tipping points from the scorecard's own bands."""


def _serving_json(scorecard: Any, _uncertainty: Any, _sensitivity: Any) -> dict[str, Any]:
    from clusterbid.core.serving_json import serving_scorecard_to_json

    return serving_scorecard_to_json(scorecard)


def _serving_table(scorecard: Any, _uncertainty: Any, _sensitivity: Any) -> str:
    from clusterbid.core.serving_report import format_serving_table

    return format_serving_table(scorecard)


def _serving_rows(scorecard: Any) -> list[dict[str, Any]]:
    from clusterbid.core.serving_report import serving_comparison_rows

    return serving_comparison_rows(scorecard)


TRAINING = EvaluationKind(
    tag="training",
    buys="a training run",
    model_version=MODEL_VERSION,
    keeps_first_paint=True,
    has_panel=True,
    has_evidence_requests=True,
    plan_field="plan",
    point_score=_training_point,
    monte_carlo=_training_monte_carlo,
    tipping=_training_tipping,
    report_json=_training_json,
    report_table=_training_table,
    comparison_rows=_training_rows,
)

SERVING = EvaluationKind(
    tag="inference",
    buys="an inference service",
    model_version=SERVING_MODEL_VERSION,
    keeps_first_paint=False,  # its window opens from a few milliseconds of scoring
    has_panel=False,
    has_evidence_requests=True,  # one benchmark request per bid (evidence_request/serving_build)
    plan_field="",  # payment terms only, on the workload itself
    point_score=_serving_point,
    monte_carlo=_serving_monte_carlo,
    tipping=_no_tipping,
    report_json=_serving_json,
    report_table=_serving_table,
    comparison_rows=_serving_rows,
)

KINDS: dict[str, EvaluationKind] = {kind.tag: kind for kind in (TRAINING, SERVING)}


def kind_of(evaluation: Evaluation) -> EvaluationKind:
    """The kind of `evaluation`, by its workload's tag (files from before serving: training)."""
    return KINDS[workload_kind(evaluation.workload)]


def kind_of_scorecard(scorecard: Any) -> EvaluationKind:
    """The kind of the evaluation a scorecard of either kind was scored from."""
    return kind_of(scorecard.evaluation)
