"""The engine's internals: every module here may change in any release.

The public API is `bookexec.__all__` and the modules the package `bookexec` names
(docs/guide/adopt-api.md); the modules here, each with a line, and the layers are
listed once, in its docstring."""
