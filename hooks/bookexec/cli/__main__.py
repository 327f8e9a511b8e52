"""`python -m bookexec.cli ARGS` is `book ARGS` (tests run it so, with their own interpreter)."""

import sys

from bookexec.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
