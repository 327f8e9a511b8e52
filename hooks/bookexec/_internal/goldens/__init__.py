"""Goldens: the recorded output of every block, compared with each build's. Generic: knows
nothing of JAX; how a changed output is classified comes in as a classifier.

Its modules, each with a line, and the layers are listed once, in the package docstring
(`bookexec`).
"""
