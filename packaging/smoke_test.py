"""Build the Linux bundle and try it as a user would, offline: python packaging/smoke_test.py

Checks, each printed with its figure:
- the frozen CLI scores the demo exactly as the source checkout does (same JSON bytes);
- the frozen CLI exports the demo memo byte-identical to the source checkout's;
- the frozen CLI signs an approver field (pyHanko, a throw-away test CA) and `verify` accepts it;
- with no network at all (`unshare -n`, where the machine allows it) scoring, the memo and the
  window all still work;
- cold start to the first painted window (offscreen), frozen vs source, median of 5;
- the bundle size.
Exit status 0 only when every check that could run holds. `--bundle DIR` skips the build.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "resources" / "examples" / "demo-evaluation.json"
SOURCE_CLI = [sys.executable, "-m", "clusterbid"]
SOURCE_ENV = {"PYTHONPATH": str(ROOT / "desktop")}
PAINT_ENV = {"QT_QPA_PLATFORM": "offscreen", "CLUSTERBID_QUIT_AFTER_FIRST_PAINT": "1"}


def run(
    command: list[str], env: dict[str, str] | None = None, offline: bool = False
) -> subprocess.CompletedProcess:
    if offline:
        command = ["unshare", "-rn", *command]
    return subprocess.run(
        command, capture_output=True, env={**os.environ, **(env or {})}, timeout=300
    )


def can_go_offline() -> bool:
    return shutil.which("unshare") is not None and run(["true"], offline=True).returncode == 0


def first_paint_seconds(
    command: list[str], env: dict[str, str] | None = None, repeats: int = 5
) -> float:
    """Wall time from process start to exit, the app quitting right after its first paint."""
    paint_env = {**(env or {}), **PAINT_ENV}
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        done = run([*command, "app", str(DEMO)], paint_env)
        if done.returncode != 0:
            raise RuntimeError(f"app failed to start: {done.stderr.decode()[-1000:]}")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def sign_and_verify(frozen: list[str], memo: Path, work: Path) -> tuple[bool, str]:
    """Sign both approver fields of `memo` with certificates from a CA made now; verify frozen."""
    sys.path.insert(0, str(ROOT / "tests" / "core" / "memo_signing"))
    from pki import Authority  # the test suite's throw-away CA: no key is ever committed

    authority = Authority.create()
    root = authority.write_pem(work / "root.pem")
    signed = work / "signed.pdf"
    signs = []
    for field, (name, source) in enumerate(
        [("Ada Lovelace", memo), ("Alan Turing", signed)], start=1
    ):
        p12 = authority.write_p12(work, name, "smoke-test")
        signs.append(
            run(
                [
                    *frozen,
                    "sign",
                    str(source),
                    "--field",
                    str(field),
                    "--p12",
                    str(p12),
                    "-o",
                    str(signed),
                ],
                {"CLUSTERBID_P12_PASSPHRASE": "smoke-test"},
            )
        )
    verify = run([*frozen, "verify", str(signed), "--trust", str(root), "--evaluation", str(DEMO)])
    report = verify.stdout.decode().strip().splitlines()
    ok = all(done.returncode == 0 for done in signs) and verify.returncode == 0
    errors = " ".join(done.stderr.decode().strip()[-200:] for done in signs if done.returncode)
    return ok, (
        f"sign exits {[done.returncode for done in signs]} {errors}, verify exit "
        f"{verify.returncode}: "
        f"{report[-1] if report else verify.stderr.decode()[-300:]}"
    )


def check(name: str, ok: bool, detail: str, failures: list[str]) -> None:
    print(f"[{'ok' if ok else 'FAIL'}] {name}: {detail}")
    if not ok:
        failures.append(name)


def smoke(bundle: Path) -> int:
    from build import folder_size_mb

    frozen = [str(bundle / "clusterbid")]
    failures: list[str] = []
    work = Path(tempfile.mkdtemp(prefix="clusterbid-smoke-"))
    score_frozen = run([*frozen, "score", str(DEMO), "--json"])
    score_source = run([*SOURCE_CLI, "score", str(DEMO), "--json"], SOURCE_ENV)
    check(
        "score",
        score_frozen.returncode == 0 and score_frozen.stdout == score_source.stdout,
        f"frozen exit {score_frozen.returncode}, {len(score_frozen.stdout)} bytes of JSON, "
        f"{'identical to' if score_frozen.stdout == score_source.stdout else 'DIFFERENT from'} the "
        "source checkout",
        failures,
    )

    memo_args = [
        "memo",
        str(DEMO),
        "--approver",
        "Ada Lovelace, CFO",
        "--approver",
        "Alan Turing, Head of ML",
    ]
    memo_frozen, memo_source = work / "frozen.pdf", work / "source.pdf"
    made_frozen = run([*frozen, *memo_args, "-o", str(memo_frozen)])
    made_source = run([*SOURCE_CLI, *memo_args, "-o", str(memo_source)], SOURCE_ENV)
    same = (
        memo_frozen.exists()
        and memo_source.exists()
        and memo_frozen.read_bytes() == memo_source.read_bytes()
    )
    check(
        "memo",
        made_frozen.returncode == 0 and same,
        f"frozen exit {made_frozen.returncode} ({made_frozen.stderr.decode().strip()[-300:]}), "
        "source exit "
        f"{made_source.returncode}, PDFs {'byte-identical' if same else 'DIFFER'}",
        failures,
    )

    if memo_frozen.exists():
        ok, detail = sign_and_verify(frozen, memo_frozen, work)
        check("sign and verify", ok, detail, failures)

    if can_go_offline():
        offline_pdf = work / "offline.pdf"
        score_offline = run([*frozen, "score", str(DEMO)], offline=True)
        memo_offline = run([*frozen, *memo_args, "-o", str(offline_pdf)], offline=True)
        app_offline = run([*frozen, "app", str(DEMO)], PAINT_ENV, offline=True)
        same_offline = offline_pdf.exists() and offline_pdf.read_bytes() == memo_source.read_bytes()
        check(
            "offline",
            all(done.returncode == 0 for done in (score_offline, memo_offline, app_offline))
            and same_offline,
            f"no network namespace, memo {'byte-identical' if same_offline else 'DIFFERENT'}: "
            f"score exit {score_offline.returncode}, memo exit {memo_offline.returncode}, "
            f"app to first paint exit {app_offline.returncode}",
            failures,
        )
    else:
        print("[skip] offline: this machine does not allow `unshare -rn`")

    frozen_start = first_paint_seconds(frozen)
    source_start = first_paint_seconds(SOURCE_CLI, SOURCE_ENV)
    check(
        "cold start",
        frozen_start < 1.5,
        f"first painted window {frozen_start:.2f} s frozen, {source_start:.2f} s from source "
        "(median of 5)",
        failures,
    )
    print(f"bundle size: {folder_size_mb(bundle):.0f} MB ({bundle})")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", type=Path, help="an already built dist/ClusterBid folder")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from build import build

    bundle = args.bundle or build()
    return smoke(bundle)


if __name__ == "__main__":
    sys.exit(main())
