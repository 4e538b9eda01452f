"""Reference prices per GPU-hour kept beside the catalog, and a bid's price judged against them."""

from __future__ import annotations

import pytest

from clusterbid.core.errors import InputError
from clusterbid.core.reference_prices import check_price, load_reference_prices


def test_every_bundled_reference_names_a_catalog_gpu_a_publisher_a_date_and_a_source():
    prices = load_reference_prices()
    assert {p.gpu for p in prices} >= {"H100-SXM", "A100-80GB-SXM", "H200-SXM", "B200"}
    assert all(p.as_of.year >= 2026 and len(p.source) >= 20 for p in prices)


def test_a_price_is_judged_against_the_lowest_and_highest_public_price():
    # H100 SXM: Lambda $3.99 (lambda.ai/instances, 2026-09-20) and AWS p5.48xlarge $55.04 / 8 = $6.88.
    assert pytest.approx(6.88) == 55.04 / 8
    assert (
        check_price("H100-SXM", 5.00).verdict == "within the range of public on-demand list prices"
    )
    below = check_price("H100-SXM", 2.85)  # 1 - 2.85 / 3.99 = 28.6%
    assert (
        below.verdict.startswith("29% below the lowest public on-demand price")
        and not below.flagged
    )
    far = check_price("H100-SXM", 1.90)  # 1.90 < 0.5 x 3.99 = 1.995: what does the price leave out?
    assert far.flagged and far.verdict.startswith("52% below the lowest public list price: ask")
    above = check_price("H100-SXM", 8.00)  # 8.00 / 6.88 = 1.163
    assert above.flagged and above.verdict.startswith("16% above the highest public list price")
    assert [r.usd_per_gpu_hour for r in above.references] == [3.99, 6.88]


def test_a_gpu_without_references_or_a_bid_in_another_currency_is_said_not_checked():
    assert (
        check_price("MI300X", 2.0).verdict == "no reference price is kept for MI300X: not checked"
    )
    assert "not priced in USD" in check_price("H100-SXM", None).verdict


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('gpu = "H900"', "gpu 'H900' is not in the catalog"),
        ("usd_per_gpu_hour = -1", "usd_per_gpu_hour: Input should be greater than 0"),
        ('as_of = "last week"', "as_of: Input should be a valid date"),
    ],
)
def test_a_bad_reference_entry_is_refused_naming_the_entry_and_the_rule(tmp_path, entry, message):
    fields = {
        "gpu": '"H100-SXM"',
        "provider": '"Some cloud"',
        "usd_per_gpu_hour": "3.0",
        "as_of": "2026-11-01",
        "source": '"the provider\'s public price page"',
    }
    key = entry.split(" = ")[0]
    fields[key] = entry.split(" = ", 1)[1]
    path = tmp_path / "reference_prices.toml"
    path.write_text(
        "[[price]]\n" + "\n".join(f"{k} = {v}" for k, v in fields.items()) + "\n", encoding="utf-8"
    )
    with pytest.raises(
        InputError,
        match=r"reference_prices.toml \[\[price\]\] #1: " + ".*" + message.replace("(", r"\("),
    ):
        load_reference_prices(path)
