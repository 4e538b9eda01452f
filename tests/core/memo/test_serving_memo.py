"""The approval memo of a serving evaluation: decision in cost per million tokens, the workload-fit
flags printed, inputs attached and re-scored by `verify`, signable like the training memo."""

from __future__ import annotations

import io
import json
import math
import subprocess
from decimal import Decimal

import pytest
from pyhanko.pdf_utils.reader import PdfFileReader
from tests.conftest import EXAMPLES
from tests.core.memo.test_render import needs_poppler
from tests.core.memo_signing.pki import Authority

from clusterbid.cli import main
from clusterbid.core.documents import read_evaluation
from clusterbid.core.errors import InputError
from clusterbid.core.memo.attachment import read_attached_inputs
from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.inputs import RecommendationOverride, parse_memo_inputs
from clusterbid.core.memo.render import render_memo
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import verify_memo
from clusterbid.core.report import money
from clusterbid.core.serving_scoring import score_serving_evaluation

SERVING = EXAMPLES / "demo-serving-evaluation.json"
APPROVERS = [("Ada Lovelace", "CFO"), ("Alan Turing", "Head of Platform")]


@pytest.fixture(scope="module")
def scorecard():
    return score_serving_evaluation(read_evaluation(SERVING))


@pytest.fixture(scope="module")
def serving_pdf(scorecard) -> bytes:
    return render_memo(scorecard, approvers=APPROVERS)


def _text(pdf: bytes) -> str:
    # -raw keeps each table cell's text together (-layout interleaves the columns of wrapped cells).
    done = subprocess.run(
        ["pdftotext", "-raw", "-", "-"], input=pdf, capture_output=True, check=True
    )
    return " ".join(done.stdout.decode("utf-8").split())


def test_the_same_inputs_give_the_same_bytes(scorecard, serving_pdf):
    assert render_memo(scorecard, approvers=APPROVERS) == serving_pdf


def test_attached_inputs_name_the_serving_model_and_verify_re_scores_them(serving_pdf):
    inputs = parse_memo_inputs(read_attached_inputs(PdfFileReader(io.BytesIO(serving_pdf))).raw)
    assert (
        inputs["model_version"] == "serving-3"
        and inputs["evaluation"]["workload"]["kind"] == "inference"
    )
    # helio-h200 ranks first: both H200 fleets need 40 GPUs (TP1, batch 56; the attention
    # kernel's KV read adds to the compute-bound matmuls), and helio's $2.85 beats ridge's $3.30.
    assert inputs["results"]["ranking"][0] == "helio-h200" and inputs["results"]["excluded"] == [
        "lumen-l40s"
    ]
    result = verify_memo(serving_pdf)
    assert result.rescore_matches is True and result.inputs_match_printed
    assert {
        p for p in result.problems if not p.startswith(("not yet signed", "the memo carries no"))
    } == set()


@needs_poppler
def test_page_one_shows_the_decision_the_service_and_the_fabric_flag(scorecard, serving_pdf):
    text = _text(serving_pdf)
    first = scorecard.ranked[0].estimate
    months = first.bid.terms.term_months
    # Issue 31: the approval is the fleet at the buyer's P80 of the draws, times the reservation
    # term: helio's P80 fleet needs 59 H200s, billed as 64 (8 nodes) x 730 h x $2.85 = $133,152 a
    # month, x 12. Its point fleet is 49 replicas (56 billed, $116,508), below what P80 needs.
    band = scorecard.band(first.bid.id)
    assert first.monthly_cost == pytest.approx(56 * 730 * 2.85)
    needed, billed, bill = band.fleet_at_percentile
    assert billed == math.ceil(needed / 8) * 8 and bill == pytest.approx(billed * 730 * 2.85)
    requested = money(bill) * Decimal(months)
    assert "Recommended bid Helio Inference Cloud, H200-SXM" in text
    assert f"${requested:,.2f} (USD), {months} months reserved" in text
    assert f"P80 of the draws: {needed:,} GPUs needed, {billed:,} billed (whole nodes)" in text
    assert "first token within 1000 ms for 90% of requests at peak; 30 ms per output token" in text
    # 72,000 tokens/s / 1,848 per H200 replica = 38.96: 39 replicas carry the stated peak's mean.
    assert "39 carry the stated peak's mean rate" in text
    # northwind-ib itemises $0.55 of its $2.90 for its fabric: 0.55 / 2.90 = 19%.
    assert "0.55 of the 2.90 USD per GPU-hour (19%) pays for a training-grade fabric" in text
    assert "CANNOT SERVE: peak traffic" in text and "cost model serving-3" in text


def test_an_override_needs_its_justification_and_is_printed(scorecard):
    with pytest.raises(InputError, match="needs a written justification"):
        render_memo(
            scorecard, approvers=APPROVERS, override=RecommendationOverride("quarry-h100", " ")
        )
    pdf = render_memo(
        scorecard,
        approvers=APPROVERS,
        override=RecommendationOverride("quarry-h100", "Quarry already hosts our other services."),
    )
    inputs = parse_memo_inputs(read_attached_inputs(PdfFileReader(io.BytesIO(pdf))).raw)
    assert inputs["override"] == {
        "bid_id": "quarry-h100",
        "justification": "Quarry already hosts our other services.",
    }


def test_two_approvers_sign_the_serving_memo_and_the_cli_verifies_it(tmp_path, capsys):
    memo = tmp_path / "serving.pdf"
    assert (
        main(
            [
                "memo",
                str(SERVING),
                "-o",
                str(memo),
                "--approver",
                "Ada Lovelace, CFO",
                "--approver",
                "Alan Turing, Head of Platform",
            ]
        )
        == 0
    )
    authority = Authority.create()
    pdf = memo.read_bytes()
    for field, (name, passphrase) in enumerate(
        [("Ada Lovelace", "a-pass"), ("Alan Turing", "b-pass")], start=1
    ):
        p12 = authority.write_p12(tmp_path, name, passphrase)
        pdf = sign_memo(pdf, f"approver-{field}", load_credentials(p12, passphrase)).pdf
    memo.write_bytes(pdf)
    capsys.readouterr()
    assert (
        main(
            [
                "verify",
                str(memo),
                "--trust",
                str(authority.write_pem(tmp_path / "ca.pem")),
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert [s["signer"] for s in report["signatures"]] == ["Ada Lovelace", "Alan Turing"]
    assert report["rescore_matches"] is True


def test_a_failed_write_leaves_neither_a_half_memo_nor_a_temporary_file(tmp_path):
    from clusterbid.core.memo.signoff import write_atomically

    target = tmp_path / "memo.pdf"
    target.mkdir()  # os.replace onto a directory fails after the bytes were written
    from clusterbid.core.safe_files import OutputWriteError

    with pytest.raises(OutputWriteError, match="memo.pdf: could not be written"):
        write_atomically(target, b"%PDF-1.7 whole memo")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memo.pdf"] and target.is_dir()
