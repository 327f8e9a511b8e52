"""`python -m jaxbook.cli ARGS` is `book ARGS` (tests run it so, with their own interpreter)."""

import sys

from jaxbook.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
