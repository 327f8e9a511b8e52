"""Execution: blocks run in fresh worker processes, one page a session. Never imports a
library runtime (that comes in through `runtime.Runtime`).

- `cache`: the block cache, keyed by code, session and environment.
- `eta`: each block's last run time, for the time-left estimate.
- `journal`: the blocks running now, so a build a block kills is named by the next build.
- `launch`: starts a worker with its memory limit and as a subreaper, then becomes it.
- `lifeline`: a worker exits as soon as the build that started it is gone.
- `progress`: one line per block and per page, and the build's summary.
- `reaper`: finds and kills every process below a worker (stopped first, then killed).
- `protocol`: the typed messages between the build and a worker, as JSON on the pipe.
- `model`: the run model every layer reads (`BlockRun`, `PageRun`, `Note`).
- `limits`: a block's limits, from its fence and the build's environment.
- `handle`: the worker handle: one child process, reached over a pipe, killed with its tree.
- `outcome`: a worker's raw result judged against the block's fence, and masked.
- `runner`: the pool: pages in parallel, a fresh worker each, a page's blocks in order.
- `runtime`: the language-runtime seam (`Runtime`, `PythonRuntime`).
- `watch`: the book is read-only to its blocks: changes to the checkout, and who made them.
- `worker`: the child process that runs one page's blocks in one `__main__`.
"""
