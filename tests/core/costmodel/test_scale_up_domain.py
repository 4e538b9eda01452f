"""An NVLink domain larger than a node (GB200 NVL72) is credited apart from the node (item 4)."""

from __future__ import annotations

import pytest
from tests.conftest import bid_dict, workload_dict

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import estimate_training
from clusterbid.core.workload import Workload


def _nvl72_bid(domain: int) -> dict:
    # GB200 NVL72 (NVIDIA's specification: 72 GPUs in one NVLink domain, 1.8 TB/s NVLink per GPU),
    # compute trays of 4 GPUs with one 400 Gb/s NIC each.
    return bid_dict(
        capacity={
            "gpu_model": "GB200-NVL72",
            "gpus_offered": 576,
            "gpus_per_node": 4,
            "largest_contiguous_block_gpus": 576,
        },
        fabric={
            "technology": "IB-NDR400",
            "nics_per_node": 4,
            "nic_line_rate_gbit_s": 400,
            "gpudirect_rdma": True,
        },
        topology={"leaf_domain_gpus": 576, "nvlink_domain_gpus": domain},
    )


def test_nvl72_domain_carries_nine_data_parallel_ranks_per_domain():
    # 576 GPUs, TP 8, PP 1: DP 72 over 8 racks. Per GPU the scale-out is 4 x 50 GB/s x 0.94 / 4 =
    # 47 GB/s. In a 72-GPU domain a DP group has 72/8 = 9 ranks that reduce over NVLink and leave
    # the domain on 9 GPUs' NICs: 9 x 47 = 423 GB/s, under the NVLink ring cap 1,800/2 x 0.8 = 720.
    workload = Workload.model_validate(
        workload_dict(
            job_gpus=576, tensor_parallel=8, pipeline_parallel=1, global_batch_tokens=1152 * 4096
        )
    )
    rack, tray = (
        estimate_training(workload, [Bid.model_validate(_nvl72_bid(d))]).bids[0] for d in (72, 4)
    )
    assert rack.dp_busbw_gb_s == pytest.approx(9 * 47.0)
    # Counted as 4-GPU domains (trays), TP 8 spans two trays and each rank has only its own 47 GB/s.
    assert tray.dp_busbw_gb_s == pytest.approx(47.0)
    assert rack.dp_comm_s < tray.dp_comm_s / 8


def test_a_data_parallel_group_inside_one_domain_never_leaves_it():
    # 144 GPUs, TP 8 x PP 2 -> DP 9: the 9 ranks of each group sit in one 72-GPU domain, although
    # the job spans two domains (the pipeline stages): the all-reduce runs at the NVLink figure.
    workload = Workload.model_validate(
        workload_dict(
            job_gpus=144, tensor_parallel=8, pipeline_parallel=2, global_batch_tokens=1152 * 4096
        )
    )
    bid = _nvl72_bid(72)
    bid["capacity"].update(gpus_offered=144, largest_contiguous_block_gpus=144)
    bid["topology"]["leaf_domain_gpus"] = 144
    e = estimate_training(workload, [Bid.model_validate(bid)]).bids[0]
    assert e.dp_busbw_gb_s == pytest.approx(1800 / 2 * 0.8)


def test_an_nvl72_rack_can_be_entered_as_one_72_gpu_node_with_its_72_nics():
    # The same rack described as one node (72 GPUs, 72 x 400 Gb/s NICs, four per compute tray):
    # node busbw 72 x 50 x 0.94 = 3,384 GB/s, 47 per GPU, nine GPUs' worth per DP group = 423.
    rack = bid_dict(
        capacity={
            "gpu_model": "GB200-NVL72",
            "gpus_offered": 576,
            "gpus_per_node": 72,
            "largest_contiguous_block_gpus": 576,
            "spare_pool_gpus": 0,
        },
        fabric={
            "technology": "IB-NDR400",
            "nics_per_node": 72,
            "nic_line_rate_gbit_s": 400,
            "gpudirect_rdma": True,
        },
        topology={"leaf_domain_gpus": 576, "nvlink_domain_gpus": 72},
    )
    workload = Workload.model_validate(
        workload_dict(
            job_gpus=576, tensor_parallel=8, pipeline_parallel=1, global_batch_tokens=1152 * 4096
        )
    )
    as_node = estimate_training(workload, [Bid.model_validate(rack)]).bids[0]
    assert as_node.node_busbw_gb_s == pytest.approx(72 * 50 * 0.94)
    assert as_node.dp_busbw_gb_s == pytest.approx(9 * 47.0)
    with pytest.raises(ValueError, match="nics_per_node"):
        Bid.model_validate({**rack, "fabric": {**rack["fabric"], "nics_per_node": 145}})
