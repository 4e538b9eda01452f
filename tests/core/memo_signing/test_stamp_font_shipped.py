"""The signature stamp's font is shipped made (resources/fonts/DejaVuSans-stamp.ttf), not cut and
scaled at every `clusterbid sign`: that took about a CPU second, a third of the command (issue 32
item 7). The shipped bytes are what the derivation writes, and the scaling is checked by hand."""

from __future__ import annotations

from fontTools.ttLib import TTFont
from tests.core.cli_imports import modules_imported_by
from tests.core.memo_signing.conftest import ADA

from clusterbid.core.memo.stamp_font import STAMP_FONT, derived_stamp_font
from clusterbid.resources import resource_path


def test_the_shipped_stamp_font_is_what_the_derivation_writes():
    shipped = resource_path(STAMP_FONT).read_bytes()
    assert derived_stamp_font() == shipped, (
        "resources/fonts/DejaVuSans-stamp.ttf is not what packaging/make_stamp_font.py writes "
        "from DejaVuSans.ttf: run it, then update resources/fonts/SHA256SUMS"
    )


def test_the_stamp_font_is_dejavu_at_a_thousand_units_to_the_em():
    source = TTFont(str(resource_path("fonts/DejaVuSans.ttf")))
    stamp = TTFont(str(resource_path(STAMP_FONT)))
    assert source["head"].unitsPerEm == 2048 and stamp["head"].unitsPerEm == 1000
    for character in "A7€Ж":  # Latin, a digit, the euro sign, Cyrillic: all kept
        source_glyph = source.getBestCmap()[ord(character)]
        stamp_glyph = stamp.getBestCmap()[ord(character)]
        width = source["hmtx"][source_glyph][0]
        # By hand: the advance in 2,048ths of an em, in thousandths (within a unit's rounding).
        assert abs(stamp["hmtx"][stamp_glyph][0] - width * 1000 / 2048) <= 1, character
    assert ord("あ") not in stamp.getBestCmap()  # no kana: DejaVu has none to keep


def test_sign_does_not_derive_the_stamp_font_again(pki, unsigned_memo, memo_file, monkeypatch):
    memo = memo_file(unsigned_memo)
    signed = memo.with_name("signed.pdf")
    monkeypatch.setenv("CLUSTERBID_P12_PASSPHRASE", ADA[1])
    code, modules = modules_imported_by(
        ["sign", str(memo), "--field", "1", "--p12", str(pki.ada_p12), "-o", str(signed)]
    )
    assert code == 0 and signed.stat().st_size > len(unsigned_memo)
    # The scaling to 1,000 units is done only by the derivation, which must not run here; and
    # the stamp's engine cuts the font it embeds itself (stamp_engine.py): fontTools, whose
    # subsetter pyHanko's engine imported at every signature, is not loaded at all.
    assert "fontTools.ttLib.scaleUpem" not in modules
    assert not [name for name in modules if name.split(".")[0] == "fontTools"]
