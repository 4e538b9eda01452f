"""Read the JSON that `dcgmi diag -r 3 -j` prints, one file per node, into the same test list
the table reader gives (node_logs.py), so both are judged by one rule (node_judging.py).

The structure, from NVIDIA's own source (github.com/NVIDIA/DCGM): dcgmi/Diag.cpp writes it
(HelperJsonAddResult, HelperJsonBuildOutput), nvvs/include/NvvsJsonStrings.h names its keys, and
testing/python3/dcgm_diag_schema.json is NVIDIA's schema of it. The root object is named
"DCGM GPU Diagnostic" up to DCGM 3.3 and "DCGM Diagnostic" from DCGM 4.0; under it,
"test_categories" is a list of {"category": "Deployment" | "Integration" | "Hardware" | "Stress",
"tests": [...]}, each test {"name", "results": [...]} (DCGM 4 adds "test_summary": {"status"}),
each result one GPU's: "status" (Pass, Fail, Warn, Skip; Not Run), the GPU as "gpu_id" (DCGM 3,
a string) or "entity_group" and "entity_id" (DCGM 4), "warnings" as a list of {"warning",
"error_id", ...} (DCGM 3's deployment checks write one string instead) and "info". Test names
are the display words in DCGM 3 ("Targeted Stress") and the plugin names in DCGM 4
("targeted_stress"); both are shown as words. A diagnostic that could not run writes
"runtime_error" instead of results.

Hostile input is refused with the file and the field named: more than 4 MiB, NUL bytes, text
that is not UTF-8, JSON nested too deep or with a number too long, an unknown status, a field of
the wrong type, more tests or results than a node can hold."""

from __future__ import annotations

import json
from typing import Any

from clusterbid.core.acceptance.node_logs import (
    RAN,
    DiagReport,
    DiagTest,
    decoded_text,
    parse_dcgm_diag,
)
from clusterbid.core.errors import InputError

ROOTS = ("DCGM Diagnostic", "DCGM GPU Diagnostic")  # DCGM 4.0 onward, DCGM 3.x
MAX_BYTES = 4 * 1024 * 1024  # level 3 on 8 GPUs with a warning on every result is under 100 KB
MAX_TESTS = 256  # DCGM 4 runs about 15 tests at level 3
MAX_RESULTS = 1024  # one per GPU (or CPU) of the node
MAX_TEXT = 300  # characters of a warning kept in the note
# Worst first: a test is as bad as its worst GPU (a Warn fails the node, as in the table).
ORDER = ("fail", "warn", "pass", "skip", "not run")
# DCGM 4's plugin names as DCGM 3 and the user guide print them (dcgmi/Diag.cpp's DISPLAY_*).
WORDS = {
    "software": "Software",
    "pcie": "PCIe",
    "memory": "GPU Memory",
    "diagnostic": "Diagnostic",
    "sm_stress": "SM Stress",
    "targeted_stress": "Targeted Stress",
    "targeted_power": "Targeted Power",
    "memory_bandwidth": "Memory Bandwidth",
    "memtest": "Memtest",
    "pulse_test": "Pulse Test",
    "eud": "EUD Test",
    "context_create": "Context Create",
}


def looks_like_json(data: bytes) -> bool:
    """dcgmi's JSON begins with '{'; its table begins with a line of text."""
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{"


def read_dcgm_diag(data: bytes, name: str) -> DiagReport:
    """One node's diagnostic, as JSON (-j) or as the printed table, whichever the file holds."""
    return parse_dcgm_json(data, name) if looks_like_json(data) else parse_dcgm_diag(data, name)


def media_type(data: bytes) -> str:
    return "application/json" if looks_like_json(data) else "text/plain"


def _document(data: bytes, name: str) -> dict[str, Any]:
    text = decoded_text(
        data,
        name,
        not_what="dcgmi's JSON",
        as_is="it as is",
        as_printed="dcgmi's output as is",
        max_bytes=MAX_BYTES,
        too_big="one node's dcgmi diag JSON may hold; return one file per node",
    )
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{name} line {exc.lineno}: not valid JSON ({exc.msg}); return what "
            "'dcgmi diag -r 3 -j' prints, as is"
        ) from None
    except RecursionError:
        raise InputError(f"{name}: JSON nested too deeply for dcgmi's output") from None
    except ValueError:  # an integer of more than 4,300 digits (Python's int_max_str_digits)
        raise InputError(f"{name}: holds a number too long for dcgmi's output") from None
    if not isinstance(document, dict):
        raise InputError(f"{name}: expected a JSON object, found {type(document).__name__}")
    return document


def _field(value: object, kind: type, name: str, path: str) -> Any:
    if not isinstance(value, kind):
        found = "nothing" if value is None else type(value).__name__
        raise InputError(f"{name}: {path} must be a {kind.__name__}, found {found}")
    return value


def _words(test: str) -> str:
    return WORDS.get(test, test.replace("_", " ")[:1].upper() + test.replace("_", " ")[1:])


def _gpu(result: dict[str, Any]) -> str:
    if "gpu_id" in result:
        return f"GPU {str(result['gpu_id'])[:8]}"
    if "entity_id" in result:
        return f"{str(result.get('entity_group', 'GPU'))[:8]} {str(result['entity_id'])[:8]}"
    return "all GPUs"


def _warnings(result: dict[str, Any], name: str, path: str) -> list[str]:
    raw = result.get("warnings")
    if raw is None:
        return []
    if isinstance(raw, str):  # DCGM 3's deployment checks write the message itself
        return [raw[:MAX_TEXT]]
    said = []
    for index, item in enumerate(_field(raw, list, name, f"{path}.warnings")[:16]):
        entry = _field(item, dict, name, f"{path}.warnings[{index}]")
        text = _field(entry.get("warning"), str, name, f"{path}.warnings[{index}].warning")
        said.append(text[:MAX_TEXT])
    return said


def _status(value: object, name: str, path: str) -> str:
    text: str = _field(value, str, name, f"{path}.status").strip().lower()
    if text not in ORDER:
        raise InputError(
            f"{name}: {path}.status reads {str(value)[:40]!r}, not Pass, Fail, Warn, Skip or "
            "Not Run; return dcgmi's output unchanged"
        )
    return text


def _test(entry: dict[str, Any], section: str, name: str, path: str) -> DiagTest:
    test = _field(entry.get("name"), str, name, f"{path}.name")
    raw = entry.get("results") or []
    results = _field(raw, list, name, f"{path}.results")
    if len(results) > MAX_RESULTS:
        raise InputError(f"{name}: {path}.results lists {len(results):,} GPUs; one node has fewer")
    states: list[str] = []
    flagged: list[tuple[str, str, str]] = []  # who, state, warnings
    for index, item in enumerate(results):
        where = f"{path}.results[{index}]"
        result = _field(item, dict, name, where)
        said = "; ".join(_warnings(result, name, where))
        if "status" not in result and said and states:
            # DCGM 3's deployment checks put their second and later messages in entries of
            # their own, with no status: they belong to the check's one result.
            flagged.append(("all GPUs", states[0], said))
            continue
        state = _status(result.get("status"), name, where)
        states.append(state)
        if state in ("fail", "warn"):
            flagged.append((_gpu(result), state, said))
    summary = entry.get("test_summary")  # DCGM 4: errors tied to no GPU are reported here
    if summary is not None:
        summary_dict = _field(summary, dict, name, f"{path}.test_summary")
        state = _status(summary_dict.get("status"), name, f"{path}.test_summary")
        if state in ("fail", "warn") and state not in states:
            said = "; ".join(_warnings(summary_dict, name, f"{path}.test_summary"))
            flagged.append(("the node as a whole", state, said))
        # A summary's Pass over GPUs that all skipped (or none listed) is not a run.
        if state != "pass" or any(s in RAN for s in states):
            states.append(state)
    worst = min(states, key=ORDER.index) if states else "not run"
    detail = "; ".join(
        # DCGM's own message often begins with the GPU ("GPU 3: ..."): said once, not twice
        (said if said.startswith(f"{who}:") and state == worst else who)
        + (f" {state}" if state != worst else "")
        + (f": {said}" if said and not said.startswith(f"{who}:") else "")
        for who, state, said in flagged
    )
    return DiagTest(section, _words(test), worst, detail[: 2 * MAX_TEXT])


def parse_dcgm_json(data: bytes, name: str) -> DiagReport:
    """Every test of the node with its worst GPU's result and the warnings DCGM gave."""
    document = _document(data, name)
    key = next((k for k in ROOTS if k in document), None)
    if key is None:
        raise InputError(
            f'{name}: no "DCGM Diagnostic" object, so not the output of dcgmi diag -j; return '
            "what 'dcgmi diag -r 3 -j' prints on the node, as is"
        )
    root = _field(document[key], dict, name, f'"{key}"')
    error = root.get("runtime_error")
    if error:
        raise InputError(
            f'{name}: "{key}".runtime_error reads {str(error)[:200]!r}: the diagnostic did not '
            "run on this node; run it again and return the new output"
        )
    path = f'"{key}".test_categories'
    categories = _field(root.get("test_categories"), list, name, path)
    tests: list[DiagTest] = []
    for c, item in enumerate(categories):
        category = _field(item, dict, name, f"{path}[{c}]")
        section = _field(category.get("category"), str, name, f"{path}[{c}].category")
        entries = _field(category.get("tests"), list, name, f"{path}[{c}].tests")
        for t, entry in enumerate(entries):
            if entry is None:  # DCGM 3 leaves a null where a check was not run
                continue
            where = f"{path}[{c}].tests[{t}]"
            tests.append(_test(_field(entry, dict, name, where), section[:40], name, where))
            if len(tests) > MAX_TESTS:
                raise InputError(f"{name}: more than {MAX_TESTS} tests; one node runs fewer")
    if not tests:
        raise InputError(f"{name}: {path} lists no test results")
    return DiagReport(tuple(tests))
