"""`mkdocs serve` alone: nothing here runs in `mkdocs build`. Above `pipeline`, below `engine`.

See the package docstring (`bookexec`) for its modules.
"""
