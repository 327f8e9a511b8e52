"""The language-runtime seam: what a worker preloads and probes, what versions a golden
folder records, and how an output's drift is classified.

The engine knows only `Runtime`; `PythonRuntime` runs a book of plain Python. A book about a
library supplies its own, in its own layer above the engine.
"""

from __future__ import annotations

import re
import sys
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping

from bookexec._internal.goldens.compare import PLAIN_WORDS, Drift, plain_text


class Runtime(ABC):
    """One language runtime, as the engine sees it."""

    name: str = ""
    preload: tuple[str, ...] = ()  # modules the worker imports before the first block
    flush: str | None = None  # dotted path of a function the worker runs after each block
    hidden_notes: tuple[str, ...] = ()  # exception notes a page never shows (by substring)
    # Packages the runtime imports, checked (not imported) when the plugin's `runtime` option
    # names it: a missing one is a configuration error naming it, not a traceback.
    requires: tuple[str, ...] = ()
    # Each drift class in the runtime's words, for the report (`goldens.report`): what
    # `classify` calls structural, text and cosmetic in its outputs.
    drift_words: Mapping[str, str] = PLAIN_WORDS

    def preload_for(self, codes: Iterable[str]) -> tuple[str, ...]:
        """The preloaded modules a page's code names, as a word anywhere in it: a page of
        plain Python in a book about a library does not wait for the library's import (JAX's
        is about a second of CPU), and a page that uses it still finds it loaded."""
        text = "\n".join(codes)
        return tuple(
            module
            for module in self.preload
            if re.search(rf"(?<![\w.]){re.escape(module.partition('.')[0])}(?!\w)", text)
        )

    def worker_probe(self) -> str | None:
        """Dotted path of a function run in the worker after its last block, returning
        {"backend": str, "devices": int}; None: {"backend": "none", "devices": 0}."""
        return None

    @abstractmethod
    def versions(self) -> dict[str, str]:
        """The versions a golden folder records (its VERSIONS file), name -> version."""

    def classify(self, old: str, new: str) -> Drift:
        """The class of the drift from one output to another: plain text by default."""
        return plain_text(old, new)

    def result_language(self, output: str) -> str:
        """The Pygments language of an output's fence."""
        return "text"


def python_version() -> str:
    """This interpreter's version as a golden folder records it, e.g. "3.13"."""
    return f"{sys.version_info.major}.{sys.version_info.minor}"


class PythonRuntime(Runtime):
    """Plain Python: nothing preloaded, no probe, outputs compared as text."""

    name = "python"

    def versions(self) -> dict[str, str]:
        """Only Python's version."""
        return {"python": python_version()}
