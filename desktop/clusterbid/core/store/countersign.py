"""Countersigned rows: a user signs the trail's last row with their own key.

A row's hash covers every row before it (the chain), so one signature over the head is a
signature over the whole history up to it. Without a key, anyone who holds the file can recompute
the chain after changing a row or append a row in someone else's name; with a countersignature
they cannot make the signature over the changed row again. The countersignature is itself an
audited row: the row signed (number and hash), the signer's certificate and the signature over
"clusterbid-countersign:<document id>:<seq>:<hash>" (so it cannot be replayed onto another
document). `clusterbid audit` checks each one against the row it names; what it proves is that
the holder of that certificate's key signed the history up to there (the name printed is the
certificate's). Whether the certificate is the person's is the trust anchors' and the approver
registry's question, and a countersignature removed together with a rewrite shows only against
the anchor log outside the file, where countersignatures are logged too (anchor_log.py).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable

from cryptography import x509
from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.x509.oid import NameOID

from clusterbid.core.store.audit import COUNTERSIGN, AuditRow


def signed_message(document_id: str, seq: int, row_hash: str) -> bytes:
    return f"clusterbid-countersign:{document_id}:{seq}:{row_hash}".encode("ascii")


def sign_message(private_key: object, message: bytes) -> bytes:
    """The signature in the key's own scheme (RSA PKCS#1 v1.5, ECDSA or Ed25519, SHA-256)."""
    if isinstance(private_key, rsa.RSAPrivateKey):
        return private_key.sign(message, padding.PKCS1v15(), hashes.SHA256())
    if isinstance(private_key, ec.EllipticCurvePrivateKey):
        return private_key.sign(message, ec.ECDSA(hashes.SHA256()))
    if isinstance(private_key, ed25519.Ed25519PrivateKey):
        return private_key.sign(message)
    raise ValueError("the key is neither RSA, EC nor Ed25519")


def _verify(public_key: object, signature: bytes, message: bytes) -> None:
    if isinstance(public_key, rsa.RSAPublicKey):
        public_key.verify(signature, message, padding.PKCS1v15(), hashes.SHA256())
    elif isinstance(public_key, ec.EllipticCurvePublicKey):
        public_key.verify(signature, message, ec.ECDSA(hashes.SHA256()))
    elif isinstance(public_key, ed25519.Ed25519PublicKey):
        public_key.verify(signature, message)
    else:
        raise InvalidSignature("unsupported key type")


def _common_name(certificate: x509.Certificate) -> str:
    names = certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    return str(names[0].value) if names else ""


def countersign_payload(
    document_id: str, head: tuple[int, str], private_key: object, certificate_der: bytes
) -> dict[str, object]:
    seq, row_hash = head
    signature = sign_message(private_key, signed_message(document_id, seq, row_hash))
    certificate = x509.load_der_x509_certificate(certificate_der)
    return {
        "seq": seq,
        "hash": row_hash,
        "signer": _common_name(certificate),
        "certificate": base64.b64encode(certificate_der).decode("ascii"),
        "signature": base64.b64encode(signature).decode("ascii"),
    }


def countersign_problems(
    rows: tuple[AuditRow, ...],
    document_id: str | None = None,
    earlier: Callable[[int], AuditRow | None] | None = None,
) -> list[str]:
    """Each countersignature in `rows` checked against the row it names; problems in words.
    `document_id` and `earlier` (a look-up of rows before `rows`) serve an open that read only
    the rows since the last checkpoint; by default `rows` is the whole trail."""
    problems: list[str] = []
    if not rows:
        return problems
    by_seq = {row.seq: row for row in rows}
    document_id = rows[0].hash if document_id is None else document_id

    def named_row(seq: int) -> AuditRow | None:
        return by_seq.get(seq) or (earlier(seq) if earlier is not None else None)

    for row in rows:
        if row.action != COUNTERSIGN:
            continue
        try:
            payload = json.loads(row.new_json or "")
            signed = named_row(int(payload["seq"]))
            certificate = x509.load_der_x509_certificate(base64.b64decode(payload["certificate"]))
            public_key = certificate.public_key()
            signature = base64.b64decode(payload["signature"])
            signer = _common_name(certificate)  # the certificate's name, never the row's own claim
        except (ValueError, KeyError, TypeError, OverflowError, UnsupportedAlgorithm) as exc:
            problems.append(
                f"row #{row.seq}: a countersignature that cannot be read ({str(exc)[:80]})"
            )
            continue
        if signed is None or signed.seq >= row.seq:
            problems.append(
                f"row #{row.seq}: countersigns row #{payload['seq']}, which is not before it"
            )
            continue
        try:
            _verify(public_key, signature, signed_message(document_id, signed.seq, signed.hash))
        except InvalidSignature:
            problems.append(
                f"row #{row.seq}: {signer or 'a signer'}'s countersignature of row "
                f"#{signed.seq} does not match it: the trail was changed at or before that row "
                "after it was countersigned"
            )
    return problems
