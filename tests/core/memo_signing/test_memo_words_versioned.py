"""The memo's words change only with ClusterBid's version (methodology section 14). Verify renders
a memo's attached inputs again and compares every page: a memo made by another version whose
pages differ is INDETERMINATE ("verify with that version"), but one recorded as made by this same
version whose pages differ is INVALID. So a build that words the memo differently under the same
version number calls every memo signed with the build before it forged: it happened once, when
the bid pages began to call the net cost the point estimate (0.1.0 -> 0.1.1). The serving memo is
held too: its service table began to name the serving engine (0.1.1 -> 0.1.2), which only the
training memo's digest would not have caught.

This test holds the demo memo's text, as PDFium reads it, to the version that prints it. When the
words change on purpose, raise `__version__` (desktop/clusterbid/__init__.py and pyproject.toml),
add the new version's lines below with the digests the failures print, its line in
core/memo/released_versions.py with the cost models it ships, and say it in CHANGELOG.md.
A change detector by design: the digest is of the program's own output, recorded per version."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pypdfium2 as pdfium
from tests.core.memo_signing.memo_factory import APPROVERS

from clusterbid import __version__
from clusterbid.core.documents import read_evaluation
from clusterbid.core.memo.render import render_memo
from clusterbid.core.serving_scoring import score_serving_evaluation

DEMO_MEMO_TEXT_SHA256 = {
    "0.1.1": "2dab4e67f5904f47b63f89084acf7175f4e7ef1fd90db88c0bc36fb7a0b6a31f",
    "0.1.2": "fefae6fa620880b47bb730a244b3bce1d87c12fad05b955efc3fa1f487e94a0a",
    "0.1.3": "fb2632a968f6017efc0555e8ea9f366031d299f16dd245c015a66c3962299ed4",
}
SERVING_DEMO_MEMO_TEXT_SHA256 = {
    "0.1.2": "65cf96c59729a5709a13e99603b92ae8ac75804b837177cd1a6ef8e4c5141aa9",
    "0.1.3": "26792dfd8190ddb41a9b3185b6bf4cfa733877c7f321f75db46a7c3cb8787e4f",
}
EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"


def _page_text(pdf: bytes) -> str:
    document = pdfium.PdfDocument(pdf)
    try:
        return "\f".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()


def test_the_demo_memos_words_change_only_with_the_version(unsigned_memo):
    _holds(unsigned_memo, DEMO_MEMO_TEXT_SHA256, "demo memo")


def test_the_serving_demo_memos_words_change_only_with_the_version():
    scorecard = score_serving_evaluation(read_evaluation(EXAMPLES / "demo-serving-evaluation.json"))
    _holds(
        render_memo(scorecard, approvers=APPROVERS), SERVING_DEMO_MEMO_TEXT_SHA256, "serving memo"
    )


def _holds(pdf: bytes, recorded_digests: dict[str, str], which: str) -> None:
    digest = hashlib.sha256(_page_text(pdf).encode("utf-8")).hexdigest()
    recorded = recorded_digests.get(__version__)
    assert recorded == digest, (
        f"the {which}'s words under ClusterBid {__version__} read {digest}, recorded "
        f"{recorded}: if the words changed on purpose, raise __version__ and record the digest "
        "for the new version here, else memos signed with the last build verify as INVALID"
    )
