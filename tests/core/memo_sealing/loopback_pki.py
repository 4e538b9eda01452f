"""A real PKI on loopback for the sealing tests: root and intermediate CA, an OCSP responder, CRL
distribution points and an RFC 3161 time-stamping authority, made by certomancer (the PKI tool
pyHanko tests itself with) and served by its Animator on 127.0.0.1 on a free port.

Keys are made at run time (no private key is committed). The approvers' certificates expire in
two years, as real ones do; the root and the TSA last thirty, so a memo sealed today can be
checked ten years ahead against the seal alone.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import (
    BestAvailableEncryption,
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_der_private_key,
    pkcs12,
)

ARCH = "clusterbid-test"
APPROVERS = {"ada": "Ada Lovelace", "grace": "Grace Hopper"}
NOW = datetime.now(UTC).replace(microsecond=0)


def _when(days: int) -> str:
    return (NOW + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S+0000")


def _validity(start: int, end: int) -> dict:
    return {"valid-from": _when(start), "valid-to": _when(end)}


def _usage(*names: str) -> dict:
    return {
        "id": "key_usage",
        "critical": True,
        "smart-value": {"schema": "key-usage", "params": list(names)},
    }


def _crl_from(issuer: str) -> dict:
    return {
        "id": "crl_distribution_points",
        "smart-value": {"schema": "crl-dist-url", "params": {"crl-repo-names": [issuer]}},
    }


def _aia(ocsp: str | None, issuer_repo: str, issuer_cert: str) -> dict:
    link = (
        {"repo": issuer_repo}
        if issuer_cert == issuer_repo
        else {"repo": issuer_repo, "cert-labels": [issuer_cert], "include-repo-authority": False}
    )
    params: dict = {"ca-issuer-links": [link]}
    if ocsp:
        params["ocsp-responder-names"] = [ocsp]
    return {
        "id": "authority_information_access",
        "smart-value": {"schema": "aia-urls", "params": params},
    }


def config(keys_folder: Path) -> dict:
    """certomancer's configuration: who issues what, and the services that answer for them."""
    labels = ["root", "interm", "tsa", "interm-ocsp", *APPROVERS]
    ca = [
        {"id": "basic_constraints", "critical": True, "value": {"ca": True}},
        _usage("digital_signature", "key_cert_sign", "crl_sign"),
    ]
    approver = {
        "issuer": "interm",
        "validity": _validity(-30, 730),
        "extensions": [
            _usage("digital_signature", "non_repudiation"),
            _crl_from("interm"),
            _aia("interm", "root", "interm"),
        ],
    }
    return {
        "keysets": {
            ARCH: {
                "path-prefix": str(keys_folder),
                "keys": {label: {"path": f"{label}.key.der"} for label in labels},
            }
        },
        "pki-architectures": {
            ARCH: {
                "keyset": ARCH,
                "entity-defaults": {
                    "country-name": "BE",
                    "organization-name": "ClusterBid Test PKI",
                },
                "entities": {
                    "root": {"common-name": "Test Root CA"},
                    "interm": {"common-name": "Test Intermediate CA"},
                    "tsa": {"common-name": "Test Time-Stamping Authority"},
                    "interm-ocsp": {"common-name": "Test OCSP Responder"},
                    **{label: {"common-name": name} for label, name in APPROVERS.items()},
                },
                "certs": {
                    "root": {
                        "subject": "root",
                        "issuer": "root",
                        "validity": _validity(-60, 30 * 365),
                        "extensions": ca,
                    },
                    "interm": {
                        "issuer": "root",
                        "validity": _validity(-60, 20 * 365),
                        "extensions": [*ca, _crl_from("root"), _aia(None, "root", "root")],
                    },
                    "tsa": {
                        "issuer": "root",
                        "validity": _validity(-60, 30 * 365),
                        "extensions": [
                            _usage("digital_signature", "non_repudiation"),
                            {
                                "id": "extended_key_usage",
                                "critical": True,
                                "value": ["time_stamping"],
                            },
                            _crl_from("root"),
                            _aia(None, "root", "root"),
                        ],
                    },
                    "interm-ocsp": {
                        "issuer": "interm",
                        "validity": _validity(-60, 20 * 365),
                        "extensions": [
                            _usage("digital_signature"),
                            {
                                "id": "extended_key_usage",
                                "critical": True,
                                "value": ["ocsp_signing"],
                            },
                            {"id": "ocsp_no_check"},
                        ],
                    },
                    **{label: {**approver, "subject": label} for label in APPROVERS},
                },
                "services": {
                    "ocsp": {
                        "interm": {
                            "for-issuer": "interm",
                            "responder-cert": "interm-ocsp",
                            "signing-key": "interm-ocsp",
                        }
                    },
                    "crl-repo": {
                        "root": {
                            "for-issuer": "root",
                            "signing-key": "root",
                            "simulated-update-schedule": "P90D",
                        },
                        "interm": {
                            "for-issuer": "interm",
                            "signing-key": "interm",
                            "simulated-update-schedule": "P30D",
                        },
                    },
                    "cert-repo": {"root": {"for-issuer": "root", "publish-issued-certs": True}},
                    "time-stamping": {"tsa": {"signing-key": "tsa", "signing-cert": "tsa"}},
                },
            }
        },
    }


class _Quiet(WSGIRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


def _serving(app, down: set[str], asked: list[str]):
    """The Animator, except the services named in `down` ("ocsp", "crls"), which answer 503 as a
    revocation server that is out of service does: the tests switch them off and on. Each
    request's service ("tsa", "ocsp", "crls", "certs") is noted in `asked`."""

    def serve(environ, start_response):
        parts = environ.get("PATH_INFO", "").strip("/").split("/")
        asked.append(parts[1] if len(parts) > 1 else "")
        if len(parts) > 1 and parts[1] in down:
            start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
            return [b"out of service"]
        return app[0](environ, start_response)

    return serve


@dataclass
class LoopbackPki:
    """The PKI served on loopback: its URLs, the root to trust, the approvers' PKCS#12 files."""

    url: str
    folder: Path
    root_pem: Path
    p12: dict[str, Path]
    passphrase: str
    server: WSGIServer
    thread: threading.Thread
    down: set[str]  # services answering 503: "ocsp", "crls" (empty: everything answers)
    asked: list[str]  # the service of every request served or refused, in order

    @property
    def tsa_url(self) -> str:
        return f"{self.url}/{ARCH}/tsa/tsa"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def start(folder: Path, passphrase: str = "test-passphrase") -> LoopbackPki:
    """Make the keys, bind a free port on 127.0.0.1, and serve the PKI from a thread."""
    from certomancer.integrations.animator import Animator, AnimatorArchStore
    from certomancer.registry import CertomancerConfig

    keys = folder / "keys"
    keys.mkdir(parents=True, exist_ok=True)
    cfg = config(keys)
    for label in cfg["keysets"][ARCH]["keys"]:
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        (keys / f"{label}.key.der").write_bytes(
            key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption())
        )
    app: list = []  # the Animator, made once the port (in its URLs) is known
    down: set[str] = set()
    asked: list[str] = []
    server = make_server("127.0.0.1", 0, _serving(app, down, asked), handler_class=_Quiet)
    url = f"http://127.0.0.1:{server.server_port}"
    arch = CertomancerConfig(cfg, key_search_dir=str(keys), external_url_prefix=url).get_pki_arch(
        ARCH
    )
    app.append(Animator(AnimatorArchStore({arch.arch_label: arch}), with_web_ui=False))
    thread = threading.Thread(target=server.serve_forever, name="loopback-pki", daemon=True)
    thread.start()

    def certificate(label: str) -> x509.Certificate:
        return x509.load_der_x509_certificate(arch.get_cert(label).dump())

    root_pem = folder / "root.pem"
    root_pem.write_bytes(certificate("root").public_bytes(Encoding.PEM))
    p12 = {}
    for label, name in APPROVERS.items():
        key = load_der_private_key((keys / f"{label}.key.der").read_bytes(), None)
        p12[label] = folder / f"{label}.p12"
        p12[label].write_bytes(
            pkcs12.serialize_key_and_certificates(
                name.encode(),
                key,
                certificate(label),
                [certificate("interm"), certificate("root")],
                BestAvailableEncryption(passphrase.encode()),
            )
        )
    return LoopbackPki(url, folder, root_pem, p12, passphrase, server, thread, down, asked)
