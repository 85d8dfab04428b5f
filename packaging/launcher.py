"""The standalone app's entry script (PyInstaller freezes this): the same ``fate-royal`` command."""

import sys

from fate_royal.cli import main

if __name__ == "__main__":
    sys.exit(main())
