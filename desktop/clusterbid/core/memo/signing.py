"""Sign one approver field of a memo: a PAdES B-B signature appended as an incremental update."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from io import BytesIO

from pyhanko.pdf_utils.font.basic import COURIER_META, SimpleFontEngine, SimpleFontEngineFactory
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.misc import PdfError
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import fields, signers
from pyhanko.pdf_utils.text import TextBoxStyle
from pyhanko.sign.fields import SigSeedSubFilter
from pyhanko.stamp import TextStampStyle
from pyhanko_certvalidator.registry import SimpleCertificateStore

from clusterbid.core.errors import InputError
from clusterbid.core.memo.credentials import SigningCredentials

FIELD_PREFIX = "approver-"
RESERVE_MARGIN = 4096
DEFAULT_REASON = "Approved as shown in this memo"
# Offline meetings have no timestamp server: the time in the signature is whatever the signer's
# computer says, and the stamp says so in plain words (the memo's sign-off page says the same).
class _ReferencedCourier(SimpleFontEngine):
    """pyHanko's stamp font (standard Courier), its font dictionary written as an object of its own.
    pyHanko puts the dictionary straight into the stamp's resources; poppler then gives the font a
    made-up object number and `pdffonts` stopped on every signed memo with "Internal Error: xref
    num ... not found". A referenced font dictionary is what PDF readers expect."""

    def as_resource(self):
        return self.writer.add_object(super().as_resource())


class _ReferencedCourierFactory(SimpleFontEngineFactory):
    def create_font_engine(self, writer, obj_stream=None):
        return _ReferencedCourier(writer, self.name, self.avg_width, self.meta)


STAMP_STYLE = TextStampStyle(
    stamp_text="Signed by %(signer_name)s\nsigned %(ts)s (signer's clock)\n%(reason)s",
    timestamp_format="%Y-%m-%d %H:%M:%S %Z",
    text_box_style=TextBoxStyle(font=_ReferencedCourierFactory("Courier", 0.6, COURIER_META)),
)


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
        return IncrementalPdfFileWriter(BytesIO(pdf), strict=False)
    except (PdfError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{source}: damaged PDF that cannot be signed ({exc})") from None


def _check_field(writer: IncrementalPdfFileWriter, field: str, source: str) -> None:
    found = {name: value for name, value, _ in fields.enumerate_sig_fields(writer.prev)}
    if field not in found:
        known = ", ".join(sorted(found)) or "none"
        raise InputError(f"{source}: has no signature field {field!r} (fields: {known}); "
                         "the number after --field is the approver's position on the memo")
    if found[field] is not None:
        raise InputError(f"{source}: field {field!r} is already signed; each approver signs their own field once")


def sign_memo(
    pdf: bytes,
    field: str,
    credentials: SigningCredentials,
    *,
    reason: str = DEFAULT_REASON,
    location: str | None = None,
    source: str = "memo",
) -> SignedMemo:
    """Fill `field` with the approver's signature; earlier signatures stay valid (incremental update)."""
    writer = _open_for_update(pdf, source)
    _check_field(writer, field, source)
    signer = signers.SimpleSigner(
        signing_cert=credentials.certificate,
        signing_key=credentials.key,
        cert_registry=SimpleCertificateStore.from_certs(credentials.chain),
    )
    metadata = signers.PdfSignatureMetadata(
        field_name=field,
        reason=reason,
        location=location or None,
        name=credentials.common_name,
        subfilter=SigSeedSubFilter.PADES,
        md_algorithm="sha256",
    )
    pdf_signer = signers.PdfSigner(metadata, signer=signer, stamp_style=STAMP_STYLE)
    try:
        output = pdf_signer.sign_pdf(
            writer, existing_fields_only=True, bytes_reserved=_reserved_bytes(credentials),
            appearance_text_params={"signer_name": credentials.common_name, "reason": reason},
        )
    except (PdfError, ValueError) as exc:
        raise InputError(f"{source}: could not be signed ({exc}); nothing was written") from None
    signed = output.getvalue()
    # Read back what was written: the claimed signing time, and proof that the output parses.
    signing_time = PdfFileReader(BytesIO(signed)).embedded_signatures[-1].self_reported_timestamp
    return SignedMemo(signed, field, credentials.common_name, signing_time, hashlib.sha256(signed).hexdigest())
