"""What a panel refuses, in words, and leaves unchanged: a locked part edited in a copy, weights
outside the lead's ranges, a copy altered outside ClusterBid or made from another document, a
consensus dissent by someone not on the panel."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from clusterbid.core.comparison_table import KeptTableDocument
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import CriteriaWeights
from clusterbid.core.store import EditRejectedError, EvaluationDocument
from clusterbid.operations import panel


def _lead(folder: Path, name: str = "lead.clusterbid") -> Path:
    lead = folder / name
    KeptTableDocument.create(lead, demo_evaluation()).close()
    return lead


@pytest.fixture
def invited(tmp_path):
    lead = _lead(tmp_path)
    copies = panel.invite(
        lead,
        ["Ana Ruiz, Technical lead", "Ben Okafor, Commercial"],
        tmp_path / "out",
        ["Technical approach"],
        ["Net plan cost=50-80"],
    )
    return lead, copies


def test_a_copy_refuses_edits_to_its_locked_parts(invited):
    _, copies = invited
    with EvaluationDocument.open(copies[0]) as copy:
        head = copy.head
        policy = copy.evaluation.policy.model_copy(
            update={"weights": CriteriaWeights(cost_to_finish=10)}
        )
        with pytest.raises(EditRejectedError, match="Ana Ruiz's evaluator copy.*locked"):
            copy.set_policy(policy)
        with pytest.raises(EditRejectedError, match="locked"):
            copy.remove_bid("prime-efa")
        assert copy.head == head and len(copy.evaluation.bids) == 6


def test_weights_outside_the_leads_range_are_refused(invited):
    _, copies = invited
    with pytest.raises(
        InputError, match=r"Net plan cost \(90\) is outside the range the lead allowed \(50-80\)"
    ):
        panel.judge(copies[0], weights=["Net plan cost=90"])
    with pytest.raises(InputError, match="score .* must be from 0 to 10"):
        panel.judge(copies[0], scores=["Technical approach:prime-efa=11"])
    panel.judge(copies[0], weights=["Net plan cost=50"])  # inside: recorded


def test_a_copy_changed_outside_clusterbid_is_refused(invited):
    lead, copies = invited
    panel.judge(copies[0], weights=["Net plan cost=60"])
    with sqlite3.connect(copies[0]) as conn:  # a cheaper price typed straight into the file
        (bid_json,) = conn.execute("SELECT bid_json FROM bid WHERE bid_id = 'prime-efa'").fetchone()
        assert '"price_per_gpu_hour":"3.90"' in bid_json
        conn.execute(
            "UPDATE bid SET bid_json = ? WHERE bid_id = 'prime-efa'",
            (bid_json.replace('"price_per_gpu_hour":"3.90"', '"price_per_gpu_hour":"2.90"'),),
        )
    with EvaluationDocument.open(lead) as document:
        before = document.head
    done, refused = panel.merge(lead, [copies[0]])
    assert done == [] and len(refused) == 1
    assert "panel-ana-ruiz.clusterbid was not merged: its audit trail fails its audit" in refused[0]
    assert "edited outside ClusterBid (bid 'prime-efa' at position" in refused[0]
    assert refused[0].endswith("Nothing was written")
    with EvaluationDocument.open(lead) as document:
        assert document.head == before


def test_a_copy_of_another_lead_is_refused(tmp_path, invited):
    lead, _ = invited
    other = _lead(tmp_path, "other.clusterbid")
    (stranger,) = panel.invite(
        other,
        ["Ana Ruiz, Technical lead"],
        tmp_path / "elsewhere",
        ["Technical approach"],
        ["Net plan cost=50-80"],
    )
    panel.judge(stranger, weights=["Net plan cost=60"])
    done, refused = panel.merge(lead, [stranger])
    assert done == [] and "does not come from this lead document" in refused[0]


def test_a_copy_made_before_the_leads_bids_changed_is_refused(invited):
    lead, copies = invited
    panel.judge(copies[1], weights=["Support=20"])
    with EvaluationDocument.open(lead) as document:
        document.remove_bid("legacy-a100")
    done, refused = panel.merge(lead, [copies[1]])
    assert done == [] and "its bids differ from the lead's" in refused[0]


def test_a_copy_with_no_judgement_is_not_merged(invited):
    lead, copies = invited
    done, refused = panel.merge(lead, [copies[1]])
    assert done == [] and "Ben Okafor has not recorded a judgement in it yet" in refused[0]


def test_invite_writes_nothing_over_an_existing_copy(invited):
    lead, copies = invited
    with EvaluationDocument.open(lead) as document:
        before = document.head
    with pytest.raises(InputError, match="panel-ana-ruiz.clusterbid already exists"):
        panel.invite(
            lead, ["Chen Li, Programme lead", "Ana Ruiz, Technical lead"], copies[0].parent
        )
    with EvaluationDocument.open(lead) as document:
        assert document.head == before
    with pytest.raises(InputError, match="Name, Role"):
        panel.invite(lead, ["Chen Li"], copies[0].parent / "new")


def test_consensus_records_dissent_by_name_and_refuses_strangers(invited):
    lead, copies = invited
    panel.judge(copies[0], weights=["Support=40"], scores=["Technical approach:prime-efa=9"])
    panel.judge(copies[1], weights=["Support=0"], scores=["Technical approach:prime-efa=4"])
    panel.merge(lead, copies)
    with pytest.raises(InputError, match="Zoe Park did not"):
        panel.consensus(
            lead, "Technical approach", "prime-efa", None, "Median", ["Zoe Park: no"], samples=200
        )
    agreed = panel.consensus(
        lead,
        "technical approach",
        "prime-efa",
        None,
        "The median of the two scores",
        ["Ana Ruiz: the fabric design is the best offered"],
        samples=200,
    )
    assert agreed["value"] == 6.5 and agreed["median_accepted"]  # median of 9 and 4
    text = panel.status(lead, 200).text()
    assert "Technical approach score of prime-efa: Ana Ruiz 9.0 of 10; Ben Okafor 4.0 of 10" in text
    assert "median accepted: 6.5 of 10. The median of the two scores" in text
    assert (
        "Ana Ruiz dissents on the Technical approach score of prime-efa: the fabric design" in text
    )


def test_a_judgement_rewritten_in_the_file_is_refused(invited):
    """A judgement's row rewritten round the append-only guard (dropped and put back): the chain
    no longer holds."""
    lead, copies = invited
    panel.judge(copies[0], weights=["Net plan cost=80"])
    with sqlite3.connect(copies[0]) as conn:
        conn.execute("DROP TRIGGER audit_append_only_update")
        conn.execute(
            "UPDATE audit SET new_json = replace(new_json, '\"cost_to_finish\": 80.0', "
            "'\"cost_to_finish\": 50.0') WHERE action = 'panel_judgement'"
        )
        assert conn.total_changes == 1
        conn.execute(
            "CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit"
            " BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END"
        )  # put back
    done, refused = panel.merge(lead, [copies[0]])
    assert done == [] and "its audit trail fails its audit (row #" in refused[0]
    assert "does not match its hash" in refused[0]


def test_a_countersigned_judgement_is_merged_as_signed(invited, tmp_path, monkeypatch, capsys):
    """Each copy keeps its own trail; an evaluator with a key signs their judgement in it."""
    from tests.core.memo_signing.pki import Authority

    from clusterbid.cli import main

    lead, copies = invited
    panel.judge(copies[0], weights=["Net plan cost=55"])
    panel.judge(copies[1], weights=["Net plan cost=75"])
    p12 = Authority.create().write_p12(tmp_path, "Ana Ruiz", "ana-passphrase")
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", "ana-passphrase")
    assert main(["countersign", str(copies[0]), "--p12", str(p12), "--user", "Ana Ruiz"]) == 0
    done, refused = panel.merge(lead, copies)
    assert refused == [] and len(done) == 2
    text = panel.status(lead, 200).text()
    assert (
        "Ana Ruiz, Technical lead: judgement merged from panel-ana-ruiz.clusterbid, countersigned"
        in text
    )
    assert "Ben Okafor, Commercial: judgement merged from panel-ben-okafor.clusterbid\n" in text


def test_an_earlier_and_a_later_state_of_one_copy_merge_in_either_order(invited, tmp_path):
    """An evaluator returns their copy, works on, and returns it again: the later state counts,
    whichever arrives first. A duplicate of the copy edited its own way is refused."""
    lead, copies = invited
    panel.judge(copies[0], weights=["Support=10"])
    earlier = tmp_path / "ana-monday.clusterbid"
    earlier.write_bytes(copies[0].read_bytes())
    fork = tmp_path / "ana-fork.clusterbid"
    fork.write_bytes(copies[0].read_bytes())
    panel.judge(copies[0], weights=["Support=30"])  # Tuesday: the copy goes on
    panel.judge(fork, weights=["Support=0"])  # a duplicate changed another way
    texts = []
    for order in ([earlier, copies[0]], [copies[0], earlier]):
        trial = tmp_path / f"lead-{len(texts)}.clusterbid"
        trial.write_bytes(lead.read_bytes())
        done, refused = panel.merge(trial, order)
        assert refused == [] and all(m.recorded for m in done)
        texts.append(panel.status(trial, 200).text())
        # 30 of 70+8+5+5+30+4+5 = 127 is 23.6% (Monday's 10 of 107 would be 9.3%)
        assert "Support 23.6%" in " ".join(texts[-1].split())
        done, refused = panel.merge(trial, [fork])
        assert done == [] and "went a different way after the same start" in refused[0]
    assert texts[0] == texts[1]
