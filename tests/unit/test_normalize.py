"""Each normaliser removes what varies between machines and runs, and never touches a jaxpr."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from bookexec._internal.goldens.normalize import (
    addresses,
    block_names,
    for_page,
    machine_path_rules,
    normalize,
    path_rules,
    paths,
    snippet_names,
)

pytestmark = pytest.mark.engine

RULES = path_rules(
    root=Path("/work/book"),
    site_packages=["/work/book/.venv/lib/python3.13/site-packages"],
    stdlib=["/usr/lib/python3.13"],
    temp=["/tmp"],
    homes=["/home/ada"],
)


def test_site_packages_inside_the_checkout_is_site_packages_not_root():
    text = 'File "/work/book/.venv/lib/python3.13/site-packages/jax/_src/core.py", line 9'
    assert paths(text, RULES) == 'File "<site-packages>/jax/_src/core.py", line 9'


def test_checkout_tmp_home_and_stdlib_paths():
    text = (
        "/work/book/snippets/a.py:3 /tmp/pytest-1/x.txt /home/ada/.cache/jax "
        "/usr/lib/python3.13/warnings.py"
    )
    assert paths(text, RULES) == (
        "<root>/snippets/a.py:3 <tmp>/pytest-1/x.txt <home>/.cache/jax <stdlib>/warnings.py"
    )


def test_a_prefix_must_end_at_a_path_boundary():
    assert paths("/work/bookshelf/a.py and /tmpfile", RULES) == "/work/bookshelf/a.py and /tmpfile"
    assert paths("'/work/book'", RULES) == "'<root>'"


def test_a_path_ends_at_markdown_s_code_span_and_a_semicolon():
    """A block that prints Markdown puts a path in a code span: the backtick ends the path, as
    a quote does (found building markdown-exec's own docs, whose golden held `<tmp>/...`)."""
    assert paths("dir: `/work/book`; again /work/book;", RULES) == "dir: `<root>`; again <root>;"


def test_relative_paths_are_left_alone():
    assert paths("snippets/tracers/x.py:4", RULES) == "snippets/tracers/x.py:4"


def test_memory_addresses_and_object_ids():
    text = "<function f at 0x7f3a2b1c4d50> Var(id=140595086828176):float32[3]"
    assert addresses(text) == "<function f at 0x<address>> Var(id=<id>):float32[3]"
    text = "This VmapTracer with object id 140020229756144 was created on line:"
    assert addresses(text) == "This VmapTracer with object id <id> was created on line:"


def test_the_page_shows_the_ids_and_addresses_the_golden_replaces():
    text = "VmapTracer with object id 140020229756144 was created at /work/book/x.py <f at 0x7f3a>"
    assert for_page(text, RULES) == (
        "VmapTracer with object id 140020229756144 was created at <root>/x.py <f at 0x7f3a>"
    )
    assert normalize(text, RULES) == addresses(for_page(text, RULES))


def test_hex_values_that_are_content_survive():
    text = "or with 1065353216 (0x3F800000); mask 0xFFFFFFFF; id=7"
    assert addresses(text) == text


def test_cache_miss_explanations_name_their_function_s_id():
    text = "    power_scaled id=140234567890123 defined at snippets/r/e.py:6"
    assert addresses(text) == "    power_scaled id=<id> defined at snippets/r/e.py:6"


def test_an_address_is_normalised_only_in_a_repr_and_an_id_only_where_jax_prints_one():
    """Near misses (issue 53): `at 0x...` and `id=<digits>` outside the syntax that prints an
    address or an id are what a block printed, and stay."""
    for text in (
        "the jump lands at 0x7f3a2b1c4d50 in the table",
        "<jump at 0x7f3a2b1c4d50 (no closing bracket)",
        "user id=140595086828176 logged in",
        "an object id 140595086828176 in plain words",
        "Var(id=140595086828176, more)",
        "f id=140234567890123 was defined",
    ):
        assert addresses(text) == text, text


def test_a_temp_folder_is_the_machine_s_and_no_other():
    """`/tmp` and `/var/tmp` are two folders: a block that prints the other one changed."""
    rules = path_rules(root=Path("/work/book"), temp=["/tmp"])
    assert paths("/tmp/work /var/tmp/work", rules) == "<tmp>/work /var/tmp/work"
    machine = machine_path_rules(Path("/work/book"), {})
    import tempfile

    other = "/var/tmp" if tempfile.gettempdir() != "/var/tmp" else "/tmp"
    assert paths(f"{other}/work", machine) == f"{other}/work"


def test_a_name_is_normalised_only_standing_alone():
    rules = path_rules(root=Path("/work/book"), names={"ada": "<user>"})
    assert paths("by ada: ada's adaptive (ada)", rules) == "by <user>: <user>'s adaptive (<user>)"
    assert paths("adam and ada2 and lada", rules) == "adam and ada2 and lada"


def test_a_block_name_is_normalised_only_in_markdown_exec_s_brackets():
    text = "a code block: n1 and <code block n1>"
    assert block_names(text) == text


def test_markdown_exec_block_names():
    text = 'File "<code block: session s; n2>", line 3 and <code block: n1>'
    assert block_names(text) == 'File "<code block>", line 3 and <code block>'


def test_machine_rules_cover_this_interpreter():
    rules = machine_path_rules(Path.cwd(), os.environ)
    purelib = sysconfig.get_paths()["purelib"]
    assert paths(f"{purelib}/jax/__init__.py", rules) == "<site-packages>/jax/__init__.py"


def test_normalize_keeps_line_ends_trailing_spaces_and_blank_lines():
    """Issue 53: only the guide's classes are normalised. Trailing spaces, extra final blank
    lines, a missing final newline, and a carriage return, form feed or U+2028 (which
    `str.splitlines` cuts at) are what the block printed, and stay."""
    for text in ("a  \nb\n", "a\nb\n\n\n", "a\nb", "a\rb\n", "a\x0cb\n", "a\u2028b\n", ""):
        assert normalize(text, RULES) == text, repr(text)


@pytest.mark.needs_book
def test_real_jaxprs_pass_through_unchanged():
    # A jaxpr of every common shape: literals, params, sub-jaxprs, constvars.
    code = """
import jax, jax.numpy as jnp
from jax import lax
c = jnp.arange(3.0)
def f(x, W):
    y = lax.cond(x.sum() > 0, jnp.sin, jnp.cos, x @ W + c)
    z = lax.scan(lambda s, v: (s + v, s * 2.0), 0.0, y)[1]
    return jnp.where(z > 1, z, 0x3F800000).astype(jnp.int32)
print(jax.make_jaxpr(f)(jnp.ones(4), jnp.ones((4, 3))))
print(jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.sin(x) ** 2)))(jnp.ones(3)))
"""
    jaxprs = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "cond[" in jaxprs and "scan[" in jaxprs
    assert normalize(jaxprs, machine_path_rules(Path.cwd(), os.environ)) == jaxprs


@pytest.mark.needs_book
def test_jax_changes_normalises_another_interpreter_s_paths_with_the_build_s_own_rules():
    """`./book jax-changes` runs the book under another venv: it asks that interpreter for the
    facts the rules need, and makes the rules as a build makes its own (it kept a copy that
    drifted: no `<python>`, no `<sys.path>`, no machine names). Asked of this interpreter, the
    rules are the build's exactly."""
    from jaxbook.jax_changes import _interpreter_facts

    facts = _interpreter_facts(sys.executable)
    assert facts["jax"] and facts["python"]
    own = machine_path_rules(Path.cwd(), os.environ)
    theirs = machine_path_rules(Path.cwd(), os.environ, facts)
    # The probe's sys.path starts with its own script's folder ('' for -c), never absolute.
    assert theirs == own


def test_a_snippets_path_becomes_the_readers_file_name():
    """Issue 52: a frame or a JAX error names the file a reader saved the shown code in."""
    snippets = ["snippets/tracers/if_under_jit.py", "snippets/tracers/jit.py"]
    text = (
        "tracing the function kink at snippets/tracers/if_under_jit.py:5 for jit\n"
        '  File "<root>/snippets/tracers/jit.py", line 3, in <module>\n'
        "other/snippets/tracers/jit.py and snippets/tracers/jit.pyc stay\n"
    )
    assert snippet_names(text, snippets) == (
        "tracing the function kink at if_under_jit.py:5 for jit\n"
        '  File "jit.py", line 3, in <module>\n'
        "other/snippets/tracers/jit.py and snippets/tracers/jit.pyc stay\n"
    )
