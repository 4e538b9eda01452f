"""Format detection by content, and fuzzing: every reader raises only EvidenceParseError."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusterbid.core.evidence import EvidenceParseError
from clusterbid.core.evidence.reading import FORMATS, detect_format, read_evidence

DATA = Path(__file__).resolve().parents[2] / "data"
GOOD = {
    "throughput/good.csv": "throughput-csv",
    "throughput/good.json": "throughput-json",
    "throughput/scaling.csv": "scaling-csv",
    "nccl-tests/all_reduce_2x8_ring.json": "nccl-json",
    "nccl-tests/public/all_reduce_2x8xH100_tcpxo.log": "nccl-text",
    "nccl-tests/markdown_fenced.md": "nccl-text",
    "nccl-tests/no_prelude.log": "nccl-text",
}


@pytest.mark.parametrize(("name", "fmt"), GOOD.items())
def test_format_is_detected_by_content(name: str, fmt: str) -> None:
    assert detect_format((DATA / name).read_text(encoding="utf-8")) == fmt


def test_binary_garbage_names_the_line() -> None:
    with pytest.raises(EvidenceParseError, match=r"^junk\.bin line 2: not UTF-8 text"):
        read_evidence(b"ok\n\xff\xfe\x00", "junk.bin")


def _only_parse_errors(data: bytes, fmt: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy overflow warning would be a bug of ours too
        try:
            reading = read_evidence(data, "fuzz", fmt=fmt)
        except EvidenceParseError as exc:
            assert str(exc).startswith("fuzz")
            return
    for item in reading.evidence:  # whatever is accepted must be usable evidence
        assert item.value > 0 and item.artefact_sha256 is not None


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600), st.sampled_from(FORMATS))
def test_random_bytes(data: bytes, fmt: str) -> None:
    _only_parse_errors(data, fmt)


def _mutations(name: str):
    text = (DATA / "throughput" / name).read_text(encoding="utf-8")
    alphabet = st.sampled_from(
        list('0123456789.,-e#:\n "{}[]')
        + ["nan", "inf", "1e308", "-1", "0", "H100-SXM", "sparse_peak"]
    )

    @st.composite
    def mutate(draw):
        chars = list(text)
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(chars)))
            action = draw(st.sampled_from(["insert", "delete", "replace"] * 3 + ["truncate"]))
            if action == "truncate":
                chars = chars[:at]
            elif action == "delete" and at < len(chars):
                del chars[at]
            elif action == "replace" and at < len(chars):
                chars[at] = draw(alphabet)
            else:
                chars.insert(at, draw(alphabet))
        return "".join(chars)

    return mutate()


@pytest.mark.parametrize("name", ["good.csv", "good.json", "scaling.csv", "flags.csv"])
def test_mutated_fixtures(name: str) -> None:
    @settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        _mutations(name),
        st.sampled_from(["auto", "throughput-csv", "throughput-json", "scaling-csv"]),
    )
    def check(text: str, fmt: str) -> None:
        _only_parse_errors(text.encode("utf-8"), fmt)

    check()


def test_huge_line_and_noise_are_refused_quickly() -> None:
    for fmt in ("throughput-csv", "scaling-csv"):
        with pytest.raises(EvidenceParseError, match="line 1: line is"):
            read_evidence(b"x" * (1024 * 1024), "big.csv", fmt=fmt)
