"""A throw-away certificate authority made at test time: no private key is ever committed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import BestAvailableEncryption, Encoding, pkcs12
from cryptography.x509.oid import NameOID

NOW = datetime.now(UTC)


def _key() -> rsa.RSAPrivateKey:
    # RSA rather than EC so poppler's pdfsig (NSS) accepts the signatures on every distribution.
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _name(common_name: str, email: str | None = None) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "ClusterBid Test PKI"),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
            *([x509.NameAttribute(NameOID.EMAIL_ADDRESS, email)] if email else []),
        ]
    )


def _usage(
    *, signing: bool, commitment: bool, ca: bool, encipherment: bool = False
) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=signing,
        content_commitment=commitment,
        key_encipherment=encipherment,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=ca,
        crl_sign=ca,
        encipher_only=False,
        decipher_only=False,
    )


@dataclass(frozen=True)
class Authority:
    key: rsa.RSAPrivateKey
    certificate: x509.Certificate

    @classmethod
    def create(cls, common_name: str = "ClusterBid Test Root CA") -> Authority:
        key = _key()
        cert = (
            x509.CertificateBuilder()
            .subject_name(_name(common_name))
            .issuer_name(_name(common_name))
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(NOW - timedelta(days=30))
            .not_valid_after(NOW + timedelta(days=3650))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(_usage(signing=False, commitment=False, ca=True), critical=True)
            .add_extension(
                x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False
            )
            .sign(key, hashes.SHA256())
        )
        return cls(key, cert)

    def issue(
        self,
        common_name: str,
        *,
        commitment: bool = True,
        signing: bool = True,
        email: str | None = None,
        alt_email: str | None = None,
        valid_from: datetime | None = None,
        valid_until: datetime | None = None,
        purposes: list[x509.ObjectIdentifier] | None = None,
        encipherment: bool = False,
        key: rsa.RSAPrivateKey | None = None,
    ) -> tuple[rsa.RSAPrivateKey, x509.Certificate]:
        key = key or _key()  # a key given: the same key certified again (another name, a renewal)
        cert = (
            x509.CertificateBuilder()
            .subject_name(_name(common_name, email))
            .issuer_name(self.certificate.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(valid_from or NOW - timedelta(days=1))
            .not_valid_after(valid_until or NOW + timedelta(days=365))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(
                _usage(signing=signing, commitment=commitment, ca=False, encipherment=encipherment),
                critical=True,
            )
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()),
                critical=False,
            )
        )
        if purposes is not None:  # extendedKeyUsage: e.g. a web server's TLS certificate
            cert = cert.add_extension(x509.ExtendedKeyUsage(purposes), critical=False)
        if alt_email:  # where most organisations put it: subjectAltName rfc822Name
            cert = cert.add_extension(
                x509.SubjectAlternativeName([x509.RFC822Name(alt_email)]), critical=False
            )
        return key, cert.sign(self.key, hashes.SHA256())

    def write_p12(self, folder: Path, common_name: str, passphrase: str, **issue_options) -> Path:
        key, cert = self.issue(common_name, **issue_options)
        path = folder / f"{common_name.lower().replace(' ', '-')}.p12"
        path.write_bytes(
            pkcs12.serialize_key_and_certificates(
                common_name.encode(),
                key,
                cert,
                [self.certificate],
                BestAvailableEncryption(passphrase.encode()),
            )
        )
        return path

    def write_pem(self, path: Path) -> Path:
        path.write_bytes(self.certificate.public_bytes(Encoding.PEM))
        return path


def self_signed_p12(
    folder: Path, common_name: str, passphrase: str, email: str | None = None
) -> Path:
    """A signing certificate that certifies itself (not a CA): what anyone can make in a minute
    with the approver's name on it."""
    key = _key()
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
            *([x509.NameAttribute(NameOID.EMAIL_ADDRESS, email)] if email else []),
        ]
    )
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW - timedelta(days=1))
        .not_valid_after(NOW + timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_usage(signing=True, commitment=True, ca=False), critical=True)
        .sign(key, hashes.SHA256())
    )
    path = folder / f"self-signed-{common_name.lower().replace(' ', '-')}.p12"
    path.write_bytes(
        pkcs12.serialize_key_and_certificates(
            common_name.encode(), key, cert, None, BestAvailableEncryption(passphrase.encode())
        )
    )
    return path


def write_p12(
    folder: Path,
    file_name: str,
    key: rsa.RSAPrivateKey,
    cert: x509.Certificate,
    authority: Authority,
    passphrase: str,
) -> Path:
    path = folder / file_name
    path.write_bytes(
        pkcs12.serialize_key_and_certificates(
            file_name.encode(),
            key,
            cert,
            [authority.certificate],
            BestAvailableEncryption(passphrase.encode()),
        )
    )
    return path


def certificate_pem(p12: Path, passphrase: str, out: Path) -> Path:
    """The certificate alone, as an approver hands it to the registry."""
    _, cert, _ = pkcs12.load_key_and_certificates(p12.read_bytes(), passphrase.encode())
    assert cert is not None
    out.write_bytes(cert.public_bytes(Encoding.PEM))
    return out
