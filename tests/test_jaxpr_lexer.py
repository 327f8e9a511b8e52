"""The jaxpr lexer: found by Pygments under its name, lossless, and marking the parts of a jaxpr."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from pygments.lexers import get_lexer_by_name
from pygments.token import Keyword, Name


def tokens(text: str) -> list[tuple]:
    return list(get_lexer_by_name("jaxpr").get_tokens(text))


def test_a_real_jaxpr_round_trips_and_its_parts_are_marked():
    text = str(jax.make_jaxpr(lambda W, x: jnp.tanh(x @ W + 1.0))(jnp.ones((3, 4)), jnp.ones(3)))
    found = tokens(text)
    assert "".join(value for _, value in found) == text + "\n"
    kinds = {value: kind for kind, value in found}
    assert kinds["dot_general"] is Name.Function and kinds["tanh"] is Name.Function
    assert kinds["f32[3,4]"] is Keyword.Type
    assert kinds["dimension_numbers"] is Name.Attribute
    assert kinds["{ lambda"] is Keyword and kinds["let"] is Keyword


def test_weak_and_sharded_types_are_types():
    kinds = {value: kind for kind, value in tokens("a:~f32[] b:f32[8@x,16@y] c:f32[2]<host>")}
    assert kinds["f32[8@x,16@y]"] is Keyword.Type
    assert kinds["f32[2]<host>"] is Keyword.Type
    assert kinds["~"] is Keyword.Type


def test_plain_text_passes_through_unchanged():
    text = "first:  [ 0. 10. 20.]\ntracing scaled with (3,) float32\n"
    assert "".join(value for _, value in tokens(text)) == text
