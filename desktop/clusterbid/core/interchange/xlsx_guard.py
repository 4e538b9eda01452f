"""Checks an XLSX is a sane zip before openpyxl touches it: zip-bomb limits and XML defences."""

from __future__ import annotations

import os
import re
import zipfile
import zlib
from pathlib import Path

from clusterbid.core.interchange import limits
from clusterbid.core.interchange.errors import (
    CorruptFileError,
    FileTooLargeError,
    InterchangeError,
    UnsafeFileError,
)
from clusterbid.core.safe_read import open_regular

_SCAN_CHUNK = 1024 * 1024
_DTD_MARKERS = (b"<!DOCTYPE", b"<!ENTITY")
_CELL_REF = re.compile(rb'<c r="([A-Z]{1,3}[0-9]{1,7})"')
# Markup and entities, removed before counting a part's text. A tag cut by a chunk boundary is
# counted as text: a few bytes per MiB, and the exact count in `readers` follows anyway.
_MARKUP = re.compile(rb"<[^>]*>|&#?\w{1,8};")
# UTF-8 continuation bytes: dropping them turns a byte count into a character count.
_CONTINUATION = bytes(range(0x80, 0xC0))


def require_defused_xml(path: Path) -> None:
    """openpyxl parses with defusedxml only when it is importable and not switched off by env."""
    try:
        import defusedxml  # noqa: F401
    except ImportError:
        raise UnsafeFileError(
            path,
            "XLSX import is disabled because the defusedxml package is missing; "
            "reinstall ClusterBid (pip install defusedxml) or import the sheet as CSV",
        ) from None
    import openpyxl

    if openpyxl.DEFUSEDXML is not True:
        raise UnsafeFileError(
            path,
            "XLSX import is disabled because openpyxl is not using defusedxml "
            "(is OPENPYXL_DEFUSEDXML set to something other than True?)",
        )


def check_zip(path: Path) -> None:
    """Refuse zip bombs from the central directory alone, before anything is decompressed."""
    try:
        with open_regular(path) as handle:  # zipfile would block on a FIFO or read a device forever
            size = os.fstat(handle.fileno()).st_size
    except OSError as exc:
        raise CorruptFileError(path, f"cannot be read ({exc.strerror or exc})") from None
    if size > limits.MAX_FILE_BYTES:
        raise FileTooLargeError(
            path, f"{size:,} bytes is over the {limits.MAX_FILE_BYTES:,}-byte limit"
        )
    if not zipfile.is_zipfile(path):
        raise CorruptFileError(
            path, "not an XLSX workbook (it is not a zip archive); save it from Excel as .xlsx"
        )
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise CorruptFileError(path, f"damaged XLSX archive ({exc})") from None
    if len(members) > limits.MAX_XLSX_MEMBERS:
        raise UnsafeFileError(
            path, f"the archive holds {len(members):,} parts; a workbook has a few dozen"
        )
    total = 0
    for member in members:
        total += member.file_size
        _check_member(path, member)
    if total > limits.MAX_XLSX_UNCOMPRESSED_BYTES:
        raise UnsafeFileError(
            path, f"the workbook unpacks to {total:,} bytes, over the limit (zip bomb?)"
        )


def _check_member(path: Path, member: zipfile.ZipInfo) -> None:
    """One part of the archive: its unpacked size, its compression ratio, and the text's size."""
    if member.file_size > limits.MAX_XLSX_MEMBER_BYTES:
        raise UnsafeFileError(
            path, f"part {member.filename} unpacks to {member.file_size:,} bytes (zip bomb?)"
        )
    if member.file_size >= limits.RATIO_CHECK_FROM_BYTES:
        ratio = member.file_size / max(member.compress_size, 1)
        if ratio > limits.MAX_COMPRESSION_RATIO:
            raise UnsafeFileError(
                path,
                f"part {member.filename} is compressed {ratio:,.0f}:1, the mark of a zip bomb",
            )
    if (
        member.filename.endswith("sharedStrings.xml")
        and member.file_size > limits.MAX_SHARED_STRINGS_BYTES
    ):
        raise FileTooLargeError(
            path,
            f"the workbook's text ({member.file_size:,} bytes unpacked) is over the "
            f"{limits.MAX_SHARED_STRINGS_BYTES:,}-byte limit for a bid sheet",
        )


def check_no_dtd(path: Path) -> None:
    """Refuse XML parts with a DTD: Office never writes one, and entities are the billion-laughs vector.

    defusedxml would refuse them too; checking first gives a clear message and does not depend on
    how openpyxl happens to parse each part. Reads in chunks, so memory stays flat.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            for member in archive.infolist():
                if not member.filename.endswith((".xml", ".rels", ".vml")):
                    continue
                tail = b""
                read = 0
                cells = _holds_cells(member.filename)
                run = 0  # bytes since the last '<': the text of one cell, when `cells`
                text = 0  # characters of text in the part so far, when `cells`
                with archive.open(member) as stream:
                    while chunk := stream.read(_SCAN_CHUNK):
                        if cells:
                            run = _check_text_runs(path, member.filename, chunk, run)
                            text = _check_part_text(path, member.filename, chunk, text)
                        read += len(chunk)
                        if read > limits.MAX_XLSX_MEMBER_BYTES:
                            raise UnsafeFileError(
                                path, f"part {member.filename} unpacks beyond its declared size"
                            )
                        window = tail + chunk
                        if any(marker in window for marker in _DTD_MARKERS):
                            raise UnsafeFileError(
                                path,
                                f"part {member.filename} declares XML entities or a DTD, which a "
                                "workbook never has",
                            )
                        tail = window[-16:]
    except InterchangeError:
        raise
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, RuntimeError) as exc:
        # RuntimeError: an encrypted part; ValueError/zlib.error: damaged compressed data.
        raise CorruptFileError(path, f"damaged XLSX archive ({exc})") from None


def _holds_cells(name: str) -> bool:
    return name.endswith("sharedStrings.xml") or (
        name.startswith("xl/worksheets/") and name.endswith(".xml")
    )


def _check_text_runs(path: Path, part: str, chunk: bytes, run: int) -> int:
    """Refuse a cell longer than the limit while it is still compressed on disk: openpyxl would
    build the whole string (100 MB from 2 MB of zip) before any check of ours could see it."""
    pieces = chunk.split(b"<")
    longest = max(run + len(pieces[0]), max((len(p) for p in pieces[1:]), default=0))
    if longest > limits.MAX_CELL_XML_BYTES:
        inside = len(pieces) > 1 and longest != run + len(
            pieces[0]
        )  # the long text starts in this chunk
        where = chunk.find(b"<" + max(pieces[1:], key=len)) if inside else 0
        refs = _CELL_REF.findall(chunk[:where])  # the r="B3" of the cell the long text belongs to
        cell = f"cell {refs[-1].decode()} in {part}" if refs else f"a cell in {part}"
        raise FileTooLargeError(
            path,
            f"{cell} holds over {limits.MAX_CELL_CHARS:,} characters (the limit per "
            "cell); shorten it",
        )
    return run + len(chunk) if len(pieces) == 1 else len(pieces[-1])


def _check_part_text(path: Path, part: str, chunk: bytes, text: int) -> int:
    """Refuse a part whose cells together pass the sheet's text limit while it is still
    compressed: openpyxl would build every string first (seconds and hundreds of MB)."""
    text += len(_MARKUP.sub(b"", chunk).translate(None, _CONTINUATION))
    if text > limits.MAX_SHEET_CHARS:
        raise FileTooLargeError(
            path,
            f"the cells of {part} hold over {limits.MAX_SHEET_CHARS:,} characters, "
            "the limit for one sheet; split the file",
        )
    return text


def guard_xlsx(path: Path) -> None:
    require_defused_xml(path)
    check_zip(path)
    check_no_dtd(path)
