"""Countersigned rows (issue 35, item 6): a user's signature over the trail's last row, which a
rewrite of any row up to it cannot make again, checked by every audit."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from builders import make_bid
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding
from tests.core.memo_signing.pki import Authority
from tests.core.store.test_audit_anchor import _rewrite_first_row

from clusterbid.cli import main
from clusterbid.core.store import EvaluationDocument, verify_audit_chain


@pytest.fixture
def countersigned(tmp_path, evaluation, monkeypatch, capsys):
    path = tmp_path / "e.clusterbid"
    with EvaluationDocument.create(path, evaluation, user="ann") as doc:
        doc.add_bid(make_bid("bid-9"))
    p12 = Authority.create().write_p12(tmp_path, "Ann Officer", "ann-passphrase")
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", "ann-passphrase")
    assert main(["countersign", str(path), "--p12", str(p12), "--user", "ann"]) == 0
    assert "countersigned row #2" in capsys.readouterr().out
    return path


def test_the_countersignature_is_a_signature_over_the_row_by_the_users_key(countersigned):
    with EvaluationDocument.open(countersigned) as doc:
        rows = doc.audit_rows()
    assert rows[-1].action == "countersign" and doc.audit_report.ok
    payload = json.loads(rows[-1].new_json)
    assert (payload["seq"], payload["hash"], payload["signer"]) == (2, rows[1].hash, "Ann Officer")
    certificate = x509.load_der_x509_certificate(base64.b64decode(payload["certificate"]))
    # Checked here with the certificate's key alone, as any auditor could: the message names the
    # document (its first row's hash), the row and its hash.
    message = f"clusterbid-countersign:{rows[0].hash}:2:{rows[1].hash}".encode()
    certificate.public_key().verify(
        base64.b64decode(payload["signature"]), message, padding.PKCS1v15(), hashes.SHA256()
    )


def test_a_rewrite_before_a_countersigned_row_fails_the_audit(countersigned, capsys):
    _rewrite_first_row(
        countersigned, "mallory"
    )  # the chain and head recomputed, as an attacker would
    report = verify_audit_chain(countersigned)
    assert not report.ok
    assert "Ann Officer's countersignature of row #2 does not match it" in report.reason
    assert main(["audit", str(countersigned)]) == 1


def test_a_wrong_passphrase_countersigns_nothing(tmp_path, evaluation, monkeypatch, capsys):
    path = tmp_path / "e.clusterbid"
    EvaluationDocument.create(path, evaluation).close()
    p12 = Authority.create().write_p12(tmp_path, "Ann Officer", "ann-passphrase")
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", "wrong")
    assert main(["countersign", str(path), "--p12", str(p12)]) == 2
    assert "wrong passphrase" in capsys.readouterr().err
    with EvaluationDocument.open(path) as doc:
        assert len(doc.audit_rows()) == 1


def test_a_countersignature_is_logged_outside_the_file_so_its_removal_shows(countersigned):
    """A rewrite that also drops the countersign row leaves a chain that verifies; the anchor log
    outside the file still holds the row, so `audit --against` finds it gone (test_anchor_log)."""
    import os

    with EvaluationDocument.open(countersigned) as doc:
        row = doc.audit_rows()[-1]
    lines = [
        json.loads(line)
        for line in Path(os.environ["CLUSTERBID_ANCHOR_LOG"])
        .read_text(encoding="utf-8")
        .splitlines()
    ]
    assert {"seq": row.seq, "hash": row.hash, "action": "countersign"}.items() <= next(
        a for a in lines if a["hash"] == row.hash
    ).items()


def test_the_name_printed_is_the_certificates_not_the_rows_claim(countersigned):
    from clusterbid.core.store.countersign import countersign_problems

    with EvaluationDocument.open(countersigned) as doc:
        rows = doc.audit_rows()
    payload = json.loads(rows[-1].new_json)
    payload["signer"], payload["signature"] = "The CFO", base64.b64encode(b"forged").decode()
    forged = rows[-1].__class__(**{**rows[-1].__dict__, "new_json": json.dumps(payload)})
    (problem,) = countersign_problems((*rows[:-1], forged))
    assert problem.startswith("row #3: Ann Officer's countersignature of row #2 does not match it")
