"""The wizard's draft file is read through the safe reader (issue 35, item 1): a draft path that
is a link to /dev/zero, a FIFO with no writer or a file far too big loads as no draft, at once,
instead of reading forever or waiting for a writer."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clusterbid.gui.wizard import DraftStore

pytestmark = pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(),
    reason="needs POSIX FIFOs and /dev/zero",
)


def test_a_draft_path_that_is_not_a_plain_file_loads_as_no_draft(tmp_path):
    store = DraftStore(tmp_path / "draft.json")
    store.save({"values": {"id": "acme-1"}})
    assert store.load()["values"] == {"id": "acme-1"}  # the honest draft comes back
    store.path.unlink()
    store.path.symlink_to("/dev/zero")
    assert store.load() is None
    store.path.unlink()
    os.mkfifo(store.path)  # no writer: a blocking open would wait here until the test times out
    assert store.load() is None
    store.path.unlink()
    store.path.write_text(
        json.dumps({"version": 1, "values": {"notes": "x" * 2_000_000}}), encoding="utf-8"
    )
    assert store.load() is None  # 2 MB: not a draft this wizard wrote
