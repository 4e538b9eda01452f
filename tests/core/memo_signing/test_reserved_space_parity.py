"""Signing works whatever the length of the signer's certificate (found by the packaging smoke test).

pyHanko writes the reserved signature space as hex and refuses an odd byte count. The DER length
of a certificate grows by one byte per character of the signer's name, so among names one
character apart some give an odd total and some an even one; both kinds must sign.
"""

from __future__ import annotations

from clusterbid.core.memo.credentials import load_credentials
from clusterbid.core.memo.signing import sign_memo


def _certificate_bytes(credentials) -> int:
    return sum(len(c.dump()) for c in (credentials.certificate, *credentials.chain))


def test_signers_with_odd_and_even_certificate_lengths_both_sign(pki, unsigned_memo):
    by_parity = {}
    for length in range(1, 40):  # names "A", "AA", ...: both parities show up within a few tries
        name = "A" * length
        credentials = load_credentials(pki.authority.write_p12(pki.folder, name, "pw"), "pw")
        by_parity.setdefault(_certificate_bytes(credentials) % 2, (name, credentials))
        if len(by_parity) == 2:
            break
    assert set(by_parity) == {0, 1}, "could not make certificates of both length parities"
    for name, credentials in by_parity.values():
        signed = sign_memo(unsigned_memo, "approver-1", credentials)
        assert signed.signer == name
        assert len(signed.pdf) > len(unsigned_memo)
