"""The panel in words: who evaluated, how far they agree, the disputed items and how each was
settled, dissent by name, and the questions raised, grouped by bid. `clusterbid panel status`
prints it; the memo's panel page prints the same words (kept in the memo's inputs, so a memo
rendered again by verify prints them as they were)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clusterbid.core.panel.consensus import item_words, spread_words, value_words
from clusterbid.core.panel.divergence import SCORE_DISPUTE, WEIGHT_DISPUTE, Divergence, Item
from clusterbid.core.panel.model import Invitation, Judgement, criterion_words
from clusterbid.core.panel.tipping import Tipping


def _values(item: Item) -> str:
    return "; ".join(
        f"{name} {value_words(item, value)}" for name, value in sorted(item.values.items())
    )


def _first_upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _settled_words(item: Item, consensus: dict[str, Any] | None) -> str:
    if consensus is None:
        return "not settled yet"
    how = "median accepted" if consensus["median_accepted"] else "agreed"
    return f"{how}: {value_words(item, consensus['value'])}. {consensus['rationale']}"


def _agreement_lines(
    divergence: Divergence, bid_names: Mapping[str, str], tipping: Sequence[Tipping]
) -> list[str]:
    """How far the evaluators agree: Kendall's W, who wins under whose weights, each evaluator's
    nearest tipping point, and whose ranking waits for their scores."""
    n_bids = len(divergence.win_share)
    agreement = []
    if divergence.kendall_w is None:
        agreement.append(
            "Rank agreement not computed: it needs at least two evaluators' complete rankings "
            "of two or more bids."
        )
    else:
        agreement.append(
            f"Rank agreement (Kendall's W) {divergence.kendall_w:.2f} over "
            f"{len(divergence.rankings)} "
            f"evaluators' rankings of {n_bids} bids (1: all rank the bids alike; 0: no shared "
            "order)."
        )
    for bid, share in sorted(divergence.win_share.items(), key=lambda pair: (-pair[1], pair[0])):
        if share > 0:
            wins = round(share * len(divergence.rankings))
            agreement.append(
                f"{bid_names.get(bid, bid)} wins under {wins} of {len(divergence.rankings)} "
                f"evaluators' weight sets ({share:.0%})."
            )
    for name in sorted({t.evaluator for t in tipping}):
        near = min(
            (t for t in tipping if t.evaluator == name), key=lambda t: abs(t.share_at - t.share_now)
        )
        agreement.append(
            f"{name} ranks {bid_names.get(near.winner, near.winner)} first; "
            f"{bid_names.get(near.overtaken_by, near.overtaken_by)} would rank first were "
            f"{criterion_words(near.criterion)} {near.share_at:.1f}% of their weight (now "
            f"{near.share_now:.1f}%), their nearest tipping point."
        )
    for name, gaps in sorted(divergence.incomplete.items()):
        agreement.append(f"{name}'s ranking is left out until they score: {gaps}.")
    return agreement


def panel_summary(
    merged: Mapping[str, tuple[Invitation, Judgement, dict[str, Any]]],
    divergence: Divergence,
    settled: Mapping[str, dict[str, Any]],
    bid_names: Mapping[str, str],
    tipping: Sequence[Tipping] = (),
) -> dict[str, Any]:
    """A JSON-able summary (lists of words and rows) of the merged panel; `tipping`: each
    evaluator's tipping points (the nearest is said)."""
    evaluators = []
    for invitation, _, payload in merged.values():
        signed = ", countersigned with the evaluator's key" if payload.get("countersigned") else ""
        evaluators.append(
            f"{invitation.title}: judgement merged from {payload['copy_file']}{signed}"
        )
    agreement = _agreement_lines(divergence, bid_names, tipping)
    disputed = [
        [
            _first_upper(item_words(item)),
            _values(item),
            spread_words(item),
            _settled_words(item, settled.get(item.key)),
        ]
        for item in divergence.disputed
    ]
    dissent = [
        f"{d['evaluator']} dissents on the {item_words(c)}: {d['reason']}"
        for c in settled.values()
        for d in c["dissent"]
    ]
    questions = _by_bid(merged, bid_names, "questions")
    notes = _by_bid(merged, bid_names, "notes")
    return {
        "evaluators": evaluators,
        "agreement": agreement,
        "disputed": disputed,
        "dissent": dissent,
        "questions": questions,
        "notes": notes,
        "rule": (
            f"An item is disputed when the evaluators' values spread by {WEIGHT_DISPUTE:g} "
            "percentage "
            f"points of weight or {SCORE_DISPUTE:g} points of score (of 10) or more."
        ),
    }


def weights_table(
    merged: Mapping[str, tuple[Invitation, Judgement, dict[str, Any]]], divergence: Divergence
) -> list[list[str]]:
    """Header first: each criterion's weight (% of each evaluator's total) and its spread."""
    names = list(merged)
    rows = [["Criterion", *names, "Spread"]]
    for item in divergence.items:
        if item.bid is None:
            rows.append(
                [
                    criterion_words(item.criterion),
                    *(f"{item.values[n]:.1f}%" for n in names),
                    f"{item.spread:.1f} points",
                ]
            )
    return rows


def scores_table(
    merged: Mapping[str, tuple[Invitation, Judgement, dict[str, Any]]],
    divergence: Divergence,
    bid_names: Mapping[str, str],
) -> list[list[str]]:
    """Header first: each panel criterion's score per bid, by evaluator, and the spread."""
    names = list(merged)
    rows = [["Criterion", "Bid", *names, "Spread"]]
    for item in divergence.items:
        if item.bid is not None:
            rows.append(
                [
                    criterion_words(item.criterion),
                    bid_names.get(item.bid, item.bid),
                    *(f"{item.values[n]:g}" if n in item.values else "not scored" for n in names),
                    f"{item.spread:g}",
                ]
            )
    return rows


def status_text(summary: dict[str, Any], weights: list[list[str]], scores: list[list[str]]) -> str:
    """What `clusterbid panel status` prints."""

    def table(rows: list[list[str]]) -> list[str]:
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        return [
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
            for row in rows
        ]

    lines = [
        "Evaluators:",
        *(f"  {line}" for line in summary["evaluators"] or ["none merged yet"]),
        "",
        "Agreement:",
        *(f"  {line}" for line in summary["agreement"]),
        "",
        "Weights (each evaluator's share of their total; the model's criteria are scored from the "
        "bids):",
        *table(weights),
    ]
    if len(scores) > 1:
        lines += ["", "Panel scores (0-10):", *table(scores)]
    lines += ["", summary["rule"]]
    lines += ["Disputed items:" if summary["disputed"] else "No item is disputed."]
    lines += [
        f"  {what}: {values} (spread {spread}); {how}"
        for what, values, spread, how in summary["disputed"]
    ]
    lines += [f"Dissent: {line}" for line in summary["dissent"]]
    for title, key in (("Questions", "questions"), ("Notes", "notes")):
        for bid, texts in summary[key]:
            lines += [f"{title} on {bid}:", *(f"  {text}" for text in texts)]
    return "\n".join(lines) + "\n"


def _by_bid(
    merged: Mapping[str, tuple[Invitation, Judgement, dict[str, Any]]],
    bid_names: Mapping[str, str],
    kind: str,
) -> list[list[Any]]:
    """Each bid's questions or notes (`kind`), every evaluator's named, bids with none left out."""
    grouped = []
    for bid in bid_names:
        said = [
            f"{name}: {text}"
            for name, (_, judgement, _) in merged.items()
            for text in getattr(judgement, kind).get(bid, ())
        ]
        if said:
            grouped.append([bid_names[bid], said])
    return grouped
