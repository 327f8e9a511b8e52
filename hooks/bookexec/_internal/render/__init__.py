"""Rendering a page's executed blocks and facts into what the reader sees.

Its modules, each with a line, and the layers are listed once, in the package docstring
(`bookexec`).
"""
