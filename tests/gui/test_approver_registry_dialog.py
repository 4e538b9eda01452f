"""Issue 30, items 4 and 5 in the app: File > Approvers and Trusted Certificates registers, re-keys
and retires approvers through the same operation as `clusterbid approvers` (an audit row each), and
the memo export dialog refuses one person twice before anything is rendered."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.serialization import Encoding
from tests.core.memo_signing.pki import Authority

from clusterbid.core.errors import InputError
from clusterbid.gui.memo.approver_form import ApproverChange, ApproverForm
from clusterbid.gui.memo.export_dialog import MemoExportDialog


def _pem(authority: Authority, name: str, path):
    path.write_bytes(authority.issue(name)[1].public_bytes(Encoding.PEM))
    return path


def test_approvers_are_registered_rekeyed_and_retired_in_the_app(qtbot, window, tmp_path):
    authority = Authority.create("Example Corp Approvers CA")
    ada = _pem(authority, "Ada Lovelace", tmp_path / "ada.pem")
    renewed = _pem(authority, "Ada Lovelace", tmp_path / "ada-renewed.pem")
    window.actions_.trusted_certificates.trigger()
    dialog = window.info.trust_dialog
    assert dialog.approvers.item(0).text().startswith("None registered")

    assert dialog.register(
        ApproverChange("Ada Lovelace, CFO", "ada@example.org", "2026-02-01", str(ada))
    )
    assert (
        dialog.approvers.item(0)
        .text()
        .startswith(
            "Ada Lovelace, CFO <ada@example.org>: counts from 2026-02-01; active; keys: "
            "certificate "
        )
    )
    # Her certificate is kept as a trust anchor in the same change, listed with its row.
    assert (
        dialog.listing.item(0)
        .text()
        .startswith("Ada Lovelace (approver; issued by Example Corp Approvers CA")
    )
    assert not dialog.register(ApproverChange("Grace Hopper, CTO", "", "", str(ada)))
    assert dialog.status.text().startswith("Not changed: ")
    assert "this key is already registered to Ada Lovelace, CFO" in dialog.status.text()

    dialog.approvers.setCurrentRow(0)
    assert dialog._selected_label() == "Ada Lovelace, CFO"
    assert dialog.new_key(ApproverChange("Ada Lovelace, CFO", "", "", str(renewed)))
    assert dialog.retire(ApproverChange("Ada Lovelace, CFO", "", "2027-01-31", ""))
    assert "retired from 2027-01-31" in dialog.approvers.item(0).text()
    actions = [
        r.action for r in window.session.document.audit_rows() if r.action.startswith("approver_")
    ]
    assert actions == ["approver_add", "approver_key", "approver_retire"]
    assert window.session.document.audit_now().ok
    dialog.close()


def test_the_approver_form_gathers_what_the_kind_of_change_needs(qtbot):
    form = ApproverForm("retire", "Ada Lovelace, CFO")
    qtbot.addWidget(form)
    assert form.label.isReadOnly() and form.label.text() == "Ada Lovelace, CFO"
    form.date.setText("2027-01-31")
    assert form.change() == ApproverChange("Ada Lovelace, CFO", "", "2027-01-31", "")


def test_the_export_dialog_refuses_one_person_as_two_approvers(qtbot, window):
    dialog = MemoExportDialog(window.model.scorecard, window)
    qtbot.addWidget(dialog)
    for column, text in enumerate(("Ada Lovelace", "CFO", "ada@example.org")):
        dialog.table.item(0, column).setText(text)
    dialog.add_approver("Ada  LOVELACE", "CTO")
    with pytest.raises(
        InputError,
        match=r"approver 2 \(Ada  LOVELACE, CTO\) and approver 1 \(Ada Lovelace, CFO "
        r"<ada@example.org>\) have the same name",
    ):
        dialog.build_request()
