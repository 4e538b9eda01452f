"""Sign one approver field of a memo: a PAdES B-B signature appended as an incremental update."""

from __future__ import annotations

import hashlib
import json
import textwrap
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from io import BytesIO
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ec import ECDSA, EllipticCurvePrivateKey
from cryptography.hazmat.primitives.asymmetric.padding import PKCS1v15
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.layout import AxisAlignment, InnerScaling, Margins, SimpleBoxLayoutRule
from pyhanko.pdf_utils.misc import PdfError
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.pdf_utils.text import TextBoxStyle
from pyhanko.sign import fields, signers
from pyhanko.sign.ades.api import CAdESSignedAttrSpec, SignerAttrSpec
from pyhanko.sign.fields import MDPPerm, SigSeedSubFilter
from pyhanko_certvalidator.registry import SimpleCertificateStore
from pyhanko_certvalidator.util import get_pyca_cryptography_hash

from clusterbid.core.errors import InputError
from clusterbid.core.memo.approval_statement import (
    approval_statement,
    claimed_statement_attribute,
    reason_text,
)
from clusterbid.core.memo.archival import ArchivalWriter
from clusterbid.core.memo.attachment import read_attached_inputs
from clusterbid.core.memo.credentials import SigningCredentials
from clusterbid.core.memo.field_name import FIELD_PREFIX
from clusterbid.core.memo.form_lock import certification_level
from clusterbid.core.memo.inputs_name import INPUTS_ATTACHMENT_NAME
from clusterbid.core.memo.next_steps import Step, mark
from clusterbid.core.memo.stamp_font import stamp_font
from clusterbid.core.memo.stamp_scripts import ScriptTextStampStyle

RESERVE_MARGIN = 4096 + 1024  # the approval statement is a signed attribute too
TIMESTAMP_RESERVE = 16384  # an RFC 3161 token with its authority's certificates, written as hex
STAMP_LINE = 52
# Offline meetings have no timestamp server: the time in the signature is whatever the signer's
# computer says, and the stamp says so in plain words (the memo's sign-off page says the same).
STAMP_STYLE = ScriptTextStampStyle(
    stamp_text="Signed by %(signer_name)s\nsigned %(ts)s (signer's clock)\n%(approval)s",
    timestamp_format="%Y-%m-%d %H:%M:%S %Z",
    text_box_style=TextBoxStyle(font=stamp_font()),  # embedded, as PDF/A asks
    # Clear of the field's own label, which the layout prints in the box's bottom-left corner.
    inner_content_layout=SimpleBoxLayoutRule(
        x_align=AxisAlignment.ALIGN_MID,
        y_align=AxisAlignment.ALIGN_MAX,
        margins=Margins(left=4, right=4, top=4, bottom=11),
        inner_content_scaling=InnerScaling.SHRINK_TO_FIT,
    ),
)


class OpenedKeySigner(signers.SimpleSigner):
    """pyHanko's in-memory signer, signing with the key object the PKCS#12 file was opened into.
    pyHanko's own opens the key again from its DER bytes at every signature, and cryptography
    checks an RSA key's primes each time it opens one: 0.04 CPU s for a 2,048-bit key, a tenth of
    `clusterbid sign` (issue 32 item 7), for the key load_credentials opened and checked already.
    RSA (PKCS#1 v1.5) and ECDSA are signed here; any other mechanism as pyHanko signs it."""

    def __init__(self, opened_key: PrivateKeyTypes, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.opened_key = opened_key

    def sign_raw(self, data: bytes, digest_algorithm: str) -> bytes:
        try:  # e.g. sha256_rsa is rsassa_pkcs1v15 (asn1crypto's names)
            mechanism = self.get_signature_mechanism_for_digest(digest_algorithm).signature_algo
        except ValueError:
            mechanism = None
        digest = get_pyca_cryptography_hash(digest_algorithm)
        key = self.opened_key
        if mechanism == "rsassa_pkcs1v15" and isinstance(key, RSAPrivateKey):
            return key.sign(data, PKCS1v15(), digest)
        if mechanism == "ecdsa" and isinstance(key, EllipticCurvePrivateKey):
            return key.sign(data, ECDSA(digest))
        signature: bytes = super().sign_raw(data, digest_algorithm)
        return signature


def _signer(credentials: SigningCredentials) -> signers.SimpleSigner:
    options: dict[str, Any] = {
        "signing_cert": credentials.certificate,
        "signing_key": credentials.key,
        "cert_registry": SimpleCertificateStore.from_certs(credentials.chain),
    }
    opened = credentials.opened_key
    # The opened key is used only while it is the certificate's own (a copy of the credentials
    # with another certificate or key signs as pyHanko does, never with a stale key).
    if opened is None or _public_der(opened) != credentials.certificate.public_key.dump():
        return signers.SimpleSigner(**options)
    return OpenedKeySigner(opened, **options)


def _public_der(key: PrivateKeyTypes) -> bytes:
    return key.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)


def approver_field(index: int) -> str:
    """The field of the N-th approver (1-based), as the memo names it."""
    if not isinstance(index, int) or index < 1:
        raise InputError(f"--field {index!r}: give the approver's number, 1 for the first approver")
    return f"{FIELD_PREFIX}{index}"


@dataclass(frozen=True)
class SignedMemo:
    pdf: bytes
    field: str
    signer: str
    signing_time: datetime
    sha256: str


def _reserved_bytes(credentials: SigningCredentials) -> int:
    # Sized from the certificates the signature embeds, so pyHanko skips its dry-run signature
    # (which doubled the signing time); the margin covers the signed attributes and the value.
    # pyHanko needs an even count (the space is written as hex); certificate lengths vary with
    # the signer's name and serial number, so round up.
    certificates = sum(len(c.dump()) for c in (credentials.certificate, *credentials.chain))
    reserved = RESERVE_MARGIN + certificates + 2 * credentials.key.byte_size
    return reserved + reserved % 2


def _open_for_update(pdf: bytes, source: str) -> IncrementalPdfFileWriter:
    if not pdf.lstrip()[:5] == b"%PDF-":
        raise InputError(f"{source}: not a PDF file; give the memo exported by ClusterBid")
    try:
        # keeps a PDF/A memo's XMP equal to /Info, so its claim of conformance stays true
        return ArchivalWriter(BytesIO(pdf), strict=False)
    except (PdfError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{source}: damaged PDF that cannot be signed ({exc})") from None


def _check_field(writer: IncrementalPdfFileWriter, field: str, source: str) -> list[str]:
    """The memo's approver fields in order; refuses an unknown, signed or out-of-turn field."""
    found = {name: value for name, value, _ in fields.enumerate_sig_fields(writer.prev)}
    if field not in found:
        known = ", ".join(sorted(found)) or "none"
        raise InputError(
            f"{source}: has no signature field {field!r} (fields: {known}); "
            "the number after --field is the approver's position on the memo"
        )
    if found[field] is not None:
        raise InputError(
            f"{source}: field {field!r} is already signed; each approver signs their own field once"
        )
    names = sorted(
        (
            name
            for name in found
            if name.startswith(FIELD_PREFIX) and name[len(FIELD_PREFIX) :].isdigit()
        ),
        key=lambda name: int(name[len(FIELD_PREFIX) :]),
    )
    waiting = (
        [name for name in names[: names.index(field)] if found[name] is None]
        if field in names
        else []
    )
    if waiting:
        raise InputError(
            f"{source}: {waiting[0]} has not signed yet, and approvers sign in the order the memo "
            f"lists them: approver 1's signature certifies the memo and each signature locks the "
            f"form for the approvers after it. Sign {field} once {', '.join(waiting)} "
            f"{'has' if len(waiting) == 1 else 'have'} signed; nothing was written"
        )
    return names


def _approval(writer: IncrementalPdfFileWriter, field: str, source: str) -> str:
    """What this signature approves, from the memo's attached inputs (approval_statement.py)."""
    try:
        attached = read_attached_inputs(writer.prev)
        data = json.loads(attached.raw.decode("utf-8")) if attached.raw is not None else None
    except (KeyError, ValueError, AttributeError, PdfError):
        data = None
    if not isinstance(data, dict):
        raise InputError(
            f"{source}: carries no readable {INPUTS_ATTACHMENT_NAME}, so what the signature would "
            "approve is unknown; sign the memo exported by ClusterBid"
        )
    return approval_statement(
        data, hashlib.sha256(attached.raw).hexdigest(), int(field[len(FIELD_PREFIX) :])
    )


def _stamp_lines(statement: str) -> str:
    # The stamp box is 95 x 24 mm: the statement wrapped to short lines (the SHA-256 on its own).
    head, _, sha = statement.partition(", inputs SHA-256 ")
    lines = textwrap.wrap(head, STAMP_LINE, break_on_hyphens=False)
    # A long word is cut by characters: a mark (a Thai vowel or tone, an accent) stays with the
    # letter it sits on, or it would be drawn alone at the start of the next line.
    for i in range(1, len(lines)):
        while lines[i] and unicodedata.category(lines[i][0]).startswith("M"):
            lines[i - 1], lines[i] = lines[i - 1] + lines[i][0], lines[i][1:]
    return "\n".join([*lines, f"inputs SHA-256 {sha[:32]}", sha[32:]])


def sign_memo(
    pdf: bytes,
    field: str,
    credentials: SigningCredentials,
    *,
    remark: str = "",
    location: str | None = None,
    source: str = "memo",
    tsa_url: str | None = None,
) -> SignedMemo:
    """Fill `field` with the approver's signature; earlier signatures stay valid (incremental update).
    The signature states what it approves (/Reason, the signer's `remark` after it, and a signed
    attribute); approver 1 certifies, and the field's /Lock becomes the signature's FieldMDP."""
    writer = _open_for_update(pdf, source)
    names = _check_field(writer, field, source)
    statement = _approval(writer, field, source)
    reason = reason_text(statement, remark)
    signer = _signer(credentials)
    first = bool(names) and field == names[0]
    metadata = signers.PdfSignatureMetadata(
        field_name=field,
        reason=reason,
        location=location or None,
        name=credentials.common_name,
        subfilter=SigSeedSubFilter.PADES,
        md_algorithm="sha256",
        certify=first,
        # The last approver's field lock carries /P 1 (no changes); asking for it here keeps
        # pyHanko from warning that the field overrides the request.
        docmdp_permissions=(
            certification_level(len(names))
            if first
            else MDPPerm.NO_CHANGES
            if field == names[-1]
            else MDPPerm.FILL_FORMS
        ),
        cades_signed_attr_spec=CAdESSignedAttrSpec(
            signer_attributes=SignerAttrSpec(
                claimed_attrs=[claimed_statement_attribute(statement)], certified_attrs=[]
            )
        ),
    )
    # With a timestamp authority at hand, the signature carries an RFC 3161 signature timestamp
    # (PAdES B-T at once); offline, the seal adds proof of existence later (sealing.py).
    timestamper, reserved = None, _reserved_bytes(credentials)
    if tsa_url:
        from pyhanko.sign.timestamps.aiohttp_client import HTTPTimeStamper

        from clusterbid.core.memo.sealing import NETWORK_TIMEOUT

        timestamper, reserved = (
            HTTPTimeStamper(tsa_url, timeout=NETWORK_TIMEOUT),
            reserved + TIMESTAMP_RESERVE,
        )
    pdf_signer = signers.PdfSigner(
        metadata, signer=signer, stamp_style=STAMP_STYLE, timestamper=timestamper
    )
    try:
        output = pdf_signer.sign_pdf(
            writer,
            existing_fields_only=True,
            bytes_reserved=reserved,
            appearance_text_params={
                "signer_name": credentials.common_name,
                "approval": _stamp_lines(statement),
            },
        )
    except (PdfError, ValueError) as exc:
        raise InputError(f"{source}: could not be signed ({exc}); nothing was written") from None
    except Exception as exc:  # noqa: BLE001 (only a timestamp request reaches the network here)
        if not tsa_url:
            raise
        raise InputError(
            f"{source}: no signature timestamp from {tsa_url} ({type(exc).__name__}: "
            f"{exc}); nothing was written: {mark(Step.SIGN_WITHOUT_TSA)}"
        ) from None
    signed = output.getvalue()
    # Read back what was written: the claimed signing time, and proof that the output parses.
    signing_time = PdfFileReader(BytesIO(signed)).embedded_signatures[-1].self_reported_timestamp
    return SignedMemo(
        signed, field, credentials.common_name, signing_time, hashlib.sha256(signed).hexdigest()
    )
