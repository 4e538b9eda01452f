"""The handover test judged from the others: passed when every other test passed by the bid's
handover date (the day the last of them entered the document, from the audit trail), failed when
the date went by with a test not passed, missing until then."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace

from clusterbid.core.acceptance.model import AcceptancePlan
from clusterbid.core.acceptance.results import OUTCOME_SUFFIX, test_of_name
from clusterbid.core.acceptance.status import AcceptanceResult
from clusterbid.core.store.audit import ATTACH_ARTEFACT
from clusterbid.core.store.document import EvaluationDocument

HANDOVER = "ACC-handover"


def _days_kept(document: EvaluationDocument, plan: AcceptancePlan) -> dict[str, dt.date]:
    """test id -> the last day (UTC) a file or outcome for it entered the document."""
    days: dict[str, dt.date] = {}
    for row in document.audit_rows():
        if row.action != ATTACH_ARTEFACT or row.target != plan.bid_id or not row.new_json:
            continue
        name = str(json.loads(row.new_json).get("name", ""))
        test_id = name[: -len(OUTCOME_SUFFIX)] if name.endswith(OUTCOME_SUFFIX) else None
        test = plan.test(test_id) if test_id else test_of_name(plan, name)
        if test is not None:
            days[test.test_id] = max(
                days.get(test.test_id, dt.date.min), dt.datetime.fromisoformat(row.at).date()
            )
    days.setdefault("ACC-contiguous-block", days.get("ACC-busbw-job-block", dt.date.min))
    return days


def judge_handover(
    document: EvaluationDocument,
    plan: AcceptancePlan,
    results: list[AcceptanceResult],
    today: dt.date,
) -> list[AcceptanceResult]:
    """`results` with the handover test judged, unless the officer recorded its outcome."""
    bid = next((b for b in document.evaluation.bids if b.id == plan.bid_id), None)
    handover = bid.capacity.available_from if bid is not None else None
    at = next((i for i, r in enumerate(results) if r.test.test_id == HANDOVER), None)
    if handover is None or at is None or results[at].state != "missing":
        return results
    others = [r for r in results if r.test.test_id != HANDOVER]
    open_tests = [r.test.title for r in others if r.state != "pass"]
    if open_tests:
        if today <= handover:
            return results
        note = (
            f"by {handover.isoformat()} {len(open_tests)} test(s) had not passed: "
            f"{'; '.join(open_tests)}"
        )
        judged = replace(results[at], state="fail", notes=(note,))
    else:
        days = _days_kept(document, plan)
        last = max(days.get(r.test.test_id, dt.date.min) for r in others)
        state = "pass" if last <= handover else "fail"
        judged = replace(
            results[at],
            state=state,
            notes=(f"the last test passed on {last.isoformat()}; handover {handover.isoformat()}",),
        )
    return [*results[:at], judged, *results[at + 1 :]]
