"""Log filters the engine installs on MkDocs' (or ProperDocs') loggers, and takes off again."""

from __future__ import annotations

import logging


class LogFilter(logging.Filter):
    """A filter on the loggers named in `LOGGERS`; `filter` says what passes."""

    LOGGERS: tuple[str, ...] = ()

    def install(self) -> None:
        """Filter every named logger (a filter object is added to a logger only once)."""
        for name in self.LOGGERS:
            logging.getLogger(name).addFilter(self)

    def remove(self) -> None:
        """Stop filtering."""
        for name in self.LOGGERS:
            logging.getLogger(name).removeFilter(self)
