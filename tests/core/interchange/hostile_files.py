"""Builders of hostile input files and a helper that runs the CLI on one, measuring CPU and memory.

Files are written in streams, so making a 60 MB file costs this process little; the sizes are
those of the attacks reported in issue 18.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

DESKTOP = Path(__file__).resolve().parents[3] / "desktop"


@dataclass(frozen=True)
class Run:
    exit_code: int
    stderr: str
    cpu_seconds: (
        float  # user + system time of the child: the same on a busy machine, unlike wall time
    )
    peak_rss_mb: float


def run_cli(args: list[str], cwd: Path, timeout_s: float = 300.0) -> Run:
    """`python -m clusterbid ARGS` in a fresh process; its own CPU time and peak RSS come from
    wait4's rusage. `timeout_s` only catches a hang (sized for a loaded machine)."""
    env = {**os.environ, "PYTHONPATH": str(DESKTOP), "QT_QPA_PLATFORM": "offscreen"}
    start = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "clusterbid", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = start + timeout_s
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            process.kill()
            process.wait()
            raise AssertionError(f"{args} ran for more than {timeout_s:.0f} s")
        time.sleep(0.01)
    stderr = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    cpu_seconds = usage.ru_utime + usage.ru_stime
    return Run(
        os.waitstatus_to_exitcode(status), stderr, cpu_seconds, usage.ru_maxrss / 1024
    )  # KiB on Linux


def write_repeated(path: Path, head: str, unit: str, count: int, tail: str) -> Path:
    with path.open("w", encoding="utf-8") as out:
        out.write(head)
        block = unit * 100_000
        for _ in range(count // 100_000):
            out.write(block)
        out.write(unit * (count % 100_000))
        out.write(tail)
    return path


CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types '
    'xmlns="http://schemas.openxmlformats.org/package/2006/'
    'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override '
    "PartName="
    '"/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.'
    'main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
    'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
)
ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships '
    'xmlns="http://schemas.openxmlformats.org/package/'
    '2006/relationships"><Relationship Id="rId1" '
    'Type="http://schemas.openxmlformats.org/officeDocument/'
    '2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?><workbook '
    'xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
    '2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
    '<sheet name="Bids" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
    'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
    'officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
)


def write_xlsx(path: Path, rows: int, columns: int, cell_chars: int, seed: int = 18) -> Path:
    """A minimal valid workbook whose Bids sheet holds rows x columns inline strings of text that
    compresses about 50:1 (mostly 'a', a random 'b' in 50): like the reported attack, 100 MB of
    cell in about 2 MB of zip, under the 100:1 ratio the zip guard refuses as a bomb."""
    rng = random.Random(seed)
    # One random block, reused: deflate's 32 KiB window cannot see a 1 MiB repeat.
    block = "".join(rng.choices("ab", weights=(49, 1), k=1 << 20))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in (
            ("[Content_Types].xml", CONTENT_TYPES),
            ("_rels/.rels", ROOT_RELS),
            ("xl/workbook.xml", WORKBOOK),
            ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
        ):
            archive.writestr(name, text)
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            sheet.write(
                b'<?xml version="1.0" encoding="UTF-8"?><worksheet '
                b'xmlns="http://schemas.openxmlformats.org/'
                b'spreadsheetml/2006/main"><sheetData>'
            )
            for row in range(1, rows + 1):
                sheet.write(f'<row r="{row}">'.encode())
                for column in range(columns):
                    letter = chr(ord("A") + column % 26) * (1 + column // 26)
                    sheet.write(f'<c r="{letter}{row}" t="inlineStr"><is><t>'.encode())
                    left = cell_chars
                    while left:
                        piece = min(left, 1 << 20)
                        start = rng.randrange(0, 1 << 19)
                        sheet.write(
                            block[start : start + piece].encode()
                            if piece <= 1 << 19
                            else block[:piece].encode()
                        )
                        left -= piece
                    sheet.write(b"</t></is></c>")
                sheet.write(b"</row>")
            sheet.write(b"</sheetData></worksheet>")
    return path
