"""Issue 14: the bid sheet carries provenance columns; an empty figure is "not stated", never zero."""

from __future__ import annotations

import csv

from tests.conftest import bid_dict

from clusterbid.core.bid import Bid
from clusterbid.core.interchange import import_bids
from clusterbid.core.interchange.columns import parse_header
from clusterbid.core.interchange.template import write_template_csv
from clusterbid.core.provenance import effective_reliability


def _sheet(tmp_path, changes: dict[str, str]):
    """A one-bid CSV written from the template, then edited cell by cell as a provider would."""
    path = write_template_csv(tmp_path / "bids.csv", [Bid.model_validate(bid_dict("acme"))])
    with path.open(encoding="utf-8-sig", newline="") as stream:
        header, row = list(csv.reader(stream))
    keys = [parse_header(text) for text in header]
    for key, text in changes.items():
        row[keys.index(key)] = text
    with path.open("w", encoding="utf-8-sig", newline="") as stream:
        csv.writer(stream).writerows([header, row])
    return path


def test_empty_cells_are_not_stated_and_source_cells_are_read(tmp_path):
    path = _sheet(
        tmp_path,
        {
            "reliability.node_replacement_hours": "",
            "source.reliability.node_replacement_hours": "",
            "capacity.spare_pool_gpus": "",
            "source.capacity.spare_pool_gpus": "",
            "source.reliability.failures_per_1000_gpu_days": "provider: p.4",
            "source.reliability.storage_write_gb_s": "assumption: J. Diaz; our own storage tests of this tier",
            "source.reliability.uptime_sla_percent": "",  # given figure, no source: the provider's
        },
    )
    report = import_bids(path)
    assert report.problems == ()
    bid = report.bids[0]
    assert bid.reliability.node_replacement_hours is None
    assert bid.provenance["reliability.node_replacement_hours"].kind == "not_stated"
    assert (
        effective_reliability(bid).node_replacement_hours == 72
    )  # the cautious default (issue 31), not 0
    assert (
        bid.capacity.spare_pool_gpus == 0
        and bid.provenance["capacity.spare_pool_gpus"].kind == "not_stated"
    )
    failures = bid.provenance["reliability.failures_per_1000_gpu_days"]
    assert (failures.kind, failures.reference) == ("provider", "p.4")
    storage = bid.provenance["reliability.storage_write_gb_s"]
    assert (storage.kind, storage.who, storage.why) == (
        "assumption",
        "J. Diaz",
        "our own storage tests of this tier",
    )
    assert bid.provenance["reliability.uptime_sla_percent"].kind == "provider"


def test_an_unknown_source_kind_is_refused_naming_the_field(tmp_path):
    path = _sheet(tmp_path, {"source.reliability.burn_in_hours": "rumour: a sales call"})
    report = import_bids(path)
    assert report.bids == ()
    problem = report.problems[0]
    assert problem.column == "source.reliability.burn_in_hours" and problem.cell is not None
    assert "'rumour' is not one of: 'provider', 'measured', 'assumption', 'default'" in problem.rule


def test_an_assumption_without_who_is_refused(tmp_path):
    path = _sheet(tmp_path, {"source.reliability.burn_in_hours": "assumption"})
    report = import_bids(path)
    assert report.bids == ()
    assert any("names who set it" in p.rule for p in report.problems), report.problems
