"""Issue 30, item 1: every page proven on any version. Each memo here is doctored before anyone
signs (so every signature is intact and covers it), with honest attached inputs; verify renders
the inputs again, the bytes differ, and the page images or text name what differs."""

from __future__ import annotations

import datetime as dt
import re
from contextlib import contextmanager

import pypdfium2
import pytest
from tests.core.memo_signing import doctoring
from tests.core.memo_signing.conftest import ADA, GRACE

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo import render
from clusterbid.core.memo.credentials import load_credentials, load_trust_roots
from clusterbid.core.memo.making import make_memo
from clusterbid.core.memo.page_images import compare_pages
from clusterbid.core.memo.signing import sign_memo
from clusterbid.core.memo.verification import INVALID, VALID, verify_memo

APPROVERS = (("Ada Lovelace", "CFO"), ("Grace Hopper", "CTO"))


def _memo() -> bytes:
    return make_memo(
        demo_evaluation(), approvers=APPROVERS, decision_date=dt.date(2026, 11, 20), samples=0
    )


@contextmanager
def _recorded_as(**versions: str):
    """The attachment records other library versions than those drawing (what a preparer can
    write, and what any memo checked after an upgrade carries)."""
    here = render.rendering_libraries

    def recorded() -> dict[str, str]:
        return {**here(), **versions}

    render.rendering_libraries = recorded
    try:
        yield
    finally:
        render.rendering_libraries = here


def _verify(pki, pdf: bytes):
    once = sign_memo(pdf, "approver-1", load_credentials(pki.ada_p12, ADA[1])).pdf
    twice = sign_memo(once, "approver-2", load_credentials(pki.grace_p12, GRACE[1])).pdf
    result = verify_memo(twice, load_trust_roots([pki.ca_pem]))
    assert all(report.intact for report in result.signatures)  # the signatures cover the doctoring
    return result


@pytest.fixture(scope="module")
def honest() -> bytes:
    return _memo()


def _pages(pdf: bytes) -> int:
    return len(pypdfium2.PdfDocument(pdf))


def test_a_later_page_doctored_with_the_version_record_changed_is_invalid_and_named(pki):
    """Page 5 prints Northwind's price "$2.85" (the README's demo table); the doctored memo prints
    "$1.85" there and records reportlab 4.2.5, so the re-render's bytes cannot match."""
    with _recorded_as(reportlab="4.2.5"), doctoring.text_replaced("$2.85", "$1.85", from_page=5):
        doctored = _memo()
    result = _verify(pki, doctored)
    assert result.verdict == INVALID
    assert "drawn with other library versions (reportlab 4.2.5 there" in result.page_check
    assert (
        "page 1 recommends Northwind AI Cloud, H100-SXM, as the attached inputs do"
        in result.page_checked
    )
    named = [p for p in result.problems if p.startswith("page 5: '")]
    assert named and named[0].startswith(
        "page 5: '$1.85' where the inputs render '$2.85', on screen and in print at x "
    ), result.problems
    assert all("$1.85" in p and "$2.85" in p for p in named)
    assert "page 5: its text reads '$1.85' where the inputs render '$2.85'" in " ".join(
        result.problems
    )
    assert not any(
        p.startswith(("page 1:", "page 2:", "page 3:", "page 4:", "page 6:"))
        for p in result.problems
    )


def test_the_honest_memo_with_another_library_record_is_valid_through_the_page_images(pki):
    """What a memo made before an upgrade is: the attachment records other versions, and the
    drawing library wrote other bytes for the same pages. The upgrade is simulated by reportlab
    writing its streams in ASCII85 (other bytes, same pages) and placing every text run 0.004 pt
    to the right (other rounding: PDFium puts glyphs on whole pixels, so some move by one):
    bytes differ, thousands of pixels differ, the verdict is VALID; the same path with one digit
    changed is INVALID (the test above)."""
    from reportlab import rl_config
    from reportlab.pdfgen.textobject import PDFTextObject

    original, encoding = PDFTextObject.setTextOrigin, rl_config.useA85

    def nudged(self, x, y):
        return original(self, x + 0.004, y)

    with _recorded_as(reportlab="4.2.5"):
        PDFTextObject.setTextOrigin, rl_config.useA85 = nudged, 1
        try:
            old = _memo()
        finally:
            PDFTextObject.setTextOrigin, rl_config.useA85 = original, encoding
        again = _memo()  # what verify renders here: the same record, today's drawing
    assert old != again
    comparison = compare_pages(old, again)
    assert comparison.pixels_changed > 1000 and comparison.identical, comparison.problems()
    result = _verify(pki, old)
    assert result.verdict == VALID, (result.problems, result.unproven)
    assert result.page_check.startswith(
        "re-rendered from the attached inputs: the bytes differ (drawn "
        "with other library versions (reportlab 4.2.5 there"
    )
    assert f"all {_pages(old)} pages the same within the tolerance" in result.page_check


def test_a_print_only_layer_is_invalid_and_said_to_show_in_print(pki, honest):
    result = _verify(pki, doctoring.print_only_layer(honest, "APPROVED BUDGET 9,999,999", page=1))
    assert result.verdict == INVALID
    named = [p for p in result.problems if p.startswith("page 2: '")]
    # The layer's words are named, alone or on the table line they were printed over (where the
    # page's rows fall depends on how long the bids' names are).
    assert named and all(
        re.match(r"page 2: '(?:[^']* )?APPROVED BUDGET 9,999,999' where the inputs render", p)
        and ", in print at x" in p
        for p in named
    ), result.problems
    assert not any("on screen" in p for p in named)


def test_an_overlay_under_the_text_is_invalid(pki, honest):
    # A grey box under page 2's top half: the text on top of it still reads the same.
    result = _verify(pki, doctoring.overlay_under(honest, page=1, box=(60, 600, 540, 780)))
    assert result.verdict == INVALID
    named = [
        p
        for p in result.problems
        if p.startswith("page 2: drawn differently on screen and in print")
    ]
    assert named, result.problems
    assert not any("its text reads" in p for p in result.problems)  # the text is untouched


def test_a_font_whose_text_map_lies_is_invalid(pki):
    """Every digit 1 is drawn as 3 and the reverse, while the font's ToUnicode map reads the
    truth: extracted text matches the re-render ($3,195,648.00), the page shows $1,395,648.00."""
    with doctoring.lying_digits():
        lying = _memo()
    text = pypdfium2.PdfDocument(lying)[0].get_textpage().get_text_range()
    assert "$3,195,648.00" in text  # a text check alone passes it
    result = _verify(pki, lying)
    assert result.verdict == INVALID
    assert not any("its text reads" in p for p in result.problems)
    assert any(
        p.startswith("page 1: drawn differently")
        and "though both read" in p
        and "$3,195,648.00" in p
        for p in result.problems
    ), result.problems


def test_a_page_added_before_signing_is_invalid(pki, honest):
    pages = _pages(honest)
    result = _verify(pki, doctoring.page_added(honest, "Addendum: the budget is doubled"))
    assert result.verdict == INVALID
    assert (
        f"the memo as exported has {pages + 1} pages, its attached inputs render to {pages}: "
        f"page(s) {pages + 1} added"
    ) in result.problems


def test_a_difference_at_a_chart_drawn_by_another_matplotlib_is_indeterminate_elsewhere_invalid(
    pki,
):
    """matplotlib 3.8.4 draws the demo's charts to another size than 3.11.2 (methodology section
    14), so below a chart no tolerance can tell an upgrade from doctoring: not provable here, with
    the version to install. The same mark with matplotlib recorded as here is INVALID."""
    box = (60, 120, 300, 160)  # page 4, below both charts (they span y 221-751)
    with _recorded_as(matplotlib="3.8.4"):
        other = doctoring.overlay_under(_memo(), page=3, box=box)
    result = _verify(pki, other)
    assert result.verdict == "INDETERMINATE" and result.problems == (), result.problems
    assert any(
        u.startswith("page 4: ") and "inside or below a chart drawn by matplotlib==3.8.4" in u
        for u in result.unproven
    ), result.unproven
    same = _verify(pki, doctoring.overlay_under(_memo(), page=3, box=box))
    assert same.verdict == INVALID and any(p.startswith("page 4: ") for p in same.problems)
