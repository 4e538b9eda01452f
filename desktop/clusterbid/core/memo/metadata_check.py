"""Document metadata written after the first signature: the document information (/Info in the
trailer) and the XMP packet (the catalogue's /Metadata stream).

pyHanko's difference analysis does not read /Info (it hangs off the trailer), and it accepts any
well-formed XMP update as harmless, so a changed title, author or description passes it. This
reads each revision through pyHanko's historical resolver, following every reference in that
revision's own view: an object rewritten in place (same number, later revision) is then compared
with the version the signer saw, not with itself. /ModDate and the XMP packet's xmp:ModifyDate
and xmp:MetadataDate are left out: every incremental writer, signing included, stamps them.
"""

from __future__ import annotations

import hashlib

from defusedxml import ElementTree
from pyhanko.pdf_utils import generic

STAMPED_BY_EVERY_WRITER = {"/ModDate"}
XMP_STAMPED = {"ModifyDate", "MetadataDate"}
RDF_STRUCTURE = {"xmpmeta", "RDF", "Description", "Alt", "Seq", "Bag", "li"}
MAX_XMP_BYTES = 4 * 1024 * 1024


def _resolve(resolver, value):
    return resolver(value.reference) if isinstance(value, generic.IndirectObject) else value


def _info(resolver) -> dict[str, str]:
    info = (
        _resolve(resolver, resolver.trailer_view.raw_get("/Info"))
        if "/Info" in resolver.trailer_view
        else None
    )
    if not isinstance(info, generic.DictionaryObject):
        return {}
    return {
        str(key): str(_resolve(resolver, info.raw_get(key)))
        for key in info
        if str(key) not in STAMPED_BY_EVERY_WRITER
    }


def _xmp(resolver) -> bytes | None:
    root = _resolve(resolver, resolver.trailer_view.raw_get("/Root"))
    if "/Metadata" not in root:
        return None
    stream = _resolve(resolver, root.raw_get("/Metadata"))
    return stream.data if isinstance(stream, generic.StreamObject) else b""


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def _xmp_values(packet: bytes) -> dict[str, str]:
    """Each XMP property's text by its name (dc:title's rdf:li items under "title"), or the
    packet's SHA-256 when it cannot be read as XML."""
    if len(packet) > MAX_XMP_BYTES:
        return {"(packet)": hashlib.sha256(packet).hexdigest()}
    try:
        root = ElementTree.fromstring(packet)
    except Exception:  # noqa: BLE001 (malformed or hostile XML: compared as bytes)
        return {"(packet)": hashlib.sha256(packet).hexdigest()}
    values: dict[str, str] = {}

    def walk(element, prop: str | None) -> None:
        name = _local(element.tag)
        if name in XMP_STAMPED:
            return
        for attribute, value in element.attrib.items():  # properties written as attributes
            if _local(attribute) not in XMP_STAMPED | {"about"}:
                values[_local(attribute)] = value
        key = prop or (None if name in RDF_STRUCTURE else name)
        text = " ".join((element.text or "").split())
        if text and len(element) == 0:
            values[key or name] = (
                values[key or name] + " | " + text if (key or name) in values else text
            )
        for child in element:
            walk(child, key)

    walk(root, None)
    return values


def _xmp_changes(before: bytes | None, now: bytes | None, revision: int) -> list[str]:
    where = f"after the first signature (revision {revision + 1})"
    if before == now:
        return []
    if before is None or now is None:
        return [
            "XMP metadata (the catalogue's /Metadata stream) "
            f"{'added' if before is None else 'removed'} {where}"
        ]
    old, new = _xmp_values(before), _xmp_values(now)
    changed = [
        f"{key}: {old.get(key)!r} became {new.get(key)!r}"
        for key in sorted(set(old) | set(new))
        if old.get(key) != new.get(key)
    ]
    if not changed:
        return []  # only the dates every writer stamps
    return [f"XMP metadata changed {where}: {'; '.join(changed[:5])}"]


def metadata_changes(reader, embedded: list) -> list[str]:
    """Problems in words: each key of /Info and each XMP property added, removed or changed after
    the first signature, revision by revision."""
    if not embedded:
        return []
    try:
        first = min(sig.signed_revision for sig in embedded)
        signed = reader.get_historical_resolver(first)
        before, xmp_before = _info(signed), _xmp(signed)
        problems = []
        for revision in range(first + 1, reader.xrefs.total_revisions):
            resolver = reader.get_historical_resolver(revision)
            now, xmp_now = _info(resolver), _xmp(resolver)
            for key in sorted(set(before) | set(now)):
                if before.get(key) != now.get(key):
                    problems.append(
                        f"document information {key} changed after the first signature "
                        f"(revision {revision + 1}): {before.get(key)!r} became {now.get(key)!r}"
                    )
            problems += _xmp_changes(xmp_before, xmp_now, revision)
            before, xmp_before = now, xmp_now
        return problems
    except Exception as exc:  # noqa: BLE001 (damaged history: say so; the signatures fail on their own)
        return [
            f"the document metadata of the signed revisions cannot be read ({type(exc).__name__})"
        ]
