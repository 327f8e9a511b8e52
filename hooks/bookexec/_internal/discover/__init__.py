"""What a book runs, found before anything runs.

Its modules, each with a line, and the layers are listed once, in the package docstring
(`bookexec`).
"""
