"""Issue 32 item 5: an open checks the pages of the tables it reads, not every page of the audit
trail's history (which made opening grow with the number of edits); a damaged page in old
history is still reported by what reads the whole history: `clusterbid audit` and the app's
Audit Trail (EvaluationDocument.audit_now)."""

from __future__ import annotations

import argparse
import os

import pytest
from builders import make_bid, make_evaluation

from clusterbid import cli_store
from clusterbid.core.store import EvaluationDocument, checkpoint, verify_audit_chain
from clusterbid.core.store.errors import CorruptDocumentError

PAGE = 4096  # SQLite's default page size, which our documents keep
MARKER = "Marker Cloud Of Row Two"


@pytest.fixture(autouse=True)
def short_interval(monkeypatch):
    monkeypatch.setattr(checkpoint, "CHECKPOINT_EVERY", 5)


def run_audit(path) -> int:
    parser = argparse.ArgumentParser(prog="clusterbid")
    cli_store.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["audit", str(path)])
    return args.func(args)


def _long_history(path):
    """Row 2 names MARKER; row 3 replaces it, so only the trail's old rows hold it; then enough
    corrections for checkpoints well after it."""
    with EvaluationDocument.create(path, make_evaluation(3), user="ann") as doc:
        doc.replace_bid("bid-0", make_bid("bid-0", price="3.00", provider=MARKER))
        for k in range(40):
            doc.replace_bid(f"bid-{k % 3}", make_bid(f"bid-{k % 3}", price=f"{3 + k / 100:.2f}"))
        return doc.evaluation


def _damage_the_page_holding(path, text: str) -> int:
    data = bytearray(path.read_bytes())
    at = data.find(text.encode())
    assert at > 0, "the marker is in the file"
    page = at // PAGE
    data[page * PAGE : (page + 1) * PAGE] = os.urandom(PAGE)
    path.write_bytes(bytes(data))
    return page


def test_damaged_old_history_opens_and_is_reported_by_the_audit(tmp_path, capsys):
    path = tmp_path / "history.clusterbid"
    expected = _long_history(path)
    assert MARKER not in {bid.quote.provider for bid in expected.bids}  # only old rows hold it
    page = _damage_the_page_holding(path, MARKER)
    assert page > 0  # not the header page

    # The open replays from the last checkpoint: the damaged page is never read, and what the
    # document holds now is intact, so it opens with its figures.
    with EvaluationDocument.open(path) as doc:
        assert doc.evaluation == expected
        assert doc.audit_report.ok
        assert doc.audit_report.checked_from > 2  # the damaged rows were not on the open's path
        # The app's File > Audit Trail reads everything and checks every page.
        whole = doc.audit_now()
    assert not whole.ok and "integrity check" in whole.reason

    # `clusterbid audit` checks every page before it reads the trail, and says so by the file's
    # name (exit 2: the file cannot be read as a document), never a traceback.
    with pytest.raises(CorruptDocumentError, match="integrity check"):
        verify_audit_chain(path)
    assert run_audit(path) == 2
    said = capsys.readouterr().err
    assert said.startswith("clusterbid: error: history.clusterbid: failed SQLite's integrity check")


def test_a_damaged_page_of_the_bids_is_still_refused_at_open(tmp_path):
    path = tmp_path / "bids.clusterbid"
    _long_history(path)
    data = bytearray(path.read_bytes())
    with EvaluationDocument.open(path) as doc:
        tables = dict(doc._conn.execute("SELECT name, rootpage FROM sqlite_schema"))
    bid_root = tables["bid"] - 1  # SQLite numbers pages from 1
    data[bid_root * PAGE : (bid_root + 1) * PAGE] = os.urandom(PAGE)
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptDocumentError, match="damaged|integrity check"):
        EvaluationDocument.open(path)


def test_a_file_cut_short_is_refused_even_where_the_open_reads_nothing(tmp_path):
    path = tmp_path / "short.clusterbid"
    _long_history(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - PAGE])  # the last page gone
    with pytest.raises(CorruptDocumentError, match="damaged|integrity check|file ends at"):
        EvaluationDocument.open(path)


def test_what_reads_the_whole_history_refuses_a_damaged_page_in_words(tmp_path):
    """verify's trust check, the panel merge, evidence requests and acceptance read every audit
    row (document.audit_rows): a damaged old page is refused by the file's name there, as the open
    refused it before, never a raw SQLite error (a reviewer saw `verify --evaluation` end in
    "internal error (OperationalError ...)", exit 70)."""
    path = tmp_path / "history.clusterbid"
    _long_history(path)
    _damage_the_page_holding(path, MARKER)
    for read_only in (False, True):
        refused = pytest.raises(CorruptDocumentError, match="failed SQLite's integrity check")
        with EvaluationDocument.open(path, read_only=read_only) as doc, refused:
            doc.audit_rows()
