"""Execution: blocks run in fresh worker processes, one page a session. Never imports a
library runtime (that comes in through `runtime.Runtime`).

Its modules, each with a line, and the layers are listed once, in the package docstring
(`bookexec`).
"""
