"""The rendered memo: deterministic bytes, attached inputs, page 1 content, fields, Unicode, override."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess

import pytest
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.fields import enumerate_sig_fields

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.inputs import (
    INPUTS_ATTACHMENT_NAME,
    RecommendationOverride,
    rescore_memo_inputs,
)
from clusterbid.core.memo.render import render_memo
from clusterbid.core.scoring import score_evaluation

APPROVERS = [
    ("Ada Lovelace", "CFO"),
    ("Grace Hopper", "Head of ML platform"),
    ("Alan Turing", "CTO"),
]
needs_poppler = pytest.mark.skipif(
    shutil.which("pdftotext") is None,
    reason="poppler-utils (pdftotext) is not installed; apt install poppler-utils",
)


@pytest.fixture(scope="module")
def demo_pdf() -> bytes:
    return render_memo(score_evaluation(demo_evaluation()), approvers=APPROVERS)


def attachment(pdf: bytes) -> bytes:
    reader = PdfFileReader(io.BytesIO(pdf))
    names = reader.root["/Names"]["/EmbeddedFiles"]["/Names"]
    items = [names[i] for i in range(len(names))]
    entries = dict(zip(items[::2], items[1::2]))
    return entries[INPUTS_ATTACHMENT_NAME]["/EF"]["/F"].data


def page_text(pdf: bytes, page: int) -> str:
    done = subprocess.run(
        ["pdftotext", "-layout", "-f", str(page), "-l", str(page), "-", "-"],
        input=pdf,
        capture_output=True,
        check=True,
    )
    return done.stdout.decode("utf-8")


def test_two_renders_are_byte_identical(demo_pdf):
    again = render_memo(score_evaluation(demo_evaluation()), approvers=APPROVERS)
    assert again == demo_pdf


def test_the_attachment_is_the_canonical_inputs_and_rescores_to_the_printed_figures(demo_pdf):
    raw = attachment(demo_pdf)
    data = json.loads(raw)
    # Canonical form: re-serialising with the contract's settings gives the same bytes.
    assert (
        json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() == raw
    )
    assert rescore_memo_inputs(data) == data["results"]
    assert data["approvers"][2] == {"name": "Alan Turing", "role": "CTO"}


@needs_poppler
def test_page_one_shows_job_size_busbw_assumptions_and_the_inputs_hash(demo_pdf):
    text = page_text(demo_pdf, 1)
    assert hashlib.sha256(attachment(demo_pdf)).hexdigest() in text
    # The demo's workload: job_gpus 512 (resources/examples/demo-evaluation.json).
    assert "512 GPUs in one synchronous job" in text
    # northwind-ib: 8 NICs x 400 Gb/s = 400 GB/s aggregate x 0.94 typical IB-NDR400 efficiency
    # (resources/catalog/fabrics.toml) = 376.0 GB/s; budget-tcp: 2 x 100 Gb/s = 25 GB/s x 0.5 = 12.5 GB/s.
    assert "376.0 GB/s" in text and "12.5 GB/s" in text
    assert "spec sheet: 8 x 400 Gb/s IB-NDR400 x 0.94 (not measured)" in text
    assert "page 1 of" in text


@needs_poppler
def test_one_signature_field_per_approver_on_the_sign_off_page(demo_pdf):
    reader = PdfFileReader(io.BytesIO(demo_pdf))
    fields = [(name, value) for name, value, _ in enumerate_sig_fields(reader)]
    assert [name for name, _ in fields] == ["approver-1", "approver-2", "approver-3"]
    assert all(value is None for _, value in fields)  # created empty, before anyone signs
    # The sign-off closes the decision, before the methodology appendix: all three fields sit on
    # the one page that carries the sign-off heading and the approvers' names.
    pages = reader.root["/Pages"]["/Count"]
    sign_off = [
        n for n in range(1, pages + 1) if "Approver 3: Alan Turing" in page_text(demo_pdf, n)
    ]
    assert len(sign_off) == 1 and "Sign-off" in page_text(demo_pdf, sign_off[0])
    page = reader.find_page_for_modification(sign_off[0] - 1)[0].get_object()
    for _, _, ref in enumerate_sig_fields(reader):
        assert ref.get_object()["/P"].get_object() == page


def test_an_override_without_justification_is_refused_with_a_clear_message():
    scorecard = score_evaluation(demo_evaluation())
    with pytest.raises(InputError, match="needs a written justification"):
        render_memo(
            scorecard, approvers=APPROVERS, override=RecommendationOverride("prime-efa", "")
        )


@needs_poppler
def test_an_override_prints_its_justification():
    scorecard = score_evaluation(demo_evaluation())
    pdf = render_memo(
        scorecard,
        approvers=APPROVERS,
        override=RecommendationOverride("prime-efa", "Data must stay in the EU region."),
    )
    text = page_text(pdf, 1)
    assert "Recommended bid" in text and "Hyperscale Prime, H100-SXM" in text
    assert "Data must stay in the EU region." in text


@needs_poppler
def test_a_unicode_provider_name_renders_and_extracts():
    data = demo_evaluation().model_dump(mode="json")
    name = "Zürich Rechenzentrum 東京 GmbH — Ærø Łódź"
    data["bids"][0]["quote"]["provider"] = name
    pdf = render_memo(score_evaluation(Evaluation.model_validate(data)), approvers=APPROVERS)
    text = page_text(pdf, 1)
    # DejaVu draws the Latin letters; 東京 comes from the bundled CJK font. Both embedded.
    assert "Zürich Rechenzentrum" in text and "Ærø Łódź" in text
    assert "東京" in text
    fonts = subprocess.run(
        ["pdffonts", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    rows = [line.split() for line in fonts.splitlines()[2:]]
    assert any(row[0].endswith("+DroidSansFallback") for row in rows)
    # name, type (one or two words), encoding, then emb / sub / uni: every font embedded and subset.
    assert rows and all(row[-5:-3] == ["yes", "yes"] for row in rows), fonts


def _fonts_of(pdf: bytes) -> list[list[str]]:
    fonts = subprocess.run(["pdffonts", "-"], input=pdf, capture_output=True, check=True).stdout
    return [line.split() for line in fonts.decode().splitlines()[2:]]


@needs_poppler
def test_japanese_chinese_korean_and_thai_names_print_in_embedded_fonts():
    data = demo_evaluation().model_dump(mode="json")
    data["bids"][1]["quote"]["provider"] = "さくらインターネット 臺灣雲端"
    data["bids"][2]["quote"]["provider"] = "서울 클라우드"  # Seoul Cloud
    data["bids"][3]["quote"]["provider"] = "ไทยคลาวด์"  # Thai Cloud
    data["title"] = "東京 GPU 調達 2027"
    pdf = render_memo(
        score_evaluation(Evaluation.model_validate(data)),
        approvers=[("山田太郎", "CFO"), ("김민준", "CTO")],
    )
    words = " ".join(
        subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True)
        .stdout.decode()
        .split()
    )
    assert "さくらインターネット 臺灣雲端" in words and "山田太郎" in words
    assert "서울 클라우드" in words and "김민준" in words
    assert "ไทยคลาวด์" in words
    assert "東京 GPU 調達 2027" in page_text(
        pdf, 2
    )  # the running header of every page after the first
    rows = _fonts_of(pdf)
    for family in ("DroidSansFallback", "NanumGothic", "NotoSansThai"):
        assert any(row[0].split("+")[-1].startswith(family) for row in rows), (family, rows)
    assert all(row[-5:-3] == ["yes", "yes"] for row in rows), rows  # embedded, subset


def test_a_chinese_name_never_loads_the_korean_font():
    from clusterbid.core.memo import styles

    # 中 (U+4E2D) is in Nanum's Hanja too; the CJK cut sets Chinese so a name never mixes designs.
    assert [face for face, _ in styles.face_runs("中国云 GPU", styles.FONT)] == [
        "DroidSansFallback-CJK",
        styles.FONT,
    ]
    assert styles.face_runs("서울", styles.FONT) == [("NanumGothic", "서울")]


@pytest.mark.parametrize(
    "name, refused",
    [
        ("Cloud 🚀 GPUs", r"'🚀' \(U\+1F680 ROCKET\)"),
        ("भारत Compute", r"'भ' \(U\+092D DEVANAGARI LETTER BHA\).*none of its fonts"),
        # DejaVu has Arabic and Hebrew letters, but reportlab would set them left to right, unjoined.
        ("سحابة الخليج", r"'س' \(U\+0633 ARABIC LETTER SEEN\).*right to left"),
        ("ענן ישראלי", r"'ע' \(U\+05E2 HEBREW LETTER AYIN\).*right to left"),
    ],
)
def test_names_the_memo_cannot_print_correctly_are_refused_by_character(name, refused):
    data = demo_evaluation().model_dump(mode="json")
    data["bids"][1]["quote"]["provider"] = name
    with pytest.raises(InputError, match=refused):
        render_memo(score_evaluation(Evaluation.model_validate(data)), approvers=APPROVERS)


@needs_poppler
def test_a_long_provider_name_wraps_instead_of_overflowing():
    import re

    data = demo_evaluation().model_dump(mode="json")
    name = "Very Long Provider Name International Compute Holdings " * 3
    data["bids"][0]["quote"]["provider"] = name
    pdf = render_memo(score_evaluation(Evaluation.model_validate(data)), approvers=APPROVERS)
    # Every word of every page lies inside the page's 18 mm margins (A4: 595.3 points wide).
    boxes = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    right_edges = [
        float(x) for x in re.findall(r'<word xMin="[\d.]+" yMin="[\d.]+" xMax="([\d.]+)"', boxes)
    ]
    margin = 18 / 25.4 * 72  # 51.0 points
    assert right_edges and max(right_edges) <= 595.3 - margin + 0.5
    # ...and the whole name is there, wrapped over lines rather than cut.
    assert " ".join(name.split()) in " ".join(page_text(pdf, 1).split())


@needs_poppler
def test_page_one_states_the_total_commitment_the_score_gives(demo_pdf):
    from clusterbid.core.report import scorecard_to_json

    report = scorecard_to_json(score_evaluation(demo_evaluation()))
    winner = report["bids"][0]["figures"]
    text = " ".join(page_text(demo_pdf, 1).split())
    # The demo's Northwind terms: 512 reserved GPUs x 3 months x 730 h x $2.85 = $3,195,648.
    assert winner["total_commitment"] == {"amount": "3195648.00", "currency": "USD"}
    assert "Approve a total commitment of $3,195,648.00 (USD) to Northwind AI Cloud" in text
    assert "512 GPUs x 3 months at $2.85 per GPU-hour" in text
    assert "finishes about " + winner["finish_date"] in text


@needs_poppler
def test_an_override_and_notes_keep_the_job_and_network_box_on_page_one():
    scorecard = score_evaluation(demo_evaluation())
    pdf = render_memo(
        scorecard,
        approvers=APPROVERS,
        notes="Reviewed in the bid meeting. " * 12,
        override=RecommendationOverride(
            "prime-efa",
            "Data must stay in the EU region; only "
            "Hyperscale Prime offers an EU data centre with the block.",
        ),
    )
    text = page_text(pdf, 1)
    assert "512 GPUs in one synchronous job" in text  # seed 001: job size and network on page 1
    assert "spec sheet: 8 x 400 Gb/s IB-NDR400 x 0.94" in text
