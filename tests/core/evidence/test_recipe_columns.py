"""Issue 39 item 5: the throughput file a provider returns carries the recipe's context (heads,
vocabulary, the container pinned by digest) in three optional columns, read into the evidence
and shown with the rest of the run's context; a tag without a digest is refused in words."""

from __future__ import annotations

import json

import pytest

from clusterbid.cli import main
from clusterbid.core.evidence import EvidenceParseError
from clusterbid.core.evidence.reading import read_evidence
from clusterbid.core.evidence.throughput_readers import parse_throughput_json

IMAGE = "nvcr.io/nvidia/nemo:24.07@sha256:" + "c" * 64
HEADER = (
    "model,active_params_b,precision,sequence_length,tp,pp,dp,gpus,tokens_per_second,gpu_model,"
    "measured_by,num_attention_heads,vocab_size,container_image\n"
)
ROW = f"llama-70b,70,bf16,4096,8,4,16,512,480000,H100-SXM,provider,64,32000,{IMAGE}\n"


def test_the_three_columns_reach_the_evidence_and_its_description():
    (item,) = read_evidence((HEADER + ROW).encode(), "run.csv").evidence
    assert (item.num_attention_heads, item.vocab_size, item.container_image) == (64, 32_000, IMAGE)
    assert f"512 H100-SXM, 64 heads, vocabulary 32,000, in {IMAGE}:" in item.description


def test_json_rows_carry_them_too_and_leaving_them_out_reads_as_before():
    row = {
        "model": "llama-70b", "active_params_b": 70, "precision": "bf16",
        "sequence_length": 4096, "tp": 8, "pp": 4, "dp": 16, "gpus": 512,
        "tokens_per_second": 480000, "gpu_model": "H100-SXM", "measured_by": "provider",
    }  # fmt: skip
    full = {**row, "num_attention_heads": 64, "vocab_size": 32000, "container_image": IMAGE}
    table = parse_throughput_json(json.dumps({"rows": [full, row]}), "run.json")
    first, second = (r.row for r in table.results)
    assert (first.num_attention_heads, first.vocab_size, first.container_image) == (
        64,
        32_000,
        IMAGE,
    )
    assert (second.num_attention_heads, second.vocab_size, second.container_image) == (
        None,
        None,
        None,
    )


@pytest.mark.parametrize(
    ("cells", "words"),
    [
        (
            "64,32000,nvcr.io/nvidia/nemo:24.07",
            "run.csv line 3: container_image 'nvcr.io/nvidia/nemo:24.07' has no digest",
        ),
        (
            "64,32000,nemo@sha256:abc",
            "run.csv line 3: container_image: the digest after '@sha256:' must be 64",
        ),
        ("0,32000,", "run.csv line 3: num_attention_heads: Input should be greater than"),
        ("64,1,", "run.csv line 3: vocab_size: Input should be greater than or equal to 2"),
        ("64,lots,", "run.csv line 3: vocab_size: Input should be a valid integer"),
    ],
)
def test_bad_recipe_cells_are_refused_naming_file_line_and_column(cells, words):
    text = "# returned\n" + HEADER + ROW.rsplit(",", 3)[0] + "," + cells + "\n"
    with pytest.raises(EvidenceParseError) as caught:
        read_evidence(text.encode(), "run.csv")
    assert words in str(caught.value)


def test_evidence_parse_prints_the_recipe_with_the_runs_other_context(tmp_path, capsys):
    path = tmp_path / "run.csv"
    path.write_text(HEADER + ROW, encoding="utf-8")
    assert main(["evidence", "parse", str(path)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "line 2" in x)
    assert f"DP16 on 512 H100-SXM, 64 heads, vocabulary 32,000, in {IMAGE}:" in line
