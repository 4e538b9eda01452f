"""What an approver's signature approves, in the signature itself.

A PAdES reader shows a signature's /Reason and its signed attributes, not the memo's pages. So
each signature states what it approves: the amount committed with its currency, the provider,
the bid, the memo's number and the attached inputs' SHA-256. It is written in /Reason (the
signer's remark, if any, after it) and in the CMS signer-attributes-v2 attribute as a claimed
attribute of type X.520 description (2.5.4.13), which is inside the signed attributes. PAdES
(ETSI EN 319 142-1, as we read it) has a signature give its purpose in /Reason or in a
commitment-type-indication, not both, so the statement rides in signer-attributes-v2, which
carries free text, rather than in a commitment type, which carries an identifier.
Both are built from the attached inputs alone (no scoring), at signing and at verification.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

import pyhanko.sign.ades.cades_asn1  # noqa: F401  registers signer-attributes-v2 with asn1crypto
from asn1crypto import cms, core

from clusterbid.core.memo.bid_words import label_of

DESCRIPTION_OID = "2.5.4.13"  # X.520 description: a DirectoryString
REMARK_SEPARATOR = "; remark: "
MAX_REMARK = 200


def memo_id(inputs_sha256: str) -> str:
    """The memo's number as page 1 prints it (content.memo_number): CB- and the hash's first 8 hex."""
    return f"CB-{inputs_sha256[:8].upper()}"


def _amount(text: object) -> str | None:
    try:
        return f"{Decimal(str(text)):,.2f}"
    except (InvalidOperation, ValueError):
        return None


def _part(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name)
    return value if isinstance(value, dict) else {}


def _chosen_bid(data: dict[str, Any]) -> str | None:
    override, results = _part(data, "override"), _part(data, "results")
    ranking = results.get("ranking") or [None]
    first = ranking[0]
    return (
        str(override["bid_id"]) if override.get("bid_id") else None if first is None else str(first)
    )


def _provider(data: dict[str, Any], bid_id: str) -> str:
    for bid in _part(data, "evaluation").get("bids") or ():
        if isinstance(bid, dict) and bid.get("id") == bid_id:
            return str((bid.get("quote") or {}).get("provider") or "provider not stated")
    return "provider not stated"


def _bid_label(data: dict[str, Any], bid_id: str) -> str:
    """The bid as the memo names it (bid_words.bid_label: provider, GPU model), from the inputs."""
    for bid in _part(data, "evaluation").get("bids") or ():
        if isinstance(bid, dict) and bid.get("id") == bid_id:
            gpu = (
                (bid.get("capacity") or {}).get("gpu_model")
                if isinstance(bid.get("capacity"), dict)
                else None
            )
            return label_of(_provider(data, bid_id), gpu if isinstance(gpu, str) else "")
    return "provider not stated"


def approval_terms(data: dict[str, Any], inputs_sha256: str, *, legacy: bool = False) -> str:
    """What signing approves, the same at export, signing and verification: for a training memo
    the total commitment, for a serving memo the monthly cost, to the cent with the currency code;
    the bid in the officer's words. `legacy`: as memos signed before bids were named in words
    stated it ("to Northwind AI Cloud, bid northwind-ib"), which verify still accepts."""
    currency = str(_part(data, "evaluation").get("currency") or "USD")
    bid_id = _chosen_bid(data)
    if bid_id is None:
        what = "no bid (none passes the gates)"
    else:
        figures = (_part(data, "results").get("bids") or {}).get(bid_id) or {}
        commitment, monthly = (
            _amount(figures.get("total_commitment")),
            _amount(figures.get("approval_monthly_cost") or figures.get("monthly_cost")),
        )
        amount = (
            f"a total commitment of {currency} {commitment}"
            if commitment
            else f"{currency} {monthly} a month"
            if monthly
            else "an amount not stated"
        )
        what = (
            f"{amount} to {_provider(data, bid_id)}, bid {bid_id}"
            if legacy
            else f"{amount} to {_bid_label(data, bid_id)}"
        )
    return f"{what}; memo {memo_id(inputs_sha256)}, inputs SHA-256 {inputs_sha256}"


def approval_statement(
    data: dict[str, Any], inputs_sha256: str, field_number: int, *, legacy: bool = False
) -> str:
    """The one line approver N's signature carries (`legacy`: as approval_terms)."""
    return f"Approver {field_number} approves {approval_terms(data, inputs_sha256, legacy=legacy)}"


def reason_text(statement: str, remark: str = "") -> str:
    """/Reason: the statement first, then the signer's own remark (kept short)."""
    remark = " ".join(remark.split())[:MAX_REMARK]
    return statement + (REMARK_SEPARATOR + remark if remark else "")


def claimed_statement_attribute(statement: str) -> cms.AttCertAttribute:
    """The statement as a claimed signer attribute (pyHanko's SignerAttrSpec takes these)."""
    return cms.AttCertAttribute({"type": DESCRIPTION_OID, "values": [core.UTF8String(statement)]})


def signed_statements(signer_info: Any) -> list[str]:
    """The descriptions claimed in a signature's signer-attributes-v2 ([] when there are none)."""
    found: list[str] = []
    for attribute in signer_info["signed_attrs"]:
        if (
            attribute["type"].dotted != "0.4.0.19122.1.1"
        ):  # signer-attributes-v2 (ETSI EN 319 122-1)
            continue
        for value in attribute["values"]:
            parsed = value.parse() if hasattr(value, "parse") else value
            # asn1crypto's Sequence has no .get(): test membership (ruff's SIM401 would break it)
            present = "claimed_attributes" in parsed
            claims = parsed["claimed_attributes"] if present else ()
            for claimed in claims:
                if claimed["type"].dotted == DESCRIPTION_OID:
                    found += [
                        core.UTF8String.load(item.dump()).native for item in claimed["values"]
                    ]
    return found


def statement_problems(
    embedded: list[Any], data: dict[str, Any] | None, inputs_sha256: str | None
) -> list[str]:
    """Each approver signature must state, in /Reason and in its signed attribute, what the attached
    inputs approve; a signature stating another amount, bid or memo fails, naming both."""
    if data is None or inputs_sha256 is None:
        return []
    problems = []
    for sig in embedded:
        field = str(sig.field_name)
        number = field.rsplit("-", 1)[-1]
        if not number.isdigit():
            continue
        expected = approval_statement(data, inputs_sha256, int(number))
        # a memo signed before bids were named in words states the bid by its id: still what it approved
        accepted = (expected, approval_statement(data, inputs_sha256, int(number), legacy=True))
        reason = str(sig.sig_object.get("/Reason", ""))
        if not any(
            reason == said or reason.startswith(said + REMARK_SEPARATOR) for said in accepted
        ):
            problems.append(
                f"{field}: the signature's reason says {reason!r}, but the attached inputs "
                f"approve {expected!r}"
            )
        try:
            claimed = signed_statements(sig.signer_info)
        except (KeyError, ValueError, TypeError):
            claimed = []
        if claimed not in ([said] for said in accepted):
            said = "; ".join(claimed) or "nothing (no signer-attributes-v2 description)"
            problems.append(
                f"{field}: the statement signed in the signature's attributes is {said!r}, "
                f"but the attached inputs approve {expected!r}"
            )
    return problems
