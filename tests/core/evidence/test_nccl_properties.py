"""Property and robustness tests: busbw formula on generated rows, fuzzing, huge inputs."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.refusal_cost import refusal_cost

from clusterbid.core.evidence import EvidenceParseError, parse_nccl_tests_text

HEADER = (
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time "
    "  algbw   busbw #wrong"
)


def printed(value: float, width: int) -> str:
    """The test's own rendering of nccl-tests' width-limited float columns (2, 1, 0 decimals, then %.1e)."""
    digits = len(str(int(value))) if value >= 1 else 0
    if digits < width - 2:
        return f"{value:{width}.2f}"
    if digits < width - 1:
        return f"{value:{width}.1f}"
    if digits < width + 1:
        return f"{value:{width}.0f}"
    return f"{value:{width}.1e}"


@settings(max_examples=300, deadline=None)
@given(
    ranks=st.integers(min_value=2, max_value=4096),
    exponent=st.integers(min_value=3, max_value=36),
    algbw=st.floats(min_value=0.001, max_value=2000.0, allow_nan=False),
)
def test_busbw_follows_all_reduce_formula(ranks: int, exponent: int, algbw: float) -> None:
    size = 2**exponent
    busbw = algbw * 2 * (ranks - 1) / ranks
    time_us = size / (algbw * 1e3)
    half = f"  {printed(time_us, 7)}  {printed(algbw, 6)}  {printed(busbw, 6)}       0"
    rank_lines = "\n".join(
        f"#  Rank {r:2d} Group  0 Pid {100 + r:6d} on node{r // 8} device {r % 8:2d} [0x07] GPU"
        for r in range(ranks)
    )
    text = (
        f"{rank_lines}\n{HEADER}\n{size:12d}  {size // 4:12d}     float     sum      "
        f"-1{half}{half}\n# Out of bounds values : 0 OK\n"
    )
    (run,) = parse_nccl_tests_text(text, "gen.log", collective_hint="all_reduce")
    row = run.rows[0].out_of_place

    # Rounding to the printed digits moves each figure by at most half its last digit.
    def half_digit(token: str) -> float:
        mantissa, _, exp = token.strip().partition("e")
        return 0.5 * 10.0 ** ((int(exp) if exp else 0) - len(mantissa.partition(".")[2]))

    tolerance = (
        half_digit(printed(busbw, 6))
        + 2 * (ranks - 1) / ranks * half_digit(printed(algbw, 6))
        + 1e-9 * busbw
    )
    assert abs(row.busbw_gb_s - row.algbw_gb_s * 2 * (ranks - 1) / ranks) <= tolerance
    assert "busbw_formula_mismatch" not in run.flag_codes()


def _parse_or_clean_error(text: str) -> None:
    try:
        parse_nccl_tests_text(text, "fuzz.log")
    except EvidenceParseError as exc:
        assert str(exc).startswith("fuzz.log")


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_random_text_only_raises_parse_error(text: str) -> None:
    _parse_or_clean_error(text)


@settings(
    max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_mutated_real_log_lines_only_raise_parse_error(
    real_log_bytes: bytes, data: st.DataObject
) -> None:
    lines = real_log_bytes.decode("utf-8").split("\n")
    for _ in range(data.draw(st.integers(1, 4))):
        index = data.draw(st.integers(0, len(lines) - 1))
        tokens = lines[index].split(" ")
        at = data.draw(st.integers(0, len(tokens) - 1))
        tokens[at] = data.draw(
            st.sampled_from(
                [
                    "",
                    "N/A",
                    "-1",
                    "1e+400",
                    "nan",
                    "inf",
                    "-3.5",
                    "0x10",
                    "float",
                    "#wrong",
                    "9" * 30,
                    "1.2.3",
                    "\x00",
                    "#",
                    ">",
                    "size",
                    "Rank",
                    "_perf",
                ]
            )
        )
        lines[index] = " ".join(tokens)
    _parse_or_clean_error("\n".join(lines))


@settings(
    max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cut=st.integers(min_value=0, max_value=10_000))
def test_truncated_prefixes_of_real_log(real_log_bytes: bytes, cut: int) -> None:
    text = real_log_bytes.decode("utf-8")
    _parse_or_clean_error(text[: cut % (len(text) + 1)])


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=600))
def test_binary_garbage(blob: bytes) -> None:
    _parse_or_clean_error(blob.decode("latin-1"))


def test_100_mb_of_noise_is_a_linear_scan(tmp_path: Path) -> None:
    rng = random.Random(7)
    noise_lines = [
        "node-1:4106:4119 [0] NCCL INFO Channel 00/32 :    0   1   2   3",
        "# Using devices",
        "12345 67890 hello world",
        "> > quoted text with nothing in it",
        "x" * 200,
    ]
    block = "\n".join(rng.choice(noise_lines) for _ in range(10_000)) + "\n"
    text = block * (100_000_000 // len(block) + 1)
    assert len(text) >= 100_000_000
    try:
        parse_nccl_tests_text(text, "noise.log")
    except EvidenceParseError as exc:
        # Refused at the bound on lines (issue 32), long before the end of the text.
        assert "line 400001: more than 400,000 lines" in str(exc)
    else:
        raise AssertionError("noise parsed as a run")
    assert _parse_cost(tmp_path / "noise.log", text) < 30


def _parse_cost(path: Path, text: str) -> float:
    """CPU seconds of parsing `text` as `path`'s name, in a child of its own (refusal_cost says
    why); the child reads the file before it is measured."""
    path.write_text(text, encoding="utf-8")
    setup = (
        "from pathlib import Path\n"
        "from clusterbid.core.evidence import parse_nccl_tests_text\n"
        "text = Path(ARGS[0]).read_text(encoding='utf-8')"
    )
    cost = refusal_cost(setup, "parse_nccl_tests_text(text, ARGS[1])", str(path), path.name)
    assert cost.refused_with(EvidenceParseError), cost
    return cost.cpu_seconds


def test_one_megabyte_line_is_refused_quickly(tmp_path: Path) -> None:
    text = "# nThread 1\n" + "9 " * 500_000 + "\n"
    try:
        parse_nccl_tests_text(text, "long.log")
    except EvidenceParseError as exc:
        assert str(exc).startswith("long.log line 2: line is 1000000 characters long")
    else:
        raise AssertionError("a 1 MB line was accepted")
    assert _parse_cost(tmp_path / "long.log", text) < 5


@settings(max_examples=200, deadline=None)
@given(
    last_exponent=st.integers(min_value=10, max_value=29),  # the sweep ends below 1 GiB (2**30)
    busbws=st.lists(st.integers(min_value=1, max_value=90_000), min_size=1, max_size=6),
    indent=st.sampled_from(["", "    ", "> ", "\t"]),
    newline=st.sampled_from(["\n", "\r\n"]),
)
def test_a_short_sweep_scores_its_largest_size_as_a_lower_bound(
    last_exponent: int, busbws: list[int], indent: str, newline: str
) -> None:
    """Whatever the curve's shape, indentation or line ending: the figure is the largest size's
    better busbw (the test's own max of out-of-place and in-place), flagged as a lower bound."""
    rows = []
    sizes = [2 ** (last_exponent - len(busbws) + 1 + i) for i in range(len(busbws))]
    for size, centi in zip(sizes, busbws, strict=True):
        oop, ip = centi / 100, (centi + 7) / 100  # in-place 0.07 GB/s better, as printed
        half = lambda v: f"  {1000.0:7.1f}  {v:6.2f}  {v:6.2f}       0"  # noqa: E731 (busbw = algbw: sendrecv)
        rows.append(
            f"{indent}{size:12d}  {size // 4:12d}     float     sum      -1{half(oop)}{half(ip)}"
        )
    text = newline.join([f"{indent}{HEADER}", *rows, f"{indent}# Out of bounds values : 0 OK", ""])
    (run,) = parse_nccl_tests_text(text, "short.log", collective_hint="sendrecv")
    assert run.plateau.saturated is False and run.plateau.size_bytes == sizes[-1]
    assert run.plateau.busbw_gb_s == max(busbws[-1] / 100, (busbws[-1] + 7) / 100)
    assert "sweep_below_1gib" in run.flag_codes()
