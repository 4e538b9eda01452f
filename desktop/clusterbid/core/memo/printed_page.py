"""Bind the memo as exported (its first revision) to the inputs attached to it, by reading page 1.

The document information and the attachment's description can be rewritten together with the
attachment before anyone signs, so they prove nothing about what the approvers saw. What they saw
is the page: this reads page 1's text of the unsigned memo (the bytes before the first signature)
and checks it prints the attachment's SHA-256, the recommended bid and its amounts. Every page is
proven against a re-render by page_proof.py; this names the decision's figures in the report.
Text is read with PDFium (pypdfium2, the rasteriser verify compares pages with), else poppler's
pdftotext where it is installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from clusterbid.core.memo.bid_words import label_of

PDFTOTEXT_SECONDS = 30
PRINTED_SHA = re.compile(r"Inputs SHA-256:\s*([0-9a-f]{64})")
RECOMMENDED = re.compile(r"Recommended bid\s+")


@dataclass(frozen=True)
class PageBinding:
    """What page 1 of the exported memo prints, compared with the attachment; `method` says how."""

    method: str
    checked: tuple[str, ...] = ()  # the checks that held, in words
    problems: tuple[str, ...] = ()
    unproven: tuple[str, ...] = ()  # page 1 could not be read here


def first_revision(pdf: bytes, first_signature_offset: int | None) -> bytes:
    """The memo as exported: everything before the revision that holds the first signature."""
    if first_signature_offset is None:
        return pdf
    end = pdf.rfind(b"%%EOF", 0, first_signature_offset)
    return pdf if end < 0 else pdf[: end + len(b"%%EOF")] + b"\n"


def page_one_text(pdf: bytes) -> str | None:
    """Page 1's text with runs of white space made single spaces; None when neither PDFium nor
    pdftotext is here."""
    try:
        import pypdfium2
    except ImportError:
        return _pdftotext_page_one(pdf)
    try:
        document = pypdfium2.PdfDocument(pdf)
    except Exception:  # noqa: BLE001 (PDFium refuses a damaged file: no text, the checks fail)
        return ""
    try:
        if not len(document):
            return ""
        return " ".join(document[0].get_textpage().get_text_range().split())
    finally:
        document.close()


def _pdftotext_page_one(pdf: bytes) -> str | None:
    tool = shutil.which("pdftotext")
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memo.pdf"
        path.write_bytes(pdf)
        try:
            done = subprocess.run(
                [tool, "-q", "-f", "1", "-l", "1", str(path), "-"],
                capture_output=True,
                timeout=PDFTOTEXT_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return ""
    return " ".join(done.stdout.decode("utf-8", "replace").split())


def _dollars(amount: object, places: int) -> str | None:
    try:
        return f"${Decimal(str(amount)):,.{places}f}"
    except (InvalidOperation, ValueError):
        return None


def _expected(data: dict) -> tuple[str | None, dict]:
    results = data.get("results") if isinstance(data.get("results"), dict) else {}
    override = data.get("override") if isinstance(data.get("override"), dict) else None
    ranking = results.get("ranking") or [None]
    bid = override.get("bid_id") if override else ranking[0]
    figures = (results.get("bids") or {}).get(bid) or {}
    return bid, figures if isinstance(figures, dict) else {}


def _labels(data: dict) -> dict[str, str]:
    """Bid id -> the bid as page 1 names it (bid_words.bid_label: provider, GPU model), from the
    attached inputs alone."""
    evaluation = data.get("evaluation") if isinstance(data.get("evaluation"), dict) else {}
    labels = {}
    for bid in evaluation.get("bids") or ():
        if not isinstance(bid, dict) or not isinstance(bid.get("id"), str):
            continue
        quote = bid.get("quote") if isinstance(bid.get("quote"), dict) else {}
        capacity = bid.get("capacity") if isinstance(bid.get("capacity"), dict) else {}
        provider, gpu = quote.get("provider"), capacity.get("gpu_model")
        if isinstance(provider, str) and provider:
            labels[bid["id"]] = label_of(provider, gpu if isinstance(gpu, str) else "")
    return labels


def _bid_words(labels: dict[str, str], bid_id: str | None) -> str:
    """A bid as the approver knows it: as page 1 names it; "a bid the inputs do not name" else."""
    return labels.get(str(bid_id), "a bid the attached inputs do not name")


def _shown_bid(text: str, labels: dict[str, str]) -> str | None:
    """The id of the bid page 1 recommends, read by its printed name (the longest that fits, so
    "Northwind AI Cloud, H200-SXM" is not taken for a shorter name). A memo made before bids were
    named in words printed the id first, so that is read too. Spaces are ignored: a name may wrap."""
    found = RECOMMENDED.search(text)
    if found is None:
        return None
    after = text[found.end() :].replace(" ", "")
    for bid_id, label in sorted(labels.items(), key=lambda item: -len(item[1])):
        if after.startswith(label.replace(" ", "")):
            return bid_id
    return next(
        (
            bid_id
            for bid_id in sorted(labels, key=len, reverse=True)
            if after.startswith(bid_id.replace(" ", ""))
        ),
        None,
    )


def _words_after(text: str) -> str:
    """What page 1 prints as the recommended bid when it names no bid of the inputs: its first words."""
    found = RECOMMENDED.search(text)
    if found is None:
        return "no bid"
    after = text[found.end() :]
    # up to the row that follows on page 1 (training, serving), else its first five words
    ends = [
        at
        for at in (after.find(" Net cost of the plan"), after.find(" Cost per million"))
        if at > 0
    ]
    shown = after[: min(ends)] if ends else " ".join(after.split()[:5])
    return f'"{shown}" (no bid of the attached inputs)'


def bind_page_to_inputs(exported: bytes, inputs_sha256: str, data: dict | None) -> PageBinding:
    """Compare page 1 of the exported memo with the attachment (its hash and its parsed content)."""
    text = page_one_text(exported)
    if text is None:
        return PageBinding(
            "not possible",
            unproven=(
                "page 1 could not be read: neither pypdfium2 nor pdftotext is installed, so "
                "nothing "
                "proves the printed page matches the attached inputs",
            ),
        )
    method = "page 1 text of the memo as exported (inputs hash, recommended bid, amounts)"
    checked, problems = [], []
    printed = PRINTED_SHA.findall(text)
    if printed != [inputs_sha256]:
        problems.append(
            f"page 1 of the memo as exported prints inputs SHA-256 {', '.join(printed) or 'none'}, "
            f"but the attached inputs hash to {inputs_sha256}: the attachment is not what was shown"
        )
    else:
        checked.append("page 1 prints the attachment's SHA-256")
    if data is None:
        return PageBinding(method, tuple(checked), tuple(problems))
    bid, figures = _expected(data)
    labels = _labels(data)
    shown = _shown_bid(text, labels)
    if bid is None or shown != bid:
        printed = _bid_words(labels, shown) if shown else _words_after(text)
        problems.append(
            f"page 1 recommends {printed}, the attached inputs {_bid_words(labels, bid)}"
        )
    else:
        checked.append(f"page 1 recommends {_bid_words(labels, bid)}, as the attached inputs do")
    wanted = {
        "total commitment": _dollars(figures.get("total_commitment"), 2),
        "net cost of the plan": _dollars(figures.get("net_plan_cost"), 0),
        "time to finish": _hours(figures.get("wall_hours")),
    }
    for name, value in wanted.items():
        if value is None:
            continue
        if value in text:
            checked.append(f"page 1 prints the {name} {value}")
        else:
            problems.append(f"page 1 does not print the attached inputs' {name} {value}")
    return PageBinding(method, tuple(checked), tuple(problems))


def _hours(recorded: object) -> str | None:
    """The attachment records hours as "1049.3"; page 1 prints them with thousands separators."""
    try:
        return f"{float(recorded):,.1f} hours" if recorded else None
    except (TypeError, ValueError):
        return f"{recorded} hours"
