"""Write resources/fonts/DejaVuSans-stamp.ttf, the signature stamp's font: the bundled DejaVu
Sans cut to the scripts a name or amount is written in and scaled to 1,000 units per em
(core/memo/stamp_font.py says why). Run after changing DejaVuSans.ttf, KEPT or fontTools, then
update resources/fonts/SHA256SUMS; tests/core/memo_signing/test_stamp_font_shipped.py fails until
the shipped file is what this writes.

Run: PYTHONPATH=desktop python packaging/make_stamp_font.py
"""

from __future__ import annotations

from clusterbid.core.memo.stamp_font import STAMP_FONT, derived_stamp_font
from clusterbid.resources import resources_root

if __name__ == "__main__":
    target = resources_root() / STAMP_FONT
    target.write_bytes(derived_stamp_font())
    print(f"wrote {target.name} ({target.stat().st_size:,} bytes)")
