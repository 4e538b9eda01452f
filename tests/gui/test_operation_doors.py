"""The app's memo doors run the shared operations (issue 33): the signature row goes only into the
document the memo was read against, and the memo's Monte Carlo sample count is the operation's
default, the one `clusterbid memo` uses (core/sample_counts.py says 20,000); an import is
recorded in the operation's words."""

from __future__ import annotations

import hashlib
import json

from PySide6.QtCore import Qt
from tests.conftest import EXAMPLES, bid_dict
from tests.gui.test_memo_actions import _memo_for_ada, _press, _sign_through_the_app
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.cli import main as cli_main
from clusterbid.core.bid import Bid
from clusterbid.core.interchange import write_template_csv
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.memo.export_dialog import MemoExportDialog
from clusterbid.gui.memo.sign_dialog import SignMemoDialog

DOCUMENTED_SAMPLES = 20_000  # the count core/sample_counts.py and `clusterbid memo --help` state


def test_a_signature_made_after_another_evaluation_opened_goes_into_the_memos_own_trail(
    qtbot, window, dialog_log, tmp_path, monkeypatch
):
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
        "signer": "Ada Lovelace",
        "role": "CFO",
        "memo_sha256": hashlib.sha256(memo.read_bytes()).hexdigest(),
    }


def test_both_doors_make_the_memo_with_the_documented_sample_count(
    qtbot, window, dialog_log, tmp_path, monkeypatch
):
    asked: list[int] = []

    def counting_make_memo(evaluation, **choices) -> bytes:
        asked.append(choices["samples"])
        return b"%PDF-1.7 stand-in\n"  # the count is what is under test, not the drawing

    monkeypatch.setattr("clusterbid.core.memo.making.make_memo", counting_make_memo)

    def fake_exec(dialog: MemoExportDialog) -> int:
        dialog.table.item(0, 0).setText("Ada Lovelace")
        dialog.table.item(0, 1).setText("CFO")
        _press(dialog, "Export…")
        return dialog.result()

    monkeypatch.setattr(MemoExportDialog, "exec", fake_exec)
    dialog_log.answers.append(str(tmp_path / "app-memo.pdf"))
    window.actions_.export_memo.trigger()
    qtbot.waitUntil(lambda: not window.tasks.is_busy("memo export"), timeout=HANG_GUARD_MS)
    assert (tmp_path / "app-memo.pdf").read_bytes().startswith(b"%PDF-1.7 stand-in")

    source = tmp_path / "copy.clusterbid"
    window.session.document.save_copy(source)
    assert (
        cli_main(
            [
                "memo",
                str(source),
                "-o",
                str(tmp_path / "cli-memo.pdf"),
                "--approver",
                "Ada Lovelace, CFO",
            ]
        )
        == 0
    )
    assert asked == [DOCUMENTED_SAMPLES, DOCUMENTED_SAMPLES]


def test_an_imported_sheet_is_recorded_in_the_same_words_from_either_door(
    qtbot, window, dialog_log, tmp_path
):
    """The import's audit row is worded by the operation (was: "Import bids.csv" from the command
    line, "Import 2 bid(s)" from the app)."""
    bids = [Bid.model_validate(bid_dict("x1")), Bid.model_validate(bid_dict("x2"))]
    sheet = write_template_csv(tmp_path / "bids.csv", bids)
    copy = tmp_path / "copy.clusterbid"
    window.session.document.save_copy(copy)
    assert cli_main(["import", str(copy), str(sheet)]) == 0
    with EvaluationDocument.open(copy) as document:
        from_cli = json.loads(document.audit_rows()[-1].new_json)["label"]

    dialog_log.answers.append(str(sheet))
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)  # File > Import Bids
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    from_app = json.loads(window.session.document.audit_rows()[-1].new_json)["label"]
    assert from_cli == from_app == "Import 2 bid(s) from bids.csv"
