"""Which fields of a memo the archive seal added (sealing.py): document timestamps written after
the last approver signed. Verify lets these, and only these, follow the signatures; a document
timestamp placed between two approvers' signatures is not the seal and is refused like any other
added field."""

from __future__ import annotations

from typing import Any


def seal_timestamp_fields(reader: Any, embedded: list[Any]) -> dict[str, int]:
    """Field name -> the revision (0-based) that added it, for each document timestamp after the
    last regular signature; {} when there is none or the history cannot be read."""
    try:
        last_signed = max((int(sig.signed_revision) for sig in embedded), default=None)
        if last_signed is None:
            return {}
        return {
            str(ts.field_name): int(ts.signed_revision)
            for ts in reader.embedded_timestamp_signatures
            if int(ts.signed_revision) > last_signed
        }
    except Exception:  # noqa: BLE001 (a damaged history: the field checks then name every field)
        return {}
