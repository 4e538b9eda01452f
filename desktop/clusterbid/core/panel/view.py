"""The merged panel over a scorecard: what `clusterbid panel status`, the app's panel dialog and
the memo's panel page all read, computed once here. The record is read from the lead document
on the thread that holds it; the view is computed wherever the scorecard is (the memo's worker)."""

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
from clusterbid.core.panel.tipping import Tipping, tipping_points
from clusterbid.core.scoring import Scorecard
from clusterbid.core.store import EvaluationDocument


@dataclass(frozen=True)
class PanelRecord:
    """What the lead's trail holds of its panel: invitations, merged judgements, consensus."""

    invited: tuple[Invitation, ...]
    merged: dict[str, tuple[Invitation, Judgement, dict[str, Any]]]
    settled: dict[str, dict[str, Any]]


@dataclass(frozen=True)
class PanelView:
    record: PanelRecord
    divergence: Divergence
    summary: dict[str, Any]
    tipping: tuple[Tipping, ...]
    weights: list[list[str]]
    scores: list[list[str]]

    def text(self) -> str:
        waiting = [i.title for i in self.record.invited if i.evaluator not in self.record.merged]
        head = f"Invited: {len(self.record.invited)}; merged: {len(self.record.merged)}"
        head += f" (waiting for {'; '.join(waiting)})" if waiting else ""
        return head + "\n\n" + status_text(self.summary, self.weights, self.scores)


def panel_record(lead: EvaluationDocument) -> PanelRecord | None:
    """The lead's panel, or None when it has none (then the memo has no panel page)."""
    invited = invitations(lead)
    if not invited or lead.copy_stamp() is not None:  # an evaluator's copy holds no merged panel
        return None
    return PanelRecord(tuple(invited.values()), merged_judgements(lead), settled(lead))


def view_of(record: PanelRecord, scorecard: Scorecard) -> PanelView:
    """`record` over `scorecard` (the lead's evaluation scored on its decision basis)."""
    merged = record.merged
    model_scores = {s.bid.id: dict(s.criteria) for s in scorecard.ranked}
    costs = {s.bid.id: scorecard.decision_cost(s) for s in scorecard.ranked}
    # the officer's words, as the memo names a bid (memo/bid_words.py), never the evaluation's id
    names = {
        s.bid.id: f"{s.bid.quote.provider}, {s.bid.capacity.gpu_model}" for s in scorecard.scores
    }
    found = divergence(
        {n: (i, j) for n, (i, j, _) in merged.items()}, model_scores, costs, list(names)
    )
    tipping = tuple(
        point
        for name, order in found.rankings.items()
        for point in tipping_points(name, merged[name][1], order, model_scores)
    )
    return PanelView(
        record,
        found,
        panel_summary(merged, found, record.settled, names, tipping),
        tipping,
        weights_table(merged, found),
        scores_table(merged, found, names),
    )


def panel_view(lead: EvaluationDocument, scorecard: Scorecard) -> PanelView:
    record = panel_record(lead)
    if record is None:
        raise InputError(
            f"{lead.path.name} has no evaluation panel: invite one with `clusterbid panel invite`"
        )
    return view_of(record, scorecard)
