"""Execution: blocks run in fresh worker processes, one page a session. Never imports a
library runtime (that comes in through `runtime.Runtime`).

- `background`: under `mkdocs serve`, pages shown from goldens while their blocks run.
- `cache`: the block cache, keyed by code, session and environment.
- `eta`: each block's last run time, for the time-left estimate.
- `lifeline`: a worker exits as soon as the build that started it is gone.
- `progress`: one line per block and per page, and the build's summary.
- `protocol`: the typed messages between the build and a worker, as JSON on the pipe.
- `runner`: the build's side: workers, time limits, pages in parallel, judging results.
- `runtime`: the language-runtime seam (`Runtime`, `PythonRuntime`).
- `worker`: the child process that runs one page's blocks in one `__main__`.
"""
