"""``python -m kibitz``: the command line (see :mod:`kibitz.cli`)."""

from kibitz.cli import main

raise SystemExit(main())
