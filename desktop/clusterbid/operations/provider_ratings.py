"""Record, change or remove a provider's third-party rating (issue 39, item 6): one function for
`clusterbid rating` and the app's Provider Ratings dialog. Every field is checked and a refusal
names it in words; the change is one audited edit of the evaluation, all of it or nothing.

Inputs are texts, as an officer types them. A rating is evidence about the provider, kept apart
from its bids' claims; it enters the score only through the criterion's weight (default 0)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import ValidationError

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.provider_rating import TIER_SCORES, TIER_WORDS, ProviderRating
from clusterbid.core.store.snapshot import rebuild

if TYPE_CHECKING:
    from clusterbid.core.store import EvaluationDocument

LABELS = {
    "provider": "Provider",
    "tier": "Tier",
    "rated_on": "Published on",
    "source": "Who rated, and where",
    "categories": "Grades by category",
}


class RatingInputError(InputError):
    """A rating that does not validate: each message by the field it names, in words."""

    def __init__(self, by_field: dict[str, str]) -> None:
        self.by_field = by_field
        lines = [f"{LABELS[name]}: {message}" for name, message in by_field.items()]
        super().__init__("the rating was not recorded: " + "; ".join(lines))


@dataclass(frozen=True, slots=True)
class RatingEdit:
    evaluation: Evaluation
    label: str  # the audit trail's words for the edit; empty when nothing changed


def providers(evaluation: Evaluation) -> list[str]:
    """The providers the evaluation's bids name, the only ones a rating can be recorded for."""
    return sorted({bid.quote.provider for bid in evaluation.bids})


def category_text(rating: ProviderRating | None) -> str:
    """The categories as the form shows them: 'Networking=Gold; Security=Silver'."""
    return "; ".join(f"{k}={v}" for k, v in rating.categories.items()) if rating else ""


def _categories(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for part in (p.strip() for p in text.replace("\n", ";").split(";")):
        if not part:
            continue
        name, equals, grade = (x.strip() for x in part.partition("="))
        if not equals or not name or not grade:
            raise ValueError(f"{part[:60]!r}: give each as Category=Grade, separated by ';'")
        if name in found:
            raise ValueError(f"{name!r} is given twice")
        found[name] = grade
    return found


def with_rating(evaluation: Evaluation, texts: Mapping[str, str]) -> RatingEdit:
    """The evaluation with this provider's rating recorded (or replaced). Raises RatingInputError
    naming each wrong field, and nothing changes."""
    errors: dict[str, str] = {}
    provider = texts.get("provider", "").strip()
    if provider not in providers(evaluation):
        known = ", ".join(providers(evaluation)) or "none: add a bid first"
        errors["provider"] = f"{provider[:80]!r} names no bid's provider (providers: {known})"
    tier = texts.get("tier", "").strip().lower()
    if tier not in TIER_SCORES:
        errors["tier"] = f"{tier[:40]!r} is not a tier; one of {', '.join(TIER_WORDS.values())}"
    try:
        rated_on = dt.date.fromisoformat(texts.get("rated_on", "").strip())
        if rated_on > dt.date.today():
            errors["rated_on"] = f"{rated_on.isoformat()} is in the future"
    except ValueError:
        errors["rated_on"] = "give the day it was published as YYYY-MM-DD"
    source = texts.get("source", "").strip()
    if len(source) < 2:
        errors["source"] = "say who rated and where, e.g. 'SemiAnalysis ClusterMAX 2.0'"
    try:
        categories = _categories(texts.get("categories", ""))
    except ValueError as exc:
        errors["categories"] = str(exc)
    if errors:
        raise RatingInputError(errors)
    values = {
        "provider": provider,
        "tier": tier,
        "rated_on": rated_on,
        "source": source,
        "categories": categories,
    }
    try:
        rating = ProviderRating.model_validate(values)
    except ValidationError as exc:
        raise RatingInputError(_by_field(exc)) from None
    others = [r for r in evaluation.provider_ratings if r.provider != provider]
    new = rebuild(evaluation, provider_ratings=(*others, rating))
    changed = new.provider_ratings != evaluation.provider_ratings
    return RatingEdit(new, f"Rate {provider}: {rating.words()}" if changed else "")


def _by_field(exc: ValidationError) -> dict[str, str]:
    found: dict[str, str] = {}
    for error in exc.errors():
        name = str(error["loc"][0]) if error["loc"] else "source"
        message = str(error["msg"]).replace("String", "the text")
        found.setdefault(name if name in LABELS else "categories", message)
    return found


def without_rating(evaluation: Evaluation, provider: str) -> RatingEdit:
    kept = tuple(r for r in evaluation.provider_ratings if r.provider != provider)
    if len(kept) == len(evaluation.provider_ratings):
        raise InputError(f"{provider[:80]!r}: no rating of this provider is recorded")
    return RatingEdit(
        rebuild(evaluation, provider_ratings=kept), f"Remove the rating of {provider}"
    )


def set_provider_rating(document: EvaluationDocument, texts: Mapping[str, str]) -> RatingEdit:
    """Validate and record the rating in the document: one audited edit, or none."""
    edit = with_rating(document.evaluation, texts)
    if not edit.label:
        return edit
    return RatingEdit(document.apply(edit.evaluation, edit.label), edit.label)


def remove_provider_rating(document: EvaluationDocument, provider: str) -> RatingEdit:
    edit = without_rating(document.evaluation, provider)
    return RatingEdit(document.apply(edit.evaluation, edit.label), edit.label)
