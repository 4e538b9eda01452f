"""Verify a memo: its pages, signatures, approvers and figures, against an evaluation when one is
given and, for a .clusterbid document, its history (the memo's audit row must still be in it).

Verify never writes: the document is read as it is on disk (the command line) or as the window
holds it (the app), and nothing is recorded in its trail.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError
from clusterbid.core.memo.field_name import fields_in_words
from clusterbid.core.memo.next_steps import Step, render, steps_in
from clusterbid.core.memo.signoff import read_memo_bytes
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.memo.verification import MemoVerification


@dataclass(frozen=True)
class VerifiedMemo:
    memo: Path
    result: MemoVerification
    document: Path | None  # the evaluation (file) the memo was checked against

    @property
    def verdict(self) -> str:
        return self.result.verdict

    def headline(self) -> str:
        from clusterbid.core.memo.signoff import verdict_headline

        return fields_in_words(verdict_headline(self.result))

    def reasons(self, limit: int = 3) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """What decides the verdict, most serious first, at most `limit` lines: the findings
        proven wrong, then what could not be proven, each under its heading (the app shows them
        above the full report)."""
        problems = self.result.problems[:limit]
        unproven = self.result.unproven[: limit - len(problems)]
        groups = (("Proven wrong", problems), ("Not proven here", unproven))
        return tuple(
            (heading, tuple(fields_in_words(line) for line in lines))
            for heading, lines in groups
            if lines
        )

    @property
    def steps(self) -> frozenset[Step]:
        """The steps the findings call for (next_steps.py): what the app offers as buttons."""
        result = self.result
        return steps_in((*result.problems, *result.unproven, *result.signer_chains))

    def in_words(self, words: Mapping[Step, str]) -> VerifiedMemo:
        """This verification with every step in its findings in one door's words: the CLI's
        options and commands, or the app's menu items and buttons. The checks are not re-run."""
        said = self.result

        def each(lines: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(render(line, words) for line in lines)

        changed = None if said.changed_since is None else render(said.changed_since, words)
        return replace(
            self,
            result=replace(
                said,
                problems=each(said.problems),
                unproven=each(said.unproven),
                signer_chains=each(said.signer_chains),
                changed_since=changed,
            ),
        )

    @property
    def trust_failed(self) -> bool:
        """True when no signer could be tied to a trusted certificate, or one chains to none of
        those given: the officer's next step is the evaluation's trusted certificates."""
        return any(sig.trusted is not True for sig in self.result.signatures)

    def report(self, name: str, evaluation_name: Path | str | None, *, explain: bool) -> str:
        """The report in the words both doors print, naming the memo and the evaluation as given."""
        from clusterbid.core.memo.signoff import format_verification

        # The checks name signature fields by their ids; both doors print them as words.
        return fields_in_words(
            format_verification(name, self.result, evaluation_name, explain=explain)
        )


def verify_memo_file(
    memo: Path,
    progress: ProgressCallback,
    cancel: CancelToken,
    *,
    trust: Sequence[Path | str] = (),
    evaluation_path: Path | None = None,
    evaluation: Evaluation | None = None,
    registry: Path | None = None,
    ordered: bool = True,
    at: datetime | None = None,
) -> VerifiedMemo:
    """Every check on the memo at `memo`. `evaluation_path` names the evaluation (a .clusterbid
    document also lends its trust anchors and registry as at the memo's row, and its history);
    `evaluation`, when given, is that evaluation already read (the app's open document), else it
    is read from the file, read-only. `at`: validate the signatures as at that moment from the
    file's own validation data, their long-term indication then joining the verdict
    (core/memo/validation_date.py); the app verifies at now."""
    pdf = read_memo_bytes(Path(memo))  # a file that is no memo is refused before the imports
    from clusterbid.core.memo.signoff import quiet_pyhanko_logs
    from clusterbid.core.memo.signoff_trust import signoff_trust
    from clusterbid.core.memo.verification import verify_memo

    quiet_pyhanko_logs()  # problems are reported in words, never as tracebacks on the terminal
    # the files given, and the document's own anchors and registry as at the memo's row
    signoff = signoff_trust(pdf, list(trust), evaluation_path, registry)
    if evaluation is None and evaluation_path is not None:
        from clusterbid.core.documents import read_evaluation

        evaluation = read_evaluation(evaluation_path, read_only=True)  # verify never writes it
    checkpoint(cancel)
    progress(0.2, "verifying")
    try:
        result = verify_memo(
            pdf, [], evaluation, ordered=ordered, signoff=signoff, validation_time=at
        )
        if at is not None:
            from clusterbid.core.memo.validation_date import (
                refuse_before_signing,
                with_long_term_verdict,
            )

            refuse_before_signing(result, at)
            result = with_long_term_verdict(result, at)
    except InputError as exc:
        raise InputError(f"{memo}: {exc}") from None
    from clusterbid.core.memo.anchor_check import with_document_anchor
    from clusterbid.core.memo.verification_since import with_changes_since

    # the document's history still holds the memo's row; edits after it are not an alteration
    result = with_changes_since(
        with_document_anchor(result, pdf, evaluation_path), pdf, evaluation_path
    )
    return VerifiedMemo(Path(memo), result, evaluation_path)
