"""Read back what a memo PDF carries: the attached inputs and the SHA-256 it prints for them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.reader import PdfFileReader

from clusterbid.core.memo.inputs_name import INPUTS_ATTACHMENT_NAME

SHA256_TEXT = re.compile(r"(?<![0-9a-fA-F])[0-9a-f]{64}(?![0-9a-fA-F])")
MAX_NAME_TREE_DEPTH = 16
# Page 1 prints the SHA-256 in an embedded font whose glyph codes cannot be searched, so the
# machine-readable copy is read from places inside the signed bytes that carry the same value:
# the document information (/Keywords or /Subject) and the attachment's own description (/Desc).
SHA_SOURCES = ("/Keywords", "/Subject")


@dataclass(frozen=True)
class AttachedInputs:
    raw: bytes | None
    printed_sha256: tuple[str, ...]  # every distinct SHA-256 the memo states for its inputs


def _text(value: object) -> str:
    value = value.get_object() if isinstance(value, generic.IndirectObject) else value
    if isinstance(value, (generic.TextStringObject, generic.ByteStringObject, str)):
        return str(value)
    return ""


def _name_tree_pairs(node: generic.DictionaryObject, depth: int = 0):
    """(name, value) pairs of a PDF name tree: leaves hold /Names, inner nodes /Kids."""
    if depth > MAX_NAME_TREE_DEPTH:
        return
    names = node.get("/Names")
    if names is not None:
        names = names.get_object()
        for index in range(0, len(names) - 1, 2):
            yield _text(names[index]), names[index + 1].get_object()
    for kid in node.get("/Kids", ()):
        yield from _name_tree_pairs(kid.get_object(), depth + 1)


def _inputs_file_spec(reader: PdfFileReader) -> generic.DictionaryObject | None:
    try:
        tree = reader.root["/Names"]["/EmbeddedFiles"]
    except KeyError:
        return None
    for name, spec in _name_tree_pairs(tree.get_object()):
        if INPUTS_ATTACHMENT_NAME in (name, _text(spec.get("/UF", "")), _text(spec.get("/F", ""))):
            return spec
    return None


def read_attached_inputs(reader: PdfFileReader) -> AttachedInputs:
    """The raw attachment (None when missing) and the SHA-256 values the memo prints for it."""
    stated: list[str] = []
    info = reader.trailer_view.get("/Info")
    if info is not None:
        info = info.get_object()
        for key in SHA_SOURCES:
            stated += SHA256_TEXT.findall(_text(info.get(key, "")))
    spec = _inputs_file_spec(reader)
    raw = None
    if spec is not None:
        stated += SHA256_TEXT.findall(_text(spec.get("/Desc", "")))
        raw = spec["/EF"]["/F"].get_object().data
    return AttachedInputs(raw, tuple(dict.fromkeys(stated)))
