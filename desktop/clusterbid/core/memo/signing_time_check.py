"""Signing times and key purposes that an approval signature can honestly carry.

Offline, a signature's time is the signer's clock (no timestamp server). A clock can be moved,
so the time is held to what the memo itself fixes: no approver signs before the memo's date (the
decision date in the attached inputs; without one, the latest quote or measurement date, before
which the memo could not have been made), before the approver before them, or in the future.
Validity of the certificate at that time is checked by signature_check.certificate_problems.
A certificate made for something else (a web server's TLS certificate) does not approve: an
extendedKeyUsage, where present, must allow document signing, e-mail protection or any usage.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

# A signer's clock a few minutes ahead of the verifier's is an ordinary clock, not a forgery.
CLOCK_SKEW = timedelta(minutes=5)
# A calendar date begins first in UTC+14 (Kiribati): the earliest instant any signer's wall
# clock can show that date.
EARLIEST_ZONE = timedelta(hours=14)
SIGNING_PURPOSES = {
    "1.3.6.1.5.5.7.3.36": "document signing (RFC 9336)",
    "1.3.6.1.4.1.311.10.3.12": "Microsoft document signing",
    "1.2.840.113583.1.1.5": "Adobe Authentic Documents Trust",
    "1.3.6.1.5.5.7.3.4": "e-mail protection",
    "2.5.29.37.0": "any extended key usage",
}
PURPOSE_NAMES = {
    "1.3.6.1.5.5.7.3.1": "TLS server",
    "1.3.6.1.5.5.7.3.2": "TLS client",
    "1.3.6.1.5.5.7.3.3": "code signing",
    "1.3.6.1.5.5.7.3.8": "time stamping",
    "1.3.6.1.5.5.7.3.9": "OCSP signing",
}


def purpose_problem(purposes: set[str] | None) -> str | None:
    """None when a certificate with these extendedKeyUsage OIDs (None: no such extension) may sign
    an approval; else what is wrong, in words."""
    if purposes is None or purposes & set(SIGNING_PURPOSES):
        return None
    named = ", ".join(sorted(PURPOSE_NAMES.get(oid, oid) for oid in purposes)) or "none"
    return (
        f"its extended key usage allows only {named}, not document signing or e-mail protection "
        "(a certificate made for a web server or a program does not sign approvals)"
    )


def _memo_floor(data: dict[str, Any] | None) -> tuple[date, str] | None:
    """The date no signature may precede, and what it is."""
    if not isinstance(data, dict):
        return None
    try:
        if data.get("decision_date"):
            return date.fromisoformat(str(data["decision_date"])), "the memo's decision date"
        bids = (data.get("evaluation") or {}).get("bids") or []
        texts = [str((b.get("quote") or {}).get("quoted_on") or "") for b in bids]
        texts += [str(e.get("measured_on") or "") for b in bids for e in b.get("evidence") or ()]
        dates = [date.fromisoformat(text) for text in texts if text]
    except (ValueError, TypeError, AttributeError):
        return None
    return (
        (max(dates), "the date of the memo's figures (latest quote or measurement)")
        if dates
        else None
    )


def _claimed(sig: Any) -> datetime | None:
    try:
        claimed: datetime | None = sig.self_reported_timestamp
        return claimed
    except Exception:  # noqa: BLE001 (an unreadable /M is reported by the signature check)
        return None


def _purposes(sig: Any) -> set[str] | None:
    value = sig.signer_cert.extended_key_usage_value
    return None if value is None else {usage.dotted for usage in value}


def signing_time_problems(
    embedded: list[Any], data: dict[str, Any] | None, now: datetime | None = None
) -> list[str]:
    """Problems in words for the signatures in revision order; `now` is this computer's clock."""
    now = now or datetime.now(UTC)
    floor = _memo_floor(data)
    problems: list[str] = []
    previous: tuple[str, datetime] | None = None
    for sig in embedded:
        field, at = str(sig.field_name), _claimed(sig)
        try:
            wrong = purpose_problem(_purposes(sig))
        except (ValueError, KeyError, AttributeError):
            wrong = "its extended key usage cannot be read"
        if wrong:
            problems.append(
                f"{field}: the signer's certificate is not for signing documents: {wrong}"
            )
        if at is None:
            problems.append(f"{field}: the signature states no signing time")
            continue
        if floor is not None:
            start = datetime.combine(floor[0], time(), UTC) - EARLIEST_ZONE
            if at < start:
                problems.append(
                    f"{field}: signed {at:%Y-%m-%d %H:%M %Z}, before {floor[1]} {floor[0]}: "
                    "the signer's clock was wrong or moved back"
                )
        if previous is not None and at < previous[1]:
            problems.append(
                f"{field}: signed {at:%Y-%m-%d %H:%M %Z}, before {previous[0]} signed "
                f"({previous[1]:%Y-%m-%d %H:%M %Z}) in the revision before it: a clock moved back"
            )
        if at > now + CLOCK_SKEW:
            problems.append(
                f"{field}: signed {at:%Y-%m-%d %H:%M %Z}, in the future of this computer's clock "
                f"({now:%Y-%m-%d %H:%M %Z}; {CLOCK_SKEW.seconds // 60} minutes of clock difference "
                "allowed): the signer's clock was moved ahead"
            )
        previous = (field, at)
    return problems
