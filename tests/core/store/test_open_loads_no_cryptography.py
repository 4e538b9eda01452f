"""Issue 32 (the app's cold start): opening a document whose trail has no countersignature loads
no cryptography (about a tenth of the app's start); a countersigned trail is still checked, by
tests/core/store/test_countersign.py."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO, evaluation_dict

OPEN_AND_LIST = """
import sys
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument
path, data = sys.argv[1], sys.argv[2]
EvaluationDocument.create(path, Evaluation.model_validate_json(data)).close()
document = EvaluationDocument.open(path)
print(document.audit_report.ok, "cryptography" in sys.modules)
"""


def test_opening_an_uncountersigned_document_loads_no_cryptography(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            OPEN_AND_LIST,
            str(tmp_path / "plain.clusterbid"),
            json.dumps(evaluation_dict()),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]  # audited and passed, without the library
