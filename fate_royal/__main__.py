"""``python -m fate_royal`` behaves exactly like the ``fate-royal`` command."""

import sys

from fate_royal.cli import main

sys.exit(main())
