"""The benchmark recipe's own workload fields (issue 39, item 5): the model's attention heads and
vocabulary, and the container image the provider must run, pinned by its digest.

All three are optional; each one given makes the request pack's and the acceptance plan's
Megatron-LM command exact where it was otherwise an assumption the pack names. They are checked
here, with messages that say what to change, so a command that Megatron-LM would refuse at start
(heads that do not split the hidden size or the tensor-parallel ranks) is never sent out."""

from __future__ import annotations

import re

# A tag can be moved to other bytes at any time; a digest cannot. "registry/name@sha256:<64 hex>"
# (the OCI image spec's digest form), optionally with a tag before the "@" for the reader's sake.
IMAGE_REFERENCE = re.compile(
    r"^(?P<name>[a-z0-9][a-z0-9._\-/:]{0,254})@sha256:(?P<digest>[0-9a-f]{64})$"
)


def check_container_image(image: str | None) -> str | None:
    """The image reference as given, or a ValueError that says what form it must take."""
    if image is None:
        return None
    text = image.strip()
    if IMAGE_REFERENCE.match(text):
        return text
    if "@sha256:" not in text:
        raise ValueError(
            f"container_image {text[:80]!r} has no digest: give it as name@sha256:<64 hex digits> "
            "(docker images --digests shows it), since a tag can point at other software later"
        )
    digest = text.rsplit("@sha256:", 1)[1]
    if not re.fullmatch(r"[0-9a-f]{64}", digest):
        raise ValueError(
            f"container_image: the digest after '@sha256:' must be 64 lower-case hex digits, "
            f"not {len(digest)} characters {digest[:16]!r}..."
        )
    raise ValueError(
        f"container_image {text[:80]!r}: the image name before '@' may hold only lower-case "
        "letters, digits and . _ - / : (as registries spell it)"
    )


def check_heads(heads: int | None, hidden_size: int | None, tensor_parallel: int) -> None:
    """Megatron-LM splits the hidden size into heads and the heads across tensor-parallel ranks:
    both must divide evenly, or the run stops before its first step."""
    if heads is None:
        return
    if hidden_size is None:
        raise ValueError(
            "num_attention_heads needs hidden_size (and num_layers): give the model's shape too"
        )
    if hidden_size % heads:
        raise ValueError(
            f"num_attention_heads ({heads}) must divide hidden_size ({hidden_size:,}) into whole "
            "heads; check the model card"
        )
    if heads % tensor_parallel:
        raise ValueError(
            f"num_attention_heads ({heads}) must be a multiple of tensor_parallel "
            f"({tensor_parallel}): each tensor-parallel rank holds a whole number of heads"
        )
