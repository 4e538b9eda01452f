"""The ranked comparison as text, cell by cell: what the app's table shows and what a document
keeps for the next start's first paint (core/shown_scorecard.py), from one function, so that the
first window painted and the one that replaces it say the same.

`keep_shown_table` writes it into a document at every commit that changes the evaluation, from
any door: the command line through KeptTableDocument, the app once its rescoring (off the window's
thread) has the new scorecard and again once the bands are in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from clusterbid.core.report import format_money
from clusterbid.core.store import EvaluationDocument

if TYPE_CHECKING:
    from clusterbid.core.scoring import BidScore, Scorecard

DASH = "—"
# The findings of a passed bid while its default effects are derived, after the table is shown.
RESTING_PENDING = "rank rests on: pending"
# What decides first (sticker vs effective price, cost and time to finish), then why, then what.
# Why the order is what it is first (the weighted score and the net cost of the buyer's plan, which
# dominates it), then what the signature commits to, then the physics behind the cost.
COLUMNS = (
    "Rank",
    "Provider",
    "Score",
    "Net plan cost",
    "P10–P90",
    "Cheapest",
    "Commitment",
    "Time to finish",
    "Price / GPU-h",
    "Per useful GPU-h",
    "Effective MFU",
    "Goodput",
    "Block vs job",
    "GPU",
    "Fabric",
    "Gates & flags",
)
(
    RANK,
    PROVIDER,
    SCORE,
    COST,
    BAND,
    WIN,
    COMMITMENT,
    TIME,
    PRICE,
    USEFUL_PRICE,
    MFU,
    GOODPUT,
    BLOCK,
    GPU,
    FABRIC,
    FINDINGS,
) = range(len(COLUMNS))
# Short words for the findings column; the full sentence is the tooltip and in the Details pane.
FINDING_WORDS = {
    "contiguous_block_too_small": "block smaller than the job",
    "tp_exceeds_nvlink_domain": "TP crosses NVLink",
    "tcp_only_multi_node": "no RDMA fabric",
    "precision_unsupported": "precision unsupported",
    "model_state_exceeds_hbm": "model does not fit in memory",
    "misses_deadline": "misses the deadline",
    "deadline_unlikely": "deadline unlikely",
    "reserves_fewer_gpus_than_job": "reserves too few GPUs",
    "job_outlasts_block": "job longer than the block",
}


def short_money(amount: float, currency: str, millions: bool) -> str:
    """Millions to two decimals ($1.50M) so a band fits a laptop-width column; exact in the tooltip."""
    if not millions:
        return format_money(amount, currency)
    text = format_money(amount / 1e6, currency, cents=True)
    return (
        f"{text}M" if not text.endswith(currency) else text.replace(f" {currency}", f"M {currency}")
    )


def rank_resting_on(scorecard: Scorecard) -> dict[str, list[str]]:
    """Bid id -> the defaults and assumptions whose documented range moves its cost rank, and the
    scored criteria left blank whose stating could move its rank; kept on the scorecard, so a
    worker thread can derive it before the window shows the scores."""
    from clusterbid.core.memo.provenance_lines import field_words
    from clusterbid.core.provenance.model import UNVERIFIED_KINDS
    from clusterbid.core.uncertainty.default_effects import scorecard_default_effects
    from clusterbid.core.unstated_criteria import unstated_criteria

    derived = getattr(scorecard, "derived", {})  # {}: a stand-in scorecard keeps nothing
    if "rank_resting_on" not in derived:
        resting = {
            bid_id: [
                field_words(e.field) for e in effects if e.moves_rank and e.kind in UNVERIFIED_KINDS
            ]
            for bid_id, effects in scorecard_default_effects(scorecard).items()
        }
        # Issue 38: a blank tier or certification list, scored 0, that could move the rank once stated.
        for bid_id, found in unstated_criteria(scorecard).items():
            resting.setdefault(bid_id, []).extend(item.words for item in found if item.moves_rank)
        derived["rank_resting_on"] = {bid_id: words for bid_id, words in resting.items() if words}
    return cast("dict[str, list[str]]", derived["rank_resting_on"])


def resting_if_known(scorecard: Scorecard) -> dict[str, list[str]] | None:
    """rank_resting_on(scorecard) once a worker has derived it, None until then: the table is
    shown first and its findings say what each rank rests on when the default effects follow
    (issue 32 item 1: 69-159 ms of a bid edit at 500 bids). A stand-in keeps nothing: derived here."""
    derived = getattr(scorecard, "derived", None)
    if derived is None:
        return rank_resting_on(scorecard)
    return cast("dict[str, list[str]] | None", derived.get("rank_resting_on"))


def bid_uncertainty(uncertainty: object | None, score: BidScore) -> Any:
    return (getattr(uncertainty, "bids", None) or {}).get(score.bid.id)


def cell_text(
    scorecard: Scorecard,
    score: BidScore,
    column: int,
    uncertainty: object | None,
    resting: dict[str, list[str]] | None,
) -> str:
    """One cell of the comparison as shown; `resting` is rank_resting_on(scorecard), None while it
    is being derived (the findings say so)."""
    e, bid = score.estimate, score.bid
    currency = scorecard.evaluation.currency
    job = scorecard.evaluation.workload.job_gpus
    block = bid.capacity.largest_contiguous_block_gpus
    if column == RANK:
        return DASH if score.rank is None else str(score.rank)
    if column == PROVIDER:
        return bid.quote.provider
    if column == GPU:
        return bid.capacity.gpu_model
    if column == PRICE:
        return format_money(e.price_per_gpu_hour, currency, cents=True)
    if column == BLOCK:
        return f"{block:,} {'≥' if block >= job else '<'} {job:,}"
    if column == FABRIC:
        return (
            f"{bid.fabric.technology} "
            f"{bid.fabric.nics_per_node}×{bid.fabric.nic_line_rate_gbit_s:g}G"
        )
    if column == FINDINGS:
        return _findings_text(score, resting)
    u = bid_uncertainty(uncertainty, score)
    if column == BAND:
        return DASH if u is None or score.rank is None else _band_text(u, currency)
    if column == WIN:
        return DASH if u is None or score.rank is None else f"{u.win_probability:.0%}"
    if score.rank is None:
        return DASH
    return {
        SCORE: f"{score.weighted_score:.3f}",
        MFU: f"{e.effective_mfu:.1%}",
        GOODPUT: f"{e.goodput:.1%}",
        TIME: f"{e.wall_hours / 24:,.1f} days",
        COST: format_money(
            e.plan_cost, currency, cents=True
        ),  # as the approvers sign for it, to the cent
        COMMITMENT: format_money(e.commitment, currency, cents=True),
        USEFUL_PRICE: format_money(e.effective_price_per_useful_gpu_hour, currency, cents=True),
    }[column]


def _findings_text(score: BidScore, resting: dict[str, list[str]] | None) -> str:
    """Why a bid is excluded, or that it passed with how many notes and what its rank rests on."""
    e = score.estimate
    if e.gates:
        return "excluded: " + "; ".join(
            FINDING_WORDS.get(g.code, g.code.replace("_", " ")) for g in e.gates
        )
    count = len(e.warnings)
    passed = f"passed, {count} note{'s' if count > 1 else ''}" if count else "passed"
    if resting is None:
        return f"{passed}; {RESTING_PENDING}"
    rests = resting.get(score.bid.id)
    # Issue 14: a rank a default or an assumption can overturn says so where ranks are read.
    return f"{passed}; rank rests on {', '.join(rests)}" if rests else passed


def _band_text(u: Any, currency: str) -> str:
    """The P10-P90 net cost band, both ends in one unit."""
    millions = u.cost_p90 >= 1e6
    return (
        f"{short_money(u.cost_p10, currency, millions)} – "
        f"{short_money(u.cost_p90, currency, millions)}"
    )


def shown_rows(
    scorecard: Scorecard,
    uncertainty: object | None = None,
    resting: dict[str, list[str]] | None = None,
    *,
    waiting: bool = False,
) -> list[list[str]]:
    """Every bid's row, in the scorecard's order (ranked, then excluded), every column. Kept on
    the scorecard with the bands it was written with: the worker that scores writes it, and the
    window's table and the kept first-paint table read it (issue 32: 25 cells a bid formatted on
    the window's thread at every edit before). `waiting`: the rows shown before the default
    effects are derived, whose findings say what the rank rests on is pending (kept apart)."""
    derived = getattr(scorecard, "derived", None)
    key = "waiting_rows" if waiting else "shown_rows"
    own_resting = derived is not None and (
        waiting or resting is None or resting is derived.get("rank_resting_on")
    )
    kept = derived.get(key) if own_resting and derived is not None else None
    if kept is not None and kept[0] is uncertainty:
        return cast("list[list[str]]", kept[1])
    if waiting:
        resting = None
    elif resting is None:
        resting = rank_resting_on(scorecard)
    rows = [
        [
            cell_text(scorecard, score, column, uncertainty, resting)
            for column in range(len(COLUMNS))
        ]
        for score in scorecard.scores
    ]
    if own_resting and derived is not None:
        derived[key] = (uncertainty, rows)
    return rows


def kept_title(document: EvaluationDocument) -> str:
    """The main window's title without the file's name (the first window adds the name it was
    opened under: a document is made under a temporary name and renamed, or copied)."""
    failed = "" if document.audit_report.ok else "AUDIT FAILED — "
    return f"{failed}{document.evaluation.title}"


def keep_shown_table(
    document: EvaluationDocument,
    scorecard: Scorecard | None = None,
    uncertainty: object | None = None,
    resting: dict[str, list[str]] | None = None,
) -> bool:
    """Keep the comparison of the document's current evaluation for the next start's first
    paint; scored here when no scorecard is given. A serving evaluation keeps none (its window
    opens from a few milliseconds of scoring). False when nothing was kept."""
    from clusterbid.core.kinds import kind_of

    evaluation = document.evaluation
    if not kind_of(evaluation).keeps_first_paint:
        return False
    if scorecard is None:
        from clusterbid.core.scoring import score_evaluation

        scorecard = score_evaluation(evaluation)
    if scorecard.evaluation != evaluation:
        return False  # scores of an older state: the next rescoring keeps the right ones
    return document.remember_shown(
        kept_title(document), list(COLUMNS), shown_rows(scorecard, uncertainty, resting)
    )


class KeptTableDocument(EvaluationDocument):
    """A document that keeps its first-paint table current at each commit that changes the
    evaluation (a record only re-dates the table: the store does that). The command line's
    doors open documents this way; the app, which scores off its window's thread, calls
    keep_shown_table once its scorecard is ready."""

    def _evaluation_committed(self) -> None:
        from clusterbid.core.errors import InputError

        try:
            keep_shown_table(self)
        except (InputError, ValueError, ArithmeticError):
            pass  # a display cache: the edit is committed; the next open scores as it always did
