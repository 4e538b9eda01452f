"""Figures to PNG, SVG and PDF bytes that depend only on the figure: no dates, no random ids."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# SVG element ids come from a hash salted with a fresh UUID unless svg.hashsalt is set; a fixed
# salt makes them repeatable. It is only read while saving, so it is set for the save alone.
SVG_HASH_SALT = "clusterbid"


def _save(fig: Figure, fmt: str, **options: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, facecolor=fig.get_facecolor(), **options)
    return buffer.getvalue()


def figure_to_png_bytes(fig: Figure, dpi: float = 150) -> bytes:
    """PNG without the Software text chunk (the only metadata matplotlib writes there)."""
    return _save(fig, "png", dpi=dpi, metadata={"Software": None})


def figure_to_svg(fig: Figure) -> str:
    """SVG text without the date and with repeatable element ids; text is drawn as paths so the
    memo does not depend on the reader's fonts."""
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": SVG_HASH_SALT, "svg.fonttype": "path"}):
        data = _save(fig, "svg", metadata={"Date": None, "Creator": None})
    return data.decode("utf-8")


def figure_to_pdf(fig: Figure) -> bytes:
    """A one-page vector PDF with no creation date or producer string, for embedding in the memo."""
    return _save(fig, "pdf", metadata={"CreationDate": None, "Producer": None, "Creator": None})
