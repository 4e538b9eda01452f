"""GPUDirect RDMA absent and SHARP present change the spec bus bandwidth (issue 16, item 9)."""

from __future__ import annotations

import pytest
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.workload import Workload

NDR400_SPEC = 8 * 400 / 8 * 0.94  # 8 NICs x 50 GB/s x the catalog's typical ring efficiency = 376


def _estimate(bid: dict, **workload):
    return estimate_training(
        Workload.model_validate(workload_dict(**workload)), [Bid.model_validate(bid)]
    ).bids[0]


def test_no_gpudirect_rdma_costs_what_a_public_nccl_tests_pair_measured():
    # NVIDIA/nccl issue 1579: 2 GH200 nodes, 4 x 200 Gb/s, all_reduce 2 GB in place:
    # 79.72 GB/s busbw with GDR disabled (the default there), 96.07 GB/s with it enabled.
    with_gdr = _estimate(bid_dict())
    without = _estimate(
        bid_dict(
            fabric={
                "technology": "IB-NDR400",
                "nics_per_node": 8,
                "nic_line_rate_gbit_s": 400,
                "gpudirect_rdma": False,
            }
        )
    )
    assert with_gdr.node_busbw_gb_s == pytest.approx(NDR400_SPEC)
    assert without.node_busbw_gb_s == pytest.approx(NDR400_SPEC * 79.72 / 96.07)
    assert without.plan_cost > with_gdr.plan_cost


def test_sharp_moves_each_shard_once_over_the_fabric():
    # Reference workload: TP8 x PP4 on 512 GPUs, so a data-parallel group has 16 ranks on 16 nodes.
    # A ring moves 2 x 15/16 of the shard per rank; SHARP sends it up once and gets it back once,
    # so the nccl-tests busbw at the same link rate is x 2 x 15/16 = 1.875.
    sharp = _estimate(
        bid_dict(
            fabric={
                "technology": "IB-NDR400",
                "nics_per_node": 8,
                "nic_line_rate_gbit_s": 400,
                "gpudirect_rdma": True,
                "sharp": True,
            }
        )
    )
    assert sharp.node_busbw_gb_s == pytest.approx(NDR400_SPEC * 1.875)
    assert sharp.dp_busbw_gb_s == pytest.approx(NDR400_SPEC * 1.875 / 8)
    # On two nodes there is nothing to save: a ring over 2 moves the shard once too.
    two_nodes = _estimate(
        bid_dict(
            fabric={
                "technology": "IB-NDR400",
                "nics_per_node": 8,
                "nic_line_rate_gbit_s": 400,
                "gpudirect_rdma": True,
                "sharp": True,
            }
        ),
        job_gpus=16,
        tensor_parallel=8,
        pipeline_parallel=1,
        global_batch_tokens=64 * 4096,
    )
    assert two_nodes.node_busbw_gb_s == pytest.approx(NDR400_SPEC)


def test_a_measured_busbw_replaces_the_sharp_and_gdr_adjustments():
    measured = [
        {
            "kind": "allreduce_busbw",
            "value": 300,
            "unit": "GB/s",
            "scale_gpus": 64,
            "grade": "provider_claim",
            "description": "nccl-tests all_reduce_perf, 8 GiB, 8 nodes",
        }
    ]
    e = _estimate(
        bid_dict(
            fabric={
                "technology": "IB-NDR400",
                "nics_per_node": 8,
                "nic_line_rate_gbit_s": 400,
                "gpudirect_rdma": False,
                "sharp": True,
            },
            evidence=measured,
        )
    )
    assert e.node_busbw_gb_s == 300
