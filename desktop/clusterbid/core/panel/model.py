"""What an evaluation panel records: each evaluator's invitation and judgements, in plain JSON.

An invitation fixes what the evaluator may judge: the qualitative criteria the lead named (each
scored 0-10 per bid) and the range each criterion's weight may take. A judgement is everything
one evaluator decided, whole (weights, scores, notes and questions), so the latest one is their
current view and every earlier one stays in the trail.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import CriteriaWeights, Evaluation
from clusterbid.core.text_rules import text_problem
from clusterbid.core.uncertainty.tipping import WEIGHT_WORDS

COMPUTED = tuple(CriteriaWeights.model_fields)  # criteria the model scores from the bids
SCORE_RANGE = (0.0, 10.0)  # a qualitative score, as panels grade: 0 poor, 10 excellent
WEIGHT_LIMITS = (0.0, 100.0)  # what a policy weight may be
MAX_TEXT = 2000  # a note or a question


def criterion_words(key: str) -> str:
    """A criterion as the officer reads it: the model's criteria in words, the panel's by name."""
    return WEIGHT_WORDS.get(key, key)


def find_criterion(words: str, criteria: tuple[str, ...]) -> str:
    """The criterion the officer named (its words, any case); InputError naming the choices."""
    wanted = words.strip().casefold()
    for key in (*COMPUTED, *criteria):
        if wanted in (key.casefold(), criterion_words(key).casefold()):
            return key
    choices = ", ".join(criterion_words(key) for key in (*COMPUTED, *criteria))
    raise InputError(
        f"there is no criterion {words.strip()!r}; the panel's criteria are: {choices}"
    )


@dataclass(frozen=True)
class Invitation:
    """One evaluator's place on the panel (kept in the lead's `panel_invite` row)."""

    evaluator: str
    role: str
    criteria: tuple[str, ...]  # the qualitative criteria, by name
    ranges: dict[str, tuple[float, float]]  # every criterion's allowed weight range
    start_weights: dict[str, float]

    def as_json(self) -> dict[str, Any]:
        return {
            "evaluator": self.evaluator,
            "role": self.role,
            "criteria": list(self.criteria),
            "ranges": {key: list(pair) for key, pair in self.ranges.items()},
            "start_weights": dict(self.start_weights),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Invitation:
        return cls(
            str(data["evaluator"]),
            str(data["role"]),
            tuple(data["criteria"]),
            {key: (float(low), float(high)) for key, (low, high) in data["ranges"].items()},
            {key: float(value) for key, value in data["start_weights"].items()},
        )

    @property
    def title(self) -> str:
        return f"{self.evaluator}, {self.role}"


@dataclass(frozen=True)
class Judgement:
    """One evaluator's view, whole: raw weights (0-100, normalised when used), qualitative scores
    per criterion and bid (0-10), and notes and questions per bid."""

    weights: dict[str, float]
    scores: dict[str, dict[str, float]] = field(default_factory=dict)
    notes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    questions: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "weights": dict(sorted(self.weights.items())),
            "scores": {c: dict(sorted(s.items())) for c, s in sorted(self.scores.items())},
            "notes": {b: list(n) for b, n in sorted(self.notes.items())},
            "questions": {b: list(q) for b, q in sorted(self.questions.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Judgement:
        return cls(
            {k: float(v) for k, v in data["weights"].items()},
            {c: {b: float(v) for b, v in s.items()} for c, s in data.get("scores", {}).items()},
            {b: tuple(map(str, n)) for b, n in data.get("notes", {}).items()},
            {b: tuple(map(str, q)) for b, q in data.get("questions", {}).items()},
        )


def check_ranges(ranges: dict[str, tuple[float, float]]) -> None:
    for key, (low, high) in ranges.items():
        if not WEIGHT_LIMITS[0] <= low <= high <= WEIGHT_LIMITS[1]:
            raise InputError(
                f"the weight range of {criterion_words(key)} ({low:g}-{high:g}) must lie within "
                f"{WEIGHT_LIMITS[0]:g}-{WEIGHT_LIMITS[1]:g}, its low end first"
            )


def judgement_problems(
    judgement: Judgement, invitation: Invitation, evaluation: Evaluation
) -> list[str]:
    """Why `judgement` is not one `invitation` allows over `evaluation`'s bids, in words."""
    problems = []
    bid_ids = {bid.id for bid in evaluation.bids}
    for key, value in judgement.weights.items():
        if key not in invitation.ranges:
            problems.append(f"{criterion_words(key)} is not a criterion of this panel")
            continue
        low, high = invitation.ranges[key]
        if not low <= value <= high:
            problems.append(
                f"the weight of {criterion_words(key)} ({value:g}) is outside the range the lead "
                f"allowed ({low:g}-{high:g})"
            )
    if sum(judgement.weights.values()) <= 0:
        problems.append("at least one criterion weight must be above zero")
    for criterion, scores in judgement.scores.items():
        if criterion not in invitation.criteria:
            problems.append(
                f"{criterion_words(criterion)} is not a criterion scored by the panel "
                "(the model scores it from the bids)"
            )
        for bid_id, value in scores.items():
            if bid_id not in bid_ids:
                problems.append(f"there is no bid {bid_id!r} to score")
            elif not SCORE_RANGE[0] <= value <= SCORE_RANGE[1]:
                problems.append(
                    f"the score of {bid_id} on {criterion} ({value:g}) must be from "
                    f"{SCORE_RANGE[0]:g} to {SCORE_RANGE[1]:g}"
                )
    for kind, texts in (("note", judgement.notes), ("question", judgement.questions)):
        for bid_id, lines in texts.items():
            if bid_id not in bid_ids:
                problems.append(f"there is no bid {bid_id!r} to note or ask about")
            for text in lines:
                bad = text_problem(text, f"a {kind} on {bid_id}")
                if bad or not text.strip() or len(text) > MAX_TEXT:
                    problems.append(
                        bad or f"a {kind} on {bid_id} must be text of 1-{MAX_TEXT} characters"
                    )
    return problems
