"""How long a memo's signatures will verify: per signature, the ETSI validation indication
(EN 319 102-1: TOTAL-PASSED, INDETERMINATE, TOTAL-FAILED, with its sub-indication), the PAdES
baseline level the file reaches (B-B, B-T, B-LT, B-LTA) and the time the signature is proven to
have existed at.

The indication comes from pyHanko's long-term (past signature) validation, fed only what the
file holds: the DSS the seal wrote and the chain of document timestamps; nothing is fetched. A
signature made offline, with no timestamp of its own, is validated at the seal's document
timestamp instead (dated_by_seal.py), since pyHanko's validator needs a signature timestamp.
It can be run at any validation time, e.g. ten years ahead, when the approvers' certificates
have long expired: a sealed memo still passes on the seal's proof of existence.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from clusterbid.core.memo.dated_by_seal import timestamp_time as _timestamp_time
from clusterbid.core.memo.dated_by_seal import validate_dated_by_seal

log = logging.getLogger(__name__)

SIGNERS_CLOCK = "signer's clock only (no timestamp proves when it was signed)"
INDICATIONS = {"PASSED": "TOTAL-PASSED", "INDETERMINATE": "INDETERMINATE", "FAILED": "TOTAL-FAILED"}
LEVEL_WORDS = {
    "B-B": "B-B: signed; nothing but the signer's clock dates it",
    "B-T": "B-T: a timestamp proves it existed at the time below",
    "B-LT": "B-LT: the file also holds the certificates and revocation status to check it offline",
    "B-LTA": "B-LTA: a document timestamp covers that validation data (checkable after the "
    "certificates expire)",
}


@dataclass(frozen=True)
class LongTermReport:
    field: str
    indication: str  # TOTAL-PASSED / INDETERMINATE / TOTAL-FAILED
    sub_indication: str  # ETSI's sub-indication, e.g. NO_CERTIFICATE_CHAIN_FOUND; '' when passed
    level: str  # B-B / B-T / B-LT / B-LTA
    proven_at: datetime | None  # the earliest timestamp after (or in) the signature
    validated_at: datetime

    def words(self) -> str:
        when = (
            f"{self.proven_at:%Y-%m-%d %H:%M:%S %Z} (timestamp)"
            if self.proven_at
            else SIGNERS_CLOCK
        )
        sub = f" ({self.sub_indication.replace('_', ' ').lower()})" if self.sub_indication else ""
        return (
            f"{self.field}: {self.indication}{sub} at {self.validated_at:%Y-%m-%d %H:%M} UTC; "
            f"level {LEVEL_WORDS[self.level]}; proven to exist at: {when}"
        )


def _signature_timestamps(sig: Any) -> list[datetime]:
    """Times of the RFC 3161 signature timestamps inside the signature itself (a signer with a
    TSA at hand); memos signed offline carry none."""
    unsigned = sig.signer_info["unsigned_attrs"]
    if not unsigned:
        return []
    return [
        _timestamp_time(token["content"])
        for attribute in unsigned
        if attribute["type"].native == "signature_time_stamp_token"
        for token in attribute["values"]
    ]


def _dss_revisions(reader: Any) -> list[int]:
    """Revisions (0-based) whose catalogue holds a DSS with any revocation data in it."""
    found = []
    for revision in range(reader.xrefs.total_revisions):
        try:
            root = reader.get_historical_root(revision)
            # pyHanko's dictionaries resolve references in [] only; dict.get returns the raw one
            dss = root["/DSS"] if "/DSS" in root else None  # noqa: SIM401
            if dss is not None and ("/OCSPs" in dss or "/CRLs" in dss):
                found.append(revision)
        except Exception:  # noqa: BLE001 (a damaged revision holds no usable DSS)
            continue
    return found


def level_of(reader: Any, sig: Any) -> tuple[str, datetime | None]:
    """The PAdES baseline level the file gives `sig`, from its structure alone (the indication
    says whether what is there validates), and the earliest time a timestamp proves."""
    signed = int(sig.signed_revision)
    stamps = sorted(
        (int(ts.signed_revision), _timestamp_time(ts.signed_data))
        for ts in reader.embedded_timestamp_signatures
        if int(ts.signed_revision) > signed
    )
    times = [when for _, when in stamps]
    times += _signature_timestamps(sig)
    if not times:
        return "B-B", None
    proven = min(times)
    dss = [revision for revision in _dss_revisions(reader) if revision > signed]
    if not dss:
        return "B-T", proven
    # B-LTA: a document timestamp over a revision that already held the validation data
    if any(revision >= dss[0] for revision, _ in stamps):
        return "B-LTA", proven
    return "B-LT", proven


def _no_fetching() -> Any:
    """A fetcher backend that refuses to fetch. Given none, pyHanko provisions its aiohttp backend
    for every validation (loading aiohttp, offline_pyhanko.py) even when told to fetch nothing."""
    from pyhanko_certvalidator.fetchers.api import FetcherBackend

    class NoFetching(FetcherBackend):
        def get_fetchers(self) -> Any:
            raise RuntimeError("verify never fetches: it validates from the file alone")

        async def close(self) -> None:
            return None

    return NoFetching()


async def _indication(sig: Any, roots: list[Any], moment: datetime) -> tuple[str, str]:
    from pyhanko.sign.validation.ades import ades_lta_validation
    from pyhanko.sign.validation.policy_decl import (
        PdfSignatureValidationSpec,
        RevinfoOnlineFetchingRule,
        RevocationInfoGatheringSpec,
        SignatureValidationSpec,
    )
    from pyhanko_certvalidator.context import CertValidationPolicySpec
    from pyhanko_certvalidator.ltv.types import ValidationTimingInfo
    from pyhanko_certvalidator.policy_decl import REQUIRE_REVINFO, CertRevTrustPolicy
    from pyhanko_certvalidator.registry import SimpleTrustManager

    spec = SignatureValidationSpec(
        cert_validation_policy=CertValidationPolicySpec(
            trust_manager=SimpleTrustManager.build(trust_roots=roots),
            revinfo_policy=CertRevTrustPolicy(REQUIRE_REVINFO),
        ),
        revinfo_gathering_policy=RevocationInfoGatheringSpec(
            online_fetching_rule=RevinfoOnlineFetchingRule.LOCAL_ONLY,  # never the network
            fetcher_backend=_no_fetching(),
        ),
    )
    timing = ValidationTimingInfo(
        validation_time=moment, best_signature_time=moment, point_in_time_validation=False
    )
    result = await ades_lta_validation(sig, PdfSignatureValidationSpec(spec), timing_info=timing)
    status = result.ades_subindic.status.name
    return INDICATIONS[status], "" if status == "PASSED" else str(
        getattr(result.ades_subindic, "name", "")
    )


def long_term_reports(
    reader: Any, embedded: list[Any], trust_roots: list[Any], moment: datetime | None = None
) -> tuple[LongTermReport, ...]:
    """One report per signature, validated at `moment` (now when None), offline."""
    moment = moment or datetime.now(UTC)
    reports = []
    for sig in embedded:
        field = str(sig.field_name)
        try:
            level, proven = level_of(reader, sig)
        except Exception:  # noqa: BLE001 (a damaged timestamp proves nothing)
            level, proven = "B-B", None
        try:
            if level != "B-B" and not _signature_timestamps(
                sig
            ):  # signed offline, dated by the seal
                indication, sub = validate_dated_by_seal(reader, sig, list(trust_roots), moment)
            else:
                indication, sub = asyncio.run(_indication(sig, list(trust_roots), moment))
        except Exception as exc:  # noqa: BLE001 (pyHanko raises many types on damaged input)
            log.debug("long-term validation of %s failed", field, exc_info=True)
            indication, sub = "INDETERMINATE", f"could not be validated: {type(exc).__name__}"
        reports.append(LongTermReport(field, indication, sub, level, proven, moment))
    return tuple(reports)
