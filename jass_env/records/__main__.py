"""``python -m jass_env.records``: the command line (:mod:`jass_env.records.cli`)."""

import sys

from .cli import main

sys.exit(main())
