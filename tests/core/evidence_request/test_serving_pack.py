"""A serving bid's request pack: one benchmark run on the bid's GPU and tensor-parallel degree at
the buyer's lengths, its concurrency ladder passing through the batch the cost rests on; and the
refusals (unknown bid, a training evaluation) said in words."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.documents import read_evaluation
from clusterbid.core.errors import InputError
from clusterbid.core.evidence_request.render import pack_json, pack_markdown
from clusterbid.core.evidence_request.serving_build import build_serving_pack

EXAMPLES = Path(__file__).parents[3] / "resources" / "examples"
ISSUED, DUE = dt.date(2026, 11, 26), dt.date(2026, 12, 10)


@pytest.fixture(scope="module")
def serving():
    return read_evaluation(EXAMPLES / "demo-serving-evaluation.json")


def test_the_request_runs_at_the_bids_gpu_degree_and_the_buyers_lengths(serving):
    bid = next(b for b in serving.bids if b.id == "quarry-h100")
    estimate = estimate_serving(serving.workload, [bid]).bids[0]
    pack = build_serving_pack(serving, "quarry-h100", ISSUED, DUE)
    (request,) = pack.requests
    assert pack.provider == bid.quote.provider
    assert request.evidence_kind == "serving_decode_throughput"
    tp = estimate.tensor_parallel
    assert f"on {bid.capacity.gpu_model}, tensor parallel {tp}" in request.title
    levels = [int(r.return_as.rsplit("_c", 1)[1].removesuffix(".json")) for r in request.runs]
    # Doubling from 1 to one replica's 256 batch slots (the demo's peak load, 2,280 in flight,
    # is above it), plus the batch the estimate puts on one replica.
    assert set(levels) == {1, 2, 4, 8, 16, 32, 64, 128, 256, estimate.batch}
    assert levels == sorted(levels)
    for run in request.runs:
        assert run.return_as.startswith(request.request_id)  # matched back by its id
        assert run.gpus == tp and run.nodes == 1  # TP fits one 8-GPU node
        assert "--random-input-len 1000 --random-output-len 600" in run.command_line()
    letter = pack_markdown(pack)
    assert "--tensor-parallel-size 2 --max-model-len 1600" in letter  # 1,000 + 600 tokens
    assert "first token within 1000 ms, each further token within 30 ms" in letter
    assert '"serving_decode_throughput"' in pack_json(pack)


def test_the_same_day_gives_the_same_id_and_the_pack_names_no_rival(serving):
    first = build_serving_pack(serving, "helio-h200", ISSUED, DUE)
    again = build_serving_pack(serving, "helio-h200", ISSUED, DUE)
    assert first.requests[0].request_id == again.requests[0].request_id
    others = [b.id for b in serving.bids if b.id != "helio-h200"]
    assert not any(other in pack_json(first) for other in others)


def test_an_unknown_bid_is_refused_by_name_with_the_bids_listed(serving):
    with pytest.raises(InputError) as refused:
        build_serving_pack(serving, "no-such-bid", ISSUED, DUE)
    assert "'no-such-bid': no such bid" in str(refused.value)
    assert "helio-h200" in str(refused.value)


def test_a_training_evaluation_is_refused_in_words():
    training = read_evaluation(EXAMPLES / "demo-evaluation.json")
    with pytest.raises(InputError, match="buys a training job"):
        build_serving_pack(training, training.bids[0].id, ISSUED, DUE)


def test_a_deadline_before_the_issue_is_refused(serving):
    with pytest.raises(InputError, match="must come after the day of issue"):
        build_serving_pack(serving, "helio-h200", ISSUED, ISSUED)


def test_a_bid_that_cannot_serve_gets_no_recipe_that_would_not_start(serving):
    """The demo's L40S bid: 70B parameters in FP8 are about 70 GB of weights, more than one
    48 GB L40S holds, and the offer has too few GPUs for a replica that fits (its gate). A
    recipe at tensor parallel 1 could not start; the request is refused with the gate's words."""
    lumen = next(b for b in serving.bids if b.id == "lumen-l40s")
    assert lumen.capacity.gpu_model.startswith("L40S")
    with pytest.raises(InputError) as refused:
        build_serving_pack(serving, "lumen-l40s", ISSUED, DUE)
    words = str(refused.value)
    assert "'lumen-l40s': this bid cannot serve the workload as offered" in words
    assert "no benchmark to ask for" in words


def test_the_letter_counts_one_node_and_one_gpu_in_the_singular(serving):
    """The demo's H200 bid serves at tensor parallel 1: each run is on 1 node, 1 GPU."""
    pack = build_serving_pack(serving, "helio-h200", ISSUED, DUE)
    letter = pack_markdown(pack)
    assert "(1 node, 1 GPU): return as" in letter
    assert "1 nodes" not in letter and "1 GPUs" not in letter
