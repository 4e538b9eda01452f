"""Entry point of the frozen app: the same `main` as the `clusterbid` console script."""

import sys

from clusterbid.cli import main

if __name__ == "__main__":
    sys.exit(main())
