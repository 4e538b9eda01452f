"""Issue 32: the memo's work grows with the bids, not with their square, and reportlab measures
what it already measured only where the figures cannot change. Checked by counting calls and by
the figures themselves (never by time): the same words and sizes as the long way round."""

from __future__ import annotations

import hashlib

from reportlab.platypus import Table, TableStyle
from tests.core.memo.many_bids import demo_copies

from clusterbid.core.assumptions import bid_assumptions
from clusterbid.core.costmodel import schedule_range
from clusterbid.core.memo import bid_pages as pages_module
from clusterbid.core.memo import chart_cache
from clusterbid.core.memo.flowables import MeasuredOnce, para
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty.default_effects import scorecard_default_effects


def _counted(monkeypatch, module, name: str) -> list[int]:
    calls = [0]
    original = getattr(module, name)

    def counting(*args, **kwargs):
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def test_every_bid_page_at_once_ranks_the_blank_criteria_once_and_runs_no_schedule(monkeypatch):
    scorecard = score_evaluation(demo_copies(24))
    effects = scorecard_default_effects(scorecard)
    # One page at a time: each page works the blank criteria out over every bid again.
    one_by_one = [pages_module.bid_page(s, scorecard, None, effects) for s in scorecard.scores]
    ranked = _counted(monkeypatch, pages_module, "unstated_criteria")
    schedule_range._grid.cache_clear()  # cached step times would hide a schedule worked out
    schedules = _counted(monkeypatch, schedule_range, "step_breakdown")
    together = pages_module.bid_pages(scorecard, None, effects)
    assert ranked[0] == 1  # was once per bid: 24 passes over 24 bids
    assert schedules[0] == 0  # the busbw source no longer works out each bid's schedule
    assert list(together) == one_by_one


def test_the_busbw_source_on_a_bid_page_is_the_assumption_list_s_own():
    scorecard = score_evaluation(demo_copies(6))
    workload = scorecard.evaluation.workload
    for score in scorecard.scores:
        listed = {a.name: a.source for a in bid_assumptions(score.estimate, workload)}
        page = pages_module.bid_page(score, scorecard, None)
        assert dict(page.fabric_rows)["busbw source"] == listed["Scale-out busbw per node"]
    # The demo's bids without a measurement say so from the spec sheet.
    assert any(
        dict(pages_module.bid_page(s, scorecard, None).fabric_rows)["busbw source"].startswith(
            "spec: "
        )
        for s in scorecard.scores
    )


def test_chart_keys_written_out_once_are_the_keys_of_each_chart_alone():
    code = chart_cache._code_fingerprint()
    shared = ("print style", {"bids": [1, 2]}, None, (0.5, "x"))
    own = [("Cost bands", 150, 12), ("Tornado", 150, 12)]
    keys = chart_cache.chart_keys(own, *shared)
    for first, key in zip(own, keys):
        whole = (*first, *shared)
        # The key is the SHA-256 of the code's fingerprint and the repr of everything drawn from.
        assert key == hashlib.sha256(f"{code}\n{whole!r}".encode()).hexdigest()
        assert key == chart_cache.chart_key(*whole)
    assert chart_cache.chart_key("one") == hashlib.sha256(f"{code}\n('one',)".encode()).hexdigest()


def _rows(count: int) -> list[list[object]]:
    return [
        [para(f"row {n}", "cell"), para("a value " * (n % 5 + 1), "cell")] for n in range(count)
    ]


def test_a_table_is_measured_again_only_when_the_figures_could_differ(monkeypatch):
    measured = _counted(monkeypatch, Table, "_calc")
    table = MeasuredOnce(_rows(12), colWidths=[100, 200])
    plain = Table(_rows(12), colWidths=[100, 200])
    size = table.wrap(300, 10_000)
    assert size == plain.wrap(300, 10_000)
    assert measured[0] == 2
    # Placed with less room that still holds every row, and drawn in a cell: the same figures.
    assert table.wrap(300, size[1] + 1) == size
    assert table.wrap(300, size[1]) == size
    assert measured[0] == 2
    # Another width, or less room than the table takes: measured again, as reportlab would.
    assert table.wrap(250, 10_000) == plain.wrap(250, 10_000)
    assert measured[0] == 4
    short = table.wrap(250, 40)
    assert short == plain.wrap(250, 40)
    assert measured[0] == 6


def test_a_long_table_cut_short_is_measured_again_when_offered_more_room(monkeypatch):
    """Reportlab stops measuring a table with cells spanning rows once past the room offered."""
    measured = _counted(monkeypatch, Table, "_calc")
    spans = TableStyle([("SPAN", (0, 0), (0, 1))])
    table, plain = (
        MeasuredOnce(_rows(300), colWidths=[100, 200]),
        Table(_rows(300), colWidths=[100, 200]),
    )
    table.setStyle(spans)
    plain.setStyle(spans)
    cut = table.wrap(300, 200)
    assert cut == plain.wrap(300, 200)
    assert measured[0] == 2
    whole = table.wrap(300, 100_000)
    assert whole == plain.wrap(300, 100_000)
    assert measured[0] == 4
    assert cut[1] < 300 < whole[1]
    # Measured whole, it is not measured again while the room still holds it.
    assert table.wrap(300, whole[1]) == whole
    assert measured[0] == 4


def test_a_memo_is_made_with_the_collector_held_back_and_the_same_bytes(monkeypatch):
    """Fewer collections while a memo is made (a fifth of the CPU at 500 bids), counted by the
    collector's own callback; the settings are put back after, and the bytes are the same."""
    import gc

    from clusterbid.core.memo import render

    scorecard = score_evaluation(demo_copies(30))
    approvers = [("Ada Lovelace", "CFO")]
    collections: list[int] = []  # every collection, by the generation collected

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    inside: list[tuple[tuple[int, int, int], int]] = []
    original = render._story_pdf

    def noting(*args: object) -> bytes:
        inside.append((gc.get_threshold(), gc.get_freeze_count()))
        return original(*args)

    monkeypatch.setattr(render, "_story_pdf", noting)
    before = gc.get_threshold()
    gc.callbacks.append(count)
    try:
        held_back = render.render_memo(scorecard, approvers=approvers)
        with_fewer = len(collections)
        collections.clear()
        as_before = render.render_memo.__wrapped__(scorecard, approvers=approvers)
        without = len(collections)
    finally:
        gc.callbacks.remove(count)
    assert held_back == as_before
    assert inside[0] == ((50_000, 20, 100), inside[0][1]) and inside[0][1] > 0
    assert inside[1][0] == before  # the undecorated render runs with the settings as they were
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    assert with_fewer * 10 < without  # 50,000 allocations between young collections, not 700
