"""Make an evaluation's approval memo: the one operation `clusterbid memo`, the app's training and
serving windows and verify's re-render all call, so the same choices give the same bytes.

What differs between the front doors stays with them: the CLI reads request states and the audit
head from the document it opened, the app from the document it holds, verify from the attached
inputs. This module scores, runs the Monte Carlo and sensitivity with the policy's seed, values
information, words the evidence section and renders.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from clusterbid.core.errors import InputError
from clusterbid.core.sample_counts import DEFAULT_SAMPLES

if TYPE_CHECKING:  # imported where used: the serving path needs none of the training models
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.memo.inputs import RecommendationOverride

Progress = Callable[[float, str], None]


def _quiet(_fraction: float, _what: str) -> None:
    """No progress report wanted (the command line)."""


def make_memo(
    evaluation: Evaluation,
    *,
    approvers: Sequence[Any],
    notes: str = "",
    override: RecommendationOverride | None = None,
    decision_date: dt.date | None = None,
    audit_anchor: dict[str, object] | None = None,
    request_statuses: Sequence[Any] = (),
    samples: int = DEFAULT_SAMPLES,
    evidence_lines: Sequence[str] | None = None,
    progress: Progress = _quiet,
    made_by: dict[str, Any] | None = None,
    rationale: str = "",
    panel: Any = None,
) -> bytes:
    """The memo's PDF bytes. `samples` 0 leaves the bands out ("not computed"); `evidence_lines`
    given (verify's re-render) are printed as they were instead of valuing information again.
    InputError when no bid can be recommended or a choice is refused (override, approver).
    `made_by`: the versions a memo being rendered again records (render_memo).
    `rationale`: why the premium, required when the model's first is not the cheapest passing bid
    (an override's justification is its rationale). `panel`: the document's panel record
    (core/panel/view.py), worded here over the scorecard ranked, or the words a memo being
    rendered again kept; None: no panel page."""
    from clusterbid.core.kinds import kind_of
    from clusterbid.core.memo.memo_kinds import MEMO_KINDS

    # The officer's choices and the record of the memo: printed the same whatever the kind.
    choices: dict[str, Any] = {
        "approvers": approvers,
        "notes": notes,
        "override": override,
        "audit_anchor": audit_anchor,
        "decision_date": decision_date,
        "made_by": made_by,
        "rationale": rationale,
    }
    kind = kind_of(evaluation)
    if MEMO_KINDS[kind.tag].own_pages:  # its bands are its scorecard's own: no charts, no samples
        return _render_own_pages(kind.point_score(evaluation), progress, **choices)
    return _make_scored_memo(
        evaluation,
        samples=samples,
        request_statuses=request_statuses,
        evidence_lines=evidence_lines,
        panel=panel,
        progress=progress,
        choices=choices,
    )


def _make_scored_memo(
    evaluation: Evaluation,
    *,
    samples: int,
    request_statuses: Sequence[Any],
    evidence_lines: Sequence[str] | None,
    panel: Any,
    progress: Progress,
    choices: dict[str, Any],
) -> bytes:
    """A kind this app's model scores (training): decided, worded and drawn."""
    from clusterbid.core.memo import early_charts

    scorecard, uncertainty, sensitivity, odds_against = _score_and_decide(
        evaluation, samples, choices["override"], progress
    )
    if evidence_lines is None:  # a memo made now: a child may draw the charts while the
        early_charts.start_early(scorecard, uncertainty, sensitivity)  # evidence is valued
    try:
        return _word_and_draw(
            evaluation,
            (scorecard, uncertainty, sensitivity, odds_against),
            samples=samples,
            request_statuses=request_statuses,
            evidence_lines=evidence_lines,
            panel=panel,
            progress=progress,
            choices=choices,
        )
    finally:
        early_charts.stop_early()  # a child no charts section took (the memo failed on the way)


def _word_and_draw(
    evaluation: Evaluation,
    decided: tuple[Any, Any, Any, str | None],
    *,
    samples: int,
    request_statuses: Sequence[Any],
    evidence_lines: Sequence[str] | None,
    panel: Any,
    progress: Progress,
    choices: dict[str, Any],
) -> bytes:
    """The memo of a decided scorecard: the officer's rationale checked, worded and drawn."""
    from clusterbid.core.memo.render import render_memo

    scorecard, uncertainty, sensitivity, odds_against = decided
    if choices["made_by"] is None:  # a memo made now, not one rendered again as it was made
        _has_rationale(scorecard, choices["override"], choices["rationale"])
    if evidence_lines is None:
        evidence_lines = _evidence_words(evaluation, scorecard, samples, request_statuses, progress)
    if panel is not None and not isinstance(panel, dict):
        from clusterbid.core.panel.view import view_of

        panel = view_of(panel, scorecard).summary
    progress(0.85, "drawing the memo")
    return render_memo(
        scorecard,
        uncertainty=uncertainty,
        sensitivity=sensitivity,
        evidence_requests=tuple(evidence_lines),
        samples=samples,
        odds_against=odds_against,
        panel=panel,
        **choices,
    )


def _render_own_pages(served: Any, progress: Progress, **choices: Any) -> bytes:
    """A kind that words its own pages (serving): its scorecard as scored, with no samples."""
    from clusterbid.core.memo.render import render_memo

    _has_recommendation(served.ranked)
    progress(0.1, "drawing the memo")
    return render_memo(served, samples=0, **choices)


def _score_and_decide(
    evaluation: Evaluation,
    samples: int,
    override: RecommendationOverride | None,
    progress: Progress,
) -> tuple[Any, Any, Any, str | None]:
    """Scorecard and, over `samples` draws from the policy's seed, the Monte Carlo bands, the
    tipping points and (when the officer overrides) the odds counted against the bid chosen."""
    from clusterbid.core.scoring import score_evaluation

    scorecard = score_evaluation(evaluation)
    _has_recommendation(scorecard.ranked)
    if samples <= 0:
        return scorecard, None, None, None
    from clusterbid.core.uncertainty import analyse_sensitivity
    from clusterbid.core.uncertainty.decision import decide

    seed = evaluation.policy.random_seed
    odds_against = None
    progress(0.0, "Monte Carlo")
    # Issue 31: ranked and recommended on the policy's decision basis over these samples.
    scorecard, uncertainty = decide(evaluation, samples, seed)
    progress(0.5, "tipping points")
    sensitivity = analyse_sensitivity(evaluation, uncertainty, scorecard)
    if override is not None and override.bid_id != scorecard.ranked[0].bid.id:
        uncertainty, odds_against = _odds_against_override(
            evaluation, scorecard, override.bid_id, samples, seed
        )
    return scorecard, uncertainty, sensitivity, odds_against


def _evidence_words(
    evaluation: Evaluation,
    scorecard: Any,
    samples: int,
    request_statuses: Sequence[Any],
    progress: Progress,
) -> list[str]:
    """The evidence section: what each request is worth (valued over the samples when there are
    any), then the buyer's own plan figures valued as a measurement would be."""
    from clusterbid.core.evidence_request.summary import memo_lines

    value = None
    if samples > 0:
        from clusterbid.core.uncertainty.value_of_information import value_of_information

        progress(0.6, "value of information")
        value = value_of_information(evaluation, samples, evaluation.policy.random_seed)
    evidence_lines = list(memo_lines(evaluation, value, list(request_statuses)))
    if samples > 0:  # issue 31: the buyer's own plan figures, valued as a measurement is
        from clusterbid.core.uncertainty.plan_value import plan_value_lines

        progress(0.75, "value of your plan's figures")
        evidence_lines += (
            f"Your own plan's {line[:1].lower()}{line[1:]}." for line in plan_value_lines(scorecard)
        )
    return evidence_lines


def _odds_against_override(
    evaluation: Evaluation, scorecard: Any, bid_id: str, samples: int, seed: int
) -> tuple[Any, str]:
    """The same draws (common random numbers: each bid's streams are named by its id) counted
    against the bid the officer recommends, so page 1's "costs less than" is about that bid."""
    import dataclasses

    from clusterbid.core.uncertainty import run_monte_carlo

    first = [s for s in scorecard.scores if s.bid.id == bid_id]
    reordered = dataclasses.replace(
        scorecard, scores=(*first, *(s for s in scorecard.scores if s.bid.id != bid_id))
    )
    return run_monte_carlo(evaluation, samples, seed, scorecard=reordered), bid_id


def _has_rationale(scorecard: Any, override: RecommendationOverride | None, rationale: str) -> None:
    """Issue 34: paying more than a cheaper passing bid needs the officer's reason in writing."""
    from clusterbid.core.memo.page_one import cheaper_bids, name

    if override is not None or rationale.strip() or not scorecard.ranked:
        return
    cheaper = cheaper_bids(scorecard, scorecard.ranked[0])
    if cheaper:
        raise InputError(
            f"{name(scorecard.ranked[0])} ranks first but costs more than {name(cheaper[0])} on "
            "the "
            f"{scorecard.decision_words}: give the officer's reason for the premium with "
            "--tradeoff-rationale "
            "TEXT (in the app: the trade-off rationale field of the export dialog); the memo "
            "prints it"
        )


def _has_recommendation(ranked: Sequence[object]) -> None:
    if not ranked:
        raise InputError(
            "no bid passes the gates, so there is no recommendation to approve; "
            "add or correct bids first"
        )
