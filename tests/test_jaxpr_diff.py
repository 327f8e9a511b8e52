"""The drift report says in words what kind of change a drifted jaxpr is."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp

from bookexec.jaxpr_diff import canonical, classify


def jaxpr(f, *args) -> str:
    return str(jax.make_jaxpr(f)(*args)) + "\n"


def reletter(text: str) -> str:
    """The same program with every one-letter variable shifted by one letter."""
    return re.sub(r"\b([a-y])\b(?=:| |\)|,|\n)", lambda m: chr(ord(m[1]) + 1), text)


def test_re_lettering_alone_is_named_as_such():
    old = jaxpr(lambda x: jnp.sin(x) * 2.0 + 1.0, 1.0)
    new = reletter(old)
    assert new != old
    assert canonical(new) == canonical(old)
    assert classify(old, new) == "jaxpr: only variable names changed; the program is the same"


def test_a_changed_primitive_is_named():
    old = jaxpr(lambda x: jnp.sin(x) * 2.0, 1.0)
    new = jaxpr(lambda x: jnp.cos(x) * 2.0, 1.0)
    assert classify(old, new) == "jaxpr: primitives +cos -sin"


def test_a_changed_type_is_named():
    old = jaxpr(lambda x: x * 2.0, jnp.ones(3))
    new = jaxpr(lambda x: x * 2.0, jnp.ones(4))
    assert classify(old, new) == "jaxpr: types +f32[4] -f32[3]"


def test_changed_data_flow_with_same_primitives_and_types():
    old = jaxpr(lambda x, y: x - y, 1.0, 2.0)
    new = jaxpr(lambda x, y: y - x, 1.0, 2.0)
    assert classify(old, new) == (
        "jaxpr: same primitives and types; data flow, parameters or other text changed"
    )


def test_outputs_without_jaxprs_get_no_note():
    assert classify("first: 1\n", "first: 2\n") is None
