"""The app's memo doors run the shared operations (issue 33): the signature row goes only into the
document the memo was read against."""

from __future__ import annotations

import hashlib
import json

from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.memo.sign_dialog import SignMemoDialog
from tests.conftest import EXAMPLES
from tests.gui.test_memo_actions import _memo_for_ada, _press, _sign_through_the_app


def test_a_signature_made_after_another_evaluation_opened_goes_into_the_memos_own_trail(
        qtbot, window, dialog_log, tmp_path, monkeypatch):
    """Was: the app picked the window's document when the signing finished, so opening another
    evaluation while the Sign dialog was open put the row into that one's trail."""
    memo, _authority, p12 = _memo_for_ada(window, tmp_path)
    memo_document = window.session.document.path

    def fake_exec(dialog: SignMemoDialog) -> int:
        assert window.evaluations.open_evaluation(EXAMPLES / "seed-network-example.json")
        dialog.p12.setText(str(p12))
        qtbot.keyClicks(dialog.passphrase, "ada-passphrase")
        _press(dialog, "Sign")
        return dialog.result()

    _sign_through_the_app(qtbot, window, dialog_log, monkeypatch, memo, fake_exec)
    assert window.session.document.path != memo_document
    assert not [r for r in window.session.document.audit_rows() if r.action == "record_signature"]
    with EvaluationDocument.open(memo_document) as document:
        rows = [r for r in document.audit_rows() if r.action == "record_signature"]
    assert rows and json.loads(rows[-1].new_json) == {
        "signer": "Ada Lovelace", "role": "CFO", "memo_sha256": hashlib.sha256(memo.read_bytes()).hexdigest()}

