"""The merged panel over a scorecard: what `clusterbid panel status`, the app's panel dialog and
the memo's panel page all read, computed once here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clusterbid.core.errors import InputError
from clusterbid.core.panel.consensus import settled
from clusterbid.core.panel.copies import invitations
from clusterbid.core.panel.divergence import Divergence, divergence
from clusterbid.core.panel.merge import merged_judgements
from clusterbid.core.panel.model import Invitation, Judgement
from clusterbid.core.panel.summary import panel_summary, scores_table, status_text, weights_table
from clusterbid.core.scoring import Scorecard
from clusterbid.core.store import EvaluationDocument


@dataclass(frozen=True)
class PanelView:
    invited: tuple[Invitation, ...]
    merged: dict[str, tuple[Invitation, Judgement, dict[str, Any]]]
    divergence: Divergence
    settled: dict[str, dict[str, Any]]
    summary: dict[str, Any]
    weights: list[list[str]]
    scores: list[list[str]]

    def text(self) -> str:
        waiting = [i.title for i in self.invited if i.evaluator not in self.merged]
        head = f"Invited: {len(self.invited)}; merged: {len(self.merged)}"
        head += f" (waiting for {'; '.join(waiting)})" if waiting else ""
        return head + "\n\n" + status_text(self.summary, self.weights, self.scores)


def has_panel(lead: EvaluationDocument) -> bool:
    return bool(invitations(lead))


def panel_view(lead: EvaluationDocument, scorecard: Scorecard) -> PanelView:
    """The panel of `lead` over `scorecard` (the lead's evaluation scored on its decision basis)."""
    invited = invitations(lead)
    if not invited:
        raise InputError(f"{lead.path.name} has no evaluation panel: invite one with `clusterbid panel invite`")
    merged = merged_judgements(lead)
    model_scores = {s.bid.id: dict(s.criteria) for s in scorecard.ranked}
    costs = {s.bid.id: scorecard.decision_cost(s) for s in scorecard.ranked}
    names = {s.bid.id: f"{s.bid.id} ({s.bid.quote.provider})" for s in scorecard.scores}
    found = divergence({n: (i, j) for n, (i, j, _) in merged.items()}, model_scores, costs, list(names))
    agreed = settled(lead)
    return PanelView(tuple(invited.values()), merged, found, agreed, panel_summary(merged, found, agreed, names),
                     weights_table(merged, found), scores_table(merged, found, names))
