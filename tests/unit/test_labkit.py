"""The lab kit (`jaxbook.labkit`), which every lab's checks cell carries: its verdicts, its
differential comparison, JAX's counters, the leak check and the jaxpr walk."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from jaxbook import labkit


def test_check_says_correct_or_not_yet_and_never_a_traceback(capsys):
    def stub():
        raise NotImplementedError

    def raises():
        return str(1 / 0)

    def refuses():
        raise labkit.NotYet("the hint")

    for problem in (lambda: None, lambda: "why", stub, raises, refuses):
        labkit.check(3, problem)
    said = capsys.readouterr().out.splitlines()
    assert said[:2] == ["Exercise 3: correct", "Exercise 3: not yet: why"]
    assert said[2].startswith("Exercise 3: not yet: an answer cell still raises NotImplemented")
    assert (
        said[3]
        == "Exercise 3: not yet: running your answer raised ZeroDivisionError: division by zero"
    )
    assert said[4] == "Exercise 3: not yet: the hint"


def test_the_compiler_s_log_lines_while_a_check_runs_stay_out_of_its_output(capfd):
    """XLA writes its warnings (an involuntary rematerialization for a drawn resharding) from
    C++ to file descriptor 2: a check's output must not change with the inputs it drew."""
    import os
    import sys

    def problem():
        os.write(2, b"W1206 05:33:20.422968   19959 spmd_partitioner.cc:666] [SPMD] slow\n")
        os.write(2, b"a line of the learner's own\n")
        print("to stderr from Python", file=sys.stderr)
        return None

    labkit.check(1, problem)
    out, err = capfd.readouterr()
    assert out == "Exercise 1: correct\n"
    assert "spmd_partitioner" not in err
    assert "a line of the learner's own" in err and "to stderr from Python" in err


def test_each_draw_is_seeded_afresh():
    assert labkit.draw().integers(2**62) != labkit.draw().integers(2**62)


def test_mismatch_compares_structure_shape_dtype_and_values():
    a = jnp.arange(3.0)
    assert labkit.mismatch({"a": a}, {"a": a}) is None
    assert labkit.mismatch([1], (1,)) == "[1], not (1,)"
    assert "structure" in labkit.mismatch([a] * 30, (a,) * 30)
    assert labkit.mismatch(a[None], a) == "an array of shape (1, 3), not (3,)"
    assert labkit.mismatch(a.astype(jnp.int32), a) == "an array of dtype int32, not float32"
    assert "not [0., 1., 2.]" in labkit.mismatch(a + 1, a)
    assert labkit.mismatch(3, 3.0) == "3, not 3.0"
    assert labkit.mismatch(np.asarray(a), a) is None


def test_differs_names_the_first_input_that_differs():
    cases = [(jnp.array([1.0, -2.0]),), (jnp.array([0.0, 0.0]),)]
    assert labkit.differs(jnp.abs, jnp.abs, cases) is None
    said = labkit.differs(lambda x: x, jnp.abs, cases, name="f")
    assert said.startswith("for [ 1., -2.] (float32[2]) f gives [ 1., -2.]")


def test_counting_reads_jax_s_own_log_of_traces_compiles_and_cache_misses():
    def pad(x):
        return jnp.pad(x, (0, 1))

    once = jax.jit(pad)
    with labkit.counting() as counts:
        for n in (2, 2, 3):
            once(jnp.ones(n))
    assert counts.traces["pad"] == counts.compiles["pad"] == 2
    assert counts.misses["pad"] == 1  # the first trace of a function is no miss
    with labkit.counting() as afresh:
        for _ in range(3):
            jax.jit(lambda x: pad(x))(jnp.ones(4))  # a new function each call: a new trace
    assert afresh.traces["<lambda>"] == 3 and afresh.compiles["<lambda>"] == 3


def test_leaks_finds_a_tracer_kept_in_a_list():
    kept = []

    def keeps(x):
        kept.append(x)
        return x * 2

    assert labkit.leaks(lambda x: x * 2, jnp.ones(2)) is None
    assert "keeps a tracer" in labkit.leaks(keeps, jnp.ones(2))
    jitted = jax.jit(keeps)
    jitted(jnp.ones(3))  # traced already: found all the same
    assert "keeps a tracer" in labkit.leaks(jitted, jnp.ones(3))


def _nested(x):
    y = jax.jit(lambda z: jnp.sin(z))(x)
    y = lax.cond(y.sum() > 0, lambda a: jnp.cos(a), lambda a: a, y)
    y = lax.while_loop(lambda c: c[0] < 2, lambda c: (c[0] + 1, jnp.exp(c[1])), (0, y))[1]
    y = lax.scan(lambda c, a: (c + jnp.log1p(a), None), y, jnp.ones((2, 3)))[0]
    y = jax.nn.relu(y)  # a custom_jvp_call

    @jax.custom_vjp
    def g(a):
        return jnp.tanh(a)

    g.defvjp(lambda a: (jnp.tanh(a), a), lambda r, ct: (ct,))
    return g(y)


def test_primitives_walks_every_nested_jaxpr():
    found = labkit.primitives(_nested, jnp.ones(3))
    for name in ("sin", "cos", "exp", "log1p", "max", "tanh", "cond", "while", "scan"):
        assert found[name] >= 1, name
    assert labkit.structure(_nested, (jnp.ones(3),), required=["tanh"]) is None
    assert "has no select_n" in labkit.structure(_nested, (jnp.ones(3),), required=["select_n"])
    assert "has log1p" in labkit.structure(_nested, (jnp.ones(3),), forbidden=["log1p"])


def test_typed_refuses_a_prediction_of_another_type():
    assert labkit.typed("n", 3, int, "a number") is None
    assert labkit.typed("n", None, int, "a number") == "set n to a number"
    assert labkit.typed("n", True, int, "a number") == "n is True, a bool: it should be a number"
    assert labkit.typed("n", "yes", bool, "True or False").startswith("n is 'yes', a str")


def test_innermost_follows_the_output_into_jits_and_values_evaluates_there():
    @jax.jit
    def inner(u):
        return lax.fori_loop(0, 3, lambda i, w: w * (u[0] + 1.0), u)

    u = jnp.array([1.0, 2.0])
    jaxpr, inputs, out = labkit.innermost(lambda w: inner(w * 2.0), u)
    loop = labkit.producer(jaxpr, out)
    assert loop.primitive.name == "scan" and loop.params["length"] == 3
    operands = labkit.values(jaxpr, inputs, loop.invars)
    assert any(np.allclose(np.asarray(x), [2.0, 4.0]) for x in operands)  # w * 2.0, evaluated
    assert labkit.feeds(jaxpr, jaxpr.invars[0], out)
