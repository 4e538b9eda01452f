"""An approver's signing credentials: a PKCS#12 file opened with a passphrase, checked before use."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from asn1crypto import keys as asn1_keys
from asn1crypto import pkcs12 as asn1_pkcs12
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    pkcs12,
)
from cryptography.x509.oid import NameOID

from clusterbid.core.errors import InputError
from clusterbid.core.memo.next_steps import Step, mark
from clusterbid.core.memo.signing_time_check import purpose_problem
from clusterbid.core.safe_read import read_regular

# A memo signature says "I approve this": PAdES and the EU rules behind it expect the signer's
# certificate to carry the non-repudiation (contentCommitment) key usage, and pyHanko's
# validator requires it by default, so a certificate without it would sign but never verify.
MAX_P12_BYTES = 1024 * 1024


@dataclass(frozen=True)
class SigningCredentials:
    """The signer's key and certificate (asn1crypto forms, as pyHanko takes them) and the chain."""

    key: asn1_keys.PrivateKeyInfo
    certificate: asn1_x509.Certificate
    chain: tuple[asn1_x509.Certificate, ...]
    common_name: str
    # The same key as cryptography opened (and checked) it from the PKCS#12 file: signing.py signs
    # with it rather than have pyHanko open and check the key again from `key`'s bytes.
    opened_key: PrivateKeyTypes | None = field(default=None, repr=False, compare=False)


def common_name(certificate: x509.Certificate) -> str:
    names = certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    return str(names[0].value) if names else certificate.subject.rfc4514_string()


def _to_asn1(certificate: x509.Certificate) -> asn1_x509.Certificate:
    return asn1_x509.Certificate.load(certificate.public_bytes(Encoding.DER))


def _is_pkcs12(raw: bytes) -> bool:
    try:
        content_type = asn1_pkcs12.Pfx.load(raw)["auth_safe"]["content_type"]
        return content_type.native is not None  # reading .native forces the outer parse
    except (ValueError, TypeError, KeyError):
        return False


def check_certificate(
    certificate: x509.Certificate, source: str, now: datetime | None = None
) -> None:
    """Refuse a certificate that is outside its validity period or cannot make approval signatures."""
    now = now or datetime.now(UTC)
    who = common_name(certificate)
    start, end = certificate.not_valid_before_utc, certificate.not_valid_after_utc
    if now < start:
        raise InputError(
            f"{source}: the certificate of {who!r} is not valid until {start:%Y-%m-%d %H:%M} UTC "
            "(check this computer's clock, or ask your certificate issuer)"
        )
    if now > end:
        raise InputError(
            f"{source}: the certificate of {who!r} expired on {end:%Y-%m-%d %H:%M} UTC; "
            "ask your certificate issuer for a new one"
        )
    try:
        usage = certificate.extensions.get_extension_for_class(x509.KeyUsage).value
    except x509.ExtensionNotFound:
        usage = None
    if usage is None or not usage.content_commitment:
        raise InputError(
            f"{source}: the certificate of {who!r} lacks the non-repudiation (contentCommitment) "
            "key "
            "usage that approval signatures need; ask your issuer for a signing certificate"
        )
    try:
        purposes = {
            oid.dotted_string
            for oid in certificate.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
        }
    except x509.ExtensionNotFound:
        purposes = None
    wrong = purpose_problem(purposes)
    if wrong:
        raise InputError(
            f"{source}: the certificate of {who!r} cannot sign an approval: {wrong}; ask your "
            "issuer for a document-signing certificate"
        )


def read_p12_file(path: Path | str) -> bytes:
    """A PKCS#12 file's bytes, refused (InputError naming the file) when it is not a plain file
    holding PKCS#12: checked before anyone is asked for a passphrase."""
    path = Path(path)
    try:
        raw = read_regular(path, MAX_P12_BYTES)  # devices and FIFOs refused before any read
        if len(raw) > MAX_P12_BYTES:
            raise InputError(
                f"{path}: larger than {MAX_P12_BYTES:,} bytes; not a PKCS#12 certificate file"
            )
    except FileNotFoundError:
        raise InputError(
            f"{path}: no such file; give the PKCS#12 (.p12/.pfx) file holding your certificate"
        ) from None
    except OSError as exc:  # a folder, a locked file, a device or FIFO
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None
    if not _is_pkcs12(raw):
        raise InputError(
            f"{path}: not a PKCS#12 (.p12/.pfx) file; export your certificate with its private key "
            "as .p12"
        )
    return raw


def load_credentials(
    path: Path | str, passphrase: str, now: datetime | None = None, raw: bytes | None = None
) -> SigningCredentials:
    """Open a PKCS#12 (.p12/.pfx) file (or its bytes `raw`, read by read_p12_file); every failure
    is an InputError naming the file and what to do."""
    path = Path(path)
    raw = read_p12_file(path) if raw is None else raw
    try:
        key, certificate, others = pkcs12.load_key_and_certificates(
            raw, passphrase.encode("utf-8") or None
        )
    except ValueError:
        # The file parsed as PKCS#12 above, so what failed is the decryption: the passphrase.
        raise InputError(
            f"{path}: wrong passphrase (or the file is damaged); nothing was signed"
        ) from None
    if key is None or certificate is None:
        raise InputError(
            f"{path}: holds no {'private key' if key is None else 'certificate'}; "
            "export the certificate together with its private key"
        )
    if key.public_key().public_bytes(
        Encoding.DER, PublicFormat.SubjectPublicKeyInfo
    ) != certificate.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo):
        raise InputError(f"{path}: the private key does not belong to the certificate")
    check_certificate(certificate, str(path), now)
    key_der = key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption())
    return SigningCredentials(
        key=asn1_keys.PrivateKeyInfo.load(key_der),
        certificate=_to_asn1(certificate),
        chain=tuple(_to_asn1(c) for c in others),
        common_name=common_name(certificate),
        opened_key=key,
    )


def load_trust_roots(paths: list[Path | str]) -> list[asn1_x509.Certificate]:
    """CA certificates a verifier trusts, from PEM (one or more per file) or DER files. A file that
    cannot be read is named with a mark (next_steps.py) its caller renders in its own words."""
    roots = []
    for path in map(Path, paths):
        try:
            raw = read_regular(
                path, MAX_P12_BYTES
            )  # a certificate file is far smaller than a .p12 cap
            if len(raw) > MAX_P12_BYTES:
                raise InputError(
                    f"{mark(Step.TRUST_GIVEN, str(path))}: larger than {MAX_P12_BYTES:,} bytes; "
                    "not a certificate file"
                )
        except FileNotFoundError:
            raise InputError(f"{mark(Step.TRUST_GIVEN, str(path))}: no such file") from None
        except OSError as exc:
            raise InputError(
                f"{mark(Step.TRUST_GIVEN, str(path))}: cannot be read ({exc.strerror})"
            ) from None
        try:
            certs = (
                x509.load_pem_x509_certificates(raw)
                if b"-----BEGIN" in raw
                else [x509.load_der_x509_certificate(raw)]
            )
        except ValueError:
            raise InputError(
                f"{mark(Step.TRUST_GIVEN, str(path))}: not a certificate (PEM or DER); give the CA "
                "certificate file"
            ) from None
        roots += [_to_asn1(c) for c in certs]
    return roots
