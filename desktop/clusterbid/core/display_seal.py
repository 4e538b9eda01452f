"""A per-user key that seals what this user's app kept for display, so a copy made by anyone else
is never shown as if the app had computed it.

The first-paint table (core/shown_scorecard.py) lives in the document's meta table, outside the
audit trail, and is shown before the real window has scored anything. Binding it to the audit
head alone stops a stale table, not a forged one: whoever can write the file can also copy the
head beside a table of their own. So the app keeps a random key in the user's own data folder
(never in the document) and stores an HMAC-SHA256 of the table, the head and the document's first
row with it; a table whose seal this user's key does not reproduce is not painted, and the real
window, computed from the audited rows, comes up as it always does. Standard library only: the
first paint must not wait for the models to import.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from clusterbid.core.safe_read import read_regular
from clusterbid.core.user_folder import per_user_data_folder

KEY_ENV = "CLUSTERBID_DISPLAY_KEY"  # names another key file (the tests keep one of their own)
KEY_BYTES = 32


def key_path() -> Path:
    """CLUSTERBID_DISPLAY_KEY, else the platform's per-user data folder (beside the anchor log)."""
    if os.environ.get(KEY_ENV):
        return Path(os.environ[KEY_ENV])
    return per_user_data_folder() / "display-seal.key"


def _read_key(path: Path) -> bytes | None:
    try:
        key = read_regular(path, KEY_BYTES)  # a FIFO or device named as the key is refused, unread
    except OSError:
        return None
    return key if len(key) == KEY_BYTES else None


def user_key(*, create: bool) -> bytes | None:
    """This user's key; made (owner-only, never replaced) when `create` and there is none. None
    when it cannot be read or made: nothing is then sealed, so nothing is painted early."""
    path = key_path()
    key = _read_key(path)
    if key is not None or not create:
        return key
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another window made it a moment ago: use theirs
        return _read_key(path)
    except OSError:
        return None
    try:
        os.write(descriptor, secrets.token_bytes(KEY_BYTES))
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    return _read_key(path)


def seal(key: bytes, document_id: str, payload: bytes) -> str:
    """The seal of `payload` kept for the document whose first row hashes to `document_id`."""
    return hmac.new(key, document_id.encode("utf-8") + b"\0" + payload, hashlib.sha256).hexdigest()


def sealed_by(key: bytes | None, document_id: str, payload: bytes, claimed: object) -> bool:
    """True only when this user's key makes `claimed` from the same document and payload."""
    return (
        key is not None
        and isinstance(claimed, str)
        and hmac.compare_digest(seal(key, document_id, payload), claimed)
    )
