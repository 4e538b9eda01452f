"""The bundled catalog: required entries, dense peaks only, a source on every entry."""

from __future__ import annotations

import pytest

from clusterbid.core.catalog import default_catalog, load_catalog
from clusterbid.core.errors import InputError
from clusterbid.resources import resource_path

REQUIRED_GPUS = {"A100-80GB-SXM", "H100-SXM", "H200-SXM", "B200", "GB200-NVL72", "MI300X", "L40S"}
REQUIRED_FABRICS = {
    "IB-XDR800",
    "IB-NDR400",
    "IB-NDR200",
    "IB-HDR200",
    "RoCEv2-400G",
    "RoCEv2-200G",
    "RoCEv2-100G",
    "EFA",
    "TCP-Ethernet",
}


def test_required_entries_present_with_sources():
    catalog = default_catalog()
    assert set(catalog.gpus) >= REQUIRED_GPUS
    assert set(catalog.fabrics) >= REQUIRED_FABRICS
    for entry in [*catalog.gpus.values(), *catalog.fabrics.values()]:
        assert len(entry.source) > 30, entry.id


def test_dense_peaks_match_vendor_datasheets():
    # design/cost-model.md: H100/H200 BF16 = 989 dense (1,979 is the 2:4 sparse figure), A100 = 312.
    catalog = default_catalog()
    assert catalog.gpu("H100-SXM").dense_bf16_tflops == 989
    assert catalog.gpu("H200-SXM").dense_bf16_tflops == 989
    assert catalog.gpu("A100-80GB-SXM").dense_bf16_tflops == 312
    assert catalog.gpu("A100-80GB-SXM").dense_fp8_tflops is None
    assert catalog.gpu("GB200-NVL72").nvlink_domain_gpus == 72


def _write(tmp_path, gpu_extra: str):
    gpus = tmp_path / "gpus.toml"
    gpus.write_text(
        '[[gpu]]\nid = "X1"\nname = "X"\nvendor = "V"\nhbm_gb = 80\nhbm_bandwidth_tb_s = 3\n'
        'nvlink_bandwidth_gb_s = 900\nnvlink_domain_gpus = 8\nsource = "a public datasheet"\n'
        + gpu_extra
    )
    return gpus, resource_path("catalog", "fabrics.toml")


def test_sparse_only_peak_is_refused(tmp_path):
    gpus, fabrics = _write(tmp_path, 'peak_basis = "dense"\nsparse_bf16_tflops = 1979\n')
    with pytest.raises(
        InputError, match=r"X1.*sparse peak figures are refused.*sparse_bf16_tflops"
    ):
        load_catalog(gpus, fabrics)


def test_sparse_basis_is_refused(tmp_path):
    gpus, fabrics = _write(tmp_path, 'peak_basis = "sparse"\ndense_bf16_tflops = 1979\n')
    with pytest.raises(InputError, match="sparse peak figures are refused"):
        load_catalog(gpus, fabrics)


def test_entry_without_source_is_refused(tmp_path):
    gpus, fabrics = _write(tmp_path, 'peak_basis = "dense"\ndense_bf16_tflops = 989\n')
    gpus.write_text(gpus.read_text().replace('source = "a public datasheet"\n', ""))
    with pytest.raises(
        InputError, match=r"gpus.toml \[\[gpu\]\] #1 \(X1\): source: Field required"
    ):
        load_catalog(gpus, fabrics)


def test_broken_toml_names_the_file(tmp_path):
    gpus, fabrics = _write(tmp_path, "peak_basis = \n")
    with pytest.raises(InputError, match="gpus.toml: not valid TOML"):
        load_catalog(gpus, fabrics)
