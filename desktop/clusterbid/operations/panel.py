"""The panel's verbs, for the command line and the app alike: invite, judge (in a copy), merge,
status and consensus. Each opens the document it names, does its one thing through core/panel,
and closes it; the words typed ("Support=20", "Technical approach:northwind-ib=7") are read here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clusterbid.core.errors import InputError
from clusterbid.core.sample_counts import DEFAULT_SAMPLES

if TYPE_CHECKING:
    from clusterbid.core.panel.merge import Merged
    from clusterbid.core.panel.view import PanelView
    from clusterbid.core.store import EvaluationDocument


def _number(text: str, what: str) -> float:
    try:
        return float(text.strip().rstrip("%"))
    except ValueError:
        raise InputError(f"{what}: {text.strip()!r} is not a number") from None


def _pair(text: str, what: str, example: str) -> tuple[str, str]:
    name, sep, value = text.rpartition("=")
    if not sep or not name.strip() or not value.strip():
        raise InputError(f"{what} {text!r}: write it as {example}")
    return name.strip(), value.strip()


def parse_ranges(texts: Sequence[str], criteria: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    """ "Net plan cost=50-80" -> {criterion: (50, 80)}."""
    from clusterbid.core.panel.model import find_criterion

    ranges = {}
    for text in texts:
        name, value = _pair(
            text, "weight range", '"Criterion=LOW-HIGH", for example "Net plan cost=50-80"'
        )
        low, sep, high = value.partition("-")
        if not sep:
            raise InputError(f"weight range {text!r}: give both ends, LOW-HIGH")
        ranges[find_criterion(name, criteria)] = (_number(low, text), _number(high, text))
    return ranges


def invite(
    document: Path,
    evaluators: Sequence[str],
    folder: Path,
    criteria: Sequence[str] = (),
    ranges: Sequence[str] = (),
    user: str | None = None,
) -> list[Path]:
    """One evaluator copy per "Name, Role" in `folder`; returns the copies written."""
    from clusterbid.core.panel.copies import invite as invite_panel
    from clusterbid.core.panel.copies import parse_evaluator
    from clusterbid.core.store import EvaluationDocument

    people = [parse_evaluator(text) for text in evaluators]
    named = tuple(c.strip() for c in criteria)
    with EvaluationDocument.open(document, user=user) as lead:
        return invite_panel(lead, people, Path(folder), named, parse_ranges(ranges, named))


def _bid(copy: EvaluationDocument, text: str) -> str:
    ids = [bid.id for bid in copy.evaluation.bids]
    if text.strip() not in ids:
        raise InputError(f"there is no bid {text.strip()!r}; the bids are: {', '.join(ids)}")
    return text.strip()


def judge(
    copy_path: Path,
    weights: Sequence[str] = (),
    scores: Sequence[str] = (),
    notes: Sequence[str] = (),
    questions: Sequence[str] = (),
) -> Any:
    """Change the evaluator's judgement in their copy: weights "Criterion=W", scores
    "Criterion:bid=S" (0-10), notes and questions "bid: text"; all in one row, or none."""
    from clusterbid.core.panel.copies import copy_invitation, current_judgement, record_judgement
    from clusterbid.core.panel.model import find_criterion
    from clusterbid.core.store import EvaluationDocument

    with EvaluationDocument.open(copy_path) as copy:
        invitation, _ = copy_invitation(copy)
        judgement = current_judgement(copy)
        new_weights = dict(judgement.weights)
        for text in weights:
            name, value = _pair(text, "weight", '"Criterion=WEIGHT", for example "Support=10"')
            new_weights[find_criterion(name, invitation.criteria)] = _number(value, text)
        new_scores = {c: dict(s) for c, s in judgement.scores.items()}
        for text in scores:
            target, value = _pair(
                text, "score", '"Criterion:bid=SCORE", for example "Technical approach:b1=7"'
            )
            name, sep, bid = target.rpartition(":")
            if not sep:
                raise InputError(
                    f'score {text!r}: name the criterion and the bid, "Criterion:bid=SCORE"'
                )
            new_scores.setdefault(find_criterion(name, invitation.criteria), {})[
                _bid(copy, bid)
            ] = _number(value, text)
        texts = {
            "notes": {b: list(t) for b, t in judgement.notes.items()},
            "questions": {b: list(t) for b, t in judgement.questions.items()},
        }
        for kind, given in (("notes", notes), ("questions", questions)):
            for text in given:
                bid, sep, words = text.partition(":")
                if not sep or not words.strip() or len(words) > 2000:
                    raise InputError(
                        f'{kind[:-1]} {text!r}: write it as "bid: text" (up to 2,000 characters)'
                    )
                texts[kind].setdefault(_bid(copy, bid), []).append(words.strip())
        new = replace(
            judgement,
            weights=new_weights,
            scores=new_scores,
            notes={b: tuple(t) for b, t in texts["notes"].items()},
            questions={b: tuple(t) for b, t in texts["questions"].items()},
        )
        return record_judgement(copy, new)


def merge(
    document: Path, copies: Sequence[Path], user: str | None = None
) -> tuple[list[Merged], list[str]]:
    """Merge each copy in its own transaction: (merged, refusals in words). A refused copy does
    not stop the others."""
    from clusterbid.core.panel.merge import merge_copy
    from clusterbid.core.store import EvaluationDocument

    done, refused = [], []
    with EvaluationDocument.open(document, user=user) as lead:
        for copy in copies:
            try:
                done.append(merge_copy(lead, Path(copy)))
            except InputError as exc:
                refused.append(str(exc))
    return done, refused


def _view(lead: EvaluationDocument, samples: int) -> PanelView:
    from clusterbid.core.panel.view import panel_view
    from clusterbid.operations.progress import NEVER_CANCELLED, no_progress
    from clusterbid.operations.scoring import score

    result = score(lead.evaluation, no_progress, NEVER_CANCELLED, samples)
    return panel_view(lead, result.scorecard)


def status(document: Path, samples: int = DEFAULT_SAMPLES) -> PanelView:
    """The merged panel over the lead's evaluation scored on its decision basis."""
    from clusterbid.core.store import EvaluationDocument

    with EvaluationDocument.open(document, read_only=True) as lead:
        return _view(lead, samples)


def consensus(
    document: Path,
    criterion: str,
    bid: str | None,
    value: str | None,
    rationale: str,
    dissent: Sequence[str] = (),
    samples: int = DEFAULT_SAMPLES,
    user: str | None = None,
) -> dict[str, Any]:
    """Settle one item: `value` a number, or None for the evaluators' median; `dissent` "Name: reason"."""
    from clusterbid.core.panel.consensus import find_item, record_consensus
    from clusterbid.core.panel.copies import invitations
    from clusterbid.core.panel.model import find_criterion
    from clusterbid.core.store import EvaluationDocument

    with EvaluationDocument.open(document, user=user) as lead:
        panel_criteria = tuple(c for i in invitations(lead).values() for c in i.criteria)
        key = find_criterion(criterion, panel_criteria)
        view = _view(lead, samples)
        item = find_item(view.divergence, key, bid.strip() if bid else None)
        against = []
        for text in dissent:
            name, sep, reason = text.partition(":")
            if not sep:
                raise InputError(f'dissent {text!r}: write it as "Name: reason"')
            against.append((name.strip(), reason.strip()))
        agreed = None if value is None else _number(value, "the agreed value")
        return record_consensus(lead, view.divergence, item, agreed, rationale, against)
