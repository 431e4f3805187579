"""`python -m benchdash_runner` is the `benchdash` command."""

import sys

from benchdash_runner.cli import main

sys.exit(main())
