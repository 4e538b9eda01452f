"""Issue 38: the app's Verify, Sign and Seal point to the app's own actions, the command line to
its options. One result, two renderings (core/memo/next_steps.py): every verdict the app's Verify
can show, and the refusals its Sign and Seal can show, are scanned for internal ids, snake_case
and command-line hints, and the same texts printed by `clusterbid` still carry the options."""

from __future__ import annotations

from tests.core.memo_signing.pki import Authority
from tests.gui.test_no_codes_where_officers_read import COMMAND_HINT, _codes, _widget_texts
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.cli import main as cli_main
from clusterbid.cli_signoff import _step_words
from clusterbid.core.errors import InputError
from clusterbid.core.memo.approver_binding import SignerIdentity, check_approvers
from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.next_steps import Step, has_marks, mark, render, steps_in
from clusterbid.core.memo.signing import sign_memo
from clusterbid.gui.memo.step_words import (
    ANY_ORDER_BUTTON,
    SEAL_CA_FIELD,
    SEAL_TSA_FIELD,
    STEP_WORDS,
)
from clusterbid.operations import verifying

ADA, GRACE = ("Ada Lovelace", "ada-passphrase"), ("Grace Hopper", "grace-passphrase")


def _hints(texts: list[tuple[str, str]]) -> list[str]:
    return [
        f"{where}: {hint!r} in {text[:160]!r}"
        for where, text in texts
        for hint in COMMAND_HINT.findall(text)
    ] + [where for where, text in texts if has_marks(text)]


def test_the_hint_scan_catches_the_old_verify_texts():
    """The scan is real: the words the app's Verify printed before (issue 38's last note) fail it."""
    old = [
        (
            "reasons",
            "signers not trusted: ... (keep the organisation's CA or the approvers' "
            "certificates in the document: `clusterbid trust DOC.clusterbid --add CERT.pem`, "
            "then verify with --evaluation DOC.clusterbid; or give --trust)",
        ),
        ("report", "chains to Test CA (--trust ca.pem)"),
        (
            "report",
            "the approvers signed in the order approver-1, approver-3, approver-2, not in the "
            "order the memo lists them (give --any-order if the order does not matter)",
        ),
    ]
    assert len(_hints(old)) == 6
    assert [hit.split(": ")[1].split(" in ")[0] for hit in _codes(old)] == [
        "'approver-1'",
        "'approver-3'",
        "'approver-2'",
    ]


def test_every_step_has_words_in_both_doors_and_only_the_command_line_names_commands():
    for step in Step:
        finding = f"a finding ({mark(step, 'demo.clusterbid')})"
        cli, app = render(finding, _step_words()), render(finding, STEP_WORDS)
        assert not has_marks(cli) and not has_marks(app)
        assert COMMAND_HINT.search(cli), cli  # the command line keeps its command hints
        assert not COMMAND_HINT.search(app), app
    assert (
        render(f"{mark(Step.TRUST_GIVEN)} ca.pem: no such file", STEP_WORDS)
        == "CA certificate ca.pem: no such file"
    )


def test_out_of_order_signatures_say_any_order_per_door():
    """The order finding: `--any-order` on the command line, the app's re-verify button in the app."""
    approvers = [{"name": n, "role": r} for n, r in (("Ada", "CFO"), ("Bo", "CTO"), ("Cy", "CEO"))]
    signers = [
        SignerIdentity(f"approver-{i}", name, (), f"{i:064x}")
        for i, name in ((1, "Ada"), (3, "Cy"), (2, "Bo"))
    ]
    fields = ["approver-1", "approver-2", "approver-3"]
    problems = check_approvers(approvers, signers, fields, True)
    assert (
        steps_in(problems) == {Step.ANY_ORDER}
        and check_approvers(approvers, signers, fields, False) == []
    )
    assert "(give --any-order if the order does not matter)" in render(problems[0], _step_words())
    assert f"(if the order does not matter, choose {ANY_ORDER_BUTTON} below)" in render(
        problems[0], STEP_WORDS
    )


def _memo_signed_by_both(window, tmp_path, authority):
    copy, memo = tmp_path / "copy.clusterbid", tmp_path / "memo.pdf"
    window.session.document.save_copy(copy)
    assert (
        cli_main(
            [
                "memo",
                str(copy),
                "-o",
                str(memo),
                "--approver",
                "Ada Lovelace, CFO",
                "--approver",
                "Grace Hopper, CTO",
                "--samples",
                "200",
            ]
        )
        == 0
    )
    unsigned = memo.read_bytes()
    pdf = unsigned
    for field, (name, passphrase) in (("approver-1", ADA), ("approver-2", GRACE)):
        pdf = sign_memo(
            pdf,
            field,
            load_credentials(authority.write_p12(tmp_path, name, passphrase), passphrase),
        ).pdf
    return memo, unsigned, pdf


def test_no_code_or_command_in_the_apps_verify_whatever_the_verdict(
    qtbot, window, dialog_log, tmp_path, capsys
):
    authority = Authority.create()
    ca = authority.write_pem(tmp_path / "ca.pem")
    memo, unsigned, signed = _memo_signed_by_both(window, tmp_path, authority)
    shown: dict[str, list[tuple[str, str]]] = {}

    def verify(data: bytes | None = None, then=None):
        if data is not None:
            memo.write_bytes(data)
            dialog_log.answers.append(str(memo))
            window.actions_.verify_memo.trigger()
        else:
            then(window.memos.verify_dialog)
        qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
        dialog = window.memos.verify_dialog
        verdict = dialog.verdict.text().split(">")[1].split(":")[0]
        shown.setdefault(verdict, []).extend(_widget_texts(dialog))
        return dialog

    verify(unsigned)  # INDETERMINATE: not yet signed
    dialog = verify(signed)  # INDETERMINATE: nobody trusted; the app's own dialog is offered
    assert dialog.certificates_button.isVisibleTo(dialog)
    assert (
        "keep the organisation's CA or the approvers' certificates in this evaluation"
        in dialog.report.toPlainText()
    )
    dialog = verify(then=lambda d: d.trust_requested.emit([str(ca)]))  # VALID, against the CA file
    assert "(CA certificate ca.pem)" in dialog.report.toPlainText()
    dialog = verify(then=lambda d: d.trust_requested.emit([str(tmp_path / "gone.pem")]))
    assert (
        "CA certificate " in dialog.verdict.text()
        and "gone.pem: no such file" in dialog.verdict.text()
    )
    verify(signed.replace(b"Ada Lovelace", b"Eve Intruder", 1))  # INVALID: altered after signing
    assert set(shown) == {"VALID", "INDETERMINATE", "INVALID"}
    # the officer's own folder is no text of ours (the test folder's name has underscores)
    texts = [
        (f"{verdict} {where}", text.replace(str(tmp_path), "folder"))
        for verdict, found in shown.items()
        for where, text in found
    ]
    assert _codes(texts) == [] and _hints(texts) == []

    # The same findings on the command line keep its commands: one result, two renderings.
    memo.write_bytes(signed)
    capsys.readouterr()
    assert cli_main(["verify", str(memo)]) == 3
    assert "`clusterbid trust DOC.clusterbid --add CERT.pem`" in capsys.readouterr().out
    assert cli_main(["verify", str(memo), "--trust", str(ca)]) == 0
    assert f"(--trust {ca.name})" in capsys.readouterr().out


def test_the_any_order_button_verifies_again_without_the_order(
    qtbot, window, dialog_log, tmp_path, monkeypatch
):
    asked = []
    real = verifying.verify_memo_file

    def recording(*args, **kwargs):
        asked.append(kwargs["ordered"])
        return real(*args, **kwargs)

    monkeypatch.setattr(verifying, "verify_memo_file", recording)
    authority = Authority.create()
    memo, _, signed = _memo_signed_by_both(window, tmp_path, authority)
    memo.write_bytes(signed)
    dialog_log.answers.append(str(memo))
    window.actions_.verify_memo.trigger()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    dialog = window.memos.verify_dialog
    assert not dialog.any_order_button.isVisibleTo(dialog)  # signed in order: nothing to offer
    dialog.show_result(
        "INVALID", "INVALID: 1 finding(s)", "report", steps=frozenset({Step.ANY_ORDER})
    )
    assert dialog.any_order_button.isVisibleTo(dialog)
    dialog.any_order_button.click()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    assert asked == [True, False]
    dialog.trust_requested.emit(
        [str(authority.write_pem(tmp_path / "ca.pem"))]
    )  # the choice is kept
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    assert asked == [True, False, False] and '">VALID: ' in dialog.verdict.text()


# What the Sign and Seal refusals said before, in every door (the command line's words, kept there).
OLD_SEAL_AND_SIGN = {
    "chain": "a certificate chain could not be completed or checked: give the CA certificate with "
    "--trust, or reach the addresses the certificates name (no path to a trust root)",
    "address": "--tsa 'tsa.example': give the timestamp authority's http:// or https:// address",
    "no authority": "no timestamp authority: give --tsa URL (your organisation's RFC 3161 service) "
    "or set CLUSTERBID_TSA; nothing was written",
    "sign timestamp": "nothing was written: sign without --tsa and seal the memo later",
    "CA file": "--trust gone.pem: no such file",
}


def test_the_hint_scan_catches_the_old_seal_and_sign_texts():
    assert len(_hints(list(OLD_SEAL_AND_SIGN.items()))) == 5  # one option in each


def _seal_and_sign_refusals(window, tmp_path, monkeypatch) -> dict[str, Exception]:
    """Each refusal as the core raises it, from the real call that refuses."""
    import socket

    import pytest
    from pyhanko_certvalidator import errors

    from clusterbid.core.memo import sealing as core_sealing
    from clusterbid.core.memo.credentials import load_trust_roots
    from clusterbid.operations.sealing import timestamp_authority

    refused: dict[str, Exception] = {}

    async def no_chain(*_args):
        raise errors.PathBuildingError("no path to a trust root")

    with monkeypatch.context() as patched:  # the chain pyHanko could not build: its own error
        patched.setattr(core_sealing, "_seal", no_chain)
        with pytest.raises(core_sealing.SealError) as chain:
            core_sealing.seal_memo(b"%PDF-1.7", "http://127.0.0.1:9/tsa")
    refused["chain"] = chain.value
    with pytest.raises(core_sealing.SealError) as address:
        core_sealing.seal_memo(b"%PDF-1.7", "tsa.example")
    refused["address"] = address.value
    monkeypatch.delenv("CLUSTERBID_TSA", raising=False)
    with pytest.raises(InputError) as no_authority:
        timestamp_authority(None)
    refused["no authority"] = no_authority.value
    with socket.socket() as probe:  # a port nobody listens on: refused at once, no network needed
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}/tsa"
    authority = Authority.create()
    _, unsigned, _ = _memo_signed_by_both(window, tmp_path, authority)
    with pytest.raises(InputError) as sign_timestamp:
        sign_memo(
            unsigned,
            "approver-1",
            load_credentials(authority.write_p12(tmp_path, *ADA), ADA[1]),
            tsa_url=closed,
        )
    refused["sign timestamp"] = sign_timestamp.value
    with pytest.raises(InputError) as ca_file:
        load_trust_roots([tmp_path / "gone.pem"])
    refused["CA file"] = ca_file.value
    return refused


def test_seal_and_sign_refusals_in_each_doors_words(
    qtbot, window, dialog_log, tmp_path, monkeypatch
):
    """The command line prints each refusal exactly as before; the app shows the same refusal with
    its own field or menu item, where its errors are shown, and no option or mark."""
    from clusterbid.gui import dialogs
    from clusterbid.gui.memo.seal_dialog import SealMemoDialog

    refused = _seal_and_sign_refusals(window, tmp_path, monkeypatch)
    for name, exc in refused.items():
        assert OLD_SEAL_AND_SIGN[name] in render(str(exc), _step_words()).replace(
            str(tmp_path / "gone.pem"), "gone.pem"
        )
        dialogs.show_task_error(window, name, exc)
    shown = [(title, text.replace(str(tmp_path), "folder")) for _, title, text in dialog_log.shown]
    assert [title for title, _ in shown] == list(OLD_SEAL_AND_SIGN)
    assert _hints(shown) == [] and _codes(shown) == []
    said = dict(shown)
    seal = SealMemoDialog(tmp_path / "memo.pdf")
    qtbot.addWidget(seal)
    fields = [text for _, text in _widget_texts(seal)]
    assert (
        SEAL_TSA_FIELD in fields and SEAL_CA_FIELD in fields
    )  # the words name the dialog's fields
    assert (
        f"choose the organisation's CA certificate in {SEAL_CA_FIELD} when sealing" in said["chain"]
    )
    assert said["address"].startswith(f"{SEAL_TSA_FIELD} 'tsa.example': give")
    assert f"fill in {SEAL_TSA_FIELD}" in said["no authority"]
    assert said["CA file"].startswith("CA certificate folder/gone.pem: no such file")


def test_the_sign_and_seal_dialogs_refusals_carry_no_option(qtbot, tmp_path):
    """What the Sign and Seal dialogs themselves say when they refuse, scanned as the Verify's."""
    from PySide6.QtWidgets import QDialogButtonBox

    from clusterbid.core.memo.inputs import Approver
    from clusterbid.gui.memo.seal_dialog import SealMemoDialog
    from clusterbid.gui.memo.sign_dialog import SignMemoDialog

    sign = SignMemoDialog(tmp_path / "memo.pdf", [Approver(name="Ada Lovelace", role="CFO")], [1])
    qtbot.addWidget(sign)
    sign.p12.setText(str(tmp_path / "gone.p12"))
    sign.accept()
    seal = SealMemoDialog(tmp_path / "memo.pdf")
    qtbot.addWidget(seal)
    seal.url.setText("timestamp server")
    next(b for b in seal.findChild(QDialogButtonBox).buttons() if b.text() == "Seal").click()
    assert "no such file" in sign.problem.text() and "http://" in seal.problem.text()
    texts = [
        (w, t.replace(str(tmp_path), "folder"))
        for w, t in _widget_texts(sign) + _widget_texts(seal)
    ]
    assert _hints(texts) == [] and _codes(texts) == []
