"""Log filters the engine installs on MkDocs' (or ProperDocs') loggers, and takes off again."""

from __future__ import annotations

import logging

from bookexec._internal.escapes import workflow_safe


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


class WorkflowSafe(logging.Filter):
    """Under GitHub Actions, on every handler of the process: each record's text, its
    traceback included, neutralised for the runner's command syntax (`escapes.workflow_safe`)
    before any formatter writes it. What a block printed or raised reaches the log only in
    records (a worker's own streams go to a file), so none of it can stop, forge or hide a
    workflow command; the engine's annotations are the only lines it writes outside them."""

    enabled = False  # installed (`guard_ci_log`): handlers made later take it too

    def filter(self, record: logging.LogRecord) -> bool:
        """Neutralise the record in place; every record passes."""
        text = record.getMessage()
        if record.exc_info:  # the formatter would append it unfiltered
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        if record.stack_info:
            text += "\n" + record.stack_info
        record.msg, record.args = workflow_safe(text), None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True

    def install(self) -> None:
        """On every handler of every logger there is now (a filter is added only once)."""
        loggers = [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]
        for logger in loggers:
            for handler in getattr(logger, "handlers", []):
                handler.addFilter(self)


# The one filter: `install`ed once a build runs under GitHub Actions, then put on each handler
# the engine makes later (`execute.progress.outside_mkdocs`).
CI_LOG = WorkflowSafe()


def guard_ci_log() -> None:
    """From now on, no line this process logs can be read as a workflow command."""
    CI_LOG.enabled = True
    CI_LOG.install()
