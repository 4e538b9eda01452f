"""The ETSI indication of a signature made offline and dated by the archive seal's document
timestamp (sealing.py).

pyHanko's long-term validator (long_term.py) asks for a signature timestamp inside the signature
itself and reports any signature without one as INDETERMINATE, whatever follows it. PAdES accepts
a document timestamp as the proof of existence (ETSI EN 319 142-1, B-T), and a memo signed offline
can have no other. For those signatures the same validation is made here, with pyHanko's checks
and nothing but the file's own data (no network): the chain of document timestamps, newest first,
the newest at the validation time and each earlier one at the time of the one that covers it; then
the signature at the time of the first timestamp after it, against the certificates, OCSP
responses and CRLs of the DSS.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

# pyHanko's trust problems as ETSI sub-indications (EN 319 102-1, 5.1.3)
FAILED = "TOTAL-FAILED"
PASSED = "TOTAL-PASSED"
INDETERMINATE = "INDETERMINATE"


def _dss_material(reader: Any) -> dict[str, list[Any]]:
    from pyhanko.sign.validation.dss import DocumentSecurityStore
    from pyhanko.sign.validation.errors import NoDSSFoundError

    try:
        dss = DocumentSecurityStore.read_dss(reader)
    except NoDSSFoundError:
        return {"other_certs": [], "ocsps": [], "crls": []}
    return {
        "other_certs": list(dss.load_certs()),
        "ocsps": [ref.get_object().data for ref in dss.ocsps],
        "crls": [ref.get_object().data for ref in dss.crls],
    }


def _context(roots: list[Any], material: dict[str, list[Any]], moment: datetime) -> Any:
    from pyhanko_certvalidator import ValidationContext

    # hard-fail: a certificate whose status the file does not hold is not taken on trust
    return ValidationContext(
        trust_roots=roots,
        allow_fetching=False,
        moment=moment,
        revocation_mode="hard-fail",
        other_certs=material["other_certs"],
        ocsps=material["ocsps"],
        crls=material["crls"],
    )


def _verdict(status: Any, what: str) -> tuple[str, str] | None:
    """(indication, sub-indication) when `status` fails, None when it passes."""
    if not status.intact:
        return FAILED, "HASH_FAILURE"
    if not status.valid:
        return FAILED, "SIG_CRYPTO_FAILURE"
    if status.trusted:
        return None
    problem = getattr(status, "trust_problem_indic", None)
    if problem is not None:
        indication = FAILED if problem.status.name == "FAILED" else INDETERMINATE
        return indication, problem.name
    return INDETERMINATE, "NO_CERTIFICATE_CHAIN_FOUND"


def timestamp_time(signed_data: Any) -> datetime:
    when: datetime = signed_data["encap_content_info"]["content"].parsed["gen_time"].native
    return when


def validate_dated_by_seal(
    reader: Any, sig: Any, roots: list[Any], moment: datetime
) -> tuple[str, str]:
    """(indication, sub-indication; '' when passed) for `sig`, which carries no signature
    timestamp, at validation time `moment`."""
    from pyhanko.sign.validation import validate_pdf_signature, validate_pdf_timestamp

    signed = int(sig.signed_revision)
    stamps = sorted(
        (ts for ts in reader.embedded_timestamp_signatures if int(ts.signed_revision) > signed),
        key=lambda ts: int(ts.signed_revision),
    )
    if not stamps:
        return INDETERMINATE, "NO_POE"  # nothing but the signer's clock dates it
    material = _dss_material(reader)
    control = moment
    for stamp in reversed(stamps):  # the newest now, each earlier one when the next was made
        failed = _verdict(
            validate_pdf_timestamp(stamp, _context(roots, material, control)), "timestamp"
        )
        if failed is not None:
            return failed
        control = timestamp_time(stamp.signed_data)
    failed = _verdict(validate_pdf_signature(sig, _context(roots, material, control)), "signature")
    return failed or (PASSED, "")
