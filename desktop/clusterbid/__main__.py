"""`python -m clusterbid` runs the same CLI as the `clusterbid` command."""

import sys

from clusterbid.cli import main

sys.exit(main())
