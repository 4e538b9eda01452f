"""The current evaluation as stored: a header row plus one JSON row per bid, in order."""

from __future__ import annotations

import hashlib
import sqlite3

from pydantic import BaseModel

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.text_rules import TEXT_ALREADY_CHECKED, json_text_is_plain


def to_json(model: BaseModel) -> str:
    # round_trip=True leaves out computed fields (e.g. Workload.data_parallel), which the
    # extra="forbid" models would otherwise refuse when the JSON is read back.
    return model.model_dump_json(round_trip=True)


def header_json(evaluation: Evaluation) -> str:
    return evaluation.model_dump_json(round_trip=True, exclude={"bids"})


def assemble(header: str, bid_jsons: list[str]) -> Evaluation:
    """Validate header and bids in one JSON pass, exactly as `Evaluation.model_validate_json` would."""
    # Splicing the bids into the header's JSON object lets pydantic-core parse and validate the
    # whole aggregate once, which keeps opening a 1,000-bid document well under half a second.
    if not header.endswith("}"):
        raise ValueError("the evaluation header is not a JSON object")
    return parse_evaluation(header[:-1] + ',"bids":[' + ",".join(bid_jsons) + "]}")


def parse_evaluation(text: str) -> Evaluation:
    """A stored evaluation's JSON, validated, with the text rules applied once over the whole
    text; only one that may hold a forbidden character (or an escape that could hide one) is
    walked field by field, which names the field in its message."""
    context = {TEXT_ALREADY_CHECKED: True} if json_text_is_plain(text) else None
    return Evaluation.model_validate_json(text, context=context)


def read_texts(conn: sqlite3.Connection) -> tuple[str, list[str]]:
    """The stored header and bids as their JSON text, in order."""
    row = conn.execute("SELECT header_json FROM evaluation WHERE singleton = 1").fetchone()
    if row is None:
        raise ValueError("the document has no evaluation header")
    bids = [bid_json for (bid_json,) in conn.execute("SELECT bid_json FROM bid ORDER BY position")]
    # A changed byte in a record's header can turn stored text into a blob or a number, which
    # SQLite returns as it is: refuse it as altered rather than fail later on a str method.
    if not isinstance(row[0], str) or not all(isinstance(text, str) for text in bids):
        raise ValueError(
            "a stored evaluation row is not text; the file was altered outside ClusterBid"
        )
    return row[0], bids


def load_evaluation(conn: sqlite3.Connection) -> Evaluation:
    return assemble(*read_texts(conn))


def write_evaluation(conn: sqlite3.Connection, evaluation: Evaluation) -> None:
    """Store a whole evaluation in an empty document (inside the caller's transaction)."""
    conn.execute(
        "INSERT INTO evaluation (singleton, header_json) VALUES (1, ?)", (header_json(evaluation),)
    )
    conn.executemany(
        "INSERT INTO bid (position, bid_id, bid_json) VALUES (?, ?, ?)",
        [(index, bid.id, to_json(bid)) for index, bid in enumerate(evaluation.bids, start=1)],
    )


def state_digest(conn: sqlite3.Connection) -> str:
    """A fingerprint of the stored rows (header, bids, artefact records) as they are on disk.

    Taken after each commit and compared before the next: a row changed outside ClusterBid in
    between is noticed before an ordinary edit could write over it and launder it into the trail.
    """
    digest = hashlib.sha256()
    for query in (
        "SELECT header_json FROM evaluation ORDER BY singleton",
        "SELECT position, bid_id, bid_json FROM bid ORDER BY position",
        "SELECT id, bid_id, name, sha256, size, media_type, length(content) FROM artefact ORDER BY "
        "id",
    ):
        for row in conn.execute(query):
            for value in row:
                digest.update(_spelled(value))
            digest.update(b"\n")
    return digest.hexdigest()


def _spelled(value: object) -> bytes:
    """A column's value as bytes no other value shares: its type, then its length and bytes (a
    repr of each row did the same at eight times the cost, most of an open's fingerprint)."""
    if isinstance(value, str):
        data, kind = value.encode("utf-8", "surrogatepass"), b"s"
    elif isinstance(value, bytes):
        data, kind = value, b"b"
    else:  # None, an integer or a real, whose repr is already unambiguous
        data, kind = repr(value).encode("ascii"), b"n"
    return kind + str(len(data)).encode("ascii") + b":" + data


def rebuild(evaluation: Evaluation, **parts: object) -> Evaluation:
    """The evaluation with `parts` replaced, fully validated (never model_copy): cross-field rules
    such as unique bid ids and exchange rates are checked for every edit."""
    fields = {name: getattr(evaluation, name) for name in Evaluation.model_fields}
    return Evaluation.model_validate({**fields, **parts})
