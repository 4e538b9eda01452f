"""Opening a document with a write-ahead log beside it asks the officer (issue 35 item 2): No,
the default, leaves both files and the open refuses by name; Yes merges, keeping both aside."""

from __future__ import annotations

import pytest
from tests.core.store.test_stray_log_merge import _in_wal_mode

from clusterbid.core.store.errors import DocumentError
from clusterbid.core.store.stray_log import KEPT_SUFFIX
from clusterbid.gui import dialogs
from clusterbid.gui.opening import open_document


def test_no_leaves_the_log_and_the_open_names_it(tmp_path, app_settings, monkeypatch):
    document, wal = _in_wal_mode(tmp_path, "UPDATE meta SET value = value")
    asked = []
    monkeypatch.setattr(dialogs, "confirm", lambda *a: asked.append(a[2]) or False)
    with pytest.raises(DocumentError, match="write-ahead log beside it"):
        open_document(document, app_settings)
    assert wal.exists() and wal.name in asked[0] and KEPT_SUFFIX in asked[0]


def test_yes_merges_the_log_and_opens_the_document(tmp_path, app_settings, monkeypatch):
    document, wal = _in_wal_mode(tmp_path, "UPDATE meta SET value = value")
    monkeypatch.setattr(dialogs, "confirm", lambda *a: True)
    opened = open_document(document, app_settings)
    try:
        assert opened.path == document and not wal.exists()
        assert document.with_name(document.name + KEPT_SUFFIX).exists()
    finally:
        opened.close()
