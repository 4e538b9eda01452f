"""pyHanko's network clients stay unloaded offline, yet are pyHanko's own when asked for."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO

# In a fresh interpreter: the memo package loaded (as every sign, verify and memo path does),
# then what a caller wanting the network would do, with what was loaded at each step.
_CHILD = """
import json, sys
import clusterbid.core.memo.signing, clusterbid.core.memo.verification
offline = "aiohttp" in sys.modules
from pyhanko.sign.timestamps import HTTPTimeStamper
from pyhanko.sign.validation import ades
stamper = HTTPTimeStamper("http://127.0.0.1:9/tsa", timeout=1)
backend = ades.AIOHttpFetcherBackend()
from pyhanko.sign.timestamps import aiohttp_client
from pyhanko_certvalidator.fetchers import aiohttp_fetchers
print(json.dumps({
    "offline": offline,
    "after": "aiohttp" in sys.modules,
    "stamper": type(stamper) is aiohttp_client.HTTPTimeStamper,
    "backend": type(backend) is aiohttp_fetchers.AIOHttpFetcherBackend,
    "real modules": type(sys.modules["pyhanko.sign.timestamps.aiohttp_client"]).__name__,
}))
"""


def test_network_clients_load_only_when_used_and_are_pyhankos_own():
    env = {"PYTHONPATH": str(REPO / "desktop"), "PATH": ""}
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {"offline": False, "after": True, "stamper": True, "backend": True,
                     "real modules": "module"}
