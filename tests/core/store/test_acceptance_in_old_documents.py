"""Acceptance plans and results are artefacts with audited rows, so they need no new document
format: a file of the oldest format opens, upgrades as before, and takes a plan and a returned
log, and an older ClusterBid reading them sees ordinary artefacts."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from test_migrations import make_old_document, user_version

from clusterbid.core.acceptance.export import export_plan, kept_plan
from clusterbid.core.acceptance.status import judge_tests
from clusterbid.core.store import CURRENT_VERSION, EvaluationDocument, verify_audit_chain
from clusterbid.operations.acceptance import attach_acceptance_files

PUBLIC_LOG = (
    Path(__file__).parents[2] / "data" / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"
)


def test_a_format_1_document_takes_an_acceptance_plan_and_a_returned_log(tmp_path):
    path = tmp_path / "v1.clusterbid"
    evaluation = make_old_document(path, 1)
    bid_id = evaluation.bids[0].id
    with EvaluationDocument.open(path, user="new-app") as doc:
        plan, _ = export_plan(
            doc.evaluation, bid_id, tmp_path / "annex", dt.date(2026, 11, 20), doc
        )
        log = tmp_path / "ACC-busbw-2nodes_allreduce_default.log"
        shutil.copyfile(PUBLIC_LOG, log)
        assert attach_acceptance_files(doc, bid_id, [log]) == [f"{log.name}: ACC-busbw-2nodes"]
        assert kept_plan(doc, bid_id) == plan
        two_nodes = next(r for r in judge_tests(doc, plan) if r.test.test_id == "ACC-busbw-2nodes")
        assert two_nodes.measured == 338.82 and two_nodes.files == (log.name,)
        assert doc.evaluation == evaluation  # the bid's claims and evidence are untouched
    assert user_version(path) == CURRENT_VERSION
    report = verify_audit_chain(path)
    assert report.ok and [r.who for r in report.rows] == [
        "old-app",
        "old-app",
        "new-app",
        "new-app",
    ]
