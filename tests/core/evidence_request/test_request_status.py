"""A returned nccl-tests log whose name begins with a request id, attached with the usual
`evidence attach`, answers that request once every run it asked for is on file (partly
answered before): answered by the deadline, late after it; a refusal is recorded; a file for
another bid or without the asked-for figure leaves the request open."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from clusterbid.cli import main
from clusterbid.core.evidence_request.status import request_statuses
from clusterbid.core.store import EvaluationDocument

PUBLIC_LOG = (
    Path(__file__).parents[2] / "data" / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"
)
TODAY = dt.datetime.now(dt.UTC).date()  # the audit trail dates attachments in UTC


def _issue(tmp_path: Path, capsys, issued: dt.date, deadline: dt.date) -> tuple[Path, dict]:
    document = tmp_path / "demo.clusterbid"
    assert main(["demo", str(document)]) == 0
    assert (
        main(
            [
                "request-evidence",
                str(document),
                "--bid",
                "cumulus-roce",
                "-o",
                str(tmp_path / "pack"),
                "--issued-on",
                issued.isoformat(),
                "--deadline",
                deadline.isoformat(),
                "--samples",
                "2000",
            ]
        )
        == 0
    )
    capsys.readouterr()
    pack = json.loads(next((tmp_path / "pack").glob("*.json")).read_text(encoding="utf-8"))
    return document, {r["input"]: r for r in pack["requests"]}


def _states(document: Path) -> dict[str, str]:
    with EvaluationDocument.open(document) as doc:
        return {s.request.input: s.state for s in request_statuses(doc, TODAY)}


def _returned(tmp_path: Path, name: str) -> Path:
    """The public log under the name a run asked for; a comment line naming the file makes each
    copy a file of its own (a document keeps one piece of evidence per file)."""
    path = tmp_path / "returned" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(PUBLIC_LOG.read_bytes() + f"# returned as {name}\n".encode())
    return path


def test_a_request_is_answered_only_when_every_run_it_asked_for_is_on_file(tmp_path, capsys):
    document, requests = _issue(tmp_path, capsys, TODAY, TODAY + dt.timedelta(days=14))
    assert _states(document) == {"busbw": "open", "baseline_mfu": "open"}
    runs = [run["return_as"] for run in requests["busbw"]["runs"]]
    assert len(runs) > 1  # the pack asks for several runs (scales and algorithms)
    log = _returned(tmp_path, runs[0])
    assert main(["evidence", "attach", str(document), "cumulus-roce", str(log)]) == 0
    out = capsys.readouterr().out
    assert f"Request {requests['busbw']['request_id']}" in out and ": partly answered" in out
    assert _states(document) == {"busbw": "partly answered", "baseline_mfu": "open"}
    assert main(["request-evidence", str(document), "--status"]) == 0
    status = capsys.readouterr().out
    assert f"1 of {len(runs)} runs on file; still to come: {', '.join(runs[1:])}" in status
    for name in runs[1:]:
        assert (
            main(
                [
                    "evidence",
                    "attach",
                    str(document),
                    "cumulus-roce",
                    str(_returned(tmp_path, name)),
                ]
            )
            == 0
        )
    capsys.readouterr()
    assert _states(document) == {"busbw": "answered", "baseline_mfu": "open"}
    assert main(["request-evidence", str(document), "--status"]) == 0
    status = capsys.readouterr().out
    assert (
        f"{requests['busbw']['request_id']} cumulus-roce" in status
        and f"answered on {TODAY.isoformat()}" in status
    )
    assert all(f"returned: {name}" in status for name in runs)


def test_after_the_deadline_it_is_late_and_before_any_return_overdue(tmp_path, capsys):
    issued = TODAY - dt.timedelta(days=30)
    document, requests = _issue(tmp_path, capsys, issued, issued + dt.timedelta(days=14))
    assert _states(document) == {"busbw": "overdue", "baseline_mfu": "overdue"}
    for run in requests["busbw"]["runs"]:
        log = _returned(tmp_path, run["return_as"])
        assert main(["evidence", "attach", str(document), "cumulus-roce", str(log)]) == 0
    assert _states(document)["busbw"] == "late"


def test_a_file_for_another_bid_does_not_answer(tmp_path, capsys):
    document, requests = _issue(tmp_path, capsys, TODAY, TODAY + dt.timedelta(days=14))
    log = _returned(tmp_path, requests["busbw"]["request_id"] + "_allreduce.log")
    assert main(["evidence", "attach", str(document), "northwind-ib", str(log)]) == 0
    assert "of bid cumulus-roce, not northwind-ib: it does not answer it" in capsys.readouterr().out
    assert _states(document)["busbw"] == "open"


def test_a_refusal_is_recorded(tmp_path, capsys):
    document, requests = _issue(tmp_path, capsys, TODAY, TODAY + dt.timedelta(days=14))
    rid = requests["baseline_mfu"]["request_id"]
    assert main(["request-evidence", str(document), "--refused", rid, "--reason", "  "]) == 2
    assert "--reason" in capsys.readouterr().err
    assert (
        main(
            [
                "request-evidence",
                str(document),
                "--refused",
                rid,
                "--reason",
                "no 512-GPU slot before March",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert (
        f"{rid} cumulus-roce" in out and "refused" in out and "no 512-GPU slot before March" in out
    )
    assert _states(document) == {"busbw": "open", "baseline_mfu": "refused"}
    assert (
        main(["request-evidence", str(document), "--refused", "CBR-0000000000", "--reason", "x"])
        == 2
    )


def test_evidence_added_through_the_wizard_answers_too(tmp_path, capsys):
    """The wizard keeps only the evidence (name and hash) in the bid, not the file: the name and
    the audit trail's first sight of the hash are enough."""
    from clusterbid.core.bid import Bid
    from clusterbid.core.evidence.reading import read_evidence

    document, requests = _issue(tmp_path, capsys, TODAY, TODAY + dt.timedelta(days=14))
    name = requests["busbw"]["request_id"] + "_allreduce_2nodes_default.log"
    reading = read_evidence(PUBLIC_LOG.read_bytes(), name)
    with EvaluationDocument.open(document) as doc:
        old = next(b for b in doc.evaluation.bids if b.id == "cumulus-roce")
        doc.replace_bid(
            "cumulus-roce",
            Bid.model_validate(
                {
                    **old.model_dump(),
                    "evidence": [
                        *old.model_dump()["evidence"],
                        *(e.model_dump() for e in reading.evidence),
                    ],
                }
            ),
        )
        assert not [
            i for i in doc.artefacts() if i.name == name
        ]  # no stored file, only the evidence
        status = next(s for s in request_statuses(doc, TODAY) if s.request.input == "busbw")
    # one run of several returned: the figure is on file, the request only partly answered
    assert (status.state, status.files, status.returned_on) == ("partly answered", (name,), TODAY)


def test_re_exporting_keeps_one_copy_and_a_new_deadline_supersedes(tmp_path, capsys):
    document, requests = _issue(tmp_path, capsys, TODAY, TODAY + dt.timedelta(days=14))
    for deadline in (
        14,
        14,
        21,
    ):  # the same pack twice, then the same requests with a later deadline
        assert (
            main(
                [
                    "request-evidence",
                    str(document),
                    "--bid",
                    "cumulus-roce",
                    "-o",
                    str(tmp_path / "pack"),
                    "--issued-on",
                    TODAY.isoformat(),
                    "--deadline",
                    (TODAY + dt.timedelta(days=deadline)).isoformat(),
                    "--samples",
                    "2000",
                ]
            )
            == 0
        )
    with EvaluationDocument.open(document) as doc:
        kept = [i.name for i in doc.artefacts() if i.name.startswith("evidence-request-")]
        statuses = request_statuses(doc, TODAY)
    assert len(kept) == 2  # the first export and the one with the new deadline
    assert sorted(s.request.request_id for s in statuses) == sorted(
        r["request_id"] for r in requests.values()
    )
    assert {s.deadline for s in statuses} == {TODAY + dt.timedelta(days=21)}
