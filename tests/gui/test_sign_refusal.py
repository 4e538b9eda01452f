"""The app's Sign dialog refuses a certificate issued to someone other than the approver named for
the field, says whose it is and whose field it was, and keeps the memo unsigned (issue 38 item 2)."""

from __future__ import annotations

import io

from pyhanko.pdf_utils.reader import PdfFileReader
from tests.gui.test_memo_actions import _memo_for_ada, _press, _sign_through_the_app

from clusterbid.gui.memo.sign_dialog import SignMemoDialog


def test_a_certificate_issued_to_someone_else_is_refused_in_the_dialog(
    qtbot, window, dialog_log, tmp_path, monkeypatch
):
    memo, authority, ada_p12 = _memo_for_ada(window, tmp_path)
    mallory_p12 = authority.write_p12(tmp_path, "Mallory Mallet", "mallory-passphrase")
    unsigned = memo.read_bytes()
    seen: list[str] = []

    def fake_exec(dialog: SignMemoDialog) -> int:
        dialog.p12.setText(str(mallory_p12))
        qtbot.keyClicks(dialog.passphrase, "mallory-passphrase")
        _press(dialog, "Sign")
        seen.append(dialog.problem.text())
        seen.append("open" if dialog.result() != dialog.DialogCode.Accepted else "closed")
        # The officer picks Ada's own certificate: the same dialog signs.
        dialog.p12.setText(str(ada_p12))
        qtbot.keyClicks(dialog.passphrase, "ada-passphrase")
        _press(dialog, "Sign")
        return dialog.result()

    _sign_through_the_app(qtbot, window, dialog_log, monkeypatch, memo, fake_exec)
    assert seen[0].startswith(
        "Not signed: this certificate is issued to Mallory Mallet, but the memo names "
        "Ada Lovelace (CFO) for approver field 1"
    )
    assert seen[1] == "open"
    assert unsigned != memo.read_bytes()
    signatures = PdfFileReader(io.BytesIO(memo.read_bytes())).embedded_signatures
    assert [s.signer_cert.subject.native["common_name"] for s in signatures] == ["Ada Lovelace"]
