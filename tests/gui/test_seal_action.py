"""File > Seal for the Archive: the dialog asks for the timestamp authority, the seal runs on the
background runner against the loopback PKI, and a failed seal is said in words, the file kept."""

from __future__ import annotations

import socket
from io import BytesIO

import pytest
from pyhanko.pdf_utils.reader import PdfFileReader
from PySide6.QtWidgets import QDialogButtonBox
from tests.core.memo_sealing.conftest import loopback, signed_memo  # noqa: F401 (fixtures)
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.gui.memo.seal_dialog import SealMemoDialog

pytestmark = pytest.mark.timeout(300)


def _answer_with(url: str):
    def fake_exec(dialog: SealMemoDialog) -> int:
        dialog.url.setText(url)
        box = dialog.findChild(QDialogButtonBox)
        next(b for b in box.buttons() if b.text() == "Seal").click()
        return dialog.result()

    return fake_exec


def _seal_through_the_app(qtbot, window, dialog_log, monkeypatch, memo, url) -> None:
    monkeypatch.setattr(SealMemoDialog, "exec", _answer_with(url))
    dialog_log.answers.append(str(memo))
    window.actions_.seal_memo.trigger()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)


def test_the_app_seals_the_memo_in_the_background(
    qtbot,
    window,
    dialog_log,
    monkeypatch,
    tmp_path,
    loopback,  # noqa: F811
    signed_memo,  # noqa: F811
):
    memo = tmp_path / "signed.pdf"
    memo.write_bytes(signed_memo)
    _seal_through_the_app(qtbot, window, dialog_log, monkeypatch, memo, loopback.tsa_url)
    sealed = memo.read_bytes()
    assert sealed.startswith(signed_memo)
    assert len(PdfFileReader(BytesIO(sealed), strict=False).embedded_timestamp_signatures) == 1
    assert "sealed" in window.statusBar().currentMessage()
    assert dialog_log.shown == []


def test_a_seal_without_network_is_shown_in_words_and_keeps_the_file(
    qtbot,
    window,
    dialog_log,
    monkeypatch,
    tmp_path,
    signed_memo,  # noqa: F811
):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/tsa"
    memo = tmp_path / "signed.pdf"
    memo.write_bytes(signed_memo)
    _seal_through_the_app(qtbot, window, dialog_log, monkeypatch, memo, url)
    assert memo.read_bytes() == signed_memo
    [(kind, title, text)] = dialog_log.shown
    assert kind == "problem" and title == "The memo was not sealed"
    assert f"no RFC 3161 timestamp from {url}" in text and "Internal error" not in text


def test_the_dialog_refuses_an_address_that_is_no_url(qtbot, tmp_path):
    dialog = SealMemoDialog(tmp_path / "memo.pdf")
    qtbot.addWidget(dialog)
    dialog.url.setText("timestamp server")
    next(b for b in dialog.findChild(QDialogButtonBox).buttons() if b.text() == "Seal").click()
    assert dialog.tsa is None and "http://" in dialog.problem.text()


def test_the_ca_certificate_field_reaches_the_seal(
    qtbot,
    window,
    dialog_log,
    monkeypatch,
    tmp_path,
    signed_memo,  # noqa: F811
):
    """The field a chain refusal points to is the one the seal reads: a file that is not there is
    refused by name before any network is asked, and the memo is kept."""
    memo = tmp_path / "signed.pdf"
    memo.write_bytes(signed_memo)
    answer = _answer_with("http://127.0.0.1:9/tsa")

    def with_ca(dialog: SealMemoDialog) -> int:
        dialog.ca_file.setText(str(tmp_path / "gone.pem"))
        return answer(dialog)

    monkeypatch.setattr(SealMemoDialog, "exec", with_ca)
    dialog_log.answers.append(str(memo))
    window.actions_.seal_memo.trigger()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    [(kind, title, text)] = dialog_log.shown
    assert (kind, title) == ("problem", "The memo was not sealed")
    assert text.rstrip("\n") == f"{tmp_path / 'gone.pem'}: no such file"  # the log adds a line
    assert memo.read_bytes() == signed_memo
