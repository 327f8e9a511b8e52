"""JAX as the book's language runtime: preloaded in every worker whose page names it, its
backend and devices probed after a page's last block, jaxprs compared as programs."""

from __future__ import annotations

from importlib.metadata import version
from types import MappingProxyType

from bookexec._internal.execute.runtime import Runtime, python_version
from bookexec._internal.goldens.compare import Drift
from bookexec._internal.jax import diff, parse

# JAX appends this note when it filters its own frames; the page shows no frames at all.
FILTER_NOTE = "For simplicity, JAX has removed its internal frames"


class JaxRuntime(Runtime):
    """The runtime of this book: pinned JAX on whatever backend the machine has."""

    name = "jax"
    preload = ("jax",)
    flush = "bookexec._internal.jax.probe.flush_effects"
    hidden_notes = (FILTER_NOTE,)
    requires = ("jax", "jaxlib")
    drift_words = MappingProxyType(
        {
            "structural": "a jaxpr's program changed",
            "text": "other output, counts or claims",
            "cosmetic": "only re-lettering, wrapping, parameter order or the header",
        }
    )

    def worker_probe(self) -> str | None:
        """`bookexec._internal.jax.probe.probe`, run inside the worker."""
        return "bookexec._internal.jax.probe.probe"

    def versions(self) -> dict[str, str]:
        """jax, jaxlib and Python, as the VERSIONS file records them."""
        return {"jax": version("jax"), "jaxlib": version("jaxlib"), "python": python_version()}

    def classify(self, old: str, new: str) -> Drift:
        """Jaxprs read as programs (`bookexec._internal.jax.diff`), the text around them as text."""
        return diff.classify(old, new)

    def result_language(self, output: str) -> str:
        """The language "jaxpr" when the output holds a jaxpr, else "text"."""
        return "jaxpr" if parse.is_jaxpr(output) else "text"
