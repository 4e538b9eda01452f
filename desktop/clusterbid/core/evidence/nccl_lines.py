"""How a log's lines are found wherever it was pasted: numbered one at a time, unwrapped from
markdown quoting, indentation and launcher prefixes, and the node count of its launcher line."""

from __future__ import annotations

import re
from collections.abc import Iterator

_TAG_PREFIX = re.compile(r"\[\d+,\d+\]<std(?:out|err)>:|\d{1,6}: ")  # mpirun --tag-output, srun -l
# Launcher options that fix the node count: mpirun -np N with -npernode/--map-by ppr:M, or
# --nodes/--nnodes N (srun, torchrun). Open MPI's -N means per node, so bare -N is not used.
_CONTINUED = re.compile(r"\\[ \t]*\r?\n[>\s]*")
_LAUNCHER = re.compile(r"\b(?:mpirun|mpiexec|srun|torchrun)\b[^\n]*")
_NP = re.compile(r"(?:^|\s)(?:-np|-n|--np|--ntasks)[= ](\d{1,6})\b")
_PER_NODE = re.compile(
    r"(?:-npernode|--npernode|--ntasks-per-node|-ppn|--map-by ppr:)[= ]?(\d{1,6})\b"
)
_NODES = re.compile(r"(?:--nodes|--nnodes)[= ](\d{1,6})\b")


def launch_nodes(text: str) -> int | None:
    """Nodes the first launcher command line in the text asked for, if it says."""
    match = _LAUNCHER.search(_CONTINUED.sub(" ", text[:200_000]))
    if match is None:
        return None
    line = match[0]
    if nodes := _NODES.search(line):
        return int(nodes[1]) or None
    np, per_node = _NP.search(line), _PER_NODE.search(line)
    if np and per_node and int(per_node[1]) and int(np[1]) % int(per_node[1]) == 0:
        return int(np[1]) // int(per_node[1])
    return None


def numbered_lines(text: str) -> Iterator[tuple[int, str, bool]]:
    """(line number from 1, line, whether it is the last) without a list of every line: a log's
    lines as a list took several times the file's size."""
    start, number = 0, 1
    while True:
        end = text.find("\n", start)
        if end < 0:
            yield number, text[start:], True
            return
        yield number, text[start:end], False
        start, number = end + 1, number + 1


def unwrap(line: str) -> str:
    """Strip indentation, markdown quoting and launcher prefixes around a log line."""
    text = line.strip()
    while text[:1] == ">":
        text = text[1:].lstrip()
    if text[:1] in "[0123456789" and text:
        prefix = _TAG_PREFIX.match(text)
        if prefix:
            text = text[prefix.end() :].lstrip()
    return text
