"""The trace stepper's mapping, which a snippet imports (`bookexec.jax.stepper`);
what else the engine knows of JAX is `bookexec._internal.jax`.

Its module, with a line, and the layers are listed once, in the package docstring
(`bookexec`).
"""
