"""The theme's compiled templates, kept for a whole `mkdocs serve`.

MkDocs makes a new Jinja environment for every build, so each rebuild compiled every template
of the theme again: a third of a dirty rebuild's time. Jinja's public bytecode cache keeps the
compiled code; a template whose source changed is compiled again (Jinja checks the source's
checksum), and so is every template when the environment's options change (`salt`).
"""

from __future__ import annotations

from typing import Any

import jinja2
from jinja2.bccache import Bucket


def salt(env: jinja2.Environment) -> str:
    """What besides a template's source changes its compiled code."""
    options = (
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        env.optimized,
        repr(env.autoescape),
        sorted(env.extensions),
    )
    return repr(options)


class TemplateCache(jinja2.BytecodeCache):
    """Compiled templates in memory, by template and environment options."""

    def __init__(self) -> None:
        self.code: dict[tuple[str, str], bytes] = {}
        self.salt = ""

    def attach(self, env: jinja2.Environment) -> Any:
        """Serve this build's environment from the cache."""
        self.salt = salt(env)
        env.bytecode_cache = self
        return env

    def load_bytecode(self, bucket: Bucket) -> None:
        """Fill the bucket when this template was compiled before with these options."""
        code = self.code.get((bucket.key, self.salt))
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep a template just compiled."""
        self.code[(bucket.key, self.salt)] = bucket.bytecode_to_string()
