"""Property-based fuzzing of the importers and JSON readers: whatever the bytes, the result is a
report or an InputError with a message, never another exception (which the CLI would turn into
exit 70) and never a hang."""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.conftest import bid_dict

from clusterbid.core.bid import Bid
from clusterbid.core.documents import parse_model
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.interchange import import_bids, write_template_csv, write_template_xlsx
from clusterbid.core.json_input import loads
from clusterbid.core.workload import Workload

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

with tempfile.TemporaryDirectory() as _folder:
    _bids = [Bid.model_validate(bid_dict("acme")), Bid.model_validate(bid_dict("beta"))]
    VALID_CSV = write_template_csv(Path(_folder) / "t.csv", _bids).read_bytes()
    VALID_XLSX = write_template_xlsx(Path(_folder) / "t.xlsx", _bids).read_bytes()

JSON_TEXT = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
).map(lambda value: __import__("json").dumps(value))


def _import(data: bytes, suffix: str):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"fuzz{suffix}"
        path.write_bytes(data)
        try:
            report = import_bids(path)
        except InputError as exc:
            assert str(exc).startswith(f"fuzz{suffix}"), str(exc)  # the message names the file
            return None
        assert len(report.bids) + len(report.problems) >= 0
        return report


def _mutated(data: bytes, draw_edits) -> bytes:
    out = bytearray(data)
    for position, byte, kind in draw_edits:
        position %= max(len(out), 1)
        if kind == 0:
            out[position : position + 1] = bytes([byte])
        elif kind == 1:
            out[position:position] = bytes([byte])
        else:
            del out[position : position + 1]
    return bytes(out)


EDITS = st.lists(
    st.tuples(st.integers(0, 10**6), st.integers(0, 255), st.integers(0, 2)), min_size=1, max_size=8
)


@FUZZ
@given(data=st.binary(max_size=2000), suffix=st.sampled_from([".csv", ".json", ".xlsx"]))
def test_arbitrary_bytes_are_a_report_or_a_message(data, suffix):
    _import(data, suffix)


@FUZZ
@given(edits=EDITS)
def test_a_damaged_csv_is_a_report_or_a_message(edits):
    _import(_mutated(VALID_CSV, edits), ".csv")


@FUZZ
@given(edits=EDITS)
def test_a_damaged_xlsx_is_a_report_or_a_message(edits):
    _import(_mutated(VALID_XLSX, edits), ".xlsx")


@FUZZ
@given(
    edits=st.lists(
        st.tuples(st.integers(0, 10**6), st.integers(0, 255), st.integers(0, 2)), max_size=3
    )
)
def test_a_damaged_sheet_inside_an_intact_zip_is_a_report_or_a_message(edits):
    source = zipfile.ZipFile(io.BytesIO(VALID_XLSX))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item)
            target.writestr(
                item.filename,
                _mutated(data, edits) if item.filename.endswith("sheet1.xml") else data,
            )
    _import(out.getvalue(), ".xlsx")


@FUZZ
@given(text=JSON_TEXT | st.text(max_size=300))
def test_json_text_is_a_value_or_a_message(text):
    for model in (Evaluation, Workload, Bid):
        try:
            parse_model(model, text, "fuzz.json")
        except InputError as exc:
            assert str(exc).startswith("fuzz.json")
    try:
        loads(text, "fuzz.json")
    except InputError as exc:
        assert str(exc).startswith("fuzz.json")


@FUZZ
@given(
    bid=st.fixed_dictionaries(
        {
            "provider": st.text(max_size=40),
            "reference": st.text(max_size=20),
            "gpus": st.integers(-5, 10**6),
        }
    )
)
def test_a_bid_json_with_any_provider_text_is_a_bid_or_a_message(bid):
    import json

    data = bid_dict("fuzz", quote={"provider": bid["provider"], "reference": bid["reference"]})
    data["capacity"]["gpus_offered"] = bid["gpus"]
    report = _import(json.dumps([data]).encode("utf-8", "surrogatepass"), ".json")
    if report is not None and report.bids:
        provider = report.bids[0].quote.provider
        assert not any(
            ord(c) < 32 and c not in "\t\n\r" for c in provider
        )  # no control character got in
