"""From award to acceptance (issue 39): write a bid's acceptance plan as the contract's annex,
attach the files returned after handover, and read pass, fail or missing per test with the
remedy owed and the what-if re-score. One function per verb, shared by the CLI and the app."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clusterbid.core.errors import InputError
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.store import EvaluationDocument


@dataclass(frozen=True)
class AcceptancePlanResult:
    plan: Any  # AcceptancePlan
    paths: tuple[Path, ...]  # Markdown, JSON, PDF
    kept: bool

    def written_words(self) -> str:
        where = ", ".join(str(p) for p in self.paths)
        kept = (
            "; kept in the evaluation, so returned files are judged against it" if self.kept else ""
        )
        return (
            f"Acceptance plan for {self.plan.provider} ({len(self.plan.tests)} tests) written to "
            f"{where}{kept}"
        )


@dataclass(frozen=True)
class AcceptanceStatus:
    plan: Any  # AcceptancePlan
    issued: bool  # False: no plan was kept; judged against one built now from the current figures
    results: tuple[Any, ...]  # AcceptanceResult, one per test
    what_if: Any = None  # AcceptanceWhatIf when asked for


def write_acceptance_plan(
    evaluation: Evaluation,
    bid_id: str,
    folder: Path,
    progress: ProgressCallback,
    cancel: CancelToken,
    *,
    issued: dt.date,
    document: EvaluationDocument | None = None,
) -> AcceptancePlanResult:
    from clusterbid.core.acceptance.export import export_plan

    checkpoint(cancel)
    progress(0.2, "deriving the tests from the figures scored")
    plan, paths = export_plan(evaluation, bid_id, Path(folder), issued, document)
    progress(1.0, "acceptance plan written")
    return AcceptancePlanResult(plan, tuple(paths), document is not None)


def awarded_plan(document: EvaluationDocument, bid_id: str | None) -> tuple[Any, bool]:
    """The plan kept for `bid_id` (or for the one bid that has a plan); else one built now."""
    from clusterbid.core.acceptance.build import build_plan
    from clusterbid.core.acceptance.export import PLAN_PREFIX, kept_plan

    if bid_id is None:
        with_plan = sorted(
            {
                i.bid_id
                for i in document.artefacts()
                if i.name.startswith(PLAN_PREFIX) and i.bid_id is not None
            }
        )
        if len(with_plan) != 1:
            which = ", ".join(with_plan) if with_plan else "none has one yet"
            raise InputError(
                f"--bid: say which bid was awarded (bids with an acceptance plan: {which})"
            )
        bid_id = with_plan[0]
    plan = kept_plan(document, bid_id)
    if plan is not None:
        return plan, True
    return build_plan(document.evaluation, bid_id, dt.date.today()), False


def attach_acceptance_files(
    document: EvaluationDocument, bid_id: str | None, paths: list[Path]
) -> list[str]:
    """Every file read and matched before any is kept: one bad file attaches none."""
    from clusterbid.core.acceptance.results import (
        attach_result,
        check_result,
        reads_files,
        test_of_name,
    )
    from clusterbid.core.evidence.reading import load_evidence_bytes

    plan, issued = awarded_plan(document, bid_id)
    if not issued:
        raise InputError(
            f"no acceptance plan of {plan.bid_id} is kept in {document.path.name}: write it "
            "first (acceptance-plan), so the files are judged against what was signed"
        )
    loaded = []
    for path in paths:
        data = load_evidence_bytes(path)
        test = test_of_name(plan, path.name)
        if test is None:
            ids = ", ".join(t.test_id for t in plan.tests if reads_files(t))
            raise InputError(
                f"{path.name}: the name does not begin with a test id of the acceptance plan "
                f"of {plan.bid_id} (rename it to begin with one of {ids}); nothing was attached"
            )
        check_result(test, path.name, data)  # refuses a wrong format before anything is kept
        loaded.append((path.name, data))
    return [f"{name}: {attach_result(document, plan, name, data).test_id}" for name, data in loaded]


def acceptance_status(
    document: EvaluationDocument,
    bid_id: str | None,
    *,
    with_what_if: bool = False,
    today: dt.date | None = None,
) -> AcceptanceStatus:
    """The tests' states; with `with_what_if` the award re-scored on the measured figures,
    recorded as a what-if in the audit trail."""
    from clusterbid.core.acceptance.handover import judge_handover
    from clusterbid.core.acceptance.status import judge_tests
    from clusterbid.core.acceptance.whatif import record_what_if, what_if

    plan, issued = awarded_plan(document, bid_id)
    results = judge_handover(document, plan, judge_tests(document, plan), today or dt.date.today())
    found = None
    if with_what_if:
        found = what_if(document.evaluation, plan.bid_id, results)
        if found.figures_used:
            record_what_if(document, found, today or dt.date.today())
    return AcceptanceStatus(plan, issued, tuple(results), found)
