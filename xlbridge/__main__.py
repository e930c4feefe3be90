"""``python -m xlbridge`` is the ``xlbridge`` command."""

import sys

from xlbridge.cli import main

sys.exit(main())
