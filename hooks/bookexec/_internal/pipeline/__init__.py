"""One build's stages, each small, typed and testable alone, in the order a build uses them.

`bookexec._internal.engine.Build` wires them for one MkDocs build; none holds the `Build` itself.

Its modules, each with a line, and the layers are listed once, in the package docstring
(`bookexec`).
"""
