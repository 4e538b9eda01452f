"""nccl-tests -J JSON output (format version 2)."""

from __future__ import annotations

import json

import pytest
from nccl_fixture_files import fixture_text

from clusterbid.core.evidence import EvidenceParseError, parse_nccl_tests_json


def test_json_run() -> None:
    (run,) = parse_nccl_tests_json(
        fixture_text("all_reduce_2x8_ring.json"), "ar.json", nic_aggregate_gb_s=200
    )
    assert (
        run.output_format == "json" and run.collective == "all_reduce"
    )  # args[0] ends in all_reduce_perf
    assert (
        run.ranks == 16
        and run.hosts == ("a3-node-1", "a3-node-2")
        and run.gpu_model == "NVIDIA H100 80GB HBM3"
    )
    assert len(run.rows) == 8 and run.rows[0].root is None  # root is written as the string "    -1"
    # last result: out_of_place bus_bw 350.769231 at 8589934592
    assert run.plateau is not None and (run.plateau.busbw_gb_s, run.plateau.size_bytes) == (
        350.769231,
        2**33,
    )
    assert run.avg_busbw_line_gb_s == 150.25 and run.out_of_bounds == 0
    assert run.flag_codes() == ("busbw_above_nic_aggregate",)


def _edited(edit) -> str:
    document = json.loads(fixture_text("all_reduce_2x8_ring.json"))
    edit(document)
    return json.dumps(document)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"version": 2, "results": [', "ar.json line 1: not valid JSON"),
        ("[]", "document: expected an object"),
        (_edited(lambda d: d.pop("results")), "document: missing 'results'"),
        (_edited(lambda d: d.update(results=[])), "'results' list is empty"),
        (
            _edited(lambda d: d["results"][2]["in_place"].update(bus_bw="nan")),
            r"results\[2\].in_place.bus_bw: expected a number",
        ),
        (_edited(lambda d: d["results"][0].update(size=-5)), r"results\[0\]: not valid"),
        ("[" * 100000 + "]" * 100000, "nested too deeply"),
    ],
)
def test_json_errors(text: str, problem: str) -> None:
    with pytest.raises(EvidenceParseError, match=problem):
        parse_nccl_tests_json(text, "ar.json")
