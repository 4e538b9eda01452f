"""What `clusterbid audit` says about a file beside the document matches what an editing open then
does: a write-ahead log is refused by name (it said the open 'applies or discards it')."""

from __future__ import annotations

from tests.core.store.test_read_only_audit import _stray_wal

from clusterbid.cli import main


def test_the_audit_note_on_a_stray_wal_says_what_an_editing_open_does(tmp_path, capsys):
    document = _stray_wal(tmp_path)
    capsys.readouterr()
    assert main(["audit", str(document)]) == 0
    said = capsys.readouterr().out
    assert "applies or discards" not in said
    assert "Opening the document for editing refuses a write-ahead log: move it aside" in said
    # and it does: an editing open refuses it, naming the file
    assert main(["plan", str(document), "--set", "delay_cost_per_day=1000"]) == 2
    assert "has a write-ahead log beside it (doc.clusterbid-wal)" in capsys.readouterr().err
