"""Prove every page of the memo as exported: render its attached inputs again here, always, and
compare. Identical bytes prove every page at once; otherwise every page is compared as images
(page_images.py). What cannot be proven here is said as such (the verdict INDETERMINATE), never
passed over: inputs that do not record how they were drawn, a re-render that fails, no
rasteriser, or a difference inside or below a chart drawn by another matplotlib, Pillow or NumPy
than this computer's (install those versions and verify again to prove those pages). The versions
the attachment records are the preparer's to write: they explain a difference, and soften only
where the recorded library draws that part; text and every other pixel must match regardless."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clusterbid import __version__
from clusterbid.core.errors import InputError
from clusterbid.core.memo.released_versions import another_release

CHART_LIBRARIES = ("matplotlib", "pillow", "numpy")  # what draws the charts' pixels


@dataclass(frozen=True)
class PageProof:
    method: str  # how the pages were compared, in words
    problems: tuple[str, ...] = ()  # proven different: INVALID
    unproven: tuple[str, ...] = ()  # not provable here: INDETERMINATE
    notes: tuple[str, ...] = ()  # the recorded versions against this computer's
    compared: bool = True  # False: not compared as images, the memo being INVALID already

    @property
    def proven(self) -> bool:
        return self.compared and not self.problems and not self.unproven


def _chart_versions_differ(data: dict[str, Any]) -> list[str]:
    from clusterbid.core.memo.render import rendering_libraries

    rendering = data.get("rendering") if isinstance(data.get("rendering"), dict) else {}
    recorded, here = rendering.get("libraries") or {}, rendering_libraries()
    return [
        f"{name}=={recorded.get(name)}"
        for name in CHART_LIBRARIES
        if isinstance(recorded, dict) and recorded.get(name) != here.get(name)
    ]


def _layered(pdf: bytes) -> bool:
    """Whether the catalogue declares optional content (layers); True when it cannot be read."""
    from io import BytesIO

    from pyhanko.pdf_utils.reader import PdfFileReader

    try:
        return "/OCProperties" in PdfFileReader(BytesIO(pdf), strict=False).root
    except Exception:  # noqa: BLE001 (unreadable: draw both states)
        return True


def prove_pages(data: dict[str, Any], exported: bytes, *, images: bool = True) -> PageProof:
    """Every page of `exported` (the memo before its first signature) against a re-render of
    the attached inputs `data`. `images` False: a signature already proves its signed bytes were
    changed, so the memo is INVALID whatever its pages show; they are compared as bytes only
    (a page image comparison of a damaged file costs seconds and proves nothing more)."""
    from clusterbid.core.memo.rerender import rerender_memo, version_notes, why_not_rerendered

    reason = why_not_rerendered(data)
    if reason is not None:
        return PageProof("not re-rendered", unproven=(f"the pages cannot be proven: {reason}",))
    notes = tuple(version_notes(data))
    try:
        again = rerender_memo(data)
    except InputError as exc:
        return PageProof(
            "not re-rendered",
            unproven=(
                "the pages cannot be proven: the attached inputs cannot be rendered again here "
                f"({exc})",
            ),
            notes=notes,
        )
    if again == exported:
        return PageProof(
            "re-rendered from the attached inputs: identical to the memo as exported, byte "
            f"for byte ({len(exported):,} bytes, every page proven)",
            notes=notes,
        )
    if not images:
        return PageProof(
            "re-rendered from the attached inputs: the bytes differ; not compared as "
            "images, a signature already shows bytes it signed were changed",
            notes=notes,
            compared=False,
        )
    return _compare_as_images(data, exported, again, notes)


def _compare_as_images(
    data: dict[str, Any], exported: bytes, again: bytes, notes: tuple[str, ...]
) -> PageProof:
    from clusterbid.core.memo.page_images import (
        RASTER_DPI,
        REGION_PIXELS,
        RasteriserMissing,
        compare_pages,
    )
    from clusterbid.core.memo.page_regions import PIXEL_THRESHOLD

    why = "; ".join(notes) or "the same versions recorded: something else changed the bytes"
    try:
        comparison = compare_pages(exported, again, _layered(exported) or _layered(again))
    except RasteriserMissing as exc:
        return PageProof(
            "re-rendered, bytes differ, not compared as images",
            unproven=(
                f"the pages cannot be proven: the re-render differs in bytes ({why}) and {exc}; "
                "install pypdfium2 to compare every page as images",
            ),
            notes=notes,
        )
    except Exception as exc:  # noqa: BLE001 (PDFium refuses a damaged file: pages not proven)
        return PageProof(
            "re-rendered, bytes differ, not compared as images",
            unproven=(
                "the pages cannot be proven: PDFium cannot draw them "
                f"({type(exc).__name__}: {exc})",
            ),
            notes=notes,
        )
    method = (
        f"re-rendered from the attached inputs: the bytes differ ({why}); every page compared "
        f"as images at {RASTER_DPI} dpi on screen and in print, and as text"
    )
    if comparison.identical:
        return PageProof(
            method + f": all {comparison.exported_pages} pages the same within the tolerance "
            f"({comparison.pixels_changed:,} pixels differ at all; the largest region "
            f"{PIXEL_THRESHOLD}+ grey levels apart holds {comparison.largest_tolerated}, "
            f"{REGION_PIXELS} would be a difference)",
            notes=notes,
        )
    problems, unproven = [], []
    # Only a real other release may explain a page that differs (released_versions.py).
    other_software = another_release(data.get("software_version"))
    charts_other = _chart_versions_differ(data)
    other_made = (
        f": ClusterBid {data.get('software_version')} made this memo, this is {__version__}; "
        "verify with that version to prove the page"
    )
    counted = [
        line for line in comparison.problems() if not line.startswith("page ")
    ]  # pages added
    (unproven if other_software else problems).extend(
        line + (other_made if other_software else "")
        for line in [*counted, *comparison.text_differences]
    )
    for difference in comparison.differences:
        if other_software:
            unproven.append(difference.words() + other_made)
        elif difference.by_chart and charts_other:
            unproven.append(
                f"{difference.words()}: inside or below a chart drawn by "
                f"{', '.join(charts_other)}, "
                "which draws differently from this computer's; install those versions and verify "
                "again to prove this page"
            )
        else:
            problems.append(difference.words())
    return PageProof(method + ": DIFFERENT", tuple(problems), tuple(unproven), notes)
