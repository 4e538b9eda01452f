"""Whether a training measurement ran the request's recipe (issue 39 item 5): the model's
attention heads and vocabulary, and the container image the request pinned by its digest.

Heads and vocabulary are part of the model's shape: heads set the attention kernels' width and
how the tensor-parallel ranks split them, the vocabulary sizes the embedding and output layers
(at 128k tokens and a 4k hidden size, about a billion parameters of an 8B model). A run of
another shape is another model, held like a run of another size or layout (evidence_fit.py):
an MFU is down-graded to a claim, a step time is not used. The container is the software stack:
another image can hold another framework, kernels or NCCL, so a run in another container than
the one pinned answers another question and is down-graded the same way, but a step time in it
is still of this model and batch and stays usable as a claim.

Only what the run records is compared; a run silent on these is held by the other rules, so
files written before the columns existed read as they did."""

from __future__ import annotations

from clusterbid.core.workload import Workload


def shape_mismatches(heads: int | None, vocab: int | None, workload: Workload) -> list[str]:
    """Heads and vocabulary the run recorded that differ from the workload's, in words (a
    returned throughput row and an evidence item give the same two figures)."""
    pairs = [
        (heads, workload.num_attention_heads, "attention heads"),
        (vocab, workload.vocab_size, "vocabulary"),
    ]
    return [
        f"{got:,} {name} against the workload's {want:,}"
        for got, want, name in pairs
        if got is not None and want is not None and got != want
    ]


def container_mismatch(ran: str | None, workload: Workload) -> str | None:
    """Words for a run in another container than the request pinned (None: same, or not known).

    Images are compared by their digest: the name before '@' is the registry's label and may be
    spelled differently (a mirror, a tag added) for the very same bytes."""
    pinned = workload.container_image
    if ran is None or pinned is None or _digest(ran) == _digest(pinned):
        return None
    return (
        f"ran in another container than the request pinned ({_short(ran)}, "
        f"the request pinned {_short(pinned)})"
    )


def _digest(image: str) -> str:
    return image.rsplit("@sha256:", 1)[-1]


def _short(image: str) -> str:
    """The image with its digest cut to 12 hex digits, as `docker images` prints it."""
    name, _, digest = image.rpartition("@sha256:")
    return f"{name}@sha256:{digest[:12]}..." if name else image[:80]
