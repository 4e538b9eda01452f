"""The sign-off checks verify adds to each signature's own: the form lock and every field change
after a signature (form_check.py), what each signature states it approves
(approval_statement.py), and signing times and key purposes (signing_time_check.py)."""

from __future__ import annotations

from datetime import datetime

from clusterbid.core.memo.approval_statement import statement_problems
from clusterbid.core.memo.field_name import FIELD_PREFIX
from clusterbid.core.memo.form_check import change_problems, exported_form_problems, lock_problems
from clusterbid.core.memo.seal_fields import seal_timestamp_fields
from clusterbid.core.memo.signing_time_check import signing_time_problems


def _approver_fields(data: dict | None, embedded: list) -> list[str]:
    listed = data.get("approvers") if isinstance(data, dict) else None
    if isinstance(listed, list) and listed:
        return [f"{FIELD_PREFIX}{number}" for number in range(1, len(listed) + 1)]
    names = {str(sig.field_name) for sig in embedded}
    return sorted(
        (n for n in names if n[len(FIELD_PREFIX) :].isdigit()),
        key=lambda n: int(n[len(FIELD_PREFIX) :]),
    )


def signoff_problems(
    reader,
    embedded: list,
    data: dict | None,
    inputs_sha256: str | None,
    now: datetime | None = None,
) -> list[str]:
    """Problems in words; `data` the parsed attached inputs (None when unreadable), `inputs_sha256`
    the attachment's own hash."""
    try:
        ordered = sorted(embedded, key=lambda sig: sig.signed_revision)
    except Exception:  # noqa: BLE001 (damaged signatures: their own check says so)
        return []
    fields = _approver_fields(data, ordered)
    problems = []
    if ordered:
        try:
            first = reader.get_historical_resolver(ordered[0].signed_revision)
            problems += exported_form_problems(first, fields, str(ordered[0].field_name))
            problems += lock_problems(ordered, fields)
            problems += change_problems(reader, ordered, seal_timestamp_fields(reader, ordered))
        except Exception as exc:  # noqa: BLE001 (a damaged form or history fails, it does not crash)
            problems.append(
                f"the memo's form and its revisions cannot be read ({type(exc).__name__}: {exc})"
            )
    for check, what in (
        (lambda: statement_problems(ordered, data, inputs_sha256), "approval statements"),
        (lambda: signing_time_problems(ordered, data, now), "signing times"),
    ):
        try:
            problems += check()
        except Exception as exc:  # noqa: BLE001 (a damaged signature fails here, never crashes verify)
            problems.append(f"the signatures' {what} cannot be read ({type(exc).__name__}: {exc})")
    return problems
