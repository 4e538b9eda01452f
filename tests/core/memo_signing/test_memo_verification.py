"""`clusterbid verify`: a signed memo passes; every kind of tampering fails with the problem named."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess

import pytest
from tests.core.memo_signing.conftest import ADA, GRACE
from tests.core.memo_signing.memo_factory import (
    APPROVERS,
    demo_inputs,
    memo_with_swapped_inputs,
    stand_in_memo,
)
from tests.core.memo_signing.tampering import (
    append_page_content,
    flip_byte,
    replace_attached_inputs,
    signed_ranges,
)

from clusterbid.cli import main
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo
from clusterbid.core.store import EvaluationDocument

FLIP_SAMPLES, FLIP_SEED = 200, 20261122


def _verify(capsys, path, *extra):
    code = main(["verify", str(path), *map(str, extra)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _sign_both(pki, memo: bytes) -> bytes:
    once = sign_memo(memo, "approver-1", load_credentials(pki.ada_p12, ADA[1])).pdf
    return sign_memo(once, "approver-2", load_credentials(pki.grace_p12, GRACE[1])).pdf


def test_a_memo_signed_by_both_approvers_verifies(capsys, pki, signed_twice, memo_file):
    code, out = _verify(capsys, memo_file(signed_twice), "--trust", pki.ca_pem)
    assert code == 0, out
    assert out.count("intact: yes") == 2 and out.count("trusted: yes") == 2
    assert (
        "approver 1: signed by Ada Lovelace" in out and "approver 2: signed by Grace Hopper" in out
    )
    assert "followed only by later signatures" in out and "covers the whole document" in out
    assert "Re-scored with this version's model: holds" in out and out.startswith(
        "VALID: every page is proven"
    )
    inputs_sha = (
        demo_inputs().sha256
    )  # hashed here from the canonical inputs, not read back from the memo
    assert f"Attached inputs SHA-256 {inputs_sha}: matches the SHA-256 the memo states" in out


def test_core_result_reports_the_same(pki, signed_twice):
    from clusterbid.core.memo.credentials import load_trust_roots

    result = verify_memo(signed_twice, load_trust_roots([pki.ca_pem]))
    assert result.ok and result.trust_checked and result.unsigned_fields == ()
    assert [s.signer for s in result.signatures] == [ADA[0], GRACE[0]]
    assert all(s.trusted and s.intact for s in result.signatures)
    with pytest.raises(Exception, match="not a PDF"):
        verify_memo(b"hello", [])


def test_signatures_from_another_ca_are_reported_untrusted(
    capsys, tmp_path, signed_twice, memo_file
):
    from tests.core.memo_signing.pki import Authority

    other = Authority.create("Some Other CA").write_pem(tmp_path / "other.pem")
    code, out = _verify(capsys, memo_file(signed_twice), "--trust", other)
    assert code == 1 and out.count("trusted: NO") == 2 and "not trusted" in out


def test_half_signed_memo_names_the_missing_field(capsys, pki, signed_once, memo_file):
    code, out = _verify(capsys, memo_file(signed_once), "--trust", pki.ca_pem)
    # Nothing is wrong, the memo is not approved yet: INDETERMINATE, exit 3 (issue 30, item 8).
    assert code == 3 and out.startswith("INDETERMINATE: ") and "not yet signed: approver 2" in out


@pytest.mark.timeout(600)  # 200 verifications; slow only on a loaded machine
def test_flipping_any_signed_byte_fails_verification(capsys, pki, signed_twice, memo_file):
    positions = [p for r in signed_ranges(signed_twice) for p in r]
    sample = random.Random(FLIP_SEED).sample(positions, FLIP_SAMPLES)
    named = (
        "signed bytes were changed",
        "damaged",
        "could not be checked",
        "carries no signatures",
        "swapped",
        "does not cover",
        "not signatures",
        "not yet signed",
        "no inputs",
        "cannot be re-scored",
        "not trusted",
    )
    path = memo_file(b"")
    outcomes: dict[str, int] = {}
    for position in sample:
        path.write_bytes(flip_byte(signed_twice, position))
        code, out = _verify(capsys, path, "--trust", pki.ca_pem)
        # INVALID, or INDETERMINATE when the flip leaves no signature to check: never VALID.
        assert code in (1, 3), f"byte {position} flipped and verify said:\n{out}"
        reason = next((phrase for phrase in named if phrase in out), None)
        assert reason is not None, f"byte {position}: the problem is not named:\n{out}"
        outcomes[reason] = outcomes.get(reason, 0) + 1
    print("flip outcomes:", outcomes)


def test_an_incremental_update_changing_page_content_is_reported(
    capsys, pki, signed_twice, memo_file
):
    code, out = _verify(capsys, memo_file(append_page_content(signed_twice)), "--trust", pki.ca_pem)
    assert code == 1
    # Both signatures are still intact (their bytes are untouched); what they sign is no longer what is shown.
    assert out.count("intact: yes") == 2
    assert out.count("intact: yes; followed by changes that are not signatures") == 2


def test_inputs_swapped_after_signing_are_reported(capsys, pki, signed_twice, memo_file):
    def cheaper(data):
        data["evaluation"]["bids"][0]["quote"]["provider"] += " (edited)"

    code, out = _verify(
        capsys, memo_file(replace_attached_inputs(signed_twice, cheaper)), "--trust", pki.ca_pem
    )
    assert (
        code == 1
        and "attached inputs were swapped" in out
        and "followed by changes that are not signatures" in out
    )


def test_inputs_swapped_before_signing_are_reported(capsys, pki, memo_file):
    code, out = _verify(
        capsys, memo_file(_sign_both(pki, memo_with_swapped_inputs())), "--trust", pki.ca_pem
    )
    assert code == 1 and "attached inputs were swapped" in out and out.count("intact: yes") == 2


def test_printed_figures_that_the_model_does_not_reproduce_are_reported(capsys, pki, memo_file):
    inputs = demo_inputs()
    data = json.loads(inputs.canonical_bytes())
    ranking = data["results"]["ranking"]
    data["results"]["ranking"] = [
        ranking[1],
        ranking[0],
        *ranking[2:],
    ]  # the memo claims the runner-up won
    raw = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    memo = _sign_both(pki, stand_in_memo(raw, hashlib.sha256(raw).hexdigest()))
    code, out = _verify(capsys, memo_file(memo), "--trust", pki.ca_pem)
    assert (
        code == 1
        and "DIFFERENT from the memo" in out
        and f"ranking: printed {data['results']['ranking']}" in out
    )


def test_evaluation_given_is_compared_with_the_memo(capsys, pki, tmp_path, signed_twice, memo_file):
    path = memo_file(signed_twice)
    same = tmp_path / "same.json"
    same.write_text(demo_evaluation().model_dump_json(), encoding="utf-8")
    code, out = _verify(capsys, path, "--trust", pki.ca_pem, "--evaluation", same)
    assert code == 0 and "matches the memo" in out
    other = json.loads(demo_evaluation().model_dump_json())
    other["title"] = other["title"] + " (revised)"
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(other), encoding="utf-8")
    code, out = _verify(capsys, path, "--trust", pki.ca_pem, "--evaluation", changed)
    assert code == 1 and "DIFFERS" in out and "title differs" in out


def _document_and_its_memo(tmp_path, name: str):
    document = tmp_path / f"{name}.clusterbid"
    EvaluationDocument.create(document, demo_evaluation()).close()
    memo = tmp_path / f"{name}-memo.pdf"
    approvers = [arg for who in APPROVERS for arg in ("--approver", ", ".join(who))]
    assert main(["memo", str(document), "-o", str(memo), *approvers, "--samples", "2000"]) == 0
    return document, memo


def test_sign_verb_records_the_signature_in_the_audit_trail(capsys, monkeypatch, pki, tmp_path):
    document, memo = _document_and_its_memo(tmp_path, "round")
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", ADA[1])
    code = main(
        [
            "sign",
            str(memo),
            "--field",
            "1",
            "--p12",
            str(pki.ada_p12),
            "--evaluation",
            str(document),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    with EvaluationDocument.open(document) as doc:
        row = doc.audit_rows()[-1]
    assert row.action == "record_signature"
    payload = json.loads(row.new_json)
    assert payload == {
        "signer": ADA[0],
        "memo_sha256": hashlib.sha256(memo.read_bytes()).hexdigest(),
        "role": APPROVERS[0][1],
    }


def test_a_memo_of_another_evaluation_is_neither_signed_nor_recorded(
    capsys, monkeypatch, pki, tmp_path
):
    """Issue 33: `sign --evaluation B` on a memo made from A wrote a signature row into B's
    append-only trail. Two documents with the same demo evaluation: only the history tells them
    apart, and the memo's audit anchor names A's."""
    _, memo = _document_and_its_memo(tmp_path, "a")
    other = tmp_path / "b.clusterbid"
    EvaluationDocument.create(other, demo_evaluation()).close()
    with EvaluationDocument.open(other) as doc:
        rows_before = doc.audit_rows()
    unsigned = memo.read_bytes()
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", ADA[1])
    code = main(
        ["sign", str(memo), "--field", "1", "--p12", str(pki.ada_p12), "--evaluation", str(other)]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert (
        "b.clusterbid is not the evaluation this memo was made from" in err
        and "nothing was signed" in err
    )
    assert memo.read_bytes() == unsigned
    with EvaluationDocument.open(other) as doc:
        assert doc.audit_rows() == rows_before


def test_sign_verb_refusals_exit_2_with_the_message(
    capsys, monkeypatch, pki, unsigned_memo, memo_file
):
    memo = memo_file(unsigned_memo)
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", "wrong")
    assert main(["sign", str(memo), "--field", "1", "--p12", str(pki.ada_p12)]) == 2
    assert "wrong passphrase" in capsys.readouterr().err
    assert memo.read_bytes() == unsigned_memo  # nothing half-written
    monkeypatch.delenv("CLUSTERBID_P12_PASSPHRASE")
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["sign", str(memo), "--field", "1", "--p12", str(pki.ada_p12)]) == 2
    assert "set CLUSTERBID_P12_PASSPHRASE" in capsys.readouterr().err
    assert main(["verify", str(pki.ca_pem)]) == 2
    assert "not a PDF" in capsys.readouterr().err


@pytest.mark.skipif(
    shutil.which("pdfsig") is None, reason="poppler-utils (pdfsig) is not installed"
)
def test_poppler_pdfsig_finds_both_signatures_valid(tmp_path, signed_twice):
    path = tmp_path / "signed.pdf"
    path.write_bytes(signed_twice)
    out = subprocess.run(["pdfsig", str(path)], capture_output=True, text=True).stdout
    # pdfsig checks the signature cryptographically; our throw-away CA is not in its NSS store, so its
    # "Certificate Validation" line says the issuer is untrusted: that line is not asserted.
    assert out.count("Signature Validation: Signature is Valid.") == 2
    assert (
        "Signer Certificate Common Name: Ada Lovelace" in out
        and "Signer Certificate Common Name: Grace Hopper" in out
    )
    assert "Total document signed" in out


def test_sign_in_place_on_a_full_disk_keeps_the_unsigned_memo(
    capsys, monkeypatch, pki, unsigned_memo, memo_file
):
    import errno
    import os

    memo = memo_file(unsigned_memo)
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", ADA[1])

    def no_space(_fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_space)
    assert main(["sign", str(memo), "--field", "1", "--p12", str(pki.ada_p12)]) == 2
    assert "memo.pdf: could not be written (No space left on device)" in capsys.readouterr().err
    assert memo.read_bytes() == unsigned_memo and [p.name for p in memo.parent.iterdir()] == [
        "memo.pdf"
    ]
