"""The Monte Carlo sample count every door uses by default, in one place.

`clusterbid score`, `clusterbid memo`, the app's bands, evidence requests and verify's re-render
must draw the same number of samples: the memo's bands then match `score`, and a memo exported
from the app is byte-identical to the one the command line makes from the same document. 20,000
samples put the chance of being cheapest within about +/-0.7 points (binomial standard error at
50%: sqrt(0.25 / 20,000) = 0.35 points, two of them). No imports: `--help` and the argument
parsers read it without loading numpy.
"""

DEFAULT_SAMPLES = 20_000
