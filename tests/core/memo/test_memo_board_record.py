"""Issue 34, item 7: page 1 (and the waterfall under the ranking) of the demo memo, an override
memo, a EUR memo and a serving memo, read back as a board reads them: each item in the text
(pdftotext) and where it sits (pdftotext -bbox for words, pdftoppm for how full each page is)."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
from tests.conftest import EXAMPLES
from tests.core.memo.test_render import needs_poppler

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.inputs import RecommendationOverride
from clusterbid.core.memo.making import make_memo

pytestmark = needs_poppler
APPROVERS = [("Ada Lovelace", "CFO")]
SAMPLES = 4_000
DEMO = json.loads((EXAMPLES / "demo-evaluation.json").read_text(encoding="utf-8"))
SERVING = json.loads((EXAMPLES / "demo-serving-evaluation.json").read_text(encoding="utf-8"))
PARTS = (
    "Price per GPU-hour",
    "Scaling and network",
    "Goodput and schedule",
    "Term and idle value",
    "Fees and exit",
    "Evidence haircut",
)


def _text(pdf: bytes, page: int) -> str:
    done = subprocess.run(
        ["pdftotext", "-raw", "-f", str(page), "-l", str(page), "-", "-"],
        input=pdf,
        capture_output=True,
        check=True,
    )
    return " ".join(done.stdout.decode("utf-8").split())


def _words_by_page(pdf: bytes) -> list[list[str]]:
    done = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True
    )
    return [
        re.findall(r"<word [^>]*>([^<]*)</word>", page)
        for page in done.stdout.decode("utf-8").split("<page ")[1:]
    ]


def _fill(pdf: bytes) -> list[float]:
    """Per page, how far down the page ink reaches inside the text frame, as a share of the frame
    (header and footer left out): from the rendered pixels, so charts count as well as words."""
    shares = []
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "memo.pdf"
        source.write_bytes(pdf)
        subprocess.run(
            ["pdftoppm", "-gray", "-r", "30", str(source), str(Path(folder) / "page")], check=True
        )
        for image in sorted(Path(folder).glob("page-*.pgm")):
            data = image.read_bytes()
            magic, width, height, _, pixels = data.split(maxsplit=4)
            assert magic == b"P5"
            grid = np.frombuffer(pixels[: int(width) * int(height)], dtype=np.uint8).reshape(
                int(height), int(width)
            )
            top, bottom = int(grid.shape[0] * 0.09), int(grid.shape[0] * 0.905)
            inked = np.flatnonzero((grid[top:bottom] < 200).any(axis=1))
            shares.append(0.0 if not len(inked) else (inked.max() + 1) / (bottom - top))
    assert len(shares) == len(_words_by_page(pdf))  # every page measured
    return shares


def _money(text: str) -> int:
    return int(text.replace("$", "").replace(",", "").replace("+", ""))


def _waterfall_sums(text: str) -> None:
    """The printed parts add up to the printed difference (each rounded to the dollar: within one
    dollar a part), and the ends are the decision costs page 1's rows name."""
    found = re.search(
        r"Why the recommendation wins.*?Recommended (.+?) \$([\d,]+) ((?:[-+]?\$[\d,]+ ){6})"
        r"(.+?) \$([\d,]+)",
        text,
    )
    assert found, text
    start, parts, end = (
        _money(found.group(2)),
        [_money(p) for p in found.group(3).split()],
        _money(found.group(5)),
    )
    assert abs(start + sum(parts) - end) <= len(parts)


@pytest.fixture(scope="module")
def demo_pdf() -> bytes:
    return make_memo(Evaluation.model_validate(DEMO), approvers=APPROVERS, samples=SAMPLES)


def test_demo_page_one_and_the_waterfall_under_the_ranking(demo_pdf):
    page = _text(demo_pdf, 1)
    assert "ranked on the expected net cost (the mean of the samples)" in page
    assert "(likeliest to cost less)" in page and "(next by score)" in page and "commits $" in page
    assert "Commitment at risk" in page and "Not verified" in page and "Most worth asking" in page
    words = _words_by_page(demo_pdf)
    assert "Fragment" in words[0]  # the job box, to its last bid (Fragment Cloud), on page 1
    second = _text(demo_pdf, 2)
    assert all(part in second for part in PARTS), second
    _waterfall_sums(second)
    # Page 2's headers (the criteria matrix, the waterfall) break between words only.
    headers = (
        "# Bid Net plan cost (70%) SLA (8%) Data-centre tier (5%) Certifications (5%) Support (3%) "
        "Contract terms (4%) Evidence (5%) Score Next by score Recommended " + " ".join(PARTS)
    ).split()
    assert [w for w in headers if w not in words[1]] == []
    # No page more than half empty but the last.
    assert all(share > 0.5 for share in _fill(demo_pdf)[:-1]), _fill(demo_pdf)


def test_an_override_memo_compares_rivals_and_the_waterfall_with_the_bid_recommended():
    why = "The board values the 99.99% SLA and the Tier 4 site for a first run of this size."
    pdf = make_memo(
        Evaluation.model_validate(DEMO),
        approvers=APPROVERS,
        samples=SAMPLES,
        override=RecommendationOverride("prime-efa", why),
        decision_date=dt.date(2026, 12, 1),
    )
    page = _text(pdf, 1)
    assert "Recommended bid Hyperscale Prime, H100-SXM" in page
    assert (
        "costs less than Hyperscale Prime, H100-SXM in" in page
    )  # chances against the bid recommended
    assert "Trade-off" in page and why in page
    assert "Fragment" in _words_by_page(pdf)[0]
    second = _text(pdf, 2) + " " + _text(pdf, 3)
    assert "Model's first " + " ".join(PARTS) + " Recommended" in second  # not "next by score"
    found = re.search(r"Recommended (.+?) \$[\d,]+ (?:[-+]?\$[\d,]+ ){6}(.+?) \$", second)
    assert found and found.group(2) == "Hyperscale Prime" and found.group(1) == "Northwind AI Cloud"


def test_a_eur_memo_prints_the_rate_with_its_date_and_source_beside_the_commitment():
    data = json.loads(json.dumps(DEMO))
    northwind = next(b for b in data["bids"] if b["id"] == "northwind-ib")
    northwind["terms"] |= {"currency": "EUR", "price_per_gpu_hour": "2.64"}
    data["policy"]["exchange_rates"] = {"EUR": "1.08"}
    data["policy"]["exchange_rate_sources"] = {
        "EUR": {"as_of": "2026-11-02", "source": "the European Central Bank's euro reference rate"}
    }
    pdf = make_memo(Evaluation.model_validate(data), approvers=APPROVERS, samples=SAMPLES)
    page = _text(pdf, 1)
    # 512 GPUs x 3 months x 730 h x EUR 2.64 = EUR 2,960,179.20; x 1.08 = USD 3,196,993.54.
    assert (
        "the contract is in EUR: €2,960,179.20, which is $3,196,993.54 at 1 EUR = 1.08 USD, the "
        "rate of "
        "2026-11-02 from the European Central Bank's euro reference rate"
    ) in page
    assert "not recorded in the inputs" not in page
    assert "Fragment" in _words_by_page(pdf)[0]


def test_a_rate_source_without_a_rate_is_refused_by_name():
    data = json.loads(json.dumps(DEMO))
    data["policy"]["exchange_rate_sources"] = {"EUR": {"as_of": "2026-11-02", "source": "ECB"}}
    with pytest.raises(
        ValueError, match="policy.exchange_rate_sources names EUR, which has no rate"
    ):
        Evaluation.model_validate(data)


def test_the_serving_memo_has_the_training_rows_its_own_glossary_and_whole_headers():
    pdf = make_memo(Evaluation.model_validate(SERVING), approvers=APPROVERS)
    page = _text(pdf, 1)
    for row in ("Decision basis ranked on the", "Rivals ", "Approval requested", "Not verified "):
        assert row in page, row
    assert re.search(r"Rivals .*commits \$[\d,]+ \(12 months reserved\)", page)
    assert "passing bids rest on a throughput nobody measured independently" in page
    words = _words_by_page(pdf)
    text = " ".join(" ".join(w) for w in words)
    for term in ("(TTFT)", "(TPOT)", "KV cache", "per-user speed"):
        assert term in text, term
    assert "Words used throughout" not in text  # the training glossary is left out
    # The comparison's headers break between words only: each of their words is whole on the page.
    table_pages = [w for w in words if "Gates" in w]
    header_words = [
        "#",
        "Bid",
        "/",
        "provider",
        "GPU",
        "Price",
        "per",
        "GPU-h",
        "Per",
        "M",
        "output",
        "tokens",
        "Per",
        "month",
        "GPUs",
        "Gates",
        "and",
        "flags",
    ]
    assert table_pages and all(word in table_pages[0] for word in header_words)
    assert all(share > 0.5 for share in _fill(pdf)[:-1]), _fill(pdf)
