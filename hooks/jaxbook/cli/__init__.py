"""`book`, the book's one command line (`./book --help`): serve, build, update, review, test...

`./book` in the checkout is a launcher that makes `.venv` and runs this. Every module here imports
only the standard library at the top: `--help` answers at once, and the commands whose setup
installs the book's dependencies import the engine only after it has.

- `cli.main`: the commands, their help and exit codes, and `main`, the entry point.
- `cli.process`: running a tool, or becoming it, with its exit code passed on.
- `cli.environments`: `.venv` (set up from pyproject.toml, again when it changes) and the
  `.cache/jax-X.Y.Z` environments with another JAX in place of the pin.
- `cli.chromium`: Debian's chromium for the browser tests, installed only when allowed to.
- `cli.stress`: `./book stress`, cold strict builds beside busy loops.
"""
