"""A file over a size limit is refused with its size shown over the limit, and the limits the docs
state are the code's. A tester's 17,000,000-byte log read "16 MiB is larger than the 16 MiB limit"
(17,000,000 / 2^20 = 16.21, printed without decimals); the docs said 16 MiB for every evidence
file while serving benchmarks are accepted up to 32 MiB (a vLLM result JSON carries per-request
lists)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clusterbid.cli import main
from clusterbid.core.evidence.evidence_file import MAX_EVIDENCE_BYTES, size_over
from clusterbid.core.evidence.serving_readers import MAX_CHARS
from clusterbid.operations.serving_evidence import MAX_BYTES as SERVING_MAX_BYTES

DOCS = Path(__file__).resolve().parents[3] / "resources"


def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as handle:
        handle.truncate(size)  # no disk used: the reader sees the size and refuses before reading
    return path


@pytest.mark.parametrize(
    ("size", "limit", "words"),
    [
        (17_000_000, 16 * 2**20, "16.2 MiB"),  # 17e6 / 1,048,576 = 16.212
        (200 * 10**6, 16 * 2**20, "190.7 MiB"),  # 2e8 / 1,048,576 = 190.73
        (16 * 2**20 + 5_000, 16 * 2**20, "16.005 MiB"),  # 16 + 5,000 / 1,048,576 = 16.0048
        (16 * 2**20 + 1, 16 * 2**20, "16,777,217 bytes"),  # no three decimals show it over
    ],
)
def test_a_size_is_shown_so_it_reads_over_the_limit(size: int, limit: int, words: str) -> None:
    assert size_over(size, limit) == words


def test_evidence_parse_of_17_million_bytes_says_16_2_mib(tmp_path: Path, capsys) -> None:
    path = _sparse(tmp_path / "big.log", 17_000_000)
    assert main(["evidence", "parse", str(path)]) == 2
    assert "big.log: 16.2 MiB is larger than the 16 MiB limit for an evidence file" in (
        capsys.readouterr().err
    )


def test_a_serving_benchmark_over_its_limit_says_its_size_and_the_limit(
    tmp_path: Path, capsys
) -> None:
    path = _sparse(tmp_path / "run.json", 34_000_000)  # 34e6 / 1,048,576 = 32.42 MiB
    assert main(["serving-evidence", "parse", str(path), "--gpus", "1"]) == 2
    err = capsys.readouterr().err
    assert "run.json: 32.4 MiB is larger than the 32 MiB limit for a serving benchmark" in err


def test_the_docs_state_the_code_s_limits() -> None:
    assert (MAX_EVIDENCE_BYTES, SERVING_MAX_BYTES, MAX_CHARS) == (
        16 * 2**20,
        32 * 2**20,
        32 * 2**20,
    )
    formats = (DOCS / "evidence-formats.md").read_text(encoding="utf-8")
    serving = formats[formats.index("## Serving benchmarks") :]
    assert "32 MiB" in serving and "16 MiB" not in serving.split("\n## ")[0]
    assert "16.2 MiB is larger than the 16 MiB limit" in formats
    cli = (DOCS / "docs" / "command-line.md").read_text(encoding="utf-8")
    assert "serving benchmark (`serving-evidence parse|attach`) is held to 32 MiB" in re.sub(
        r"\s+", " ", cli
    )
