"""Document information written after the first signature: pyHanko's difference analysis reads
only what hangs off the document catalogue, so a changed /Title or /Author in the trailer's /Info
passes it. This compares /Info of each revision after the first signature with the one before.
/ModDate is left out: every incremental writer, signing included, stamps it with its clock."""

from __future__ import annotations

STAMPED_BY_EVERY_WRITER = {"/ModDate"}


def _info(reader, revision: int) -> dict[str, str]:
    info = reader.get_historical_resolver(revision).trailer_view.get("/Info")
    if info is None:
        return {}
    return {str(key): str(value) for key, value in info.get_object().items()
            if str(key) not in STAMPED_BY_EVERY_WRITER}


def metadata_changes(reader, embedded: list) -> list[str]:
    """Problems in words: each key of /Info added, removed or changed after the first signature."""
    if not embedded:
        return []
    try:
        first = min(sig.signed_revision for sig in embedded)
        before = _info(reader, first)
        problems = []
        for revision in range(first + 1, reader.xrefs.total_revisions):
            now = _info(reader, revision)
            for key in sorted(set(before) | set(now)):
                if before.get(key) != now.get(key):
                    problems.append(f"document information {key} changed after the first signature "
                                    f"(revision {revision + 1}): {before.get(key)!r} became {now.get(key)!r}")
            before = now
        return problems
    except Exception as exc:  # noqa: BLE001 (damaged history: say so; the signatures fail on their own)
        return [f"the document information of the signed revisions cannot be read ({type(exc).__name__})"]
