"""An evidence file before it is parsed: the size limits, the one way every door reads the bytes,
the text decoded, and the format told by content (never by the file's name)."""

from __future__ import annotations

import os
from pathlib import Path

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.formats import format_names, format_spec
from clusterbid.core.evidence.scaling import HEADER as SCALING_HEADER
from clusterbid.core.evidence.training_log import looks_like_training_log
from clusterbid.core.safe_read import open_regular

# The formats are declared once, in formats.py; "auto" detects one by content.
EvidenceFormat = str


FORMATS: tuple[str, ...] = ("auto", *format_names())


# Evidence files are logs and small tables, matched to the real ones, and refused above it before
# a byte is parsed: any file accepted is parsed in well under a second and 100 MB. An nccl-tests
# log is tens of KB (tests/data/nccl-tests); with NCCL_DEBUG=INFO about 150 lines per GPU, some
# 15 MB at 1,024 GPUs. The document store keeps artefacts up to 50 MiB (store.artefacts; not
# imported: the store imports evidence), so every file accepted here can be attached.
MAX_EVIDENCE_BYTES = 16 * 1024 * 1024


# Throughput and scaling tables and nccl-tests -J output are a few rows of a few hundred bytes;
# parsed as a whole (JSON into objects), they are held to less.
MAX_TABLE_BYTES = 2 * 1024 * 1024


def size_over(size: int, limit: int) -> str:
    """A file's size in MiB with as few decimals as show it over `limit` (17,000,000 bytes is
    "16.2 MiB" against 16 MiB, never "16 MiB"), in bytes where three decimals do not."""
    for places in (1, 2, 3):
        shown = f"{size / 2**20:,.{places}f}"
        if float(shown.replace(",", "")) > limit / 2**20:
            return f"{shown} MiB"
    return f"{size:,} bytes"


def load_evidence_bytes(path: Path, source: str | None = None) -> bytes:
    """The one way CLI, wizard and drag-and-drop read an evidence file: size checked first.

    The size is checked on the open file, and at most one byte over the limit is read, so a huge
    or growing file (or a device) costs neither time nor memory before it is refused.
    """
    name = source or str(path)
    limit = f"the {MAX_EVIDENCE_BYTES // 2**20} MiB limit for an evidence file"
    try:
        with open_regular(path) as handle:  # devices and FIFOs refused before any read
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_EVIDENCE_BYTES:
                raise EvidenceParseError(
                    name,
                    None,
                    f"{size_over(size, MAX_EVIDENCE_BYTES)} is larger than {limit}; "
                    "attach the nccl-tests output of the run itself, not a collection",
                )
            data = handle.read(MAX_EVIDENCE_BYTES + 1)
    except OSError as exc:
        raise EvidenceParseError(name, None, f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_EVIDENCE_BYTES:
        raise EvidenceParseError(name, None, f"more than {limit}")
    return data


def decode_text(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise EvidenceParseError(
            source, line, f"not UTF-8 text (byte {exc.start}): is this a binary file?"
        ) from None


def _first_content_line(text: str) -> str:
    # From the head only: splitting the whole text at 200 lines copied the rest of it.
    for line in text[:100_000].lstrip("\ufeff").split("\n", 200)[:200]:
        if line.strip() and not line.lstrip().startswith("#"):
            return line.strip().lower()
    return ""


def detect_format(text: str) -> EvidenceFormat:
    """By content, not name: JSON by its keys, CSV by its header, anything else as nccl-tests text."""
    head = text[:100_000].lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        # nccl-tests -J files carry "results"; ours carry "rows". Checked on the raw text so a
        # broken JSON file still goes to the parser that can say where it breaks.
        return (
            "throughput-json"
            if '"rows"' in text[:100_000] and '"results"' not in text[:100_000]
            else "nccl-json"
        )
    first = _first_content_line(text)
    cells = tuple(cell.strip() for cell in first.split(","))
    if cells == SCALING_HEADER:
        return "scaling-csv"
    # A header naming any of our columns; nccl-tests lines never hold two commas and these words.
    if len(cells) > 2 and {"model", "active_params_b", "gpus", "tokens_per_second"} & set(cells):
        return "throughput-csv"
    return "training-log" if looks_like_training_log(text) else "nccl-text"


def media_type_of(data: bytes) -> str:
    """The media type an evidence file is kept under: its format's (formats.py), by content."""
    return format_spec(detect_format(data[:100_000].decode("utf-8", errors="replace"))).media_type
