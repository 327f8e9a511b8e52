"""The lab render cache's key follows the book's own Pygments lexer, not only Pygments."""

from __future__ import annotations

import hashlib
from pathlib import Path

from bookexec._internal.jax import lexer, parse
from jaxbook import labcache


def test_the_lab_cache_key_follows_the_source_of_the_books_jaxpr_lexer():
    """The lab template colours a jaxpr output with the book's `jaxpr` lexer: a change to its
    source, or to the parser it reads jaxprs with, renders every lab again, as a new Pygments
    does (a lab kept the old colours of a changed lexer, build after build)."""
    renderers = labcache.versions()
    for module in (lexer, parse):
        digest = hashlib.sha256(Path(str(module.__file__)).read_bytes()).hexdigest()
        assert digest in renderers, module.__name__
