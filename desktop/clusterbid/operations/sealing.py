"""Seal a signed memo for the archive (`clusterbid seal`, File > Seal for the Archive): validation
data and a document timestamp appended to the file, or nothing written at all.

The seal needs a network (the timestamp authority, the OCSP and CRL addresses the certificates
name); offline it raises InputError saying what is missing and the memo on disk is as it was.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.memo.next_steps import Step, mark
from clusterbid.core.memo.signoff import read_memo_bytes, write_atomically
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint

TSA_ENV = "CLUSTERBID_TSA"  # the organisation's timestamp authority, when --tsa is not given


@dataclass(frozen=True)
class SealedMemoFile:
    path: Path
    timestamp_time: datetime
    tsa: str
    signatures: int
    earlier_timestamps: int
    sha256: str

    def words(self) -> str:
        again = (
            f"; it already carried {self.earlier_timestamps} document timestamp(s), now one more"
            if self.earlier_timestamps
            else ""
        )
        return (
            f"sealed {self.path}: validation data for {self.signatures} signature(s) and a "
            f"document timestamp by {self.tsa} at {self.timestamp_time:%Y-%m-%d %H:%M:%S %Z} "
            f"(the timestamp authority's clock){again}. Seal it again before the timestamp "
            "authority's certificate expires"
        )


def timestamp_authority(given: str | None) -> str:
    """The TSA address: --tsa, else $CLUSTERBID_TSA; InputError naming both when neither is set."""
    url = given or os.environ.get(TSA_ENV, "")
    if not url.strip():
        raise InputError(f"no timestamp authority: {mark(Step.GIVE_TSA)}; nothing was written")
    return url.strip()


def seal_memo_file(
    memo: Path,
    tsa: str | None,
    progress: ProgressCallback,
    cancel: CancelToken,
    *,
    trust: Sequence[Path | str] = (),
    output: Path | None = None,
) -> SealedMemoFile:
    """Seal the memo at `memo` (to `output`, else in place). The file must still hold the bytes
    read when the seal is written: one signed meanwhile is left as it is."""
    url = timestamp_authority(tsa)
    pdf = read_memo_bytes(Path(memo))
    from asn1crypto import x509 as asn1_x509
    from cryptography.hazmat.primitives.serialization import Encoding

    from clusterbid.core.memo.sealing import seal_memo
    from clusterbid.core.memo.signoff import quiet_pyhanko_logs
    from clusterbid.core.memo.trust_store import read_certificate_file

    quiet_pyhanko_logs()
    roots = [
        asn1_x509.Certificate.load(c.public_bytes(Encoding.DER))
        for path in trust
        for c in read_certificate_file(path)
    ]
    checkpoint(cancel)
    progress(0.1, "fetching validation data and a timestamp")
    try:
        sealed = seal_memo(pdf, url, roots)
    except InputError as exc:
        raise InputError(f"{memo}: {exc}") from None
    progress(0.9, "writing")
    checkpoint(cancel)  # the last point a cancel stops it: nothing is written after it
    if read_memo_bytes(Path(memo)) != pdf:
        raise InputError(
            f"{Path(memo).name} changed while it was being sealed (an approver may have "
            "signed it); nothing was written: seal it again"
        )
    target = Path(output or memo)
    write_atomically(target, sealed.pdf)
    return SealedMemoFile(
        target,
        sealed.timestamp_time,
        sealed.tsa,
        sealed.signatures,
        sealed.earlier_timestamps,
        sealed.sha256,
    )
