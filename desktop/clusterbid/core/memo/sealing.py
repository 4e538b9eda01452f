"""Seal a signed memo for the archive (PAdES B-T, B-LT, B-LTA) with pyHanko's own machinery.

Signing happens offline, so a memo's signatures are PAdES B-B: nothing but the signer's clock says
when they were made, and nothing in the file lets a validator check the certificates once their
CA's revocation services are gone. Sealing, done later wherever a network is, appends two
incremental updates and changes no byte of what was signed:

1. a Document Security Store (DSS) holding every certificate, OCSP response and CRL the
   signatures and any earlier document timestamps need (B-LT), fetched from the addresses the
   certificates themselves name;
2. an RFC 3161 document timestamp over the whole file, with the timestamp authority's own
   validation data written into the DSS just before it, so the timestamp covers it (B-LTA).
   PAdES (ETSI EN 319 142-1, 5.3) lets a document timestamp stand as a signature's proof of
   existence (B-T): a signature inside a PDF cannot take an unsigned timestamp attribute
   without rewriting the bytes it was signed over.

A later seal repeats both steps: the newest timestamp's validation data goes into the DSS and a
new timestamp covers it, which is how an archive outlives the timestamp authority's certificate.
Any network or validation failure raises SealError saying what is missing; nothing is returned
half-sealed (the caller writes the whole result or nothing).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from io import BytesIO
from typing import Any

from asn1crypto import x509 as asn1_x509

from clusterbid.core.errors import InputError
from clusterbid.core.memo.next_steps import Step, mark

NETWORK_TIMEOUT = 10  # seconds per request: a seal never hangs on a server that does not answer
OVERALL_TIMEOUT = 120  # seconds for the whole seal, whatever the number of requests


class SealError(InputError):
    """The seal could not be completed; the message says what is missing, and nothing was written."""


@dataclass(frozen=True)
class SealedMemo:
    pdf: bytes
    timestamp_time: datetime  # the time the TSA certified in the new document timestamp
    tsa: str  # the TSA's name, from its certificate
    signatures: int  # signatures whose validation data the DSS now holds
    earlier_timestamps: int  # document timestamps already in the memo (re-seal when > 0)
    sha256: str


def _self_signed(certificates: Sequence[asn1_x509.Certificate]) -> list[asn1_x509.Certificate]:
    return [c for c in certificates if c.self_signed in ("maybe", "yes")]


def _path_roots(
    embedded: list[Any], given: list[asn1_x509.Certificate]
) -> list[asn1_x509.Certificate]:
    """Anchors to build certificate paths from while collecting evidence: the roots given plus any
    root certificate the signatures carry. Collecting is not trusting: verify judges each chain
    against the organisation's anchors only, never against what the memo carries."""
    roots = list(given)
    for sig in embedded:
        roots += _self_signed([c.chosen for c in sig.signed_data["certificates"] or ()])
    return roots


def revocation_addresses(certificates: Sequence[asn1_x509.Certificate]) -> list[str]:
    """The OCSP and CRL addresses the certificates name, each once, in the order found: what the
    seal asks for the revocation status, so what an officer must reach when it cannot be had."""
    found: list[str] = []
    for cert in certificates:
        points = cert.crl_distribution_points or []
        found += [str(url) for url in cert.ocsp_urls] + [str(p.url) for p in points if p.url]
    return list(dict.fromkeys(found))


def _missing(exc: BaseException, tsa_url: str, addresses: Sequence[str] = ()) -> str:
    """What could not be had, in words, from the exception pyHanko or the network raised."""
    from pyhanko.sign.timestamps.common_utils import TimestampRequestError
    from pyhanko_certvalidator import errors

    text = str(exc) or type(exc).__name__
    if isinstance(exc, (TimeoutError, asyncio.TimeoutError)):
        return f"no answer within {NETWORK_TIMEOUT} s from a timestamp, OCSP or CRL server"
    if isinstance(exc, TimestampRequestError):
        return f"no RFC 3161 timestamp from {tsa_url} ({text})"
    if isinstance(exc, errors.RevokedError):
        return f"a certificate is revoked, so the memo cannot be sealed as valid ({text})"
    if isinstance(
        exc, (errors.InsufficientRevinfoError, errors.OCSPFetchError, errors.CRLFetchError)
    ):
        asked = f"; the certificates name {', '.join(addresses)}" if addresses else ""
        return (
            "no revocation status (OCSP response or CRL) could be had for a certificate the "
            f"signatures or the timestamp need ({text}){asked}"
        )
    if isinstance(exc, (errors.PathBuildingError, errors.PathValidationError)):
        return (
            f"a certificate chain could not be completed or checked: {mark(Step.GIVE_CA)}, "
            f"or reach the addresses the certificates name ({text})"
        )
    if isinstance(exc, OSError) or type(exc).__module__.startswith("aiohttp"):
        return f"the network could not be reached ({text})"
    return f"{type(exc).__name__}: {text}"


async def _seal(pdf: bytes, tsa_url: str, roots: list[asn1_x509.Certificate]) -> SealedMemo:
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.fields import enumerate_sig_fields
    from pyhanko.sign.signers.pdf_signer import PdfTimeStamper, TimestampDSSContentSettings
    from pyhanko.sign.timestamps.aiohttp_client import HTTPTimeStamper
    from pyhanko.sign.validation.dss import DocumentSecurityStore, collect_validation_info
    from pyhanko_certvalidator import ValidationContext
    from pyhanko_certvalidator.fetchers.aiohttp_fetchers import AIOHttpFetcherBackend

    # keeps a PDF/A memo's XMP equal to /Info through both updates (archival.py)
    from clusterbid.core.memo.archival import ArchivalWriter as IncrementalPdfFileWriter

    reader = PdfFileReader(BytesIO(pdf), strict=False)
    signatures = list(reader.embedded_regular_signatures)
    timestamps = list(reader.embedded_timestamp_signatures)
    if not signatures:
        raise SealError(
            "the memo carries no signatures yet: seal it once the approvers have signed"
        )
    waiting = [str(name) for name, value, _ in enumerate_sig_fields(reader) if value is None]
    if waiting:  # a signature after the seal would leave the seal's timestamp between signatures
        raise SealError(
            f"{', '.join(waiting)} not signed yet: seal the memo once every approver "
            "has signed; nothing was written"
        )
    timestamper = HTTPTimeStamper(tsa_url, timeout=NETWORK_TIMEOUT)
    # The TSA's own roots are needed to build its path; they come with its answer to a first request.
    probe = await timestamper.async_dummy_response("sha256")
    tsa_certs = [c.chosen for c in probe["content"]["certificates"]]
    carried = [
        c.chosen for sig in signatures + timestamps for c in sig.signed_data["certificates"] or ()
    ]
    addresses = revocation_addresses(carried + tsa_certs)
    backend = AIOHttpFetcherBackend(per_request_timeout=NETWORK_TIMEOUT)
    context = ValidationContext(
        trust_roots=_path_roots(signatures + timestamps, roots) + _self_signed(tsa_certs),
        other_certs=tsa_certs,
        allow_fetching=True,
        fetcher_backend=backend,
        revocation_mode="hard-fail",
    )  # a status that cannot be fetched is a seal not made
    try:
        paths = [
            path
            for sig in signatures + timestamps
            for path in await collect_validation_info(sig, context)
        ]
        writer = IncrementalPdfFileWriter(BytesIO(pdf), strict=False)
        DocumentSecurityStore.supply_dss_in_writer(
            writer, None, validation_context=context, paths=paths
        )
        with_dss = BytesIO()
        writer.write(with_dss)  # type: ignore[no-untyped-call]
        stamper = PdfTimeStamper(timestamper)
        sealed = await stamper.async_timestamp_pdf(
            IncrementalPdfFileWriter(with_dss, strict=False),
            "sha256",
            validation_context=context,
            output=BytesIO(),
            dss_settings=TimestampDSSContentSettings(update_before_ts=True, include_vri=False),
        )
    except Exception as exc:  # noqa: BLE001 (said in words with the addresses asked; nothing written)
        raise SealError(_not_sealed(exc, tsa_url, addresses)) from None
    finally:
        await backend.close()  # type: ignore[no-untyped-call]
    data = sealed.getvalue()
    newest = PdfFileReader(BytesIO(data), strict=False).embedded_timestamp_signatures[-1]
    tst = newest.signed_data["encap_content_info"]["content"].parsed
    tsa = newest.signer_cert.subject.native.get(
        "common_name", newest.signer_cert.subject.human_friendly
    )
    return SealedMemo(
        data,
        tst["gen_time"].native,
        str(tsa),
        len(signatures),
        len(timestamps),
        hashlib.sha256(data).hexdigest(),
    )


def seal_memo(
    pdf: bytes, tsa_url: str, trust_roots: Sequence[asn1_x509.Certificate] = ()
) -> SealedMemo:
    """Add validation data and a document timestamp to a signed memo (see the module's doc).
    SealError when anything needed cannot be had: the memo as given is then all there is."""
    if not tsa_url.startswith(("http://", "https://")):
        raise SealError(
            f"{mark(Step.TSA_GIVEN, repr(tsa_url))}: give the timestamp authority's "
            "http:// or https:// address"
        )
    if not pdf.lstrip()[:5] == b"%PDF-":
        raise SealError("not a PDF file; give the signed memo exported by ClusterBid")

    async def bounded() -> SealedMemo:
        return await asyncio.wait_for(_seal(pdf, tsa_url, list(trust_roots)), OVERALL_TIMEOUT)

    try:
        return asyncio.run(bounded())
    except SealError:
        raise
    except Exception as exc:  # noqa: BLE001 (every failure is said in words; nothing is written)
        raise SealError(_not_sealed(exc, tsa_url)) from None


def _not_sealed(exc: BaseException, tsa_url: str, addresses: Sequence[str] = ()) -> str:
    return (
        f"not sealed, the file is unchanged: {_missing(exc, tsa_url, addresses)}. Seal again "
        "where the timestamp authority and the certificates' OCSP and CRL addresses can be "
        "reached"
    )
