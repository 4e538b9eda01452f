"""Measure the tolerance verify's page images need: what real library upgrades change in the demo
memo's pixels, against what one changed digit changes.

Run (the older libraries in a scratch virtual environment outside the repository):

    python3 -m venv /tmp/rl42 && /tmp/rl42/bin/pip install reportlab==4.2.5 matplotlib==3.11.2 \
        pydantic numpy pyHanko==0.38.0 pyhanko-certvalidator==0.33.0 openpyxl defusedxml rl_accel
    /tmp/rl42/bin/python tests/validation/raster_tolerance.py render /tmp/memo-rl42.pdf
    (the same with matplotlib==3.8.4 and reportlab==5.1.0 -> /tmp/memo-mpl38.pdf)
    .venv/bin/python tests/validation/raster_tolerance.py compare /tmp/memo-rl42.pdf /tmp/memo-mpl38.pdf

`render` writes the demo memo (2 approvers, decision date 2026-11-20, 20,000 samples, charts
drawn, not cached) as the interpreter's libraries draw it. `compare` renders each memo's attached
inputs again here (verify's re-render: the recorded versions written back, this computer's
libraries drawing), then, at each resolution and grey-level threshold, prints the largest region
of differing pixels (verify's comparison: a pixel differs when nothing within one pixel of the
other image is within the threshold; cells of page_regions.CELL_PIXELS, joined when they touch) on
any page, on screen and in print; the same for doctored memos drawn here (page 5's "$2.85"
printed "$1.85", "$2.35", "$2.86"; a font whose digits 1 and 3 are drawn swapped while its text
map reads the truth); and for every text run moved right by a fraction of a point.
A tolerance works when every upgrade's largest region is below it and every doctored memo's
smallest changed region above it.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "desktop"), str(REPO)]
os.environ["CLUSTERBID_CHART_CACHE"] = "off"  # every chart drawn by the libraries at hand

RESOLUTIONS = (72, 100)
THRESHOLDS = (32, 48)
NUDGES_PT = (0.001, 0.005, 0.01)  # every text run moved right: other rounding of coordinates


def demo_memo() -> bytes:
    import datetime as dt

    from clusterbid.core.demo import demo_evaluation
    from clusterbid.core.memo.making import make_memo

    return make_memo(
        demo_evaluation(),
        approvers=(("Ada Lovelace", "CFO"), ("Grace Hopper", "CTO")),
        decision_date=dt.date(2026, 11, 20),
    )


def _regions(
    exported: bytes, rendered: bytes, dpi: int, threshold: int
) -> list[tuple[int, str, int]]:
    """(page, state, pixels) of every region where the two PDFs differ by more than threshold."""
    import pypdfium2

    from clusterbid.core.memo import page_images, page_regions

    found = []
    a_doc, b_doc = pypdfium2.PdfDocument(exported), pypdfium2.PdfDocument(rendered)
    for a_doc_ in (a_doc, b_doc):
        a_doc_.init_forms()
    for index in range(min(len(a_doc), len(b_doc))):
        for state, mode in page_images.STATES:
            scale = dpi / page_images.POINTS_PER_INCH
            a, b = (
                doc[index]
                .render(scale=scale, grayscale=True, optimize_mode=mode)
                .to_numpy()
                .astype("int16")
                for doc in (a_doc, b_doc)
            )
            if a.shape != b.shape:
                found.append((index + 1, state, a.size))
                continue
            page_regions.PIXEL_THRESHOLD = (
                threshold  # the comparison verify makes, at this threshold
            )
            for *_, pixels in page_regions.regions(page_regions.beyond_shift(a, b)):
                found.append((index + 1, state, pixels))
    return found


def compare(paths: list[str]) -> None:
    from io import BytesIO

    from pyhanko.pdf_utils.reader import PdfFileReader
    from tests.core.memo_signing.doctoring import lying_digits, text_replaced

    from clusterbid.core.memo.attachment import read_attached_inputs
    from clusterbid.core.memo.inputs import parse_memo_inputs
    from clusterbid.core.memo.render import rendering_libraries
    from clusterbid.core.memo.rerender import rerender_memo

    print(f"here: {rendering_libraries()}")
    pairs = []
    for path in paths:
        memo = Path(path).read_bytes()
        data = parse_memo_inputs(read_attached_inputs(PdfFileReader(BytesIO(memo))).raw)
        again = rerender_memo(data)
        print(
            f"{path}: made with {data['rendering']['libraries']}; bytes identical: {again == memo}"
        )
        pairs.append((f"upgrade {Path(path).stem}", memo, again))
    honest = demo_memo()
    with text_replaced("$2.85", "$1.85", from_page=5):
        pairs.append(("doctored: page 5 $2.85 -> $1.85", demo_memo(), honest))
    for new in ("$2.35", "$2.86"):
        with text_replaced("$2.85", new, from_page=5):
            pairs.append((f"doctored: page 5 $2.85 -> {new}", demo_memo(), honest))
    with lying_digits():
        pairs.append(("doctored: font draws 1<->3, reads true", demo_memo(), honest))
    from reportlab.pdfgen.textobject import PDFTextObject

    origin = PDFTextObject.setTextOrigin
    for nudge in NUDGES_PT:
        PDFTextObject.setTextOrigin = lambda self, x, y, d=nudge: origin(self, x + d, y)
        try:
            pairs.append((f"upgrade-like: text moved {nudge} pt", demo_memo(), honest))
        finally:
            PDFTextObject.setTextOrigin = origin
    for dpi in RESOLUTIONS:
        for threshold in THRESHOLDS:
            start = time.perf_counter()
            line = []
            for label, exported, rendered in pairs:
                sizes = [p for *_, p in _regions(exported, rendered, dpi, threshold)]
                if label.startswith(("upgrade", "upgrade-like")):
                    line.append(f"{label}: largest {max(sizes, default=0)} ({len(sizes)} regions)")
                else:
                    line.append(
                        f"{label}: smallest {min(sizes, default=0)} largest "
                        f"{max(sizes, default=0)} ({len(sizes)} regions)"
                    )
            took = (time.perf_counter() - start) / len(pairs)
            print(
                f"{dpi} dpi, threshold {threshold}: " + "; ".join(line) + f" [{took:.2f} s a pair]"
            )


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "render":
        Path(sys.argv[2]).write_bytes(demo_memo())
    elif len(sys.argv) >= 3 and sys.argv[1] == "compare":
        compare(sys.argv[2:])
    else:
        sys.exit(__doc__)
