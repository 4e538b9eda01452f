"""Evidence artefacts: stored with SHA-256 and size, size limit enforced, exported byte for byte."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3

import pytest

from clusterbid.core.errors import InputError
from clusterbid.core.store import (
    MAX_ARTEFACT_BYTES,
    ArtefactError,
    EditRejectedError,
    EvaluationDocument,
)


def test_artefact_round_trips_byte_for_byte(document, doc_path, tmp_path):
    data = (
        os.urandom(3 * 1024 * 1024) + b"\x00\r\n\xff"
    )  # binary, not text: no newline translation allowed
    info = document.attach_artefact(
        "all_reduce_perf.log", data, bid_id="bid-0", media_type="text/plain"
    )
    assert (info.sha256, info.size, info.bid_id) == (
        hashlib.sha256(data).hexdigest(),
        len(data),
        "bid-0",
    )
    document.close()
    with EvaluationDocument.open(doc_path) as reopened:
        assert reopened.artefacts() == (info,)
        out = reopened.export_artefact(info.id, tmp_path / "exported.log")
        assert out.read_bytes() == data
        row = reopened.audit_rows()[-1]
        assert row.action == "attach_artefact" and row.target == "bid-0"
        assert json.loads(row.new_json) == {
            "bid_id": "bid-0",
            "media_type": "text/plain",
            "name": "all_reduce_perf.log",
            "sha256": info.sha256,
            "size": len(data),
        }
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exported.log", "round.clusterbid"]


def test_artefact_over_the_limit_is_refused_with_the_limit_named(document):
    assert MAX_ARTEFACT_BYTES == 50 * 1024 * 1024
    with pytest.raises(ArtefactError, match="the limit is 50 MiB per artefact") as caught:
        document.attach_artefact("huge.pdf", bytes(MAX_ARTEFACT_BYTES + 1))
    assert isinstance(caught.value, InputError)
    assert document.artefacts() == () and len(document.audit_rows()) == 1


def test_artefact_exactly_at_the_limit_is_accepted(document):
    info = document.attach_artefact("edge.bin", bytes(MAX_ARTEFACT_BYTES))
    assert info.size == MAX_ARTEFACT_BYTES


@pytest.mark.parametrize("name", ["", "../../etc/passwd", "a\\b", "x" * 256])
def test_artefact_names_must_be_plain_file_names(document, name):
    with pytest.raises(ArtefactError, match="plain file name"):
        document.attach_artefact(name, b"x")


def test_artefact_for_an_unknown_bid_is_refused(document):
    with pytest.raises(EditRejectedError, match="no bid 'ghost'"):
        document.attach_artefact("a.log", b"x", bid_id="ghost")


def test_altered_artefact_bytes_are_detected_on_export(document, doc_path, tmp_path):
    info = document.attach_artefact("a.log", b"original figures")
    conn = sqlite3.connect(doc_path)
    conn.execute("UPDATE artefact SET content = ? WHERE id = ?", (b"doctored figures", info.id))
    conn.commit()
    conn.close()
    with pytest.raises(ArtefactError, match="no longer matches its recorded SHA-256"):
        document.export_artefact(info.id, tmp_path / "a.log")
    assert not (tmp_path / "a.log").exists()
    with pytest.raises(ArtefactError, match="no artefact number 99"):
        document.artefact_bytes(99)
