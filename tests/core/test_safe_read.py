"""The safe reader's two checks (issue 35, item 1): a device is refused from the path without
being opened at all, and a path swapped for a FIFO after that check is still refused from the
open descriptor, without waiting for a writer."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from clusterbid.core import safe_read
from clusterbid.core.safe_read import NotARegularFile, open_regular, read_regular

pytestmark = pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(),
    reason="needs POSIX FIFOs and /dev/zero",
)


def test_a_link_to_a_device_is_refused_without_opening_it(tmp_path, monkeypatch):
    opened: list[str] = []
    real_open = os.open
    monkeypatch.setattr(
        safe_read.os,
        "open",
        lambda path, *a, **k: opened.append(str(path)) or real_open(path, *a, **k),
    )
    link = tmp_path / "evidence.log"
    link.symlink_to("/dev/zero")
    with pytest.raises(NotARegularFile) as refused:
        read_regular(link, 1024)
    assert refused.value.strerror.startswith("is a device") and opened == []


def test_a_fifo_swapped_in_after_the_path_check_is_refused_from_the_open_descriptor(
    tmp_path, monkeypatch
):
    fifo = tmp_path / "bids.json"
    os.mkfifo(fifo)  # no writer: a blocking open would wait here forever
    regular = os.stat(__file__)
    real_stat = os.stat
    # The path check sees a plain file (as if the FIFO replaced it a moment later).
    monkeypatch.setattr(
        safe_read.os,
        "stat",
        lambda path, *a, **k: regular if str(path) == str(fifo) else real_stat(path, *a, **k),
    )
    with pytest.raises(NotARegularFile) as refused:
        open_regular(fifo)
    assert "named pipe (FIFO)" in refused.value.strerror


def test_a_plain_file_is_read_up_to_one_byte_past_the_limit(tmp_path):
    path = tmp_path / "run.csv"
    path.write_bytes(b"x" * 5000)
    assert len(read_regular(path, 100)) == 101 and read_regular(path, 10_000) == b"x" * 5000
    assert stat.S_ISREG(os.stat(path).st_mode)
