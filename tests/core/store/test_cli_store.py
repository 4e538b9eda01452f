"""The `new` and `audit` verbs: exit codes and messages, never a traceback."""

from __future__ import annotations

import argparse
import sqlite3

import pytest
from builders import make_evaluation

from clusterbid import cli_store
from clusterbid.core.store import EvaluationDocument


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="clusterbid")
    cli_store.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_new_from_an_evaluation_json_then_audit(tmp_path, capsys):
    source = tmp_path / "round.json"
    source.write_text(make_evaluation(2).model_dump_json(round_trip=True))
    path = tmp_path / "round.clusterbid"
    assert run("new", str(path), "--from", str(source), "--user", "carol") == 0
    assert "Created" in capsys.readouterr().out
    with EvaluationDocument.open(path) as doc:
        assert doc.evaluation == make_evaluation(2)
        assert doc.audit_rows()[0].who == "carol"
    assert run("audit", str(path)) == 0
    out = capsys.readouterr().out
    assert "carol  create" in out and "Chain verified: all 1 rows intact" in out


def test_new_from_the_bundled_demo(tmp_path, capsys):
    from clusterbid.core.demo import demo_evaluation

    path = tmp_path / "demo.clusterbid"
    assert run("new", str(path)) == 0
    with EvaluationDocument.open(path) as doc:
        assert doc.evaluation == demo_evaluation()


def test_new_refuses_bad_input_with_a_message(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"title": ""}')
    assert run("new", str(tmp_path / "x.clusterbid"), "--from", str(bad)) == 2
    err = capsys.readouterr().err
    assert err.startswith("clusterbid: error: ") and "bad.json" in err and "Traceback" not in err
    assert (
        "title: String should have at least 1 character" in err
        and "workload: Field required" in err
    )
    assert not (tmp_path / "x.clusterbid").exists()
    assert run("new", str(tmp_path / "x.clusterbid"), "--from", str(tmp_path / "missing.json")) == 2
    assert "missing.json: no such file" in capsys.readouterr().err


def test_audit_exits_1_when_the_chain_is_broken(tmp_path, capsys):
    path = tmp_path / "t.clusterbid"
    EvaluationDocument.create(path, make_evaluation(1), user="a").close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER audit_append_only_update")
    conn.execute("UPDATE audit SET who = 'mallory'")
    conn.commit()
    conn.close()
    assert run("audit", str(path)) == 1
    out = capsys.readouterr().out
    assert "CHAIN BROKEN at row #1: row #1 does not match its hash" in out


@pytest.mark.parametrize("content", [b"", b"not a database at all" * 10])
def test_audit_of_a_file_that_is_not_a_document(tmp_path, capsys, content):
    path = tmp_path / "junk.clusterbid"
    path.write_bytes(content)
    assert run("audit", str(path)) == 2
    err = capsys.readouterr().err
    assert (
        err
        == "clusterbid: error: junk.clusterbid: is not a ClusterBid document (it is not an SQLite database)\n"
    )
