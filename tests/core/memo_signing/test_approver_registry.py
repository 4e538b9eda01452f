"""Issue 30, item 4: an approver registry, not a certificate list. Each approver field must be
signed by the approver the registry names for that role, with a key it holds, as the registry
stood at the audit row the memo was made at; what was trusted or registered later is named and
never makes the memo valid. The attacked memos are built here, each failing with its reason."""

from __future__ import annotations

import datetime as dt
import hashlib
import json

from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from tests.core.memo_signing.conftest import ADA, GRACE
from tests.core.memo_signing.pki import certificate_pem, self_signed_p12

from clusterbid.cli import main
from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.store import EvaluationDocument

TWO_APPROVERS = ("--approver", "Ada Lovelace, CFO", "--approver", "Grace Hopper, CTO")


def _run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _sign(memo, field: int, p12, passphrase: str) -> None:
    memo.write_bytes(
        sign_memo(memo.read_bytes(), f"approver-{field}", load_credentials(p12, passphrase)).pdf
    )


def _fingerprints(pem) -> tuple[str, str]:
    """SHA-256 of the certificate (DER) and of its SubjectPublicKeyInfo, computed here."""
    cert = x509.load_pem_x509_certificate(pem.read_bytes())
    spki = cert.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(cert.public_bytes(Encoding.DER)).hexdigest(), hashlib.sha256(
        spki
    ).hexdigest()


def _rows(document):
    with EvaluationDocument.open(document) as opened:
        return opened.audit_rows()


def _seq(rows, action: str, target: str | None = None) -> int:
    return next(
        r.seq for r in rows if r.action == action and (target is None or r.target == target)
    )


def _made_at(rows) -> int:
    """The row a memo was made at: the head just before its export was recorded."""
    return _seq(rows, "record_memo_exported") - 1


def _when(rows, seq: int) -> str:
    row = rows[seq - 1]
    return f"row #{seq}, {row.at[:10]} by {row.who}"


def test_the_honest_two_approver_memo_passes_with_the_registry_and_says_who_signed(
    capsys, tmp_path, pki
):
    document, memo = tmp_path / "bids.clusterbid", tmp_path / "memo.pdf"
    ada_pem = certificate_pem(pki.ada_p12, ADA[1], tmp_path / "ada.pem")
    grace_pem = certificate_pem(pki.grace_p12, GRACE[1], tmp_path / "grace.pem")
    assert _run(capsys, "demo", document)[0] == 0
    code, out = _run(
        capsys,
        "approvers",
        document,
        "--add",
        "Ada Lovelace, CFO",
        "--email",
        "ada@example.org",
        "--cert",
        ada_pem,
    )
    assert code == 0 and "1 approver(s) registered" in out, out
    assert (
        _run(capsys, "approvers", document, "--add", "Grace Hopper, CTO", "--cert", grace_pem)[0]
        == 0
    )
    assert _run(capsys, "memo", document, "-o", memo, *TWO_APPROVERS)[0] == 0
    _sign(memo, 1, pki.ada_p12, ADA[1])
    _sign(memo, 2, pki.grace_p12, GRACE[1])

    code, out = _run(capsys, "verify", memo, "--evaluation", document)
    assert code == 0 and out.startswith("VALID: every page is proven"), out
    rows = _rows(document)
    made, ada_row, grace_row = (
        _made_at(rows),
        _seq(rows, "approver_add", "Ada Lovelace, CFO"),
        _seq(rows, "approver_add", "Grace Hopper, CTO"),
    )
    assert made == grace_row  # nothing else happened between registering Grace and the memo
    ada_cert, ada_key = _fingerprints(ada_pem)
    assert (
        f"approver 1: Ada Lovelace, certificate SHA-256 {ada_cert[:16]}..., public key SHA-256 "
        f"{ada_key[:16]}...; is itself a trust anchor (bids.clusterbid {_when(rows, ada_row - 1)})"
    ) in out
    assert (
        f"registry bids.clusterbid as it stood at row #{made}: Ada Lovelace, CFO, entry "
        f"bids.clusterbid {_when(rows, ada_row)}, counts from {rows[ada_row - 1].at[:10]}"
    ) in out
    assert f"registry bids.clusterbid as it stood at row #{made}: Grace Hopper, CTO" in out

    # Retiring Grace later still applies (it can only take validity away): she signed on the day
    # she is retired from, so her signature no longer counts.
    today = dt.datetime.now(dt.UTC).date().isoformat()
    assert (
        _run(capsys, "approvers", document, "--retire", "Grace Hopper, CTO", "--on", today)[0] == 0
    )
    code, out = _run(capsys, "verify", memo, "--evaluation", document)
    assert code == 1
    assert (
        f"approver 2: signed on {today} (signer's clock), after Grace Hopper, CTO was retired from "
        f"{today}" in out
    )


def test_a_ca_trusted_after_the_memo_was_made_does_not_make_it_valid(capsys, tmp_path, pki):
    """`clusterbid trust` after the memo: the CA is named with its row and does not count."""
    document, memo = tmp_path / "bids.clusterbid", tmp_path / "memo.pdf"
    assert _run(capsys, "demo", document)[0] == 0
    assert _run(capsys, "memo", document, "-o", memo, *TWO_APPROVERS)[0] == 0
    _sign(memo, 1, pki.ada_p12, ADA[1])
    _sign(memo, 2, pki.grace_p12, GRACE[1])
    assert _run(capsys, "trust", document, "--add", pki.ca_pem)[0] == 0

    code, out = _run(capsys, "verify", memo, "--evaluation", document)
    rows = _rows(document)
    made, trusted = _made_at(rows), _seq(rows, "attach_artefact")
    assert code == 1 and trusted > made
    for field, who in (("approver 1", "Ada Lovelace"), ("approver 2", "Grace Hopper")):
        assert (
            f"{field}: {who}'s certificate chains only to ClusterBid Test Root CA, added at "
            f"bids.clusterbid {_when(rows, trusted)}, after this memo was made at row #{made}; a "
            "certificate trusted after the memo was made does not make it valid"
        ) in out, out
    assert "trusted: yes" not in out

    # A memo made now, after the CA was kept, is judged by it: the same signers pass.
    again = tmp_path / "memo-2.pdf"
    assert _run(capsys, "memo", document, "-o", again, *TWO_APPROVERS)[0] == 0
    _sign(again, 1, pki.ada_p12, ADA[1])
    _sign(again, 2, pki.grace_p12, GRACE[1])
    code, out = _run(capsys, "verify", again, "--evaluation", document)
    assert code == 0 and out.count("trusted: yes") == 2, out
    assert f"chains to ClusterBid Test Root CA (bids.clusterbid {_when(rows, trusted)})" in out


def test_a_self_signed_approver_registered_after_the_memo_is_named_and_refused(
    capsys, tmp_path, pki
):
    """Whoever holds the document makes a certificate in Grace's name, registers it after the
    memo was made and signs her field: the registry as it stood at the memo's row has no CTO."""
    document, memo = tmp_path / "bids.clusterbid", tmp_path / "memo.pdf"
    assert _run(capsys, "demo", document)[0] == 0
    ada_pem = certificate_pem(pki.ada_p12, ADA[1], tmp_path / "ada.pem")
    assert (
        _run(capsys, "approvers", document, "--add", "Ada Lovelace, CFO", "--cert", ada_pem)[0] == 0
    )
    assert _run(capsys, "memo", document, "-o", memo, *TWO_APPROVERS)[0] == 0
    fake_p12 = self_signed_p12(tmp_path, "Grace Hopper", "pw")
    fake_pem = certificate_pem(fake_p12, "pw", tmp_path / "fake-grace.pem")
    assert (
        _run(capsys, "approvers", document, "--add", "Grace Hopper, CTO", "--cert", fake_pem)[0]
        == 0
    )
    _sign(memo, 1, pki.ada_p12, ADA[1])
    _sign(memo, 2, fake_p12, "pw")

    code, out = _run(capsys, "verify", memo, "--evaluation", document)
    rows = _rows(document)
    made, registered = _made_at(rows), _seq(rows, "approver_add", "Grace Hopper, CTO")
    assert (
        code == 1 and registered == made + 3
    )  # the export row, the certificate's row, the registry row
    assert (
        "approver 2: Grace Hopper's certificate chains only to Grace Hopper, added at "
        f"bids.clusterbid {_when(rows, registered - 1)}, after this memo was made at row #{made}"
    ) in out, out
    assert (
        f"approver 2: the registry (bids.clusterbid as it stood at row #{made}) names no approver "
        "for the role CTO"
    ) in out
    assert (
        "approver 2: Grace Hopper, CTO (or their key) was registered at bids.clusterbid "
        f"{_when(rows, registered)}, after this memo was made at row #{made}; it does not count "
        "for this memo"
    ) in out
    assert "approver 1: the registry" not in out  # Ada was registered before: her field holds


def test_one_person_listed_as_both_approvers_is_refused_at_export(capsys, tmp_path):
    document, memo = tmp_path / "bids.clusterbid", tmp_path / "memo.pdf"
    assert _run(capsys, "demo", document)[0] == 0
    code, out = _run(
        capsys,
        "memo",
        document,
        "-o",
        memo,
        "--approver",
        "Ada Lovelace, CFO",
        "--approver",
        "ada  LOVELACE, CTO",
    )
    assert code == 2 and not memo.exists()
    assert (
        "approver 2 (ada  LOVELACE, CTO) and approver 1 (Ada Lovelace, CFO) have the same name: a "
        "memo needs different people to approve it (four eyes)"
    ) in out
    code, out = _run(
        capsys,
        "memo",
        document,
        "-o",
        memo,
        "--approver",
        "Ada Lovelace, CFO <ada@example.org>",
        "--approver",
        "A. Lovelace, CTO <ADA@example.org>",
    )
    assert code == 2 and not memo.exists()
    assert (
        "approver 2 (A. Lovelace, CTO <ADA@example.org>) and approver 1 (Ada Lovelace, CFO "
        "<ada@example.org>) have the same e-mail"
    ) in out
    assert not [r for r in _rows(document) if r.action == "record_memo_exported"]


def test_a_registry_file_the_preparer_does_not_hold_decides_who_may_sign(
    capsys, tmp_path, pki, signed_twice, memo_file
):
    ada_pem = certificate_pem(pki.ada_p12, ADA[1], tmp_path / "ada.pem")
    grace_pem = certificate_pem(pki.grace_p12, GRACE[1], tmp_path / "grace.pem")
    bob_pem = tmp_path / "bob.pem"
    bob_pem.write_bytes(pki.authority.issue("Bob Builder")[1].public_bytes(Encoding.PEM))

    def registry(cfo: str, cfo_pem) -> object:
        path = tmp_path / "org.json"
        path.write_text(
            json.dumps(
                {
                    "format": "clusterbid-approver-registry/1",
                    "approvers": [
                        {
                            "name": cfo,
                            "role": "CFO",
                            "from": "2026-01-01",
                            "certificates": [cfo_pem.read_text()],
                        },
                        {
                            "name": "Grace Hopper",
                            "role": "CTO",
                            "sha256": [_fingerprints(grace_pem)[1]],
                        },
                    ],
                    "trust_anchors": [pki.ca_pem.read_text()],
                }
            )
        )
        return path

    memo = memo_file(signed_twice)
    code, out = _run(capsys, "verify", memo, "--registry", registry("Ada Lovelace", ada_pem))
    assert (
        code == 0
        and "registry registry file org.json: Ada Lovelace, CFO, entry registry file org.json, "
        "counts from 2026-01-01"
        in out
    ), out
    code, out = _run(capsys, "verify", memo, "--registry", registry("Bob Builder", bob_pem))
    assert code == 1
    assert (
        "approver 1: the registry (registry file org.json) names Bob Builder for CFO, not Ada "
        "Lovelace" in out
    )
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {"format": "clusterbid-approver-registry/1", "approvers": [{"name": "X", "role": "Y"}]}
        )
    )
    code, out = _run(capsys, "verify", memo, "--registry", bad)
    assert code == 2 and "approvers[0]: give the approver's certificates or their SHA-256" in out


def test_the_registry_refuses_a_second_entry_and_a_key_that_is_someone_elses(capsys, tmp_path, pki):
    document = tmp_path / "bids.clusterbid"
    assert _run(capsys, "demo", document)[0] == 0
    ada_pem = certificate_pem(pki.ada_p12, ADA[1], tmp_path / "ada.pem")
    assert (
        _run(capsys, "approvers", document, "--add", "Ada Lovelace, CFO", "--cert", ada_pem)[0] == 0
    )
    code, out = _run(capsys, "approvers", document, "--add", "ada lovelace, cfo", "--cert", ada_pem)
    assert code == 2 and "Ada Lovelace, CFO is already registered" in out
    code, out = _run(capsys, "approvers", document, "--add", "Grace Hopper, CTO", "--cert", ada_pem)
    assert code == 2 and "this key is already registered to Ada Lovelace, CFO" in out
    code, out = _run(
        capsys, "approvers", document, "--add", "Grace Hopper, CTO", "--cert", pki.ca_pem
    )
    assert code == 2 and "holds 0 approver (non-CA) certificates" in out
    code, out = _run(capsys, "approvers", document, "--add", "Grace Hopper, CTO")
    assert code == 2 and "--cert CERT.pem is needed" in out
    code, out = _run(capsys, "approvers", document, "--retire", "Grace Hopper, CTO")
    assert (
        code == 2
        and "no active approver 'Grace Hopper, CTO' in the registry (active: Ada Lovelace, CFO)"
        in out
    )
    code, out = _run(
        capsys, "approvers", document, "--add", "Grace\x1bHopper, CTO", "--cert", ada_pem
    )
    assert code == 2 and "the approver's name holds the character ESC (U+001B) at position 6" in out
    registry = [r for r in _rows(document) if r.action.startswith("approver_")]
    assert [r.action for r in registry] == ["approver_add"]


def test_each_registry_change_is_an_audited_row_and_the_registry_replays_to_any_row(
    capsys, tmp_path, pki
):
    document = tmp_path / "bids.clusterbid"
    assert _run(capsys, "demo", document)[0] == 0
    ada_pem = certificate_pem(pki.ada_p12, ADA[1], tmp_path / "ada.pem")
    renewed = tmp_path / "ada-2.pem"
    renewed.write_bytes(pki.authority.issue("Ada Lovelace")[1].public_bytes(Encoding.PEM))
    assert (
        _run(
            capsys,
            "approvers",
            document,
            "--add",
            "Ada Lovelace, CFO",
            "--cert",
            ada_pem,
            "--from",
            "2026-02-01",
        )[0]
        == 0
    )
    assert (
        _run(capsys, "approvers", document, "--new-key", "Ada Lovelace, CFO", "--cert", renewed)[0]
        == 0
    )
    assert (
        _run(capsys, "approvers", document, "--retire", "Ada Lovelace, CFO", "--on", "2027-01-31")[
            0
        ]
        == 0
    )
    with EvaluationDocument.open(document) as opened:
        assert opened.audit_report.ok
        rows = opened.audit_rows()
        added, rekeyed, retired = (
            _seq(rows, a) for a in ("approver_add", "approver_key", "approver_retire")
        )
        assert (added, rekeyed, retired) == (
            3,
            5,
            6,
        )  # each certificate kept in the row before its change
        first = opened.approver_registry(added)["ada lovelace|cfo"]
        second = opened.approver_registry(rekeyed)["ada lovelace|cfo"]
        last = opened.approver_registry()["ada lovelace|cfo"]
    assert (
        first.keys[0].certificate_sha256 == _fingerprints(ada_pem)[0]
        and first.valid_from == "2026-02-01"
    )
    assert second.keys[0].certificate_sha256 == _fingerprints(renewed)[0] and second.retired is None
    assert last.retired_on == "2027-01-31" and last.retired.seq == retired
    assert (
        json.loads(rows[rekeyed - 1].old_json)["keys"][0]["certificate_sha256"]
        == _fingerprints(ada_pem)[0]
    )
    code, out = _run(capsys, "audit", document)
    assert code == 0 and "approver_retire Ada Lovelace, CFO" in out
    code, out = _run(capsys, "approvers", document, "--list")
    assert code == 0 and "Ada Lovelace, CFO: counts from 2026-02-01; retired from 2027-01-31" in out


def test_a_memo_made_before_any_approver_was_registered_is_judged_by_what_stood_then(
    capsys, tmp_path, pki
):
    """Registering approvers later neither rescues nor condemns an older memo: it is judged by the
    CA trusted when it was made, and the report names who was registered since."""
    document, memo = tmp_path / "bids.clusterbid", tmp_path / "memo.pdf"
    assert _run(capsys, "demo", document)[0] == 0
    assert _run(capsys, "trust", document, "--add", pki.ca_pem)[0] == 0
    assert _run(capsys, "memo", document, "-o", memo, *TWO_APPROVERS)[0] == 0
    _sign(memo, 1, pki.ada_p12, ADA[1])
    _sign(memo, 2, pki.grace_p12, GRACE[1])
    ada_pem = certificate_pem(pki.ada_p12, ADA[1], tmp_path / "ada.pem")
    assert (
        _run(capsys, "approvers", document, "--add", "Ada Lovelace, CFO", "--cert", ada_pem)[0] == 0
    )
    code, out = _run(capsys, "verify", memo, "--evaluation", document)
    rows = _rows(document)
    assert code == 0, out
    assert (
        "bids.clusterbid had no approver registered when this memo was made; registered since: "
        f"Ada Lovelace, CFO (bids.clusterbid {_when(rows, _seq(rows, 'approver_add'))})"
    ) in out


def test_a_copy_of_the_history_with_the_same_approvers_is_not_the_memos_history(
    capsys, tmp_path, pki
):
    """A second document registering the same people reaches the same row numbers, but not the
    memo's row hash: nothing it trusts or registers counts for the memo."""
    ada_pem = certificate_pem(pki.ada_p12, ADA[1], tmp_path / "ada.pem")
    grace_pem = certificate_pem(pki.grace_p12, GRACE[1], tmp_path / "grace.pem")
    documents = tmp_path / "bids.clusterbid", tmp_path / "forged.clusterbid"
    for document in documents:
        assert _run(capsys, "demo", document)[0] == 0
        assert (
            _run(capsys, "approvers", document, "--add", "Ada Lovelace, CFO", "--cert", ada_pem)[0]
            == 0
        )
        assert (
            _run(capsys, "approvers", document, "--add", "Grace Hopper, CTO", "--cert", grace_pem)[
                0
            ]
            == 0
        )
    memo = tmp_path / "memo.pdf"
    assert _run(capsys, "memo", documents[0], "-o", memo, *TWO_APPROVERS)[0] == 0
    _sign(memo, 1, pki.ada_p12, ADA[1])
    _sign(memo, 2, pki.grace_p12, GRACE[1])
    assert _run(capsys, "verify", memo, "--evaluation", documents[0])[0] == 0
    code, out = _run(capsys, "verify", memo, "--evaluation", documents[1])
    assert code == 1
    assert (
        "forged.clusterbid does not hold the audit row this memo was made at (the anchor check "
        "says why), so none of its trust anchors or approvers count for it"
    ) in out
    assert "forged.clusterbid's audit row #5 has hash" in out  # the anchor check's own words
