"""One build's stages, each small, typed and testable alone, in the order a build uses them.

- `plan`: pages to blocks, scanned before anything runs.
- `run`: the executor behind the `PageExecutor` protocol, or the goldens when nothing runs.
- `judge`: each block's output against its golden; the failures; the build's report.
- `render`: what the engine's fence shows for a block, prose values, and the page check.

`bookexec.engine.Build` wires them for one MkDocs build; none holds the `Build` itself.
"""
