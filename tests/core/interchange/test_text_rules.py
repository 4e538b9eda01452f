"""Control and bidi-override characters are refused at the model boundary, naming the field;
chart text is drawn literally, so a '$' in a provider's name is never mathtext."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from tests.conftest import bid_dict, evaluation_dict

from clusterbid.core.bid import Bid
from clusterbid.core.charts.style import shorten
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.interchange import import_bids, write_template_csv

BAD = {
    "ESC": "\x1b[31mAcme",
    "BEL": "Acme\x07",
    "NUL": "Ac\x00me",
    "C1 CSI": "Acme\x9b2J",
    "RIGHT-TO-LEFT OVERRIDE": "Acme\u202eSI",
    "LEFT-TO-RIGHT ISOLATE": "Acme\u2066x\u2069",
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_provider_name_with_a_control_character_is_refused_naming_the_field(name):
    with pytest.raises(ValidationError) as refused:
        Bid.model_validate(bid_dict("acme", quote={"provider": BAD[name]}))
    message = str(refused.value)
    assert "quote.provider holds the character" in message
    assert (
        f"U+{ord(next(c for c in BAD[name] if not c.isalnum() and c not in '[]2J')):04X}" in message
    )


# Issue 35: the zero-width characters it names, and a BOM in mid-text; each draws nothing.
INVISIBLE = {
    "ZERO WIDTH SPACE": "\u200b",
    "ZERO WIDTH NON-JOINER": "\u200c",
    "ZERO WIDTH JOINER": "\u200d",
    "WORD JOINER": "\u2060",
    "ZERO WIDTH NO-BREAK SPACE": "\ufeff",
    "SOFT HYPHEN": "\u00ad",
    "VARIATION SELECTOR-16": "\ufe0f",
}


@pytest.mark.parametrize("name", list(INVISIBLE))
def test_an_invisible_character_in_a_provider_or_id_is_refused_so_two_bids_cannot_look_alike(name):
    char = INVISIBLE[name]
    twin = "Ac" + char + "me"
    with pytest.raises(ValidationError) as refused:
        Bid.model_validate(bid_dict("acme", quote={"provider": twin}))
    assert f"quote.provider holds the character {name} (U+{ord(char):04X}) at position 3" in str(
        refused.value
    )
    with pytest.raises(ValidationError, match="id\n  String should match pattern"):  # ids are ASCII
        Bid.model_validate(bid_dict("ac" + char + "me"))


def test_tabs_line_breaks_and_right_to_left_script_stay_allowed():
    bid = Bid.model_validate(
        bid_dict("acme", quote={"provider": "شركة الحوسبة\u200f Ltd", "reference": "Q-1\t2"})
    )
    assert bid.quote.provider.startswith("شركة")


def test_an_imported_sheet_with_an_escape_in_a_cell_names_row_and_field(tmp_path):
    sheet = write_template_csv(tmp_path / "bids.csv", [Bid.model_validate(bid_dict("acme"))])
    sheet.write_text(
        sheet.read_text(encoding="utf-8-sig").replace(
            "Provider acme", "Provider \x1b]0;pwned\x07acme"
        ),
        encoding="utf-8",
    )
    report = import_bids(sheet)
    assert not report.ok and not report.bids
    assert "quote.provider holds the character ESC (U+001B)" in report.as_text()


@pytest.mark.parametrize("provider", ["$x^{$", "Cloud $5 $6", "$\\alpha$ GPU"])
def test_chart_text_is_literal_and_never_mathtext(provider):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    label = shorten(provider)
    fig = Figure()
    FigureCanvasAgg(fig)
    text = fig.text(0.5, 0.5, label)
    fig.canvas.draw()  # "$x^{$" as mathtext raises ValueError here; a pair of '$' would be parsed as math
    assert text._preprocess_math(text.get_text()) == (provider, False)


@pytest.mark.parametrize("mark", ["\u200e", "\u200f"])
def test_two_providers_that_differ_only_by_a_direction_mark_are_refused(mark):
    """The marks stay allowed for right-to-left names, but draw nothing: "Northwind AI Cloud" and
    the same name with a left-to-right mark inside looked identical in the table and the memo."""
    honest = bid_dict("northwind", quote={"provider": "Northwind AI Cloud", "reference": "Q-1"})
    twin = bid_dict(
        "twin", quote={"provider": "Northwind" + mark + " AI Cloud", "reference": "Q-2"}
    )
    with pytest.raises(ValidationError) as refused:
        Evaluation.model_validate(evaluation_dict(bids=[honest, twin]))
    assert (
        "bids[1] (twin): provider 'Northwind AI Cloud' looks the same as the provider of northwind"
        in str(refused.value)
    )
    same = bid_dict("second", quote={"provider": "Northwind AI Cloud", "reference": "Q-3"})
    arabic = bid_dict("arabic", quote={"provider": "شركة الحوسبة\u200f Ltd", "reference": "Q-4"})
    kept = Evaluation.model_validate(
        evaluation_dict(bids=[honest, same, arabic])
    )  # one provider, twice
    assert [bid.id for bid in kept.bids] == ["northwind", "second", "arabic"]
