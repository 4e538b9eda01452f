"""Criteria, billing kinds and evidence formats are each declared once (issue 33 item 3): an entry
added to the table alone reaches every consumer that lists them.

Each test runs a fresh interpreter that adds one entry to a table before anything else of
ClusterBid is imported (as an edit of the table's file would), then asks every consumer what it
lists; the figures expected are worked out here from the demo's own JSON, not read from the code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from tests.conftest import REPO

DEMO = REPO / "resources" / "examples" / "demo-evaluation.json"


def _child(script: str) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=600,  # a guard against a hang only; nothing here is timed
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


CRITERION_CHILD = """
    import json
    from pathlib import Path

    import clusterbid.core.criteria as criteria

    green = criteria.Criterion(
        "green_power", 2, "Green power", "Green", "&Green power", "green power",
        "share of the site's power from renewable sources", lambda bid, _: 0.5,
    )
    criteria.CRITERIA = (*criteria.CRITERIA, green)

    from PySide6.QtWidgets import QApplication

    from clusterbid.core.documents import read_evaluation
    from clusterbid.core.memo.content import criteria_rows
    from clusterbid.core.methodology_tables import criteria_table
    from clusterbid.core.schema import schema_texts
    from clusterbid.core.scoring import score_evaluation
    from clusterbid.core.uncertainty.tipping import WEIGHT_WORDS, tipping_points
    from clusterbid.gui.comparison.score_matrix import SHORT
    from clusterbid.gui.comparison.scorecard_table_model import CRITERION_WORDS
    from clusterbid.gui.comparison.weights_panel import WeightsPanel

    app = QApplication([])
    evaluation = read_evaluation(Path("resources/examples/demo-evaluation.json"))
    card = score_evaluation(evaluation)
    schema = json.loads(schema_texts()["evaluation.schema.json"])
    panel = WeightsPanel()
    print(json.dumps({
        "scores": [s.criteria.get("green_power") for s in card.ranked],
        "weight": card.weights.get("green_power"),
        "schema": schema["$defs"]["CriteriaWeights"]["properties"].get("green_power"),
        "panel": [panel.layout().itemAtPosition(i, 0).widget().text()
                  for i in range(panel.layout().rowCount())],
        "slider": "green_power" in panel.sliders,
        "memo_header": list(criteria_rows(card)[0]),
        "tipping": "green_power" in tipping_points(card),
        "words": [WEIGHT_WORDS.get("green_power"), CRITERION_WORDS.get("green_power"),
                  SHORT.get("green_power")],
        "methodology": criteria_table()[-1],
    }))
"""


def test_a_criterion_added_to_the_table_reaches_the_scorer_schema_views_and_methodology():
    out = _child(CRITERION_CHILD)
    demo_weights = json.loads(DEMO.read_text(encoding="utf-8"))["policy"]["weights"]
    total = sum(demo_weights.values()) + 2  # the demo's weights, plus the new one's default 2
    assert out["scores"] and all(score == 0.5 for score in out["scores"])  # the scorer ran it
    assert abs(out["weight"] - 2 / total) < 1e-12
    assert out["schema"]["default"] == 2 and out["schema"]["maximum"] == 100
    assert out["panel"][-1] == "&Green power" and out["slider"]  # the weights panel's list
    assert f"Green power ({2 / total:.0%})" in out["memo_header"]  # the memo's criteria matrix
    assert out["tipping"]
    assert out["words"] == ["Green power", "Green power", "Green"]
    assert out["methodology"] == (
        "| green power | share of the site's power from renewable sources |"
    )


BILLING_CHILD = """
    import json
    from dataclasses import replace

    import clusterbid.core.billing_kinds as kinds

    # A term contract billed like a reserved term but without an exit: only the table changes.
    fixed = replace(
        kinds.spec_of("reserved"), name="fixed-term", code=9, words="fixed term (no exit)",
        page_name="a fixed term", may_exit_early=False,
    )
    kinds.BILLING_KIND_SPECS = (*kinds.BILLING_KIND_SPECS, fixed)

    from clusterbid.core.bid import Bid
    from clusterbid.core.contract_summary import billing_words
    from clusterbid.core.costmodel.contract import BILLING_CODES, SPAN_CODES, EXIT_CODES
    from clusterbid.core.interchange.columns import bid_columns
    from clusterbid.core.methodology_tables import billing_table
    from clusterbid.core.schema import schema_texts
    from clusterbid.core.terms import BILLING_WORDS, Terms
    from tests.conftest import bid_dict

    schema = json.loads(schema_texts()["bid.schema.json"])
    billing = schema["$defs"]["Terms"]["properties"]["billing"]["anyOf"][0]
    columns = {c.key: c for c in bid_columns()}
    data = bid_dict()
    data["terms"].update(billing="fixed-term", term_months=2, reserved_gpus=None)
    bid = Bid.model_validate(data)
    try:
        Terms(price_per_gpu_hour=2, billing="fixed-term", term_months=0)
        refused = ""
    except ValueError as exc:
        refused = str(exc)
    print(json.dumps({
        "schema_enum": billing["enum"],
        "sheet_choices": list(columns["terms.billing"].choices),
        "wizard": BILLING_WORDS.get("fixed-term"),
        "code": BILLING_CODES.get("fixed-term"),
        "span": 9 in SPAN_CODES, "exit": 9 in EXIT_CODES,
        "page": billing_words(bid),
        "refused": refused,
        "methodology": billing_table()[-1],
    }))
"""


def test_a_billing_kind_added_to_the_table_reaches_the_schema_sheet_wizard_contract_and_page():
    out = _child(BILLING_CHILD)
    assert out["schema_enum"][-1] == "fixed-term"
    assert out["sheet_choices"][-1] == "fixed-term"  # the bid sheet template's choices
    assert out["wizard"] == "fixed term (no exit)"  # the wizard's billing list reads these words
    assert out["code"] == 9 and out["span"] and not out["exit"]  # the contract's formulas
    assert out["page"].startswith("a fixed term of ") and "2 months" in out["page"]
    assert "early exit" not in out["page"]
    assert "needs term_months of at least 1" in out["refused"]  # the validator's traits
    assert out["methodology"].startswith("| fixed term | `billed GPUs x term hours x p`")


FORMAT_CHILD = """
    import json
    from dataclasses import replace

    import clusterbid.core.evidence.formats as formats

    # A second nccl-tests text variant, kept as markdown: read as nccl-tests text is.
    wiki = replace(formats.format_spec("nccl-text"), name="nccl-wiki", media_type="text/markdown",
                   words="nccl-tests table in a wiki page")
    formats.EVIDENCE_FORMATS = (*formats.EVIDENCE_FORMATS, wiki)

    import contextlib
    import io

    from clusterbid.cli import main
    from clusterbid.core.acceptance.fabric_tests import NCCL_FORMATS
    from clusterbid.core.evidence import reading
    from clusterbid.core.evidence.formats import formats_measuring
    from clusterbid.core.evidence_request import build  # noqa: F401 (imported as the app does)

    reading.READERS["nccl-wiki"] = reading.READERS["nccl-text"]
    path = "tests/data/nccl-tests/nccl_info_interleaved.log"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(["evidence", "parse", "--format", "nccl-wiki", path])
    read = reading.read_evidence(open(path, "rb").read(), path, fmt="nccl-wiki")
    spec = formats.format_spec(read.format)
    print(json.dumps({
        "cli": [code, printed.getvalue().splitlines()[0]],
        "acceptance": list(NCCL_FORMATS),
        "requests": formats_measuring("fabric"),
        "read_as": read.format,
        "media_type": spec.media_type,
        "grades": sorted({e.grade.value for e in read.evidence}),
        "expected_grade": spec.grade("provider", read.sha256).value,
    }))
"""


def test_an_evidence_format_added_to_the_table_reaches_the_cli_requests_tests_and_media_type():
    out = _child(FORMAT_CHILD)
    # `--format` takes it, and the CLI says what it read in the table's words
    path = "tests/data/nccl-tests/nccl_info_interleaved.log"
    assert out["cli"] == [0, f"{path}: nccl-tests table in a wiki page"]
    assert out["acceptance"][-1] == "nccl-wiki" and out["requests"][-1] == "nccl-wiki"
    assert out["read_as"] == "nccl-wiki" and out["media_type"] == "text/markdown"
    assert out["grades"] == [out["expected_grade"]]  # graded by the rule the table declares


# One sample of each declared format, and what the format's rule makes of it, by hand: the run's
# own output is graded by who ran it (the provider, by default) with its artefact kept; a typed
# summary is a claim whoever measured (methodology section 5, issue 31).
SAMPLES = {
    "nccl-text": ("tests/data/nccl-tests/nccl_info_interleaved.log", "text/plain", "provider"),
    "nccl-json": ("tests/data/nccl-tests/all_reduce_2x8_ring.json", "application/json", "provider"),
    "throughput-csv": ("tests/data/throughput/good.csv", "text/csv", "claim"),
    "throughput-json": ("tests/data/throughput/good.json", "application/json", "claim"),
    "scaling-csv": ("tests/data/throughput/scaling.csv", "text/csv", "claim"),
    "training-log": (None, "text/plain", "provider"),
}


def test_every_declared_format_is_detected_read_kept_and_graded_as_its_entry_says():
    from tests.core.evidence.test_training_log import megatron_log

    from clusterbid.core.evidence.formats import format_names, format_spec
    from clusterbid.core.evidence.model import EvidenceGrade
    from clusterbid.core.evidence.reading import READERS, media_type_of, read_evidence

    grades = {
        "provider": EvidenceGrade.MEASURED_PROVIDER,
        "claim": EvidenceGrade.PROVIDER_CLAIM,
    }
    assert set(format_names()) == set(SAMPLES) == set(READERS)
    for name, (path, media_type, grade) in SAMPLES.items():
        data = megatron_log() if path is None else (REPO / path).read_bytes()
        reading = read_evidence(data, path or "run.log")
        assert reading.format == name  # detected by content
        assert media_type_of(data) == format_spec(name).media_type == media_type
        assert reading.evidence, name
        assert {e.grade for e in reading.evidence} == {grades[grade]}, name
        assert format_spec(name).grade("provider", reading.sha256) is grades[grade]


def test_the_methodology_tables_list_what_the_code_declares():
    from clusterbid.core.billing_kinds import BILLING_KIND_SPECS
    from clusterbid.core.criteria import CRITERIA
    from clusterbid.core.methodology_tables import with_tables

    text = (REPO / "resources" / "methodology.md").read_text(encoding="utf-8")
    assert with_tables(text) == text, "run `clusterbid schema` to rewrite the methodology's tables"
    for criterion in CRITERIA:
        assert f"\n| {criterion.methodology_name} | " in text
    for kind in BILLING_KIND_SPECS:
        assert f"\n| {kind.short_words} | " in text


def test_a_methodology_without_a_table_header_is_refused_by_name():
    import pytest

    from clusterbid.core.errors import InputError
    from clusterbid.core.methodology_tables import BILLING_HEADER, with_tables

    text = (REPO / "resources" / "methodology.md").read_text(encoding="utf-8")
    with pytest.raises(InputError, match="no table headed '\\| billing \\|"):
        with_tables(text.replace(BILLING_HEADER, "| how it bills |"))
