"""The pack as a document a provider can follow without a call (Markdown), and its JSON."""

from __future__ import annotations

import json

from clusterbid.core.evidence_request.model import RequestPack

GRADE_NAMES = {"measured_independent": "Measured, independent", "measured_provider": "Measured by the provider",
               "provider_claim": "Claim"}  # fmt: skip


def pack_json(pack: RequestPack) -> str:
    return json.dumps(pack.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def pack_markdown(pack: RequestPack) -> str:
    lines = [
        f"# Request for evidence: {pack.provider}",
        "",
        f"For the evaluation **{pack.evaluation}**, bid `{pack.bid_id}`. Issued "
        f"{pack.issued_on.isoformat()}; "
        f"please return the files by **{pack.deadline.isoformat()}**.",
        "",
        "Each request has an id (`CBR-...`). Begin the name of every file you return with it, "
        "exactly as given "
        "below: that is how the files are matched to this request. Files that arrive after the "
        "deadline are "
        "still read, and are recorded as late. If you will not run a request, say so in writing, "
        "quoting its id.",
        "",
    ]
    for number, request in enumerate(pack.requests, start=1):
        lines += [f"## {number}. {request.title}", "", f"Request id: `{request.request_id}`", ""]
        lines += [f"- {text}" for text in request.instructions]
        lines.append("")
        for run in request.runs:
            lines += [
                f"**{run.name}** ({_count(run.nodes, 'node')}, {_count(run.gpus, 'GPU')}): "
                f"return as `{run.return_as}`",
                "",
                "```sh",
                run.command_line(),
                "```",
                "",
            ]
        lines += [f"Formats read back: {', '.join(f'`{f}`' for f in request.formats)}.", ""]
    lines += [
        "## Who runs or witnesses it",
        "",
        "The weight given to a result depends on who measured it and whether the raw output is "
        "attached:",
        "",
    ]
    lines += [
        f"- **{GRADE_NAMES.get(grade, grade)}**: {text}" for grade, text in pack.witness.items()
    ]
    if pack.questions:
        lines += ["", "## Please also state in writing", ""]
        lines += [f"- {text}" for text in pack.questions]
    lines += ["", "The machine-readable form of this request is the JSON file beside this one.", ""]
    return "\n".join(lines)


def _count(number: int, noun: str) -> str:
    """'1 node', '2 nodes': the letter is read by a provider, not parsed."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
