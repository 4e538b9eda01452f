"""The Monte Carlo sample cap every door uses by default, in one place.

`clusterbid score`, `clusterbid memo`, the app's bands, evidence requests and verify's re-render
must draw the same samples: the memo's bands then match `score`, and a memo exported from the
app is byte-identical to the one the command line makes from the same document. The Monte Carlo
draws at most this many, stopping at the first pass of 4,096 after which every bid's chance of
being cheapest is known to +/-1 point at 95% (methodology section 7): a chance near 50% needs
about 9,600 (1.96^2 x 0.25 / 0.01^2). The stop depends only on the draws, so every door stops at
the same count for a seed. No imports: `--help` and the argument parsers read it without loading
numpy.
"""

DEFAULT_SAMPLES = 20_000
