"""Fill a document's provenance, resolve not-stated figures to their defaults, list what is unverified."""

from __future__ import annotations

from typing import Any

from clusterbid.core.billing_kinds import spec_of
from clusterbid.core.provenance.defaults import (
    DOCUMENTED_DEFAULTS,
    FEE_DEFAULTS,
    FEE_SHARE_PATHS,
    RELIABILITY_DEFAULTS,
    TERMS_DEFAULTS,
    TRACKED_BID_FIELDS,
    WORKLOAD_TRACKED_FIELDS,
)
from clusterbid.core.provenance.model import Source

# The sources every bid's completion hands out, made once: a Source is frozen, so sharing one is
# the same as making it again, and opening a 1,000-bid document made 4,000 of them (issue 32).
_NOT_STATED = Source(kind="not_stated", why="the provider's bid does not state it")
_PROVIDER = Source(kind="provider")
_DEFAULT = Source(kind="default")
_SPLIT: dict[str, tuple[str, str]] = {}


def _lookup(model: Any, path: str) -> tuple[Any, bool]:
    """The value at a dotted path and whether the document set it (rather than a pydantic default)."""
    parts = _SPLIT.get(path)
    if parts is None:
        section_name, field = path.split(".")
        parts = _SPLIT[path] = (section_name, field)
    section_name, field = parts
    section = getattr(model, section_name)
    was_set = section_name in model.model_fields_set and field in section.model_fields_set
    return getattr(section, field), was_set


def completed_bid_provenance(bid: Any) -> dict[str, Source]:
    """The bid's provenance with every tracked field given a source.

    Migration of documents written before provenance existed: a figure present in the bid came
    from the provider's bid (template or wizard), so it is the provider's; a figure the document
    left out took ClusterBid's default; an explicit null is "not stated".
    """
    filled = dict(bid.provenance)
    for path in TRACKED_BID_FIELDS:
        value, was_set = _lookup(bid, path)
        if value is None:
            filled[path] = _NOT_STATED
        elif filled.get(path) is not None and filled[path].kind == "not_stated":
            documented = DOCUMENTED_DEFAULTS[path]
            default = documented.value
            # The figure held is ignored (effective_reliability uses the default); the default of
            # the day a document was written (`former`, `earlier`) is accepted, any other figure contradicts.
            if value not in (
                default,
                documented.former,
                *documented.earlier,
            ):  # says nobody stated it
                raise ValueError(
                    f"{path} is marked not stated but holds {value:g}; leave it empty (the "
                    f"default {default:g} is used) or mark where the provider stated it"
                )
        elif path not in filled:
            filled[path] = _PROVIDER if was_set else _DEFAULT
        source = filled[path]
        if source.low is not None and value is not None and not source.low <= value <= source.high:
            raise ValueError(
                f"{path} is {value:g}, outside the buyer's range {source.low:g}-{source.high:g} "
                "given with it: the figure is the most likely value, so it lies inside its range"
            )
    # Fees, steps and minimums (issue 31): an empty or left-out one is not stated (documents the app
    # saved hold every field, so their 0s stay 0s). Payment terms need no record: empty is itself
    # "not stated" (methodology section 9).
    for path in FEE_DEFAULTS:
        if path != "terms.payment_terms_days" and _lookup(bid, path)[0] is None:
            filled[path] = _NOT_STATED
    return filled


NOBODY_STATED = ("default", "not_stated")


def effective_reliability(bid: Any) -> Any:
    """The bid's reliability with every figure nobody stated (empty, not stated, or ClusterBid's
    default) replaced by its documented default: the cautious end of its range (issue 31), even
    where an older document still holds the default of its day."""
    missing = {
        path.split(".")[1]: default.value
        for path, default in RELIABILITY_DEFAULTS.items()
        if getattr(bid.reliability, path.split(".")[1]) is None
        or (path in bid.provenance and bid.provenance[path].kind in NOBODY_STATED)
    }
    return bid.reliability.model_copy(update=missing) if missing else bid.reliability


def spare_pool_stated(bid: Any) -> bool:
    """Whether someone stated the spare pool (the provider, a measurement or the buyer's assumption)."""
    source = bid.provenance.get("capacity.spare_pool_gpus")
    return source is None or source.kind not in NOBODY_STATED


def billed_spare_gpus(bid: Any) -> int:
    """Spare GPUs a term bills (issue 31, the blank-vs-typical rule). A stated pool is billed unless
    it is free in writing. A pool nobody stated is taken as none on hand (reliability) yet billed as
    the typical pool, one node, unless spares are free in writing: stating the typical pool then
    costs the same and brings a spare on hand, so leaving it blank never makes a bid look better."""
    if bid.terms.spares_free_in_writing:
        return 0
    if spare_pool_stated(bid):
        return int(bid.capacity.spare_pool_gpus)
    return max(int(bid.capacity.spare_pool_gpus), int(bid.capacity.gpus_per_node))


def term_applies(bid: Any, path: str) -> bool:
    """Whether a commercial term can matter: an exit fee only with an exit clause, an escalation
    only on a contract with a term (its anniversaries); on demand the price has none."""
    if path == "terms.early_exit_fee_percent":
        return bool(bid.terms.exit_clause)
    if path == "terms.price_escalation_percent_per_year":
        return spec_of(bid.terms.billing_kind).has_term
    if path in ("terms.billing_increment_hours", "terms.minimum_billed_hours"):
        return not bid.terms.bills_for_a_term  # a term bills its whole span, rounded or not
    return True


def nobody_stated(bid: Any, path: str) -> bool:
    section, field = path.split(".")
    return getattr(getattr(bid, section), field) is None or (
        path in bid.provenance and bid.provenance[path].kind in NOBODY_STATED
    )


def unstated_fee_shares(bid: Any) -> tuple[float, float]:
    """(one-off, recurring) fees nobody stated, as fractions of the bid's GPU bill (issue 31): the
    cautious documented shares; (0, 0) where the bid states its fees."""

    def share(path: str) -> float:
        return FEE_DEFAULTS[path].value / 100.0 if nobody_stated(bid, path) else 0.0

    return share("terms.one_off_fees"), share("terms.recurring_fees_per_month")


def effective_terms(bid: Any) -> Any:
    """The bid's terms with the exit fee, escalation, billing step, minimum and payment terms nobody
    stated (empty, not stated, or left out of an older document where tracked) at their cautious
    documented defaults (issue 31: never free); a term that cannot apply (no exit clause, no
    contract term, a step on a term that bills its whole span) at 0."""
    # Fees nobody stated are 0 as sums here: they are priced as a share of the GPU bill instead
    # (unstated_fee_shares), which only the cost model can size.
    missing = {
        path.split(".")[1]: 0.0
        if path in FEE_SHARE_PATHS or not term_applies(bid, path)
        else default.value
        for path, default in {**TERMS_DEFAULTS, **FEE_DEFAULTS}.items()
        if nobody_stated(bid, path)
    }
    return bid.terms.model_copy(update=missing) if missing else bid.terms


def unverified_inputs(bid: Any) -> list[dict[str, Any]]:
    """Every input of the bid nobody verified (default, not stated, assumption), for reports and flags."""
    reliability = effective_reliability(bid)
    terms = effective_terms(bid)
    rows = []
    for path, source in sorted(bid.provenance.items()):
        if source.verified or not term_applies(bid, path):
            continue
        section, field = path.split(".")
        holder = {"reliability": reliability, "terms": terms}.get(section) or getattr(bid, section)
        value = getattr(holder, field, None)
        default = DOCUMENTED_DEFAULTS.get(path)
        if path in FEE_SHARE_PATHS and default and nobody_stated(bid, path):
            value = default.value  # priced as this % of the GPU bill, not as a sum
        rows.append(
            {
                "field": path,
                "kind": source.kind,
                "label": source.label,
                "value": value,
                "range": [default.low, default.high]
                if default and source.kind != "assumption"
                else None,
                "source": default.source
                if default and source.kind != "assumption"
                else _owner(source),
            }
        )
    return rows


def _owner(source: Source) -> str:
    """Who set an assumption, and why when they said: 'J. Ruiz: said on the call'."""
    return (
        f"{source.who}: {source.why}" if source.who and source.why else (source.who or source.why)
    )


def completed_workload_provenance(workload: Any) -> dict[str, Source]:
    """The workload's provenance with every tracked input given a source: a value the document sets
    is the buyer's assumption about its own job; one it leaves out took ClusterBid's default."""
    filled = dict(workload.provenance)
    for name in WORKLOAD_TRACKED_FIELDS:
        if name not in filled:
            filled[name] = (
                Source(kind="assumption", who="the buyer", why="the evaluation's workload")
                if name in workload.model_fields_set
                else Source(kind="default")
            )
    return filled
