"""What the engine knows of JAX: printed jaxprs read as programs.

Its modules, each with a line, and the layers are listed once, in the package docstring
(`bookexec`).
"""
