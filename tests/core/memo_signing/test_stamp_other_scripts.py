"""A stamp in scripts the stamp font lacks (issue 32's stamp engine, sign-off): a signer or a
provider named in Chinese, Korean or Thai is drawn in the memo's own fallback font for that
script (core/memo/font_ranges.py), each embedded, never as the missing-glyph box (PDF/A forbids
it; the approver could not read it). A name no bundled font can draw is refused before anything
is written. Read back from the signed PDF: the fonts the stamp names, the glyphs it shows in
each, and the text a reader copies out through each font's ToUnicode map."""

from __future__ import annotations

import re
from io import BytesIO

import pytest
from pyhanko.pdf_utils.reader import PdfFileReader
from tests.core.memo_signing.pki import Authority
from tests.core.memo_signing.test_stamp_scripts import _glyphs, _to_unicode

from clusterbid.core.errors import InputError
from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.signing import sign_memo

# name -> the bundled file its script is drawn from (resources/fonts/README.md)
NAMES = {
    "王小明": "DroidSansFallback",
    "김철수": "NanumGothic",
    "สมชาย ใจดี": "NotoSansThai",
    "Ana 王 김": None,  # three scripts in one line
}
SHOWN = re.compile(rb"/(\w+) [\d.]+ Tf|\[(.*?)\] TJ|<([0-9a-f]+)> Tj")


def _copied_text(pdf: bytes) -> tuple[str, set[str], list[int]]:
    """The stamp's text as a reader copies it out, its fonts' base names, every glyph shown."""
    field = PdfFileReader(BytesIO(pdf)).embedded_signatures[-1].sig_field
    appearance = field["/AP"]["/N"]
    fonts = {str(k)[1:]: v.get_object() for k, v in appearance["/Resources"]["/Font"].items()}
    maps = {k: _to_unicode(f["/ToUnicode"].get_object().data) for k, f in fonts.items()}
    text, glyphs, current = [], [], "F1"
    for switch, array, single in SHOWN.findall(appearance.data):
        if switch:
            current = switch.decode()
            continue
        cids = _glyphs(b"<" + single + b">" if single else array)
        glyphs += cids
        text.append("".join(maps[current].get(cid, "\ufffd") for cid in cids))
    return "".join(text), {str(f["/BaseFont"]) for f in fonts.values()}, glyphs


@pytest.mark.parametrize("name", list(NAMES))
def test_a_name_in_another_script_is_drawn_in_its_fallback_font(signed_by, name):
    text, fonts, glyphs = _copied_text(signed_by(name))
    assert text.startswith(f"Signed by {name}signed ")  # the lines, copied out in order
    assert glyphs and 0 not in glyphs  # no missing-glyph box anywhere in the stamp
    assert any("DejaVuSans" in f for f in fonts)  # "Signed by", the date and the amount
    wanted = [NAMES[name]] if NAMES[name] else ["DroidSansFallback", "NanumGothic"]
    for family in wanted:
        assert any(family in f for f in fonts), (family, fonts)
    assert not any("NotoSansThai" in f for f in fonts) or "ใ" in name  # loaded only when used


@pytest.mark.parametrize(
    "typed, shown",
    [
        ("Jose\u0301 Garci\u0301a", "José García"),  # accents typed as combining marks (NFD)
        ("Nguyễn Văn An", "Nguyễn Văn An"),  # Vietnamese: Latin Extended Additional
    ],
)
def test_accented_latin_is_drawn_in_the_stamp_font_as_composed_letters(signed_by, typed, shown):
    text, fonts, glyphs = _copied_text(signed_by(typed))
    assert text.startswith(f"Signed by {shown}signed ")
    assert glyphs and 0 not in glyphs
    assert all("DejaVuSans" in f for f in fonts)  # no fallback needed


def test_a_name_no_bundled_font_draws_is_refused_naming_the_character(unsigned_memo, tmp_path):
    p12 = Authority.create().write_p12(tmp_path, "देव", "pw")  # Devanagari: no bundled font
    with pytest.raises(InputError, match=r"U\+0926.*nothing was written"):
        sign_memo(unsigned_memo, "approver-1", load_credentials(p12, "pw"))


def test_a_long_word_is_never_cut_between_a_letter_and_its_mark():
    from clusterbid.core.memo.signing import STAMP_LINE, _stamp_lines

    # a provider name of Thai letters with no space, longer than a line, a vowel mark right
    # where textwrap cuts it (the first line filled up to STAMP_LINE characters)
    prefix = "Approver 1 approves USD 1.00 to "
    name = "ก" * (STAMP_LINE - len(prefix)) + "\u0e31" + "ข" * 40
    statement = f"{prefix}{name}, inputs SHA-256 " + "ab" * 32
    lines = _stamp_lines(statement).split("\n")
    assert not any(line[:1] == "\u0e31" for line in lines)
    assert "".join(lines[:-2]).replace(" ", "") == statement.split(", inputs")[0].replace(" ", "")
