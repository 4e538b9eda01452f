"""A request-for-evidence pack as data: what a provider is asked to run and return, and by when.

The JSON form (`clusterbid-evidence-request/1`) is the machine-readable half of the pack; the
document keeps a copy of it so that returned files can be matched to their request later.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from clusterbid.core.base import FrozenModel

FORMAT: Literal["clusterbid-evidence-request/1"] = "clusterbid-evidence-request/1"
# "CBR-" and 10 hex digits of a SHA-256: a returned file named "CBR-1a2b3c4d5e_anything.log" is
# matched by the id alone, so the id must survive file names on every platform (no spaces, no /).
REQUEST_ID = r"^CBR-[0-9a-f]{10}$"


class CommandRun(FrozenModel):
    """One benchmark run: where, with which environment, and the exact command line."""

    name: str = Field(min_length=1, max_length=100)
    nodes: int = Field(ge=1)
    gpus: int = Field(ge=1)
    environment: dict[str, str] = Field(default_factory=dict)
    launcher: list[str] = Field(
        default_factory=list, description="mpirun and its options, before the program"
    )
    program: str = Field(min_length=1)
    arguments: list[str] = Field(default_factory=list, description="the program's own options")
    return_as: str = Field(
        min_length=1, max_length=255, description="file name to return the output under"
    )
    container_image: str | None = Field(
        None, max_length=400, description="the image to run in, pinned by its sha256 digest"
    )

    def command_line(self) -> str:
        if self.container_image is None:
            env = [f"{k}={v}" for k, v in self.environment.items()]
            return " ".join([*env, *self.launcher, self.program, *self.arguments])
        # Run on each node inside the pinned image: host network and IPC for NCCL, every GPU.
        docker = ["docker", "run", "--rm", "--gpus", "all", "--network", "host", "--ipc", "host"]
        env = [part for k, v in self.environment.items() for part in ("-e", f"{k}={v}")]
        parts = [*docker, *env, self.container_image, *self.launcher, self.program]
        return " ".join([*parts, *self.arguments])


class EvidenceRequest(FrozenModel):
    request_id: str = Field(pattern=REQUEST_ID)
    bid_id: str = Field(min_length=1, max_length=64)
    input: Literal["busbw", "baseline_mfu", "serving_efficiency"]
    evidence_kind: Literal["allreduce_busbw", "training_mfu", "serving_decode_throughput"]
    title: str = Field(min_length=1, max_length=300)
    # No values, odds or rival bids here: the pack goes to the provider. The officer sees those
    # in the app and on the CLI's output.
    runs: list[CommandRun] = Field(default_factory=list)
    instructions: list[str] = Field(default_factory=list)
    formats: list[str] = Field(
        min_length=1, description="formats `clusterbid evidence parse` reads back"
    )


class RequestPack(FrozenModel):
    format: Literal["clusterbid-evidence-request/1"] = FORMAT
    evaluation: str
    provider: str
    bid_id: str
    issued_on: dt.date
    deadline: dt.date
    requests: list[EvidenceRequest]
    witness: dict[str, str] = Field(
        description="evidence grade -> who must run or witness the measurement"
    )
    questions: list[str] = Field(
        default_factory=list, description="figures to state in writing (not measured)"
    )
