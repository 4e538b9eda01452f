"""The memo's words change only with ClusterBid's version (methodology section 14). Verify renders
a memo's attached inputs again and compares every page: a memo made by another version whose
pages differ is INDETERMINATE ("verify with that version"), but one recorded as made by this same
version whose pages differ is INVALID. So a build that words the memo differently under the same
version number calls every memo signed with the build before it forged: it happened once, when
the bid pages began to call the net cost the point estimate (0.1.0 -> 0.1.1).

This test holds the demo memo's text, as PDFium reads it, to the version that prints it. When the
words change on purpose, raise `__version__` (desktop/clusterbid/__init__.py and pyproject.toml),
add the new version's line below with the digest the failure prints, and say it in CHANGELOG.md.
A change detector by design: the digest is of the program's own output, recorded per version."""

from __future__ import annotations

import hashlib

import pypdfium2 as pdfium

from clusterbid import __version__

DEMO_MEMO_TEXT_SHA256 = {
    "0.1.1": "2dab4e67f5904f47b63f89084acf7175f4e7ef1fd90db88c0bc36fb7a0b6a31f",
}


def _page_text(pdf: bytes) -> str:
    document = pdfium.PdfDocument(pdf)
    try:
        return "\f".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()


def test_the_demo_memos_words_change_only_with_the_version(unsigned_memo):
    digest = hashlib.sha256(_page_text(unsigned_memo).encode("utf-8")).hexdigest()
    recorded = DEMO_MEMO_TEXT_SHA256.get(__version__)
    assert recorded == digest, (
        f"the demo memo's words under ClusterBid {__version__} read {digest}, recorded "
        f"{recorded}: if the words changed on purpose, raise __version__ and record the digest "
        "for the new version here, else memos signed with the last build verify as INVALID"
    )
