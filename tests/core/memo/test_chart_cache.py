"""Kept chart pixels: a re-export is byte-identical to a fresh one and skips matplotlib."""

from __future__ import annotations

from tests.core.cli_imports import imported_by

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.memo import chart_cache


def _memo(tmp_path, name: str, *extra: str) -> bytes:
    source = tmp_path / "demo.json"
    if not source.exists():
        source.write_text(demo_evaluation().model_dump_json(), encoding="utf-8")
    target = tmp_path / name
    command = [
        "memo",
        str(source),
        "-o",
        str(target),
        "--approver",
        "Ada Lovelace, CFO",
        "--samples",
        "300",
        *extra,
    ]
    code, packages = imported_by(command)
    assert code == 0
    return target.read_bytes(), packages


def test_kept_charts_give_the_same_bytes_and_skip_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setenv(chart_cache.CACHE_ENV, "off")
    drawn, packages = _memo(tmp_path, "drawn.pdf")
    assert "matplotlib" in packages
    kept_in = tmp_path / "charts"
    monkeypatch.setenv(chart_cache.CACHE_ENV, str(kept_in))
    first, _ = _memo(tmp_path, "first.pdf")
    assert len(list(kept_in.glob("*.png"))) == 4  # price, cost bands, scaling, tornado
    again, packages = _memo(tmp_path, "again.pdf")
    assert first == drawn and again == drawn
    assert "matplotlib" not in packages


def test_other_notes_reuse_the_charts_but_other_bands_draw_anew(tmp_path, monkeypatch):
    kept_in = tmp_path / "charts"
    monkeypatch.setenv(chart_cache.CACHE_ENV, str(kept_in))
    _memo(tmp_path, "first.pdf")
    _, packages = _memo(tmp_path, "notes.pdf", "--notes", "Board meeting 3 March")
    assert "matplotlib" not in packages and len(list(kept_in.glob("*.png"))) == 4
    _, packages = _memo(tmp_path, "bands.pdf", "--samples", "400")  # other bands, other tornado
    assert "matplotlib" in packages


def test_a_damaged_kept_chart_is_drawn_again(tmp_path, monkeypatch):
    kept_in = tmp_path / "charts"
    monkeypatch.setenv(chart_cache.CACHE_ENV, str(kept_in))
    first, _ = _memo(tmp_path, "first.pdf")
    for path in kept_in.glob("*.png"):
        path.write_bytes(path.read_bytes()[:200])  # cut short, as by a full disk
    again, packages = _memo(tmp_path, "again.pdf")
    assert again == first and "matplotlib" in packages


def test_a_repr_with_an_object_address_is_never_a_key():
    assert chart_cache.chart_key("caption", object()) is None
    assert chart_cache.chart_key("caption", 1.5) == chart_cache.chart_key("caption", 1.5)
    assert chart_cache.chart_key("caption", 1.5) != chart_cache.chart_key("caption", 1.25)
