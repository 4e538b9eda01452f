"""pyHanko's network clients and signers stay unloaded where unused, yet are pyHanko's own when
asked for (core/memo/offline_pyhanko.py)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO

# In a fresh interpreter: the memo package loaded (as every sign, verify and memo path does),
# then what a caller wanting the network would do, with what was loaded at each step.
_CHILD = """
import json, sys
import clusterbid.core.memo.verification
verify_signers = "pyhanko.sign.signers" in sys.modules  # verify checks signatures, never makes one
import clusterbid.core.memo.signing
offline = "aiohttp" in sys.modules
from pyhanko.sign import PdfSigner, DEFAULT_MD  # names of the package itself: its __init__ runs
from pyhanko.sign.signers import pdf_signer
from pyhanko.sign.timestamps import HTTPTimeStamper
from pyhanko.sign.validation import ades
stamper = HTTPTimeStamper("http://127.0.0.1:9/tsa", timeout=1)
backend = ades.AIOHttpFetcherBackend()
from pyhanko.sign.timestamps import aiohttp_client
from pyhanko_certvalidator.fetchers import aiohttp_fetchers
print(json.dumps({
    "verify loads signers": verify_signers,
    "package names": PdfSigner is pdf_signer.PdfSigner and DEFAULT_MD == "sha256",
    "offline": offline,
    "after": "aiohttp" in sys.modules,
    "stamper": type(stamper) is aiohttp_client.HTTPTimeStamper,
    "backend": type(backend) is aiohttp_fetchers.AIOHttpFetcherBackend,
    "real modules": type(sys.modules["pyhanko.sign.timestamps.aiohttp_client"]).__name__,
}))
"""


def test_network_clients_load_only_when_used_and_are_pyhankos_own():
    env = {"PYTHONPATH": str(REPO / "desktop"), "PATH": ""}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {
        "verify loads signers": False,
        "package names": True,
        "offline": False,
        "after": True,
        "stamper": True,
        "backend": True,
        "real modules": "module",
    }
