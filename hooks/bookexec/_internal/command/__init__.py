"""The engine's own command line, `python -m bookexec` (`bookexec.__main__`): the top layer.

See the package docstring (`bookexec`) for its modules.
"""
