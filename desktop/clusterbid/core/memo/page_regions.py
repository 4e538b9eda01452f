"""The pixel and word arithmetic of page_images.py: which pixels of two page images differ beyond
a one-pixel shift, how they group into regions, and which words a region touches."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

PIXEL_THRESHOLD = 32  # grey levels out of 255
CELL_PIXELS = 6
SHIFT_PIXELS = 1  # a glyph moved by up to one pixel is the same glyph


def beyond_shift(a: Any, b: Any) -> Any:
    """Pixels of either image that no pixel of the other within SHIFT_PIXELS matches to within
    PIXEL_THRESHOLD grey levels. PDFium places glyphs on whole pixels, so moving a text run by a
    thousandth of a point (other rounding in another library version) moves its glyphs by a pixel;
    that is tolerated, a glyph that is not there within a pixel is not."""
    import numpy as np

    def spread(image: Any) -> tuple[Any, Any]:
        reach = SHIFT_PIXELS
        padded = np.pad(image, reach, mode="edge")
        h, w = image.shape
        views = [
            padded[dy : dy + h, dx : dx + w]
            for dy in range(2 * reach + 1)
            for dx in range(2 * reach + 1)
        ]
        return np.min(views, axis=0), np.max(views, axis=0)

    low_b, high_b = spread(b)
    low_a, high_a = spread(a)
    return (
        (a < low_b - PIXEL_THRESHOLD)
        | (a > high_b + PIXEL_THRESHOLD)
        | (b < low_a - PIXEL_THRESHOLD)
        | (b > high_a + PIXEL_THRESHOLD)
    )


def regions(mask: Any) -> Iterator[tuple[int, int, int, int, int]]:
    """(row0, col0, row1, col1, pixels) in cells of CELL_PIXELS: touching cells are one region."""
    import numpy as np

    rows, cols = -(-mask.shape[0] // CELL_PIXELS), -(-mask.shape[1] // CELL_PIXELS)
    padded = np.zeros((rows * CELL_PIXELS, cols * CELL_PIXELS), dtype=np.int32)
    padded[: mask.shape[0], : mask.shape[1]] = mask
    counts = padded.reshape(rows, CELL_PIXELS, cols, CELL_PIXELS).sum(axis=(1, 3))
    unseen = {(int(r), int(c)) for r, c in zip(*np.nonzero(counts))}
    while unseen:
        stack = [unseen.pop()]
        cells = []
        while stack:
            r, c = stack.pop()
            cells.append((r, c))
            for near in ((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)):
                if near in unseen:
                    unseen.remove(near)
                    stack.append(near)
        rs, cs = [r for r, _ in cells], [c for _, c in cells]
        yield min(rs), min(cs), max(rs) + 1, max(cs) + 1, int(sum(counts[r, c] for r, c in cells))


class PageWords:
    """A page's characters and their boxes, read once, to name the words a region touches."""

    def __init__(self, page: Any) -> None:
        text_page = page.get_textpage()
        count = text_page.count_chars()
        self.text = text_page.get_text_range(0, count) if count else ""
        self.boxes = [text_page.get_charbox(i) for i in range(len(self.text))]

    def words_in(self, box: tuple[float, float, float, float]) -> str:
        """The whole words with a character inside `box` (extended to the spaces either side)."""
        left, bottom, right, top = box
        hits = [
            i
            for i, (x0, y0, x1, y1) in enumerate(self.boxes)
            if x0 < right and x1 > left and y0 < top and y1 > bottom and not self.text[i].isspace()
        ]
        spans: list[tuple[int, int]] = []
        for i in hits:
            if spans and spans[-1][0] <= i < spans[-1][1]:
                continue
            start, end = i, i + 1
            while start > 0 and not self.text[start - 1].isspace():
                start -= 1
            while end < len(self.text) and not self.text[end].isspace():
                end += 1
            spans.append((start, end))
        return " ".join(self.text[a:b] for a, b in spans)


def whole_words(text: str, start: int, end: int) -> str:
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return " ".join(text[start:end].split())
