"""A broad sweep of JAX's public API, printed as jaxprs: the corpus the jaxpr reader is proven on.

Run as a script, in its own process (it sets 8 host CPU devices before JAX starts):

    python tests/jaxpr_corpus.py OUT.json

It writes a JSON list with one entry per case: `{"name": ..., "text": ...}`, the jaxpr as JAX
prints it, or `{"name": ..., "error": ...}` when the case could not be traced. Each case is a
function or transformation of the pinned JAX; the names say which (`jnp.sin`, `lax.scan
nested in cond`, `vmap of grad`...). `tests/unit/test_jaxpr_corpus.py` reads the file.
"""

from __future__ import annotations

import os
import sys

os.environ["XLA_FLAGS"] = (
    os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"
).strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import json
import traceback
from collections.abc import Callable
from functools import partial

CASES: dict[str, Callable[[], str]] = {}


def case(name: str):
    def register(thunk):
        if name in CASES:
            raise ValueError(f"two corpus cases named {name!r}")
        CASES[name] = thunk
        return thunk

    return register


def build_cases() -> None:
    import jax
    import jax.numpy as jnp
    import jax.scipy as jsp
    import numpy as np
    from jax import lax

    def show(f, *args, **kwargs) -> str:
        return str(jax.make_jaxpr(f, **kwargs)(*args))

    def add(name, f, *args, **kwargs):
        case(name)(lambda: show(f, *args, **kwargs))

    def lazy(module, attr):
        """The function looked up when the case runs, so a missing one is that case's error."""
        return lambda *args, **kwargs: getattr(module, attr)(*args, **kwargs)

    x3 = jnp.linspace(0.1, 0.9, 3, dtype=jnp.float32)
    x4 = jnp.linspace(0.1, 0.9, 4, dtype=jnp.float32)
    m33 = jnp.eye(3, dtype=jnp.float32) * 2.0 + 0.1
    m34 = jnp.ones((3, 4), jnp.float32)
    i4 = jnp.arange(4, dtype=jnp.int32)
    b4 = jnp.array([True, False, True, True])
    c3 = jnp.ones(3, jnp.complex64)

    # -- jnp element-wise, unary ------------------------------------------------------------
    unary = [
        "abs",
        "absolute",
        "arccos",
        "arccosh",
        "arcsin",
        "arcsinh",
        "arctan",
        "arctanh",
        "cbrt",
        "ceil",
        "conj",
        "conjugate",
        "cos",
        "cosh",
        "deg2rad",
        "degrees",
        "exp",
        "exp2",
        "expm1",
        "fabs",
        "floor",
        "frexp",
        "i0",
        "imag",
        "isfinite",
        "isinf",
        "isnan",
        "isneginf",
        "isposinf",
        "log",
        "log10",
        "log1p",
        "log2",
        "modf",
        "negative",
        "positive",
        "rad2deg",
        "radians",
        "real",
        "reciprocal",
        "rint",
        "round",
        "sign",
        "signbit",
        "sin",
        "sinc",
        "sinh",
        "sqrt",
        "square",
        "tan",
        "tanh",
        "trunc",
        "nan_to_num",
        "angle",
        "spacing",
    ]
    for fname in unary:
        add(f"jnp.{fname}", lazy(jnp, fname), x3)
    for fname in ["bitwise_not", "invert", "bitwise_count", "logical_not"]:
        add(f"jnp.{fname}", lazy(jnp, fname), i4 if "logical" not in fname else b4)
    add("jnp.iscomplex", jnp.iscomplex, c3)
    add("jnp.abs on complex", jnp.abs, c3)
    add("jnp.exp on complex", jnp.exp, c3)
    add("complex literal 1j", lambda x: x * 1j + (2 - 0.5j), c3)

    # -- jnp element-wise, binary -----------------------------------------------------------
    binary = [
        "add",
        "subtract",
        "multiply",
        "divide",
        "true_divide",
        "floor_divide",
        "power",
        "float_power",
        "mod",
        "remainder",
        "fmod",
        "maximum",
        "minimum",
        "fmax",
        "fmin",
        "hypot",
        "arctan2",
        "copysign",
        "nextafter",
        "logaddexp",
        "logaddexp2",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "equal",
        "not_equal",
        "heaviside",
        "divmod",
        "ldexp",
    ]
    for fname in binary:
        other = i4[:3] if fname == "ldexp" else x3[::-1]
        add(f"jnp.{fname}", lazy(jnp, fname), x3, other)
    for fname in [
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "left_shift",
        "right_shift",
        "gcd",
        "lcm",
        "logical_and",
        "logical_or",
        "logical_xor",
    ]:
        args = (b4, b4[::-1]) if fname.startswith("logical") else (i4 + 1, i4[::-1] + 1)
        add(f"jnp.{fname}", lazy(jnp, fname), *args)
    add("jnp.where", jnp.where, b4, x4, -x4)
    add("jnp.clip", lambda x: jnp.clip(x, 0.2, 0.8), x4)
    add("jnp.isclose", jnp.isclose, x4, x4 + 1e-7)
    add("jnp.allclose", jnp.allclose, x4, x4)
    add("jnp.interp", lambda x: jnp.interp(x, x4, x4 * 2), x3)
    add("jnp.polyval", jnp.polyval, x3, x4)

    # -- reductions -------------------------------------------------------------------------
    for fname in [
        "sum",
        "prod",
        "mean",
        "std",
        "var",
        "max",
        "min",
        "argmax",
        "argmin",
        "all",
        "any",
        "cumsum",
        "cumprod",
        "nansum",
        "nanmean",
        "nanmax",
        "nanmin",
        "nanstd",
        "median",
        "ptp",
        "average",
        "count_nonzero",
        "cumulative_sum",
    ]:
        add(
            f"jnp.{fname}",
            partial(lazy(jnp, fname), axis=0),
            m34 if "all" not in fname else m34 > 0,
        )
    add("jnp.quantile", lambda x: jnp.quantile(x, 0.3), x4)
    add("jnp.percentile", lambda x: jnp.percentile(x, 30.0), x4)
    add("jnp.linalg.norm of a matrix", jnp.linalg.norm, m34)
    add("jax.nn.logsumexp", jax.nn.logsumexp, m34)
    add("jnp.einsum", lambda a, b: jnp.einsum("ij,jk->ik", a, b), m34.T, m34)
    add("jnp.tensordot", lambda a, b: jnp.tensordot(a, b, 1), m34.T, m34)
    add("jnp.matmul", jnp.matmul, m33, m34)
    add("jnp.outer", jnp.outer, x3, x4)
    add("jnp.kron", jnp.kron, m33, m33)
    add("jnp.cross", jnp.cross, x3, x3[::-1])
    add("jnp.convolve", jnp.convolve, x4, x3)
    add("jnp.correlate", jnp.correlate, x4, x3)
    add("jnp.trace", jnp.trace, m33)
    add("jnp.vdot", jnp.vdot, x3, x3)

    # -- shapes, indexing and .at[] updates -------------------------------------------------
    add("jnp.reshape", lambda x: x.reshape(4, 3), m34)
    add("jnp.transpose", jnp.transpose, m34)
    add("jnp.concatenate", lambda a, b: jnp.concatenate([a, b]), x3, x4)
    add("jnp.stack", lambda a: jnp.stack([a, a * 2]), x3)
    add("jnp.split", lambda a: jnp.split(a, 2), x4)
    add("jnp.tile", lambda a: jnp.tile(a, 3), x3)
    add("jnp.repeat", lambda a: jnp.repeat(a, 2), x3)
    add("jnp.roll", lambda a: jnp.roll(a, 1), x4)
    add("jnp.flip", jnp.flip, m34)
    add("jnp.pad", lambda a: jnp.pad(a, 2, mode="reflect"), x4)
    add("jnp.broadcast_to", lambda a: jnp.broadcast_to(a, (2, 3)), x3)
    add("jnp.expand_dims", lambda a: jnp.expand_dims(a, 0), x3)
    add("jnp.squeeze", jnp.squeeze, m34[:1])
    add("jnp.triu", jnp.triu, m33)
    add("jnp.tril", jnp.tril, m33)
    add("jnp.diag", jnp.diag, m33)
    add("jnp.diagonal", jnp.diagonal, m33)
    add("jnp.eye", lambda: jnp.eye(3))
    add("jnp.arange", lambda: jnp.arange(5))
    add("jnp.zeros_like", jnp.zeros_like, x3)
    add("jnp.meshgrid", lambda a, b: jnp.meshgrid(a, b), x3, x4)
    add("jnp.take", lambda a, i: jnp.take(a, i), x4, i4[:2])
    add("jnp.take_along_axis", lambda a, i: jnp.take_along_axis(a, i, 0), x4, i4)
    add("indexing x[i]", lambda a, i: a[i], x4, i4[1])
    add("indexing x[1:3]", lambda a: a[1:3], x4)
    add("indexing x[::-1, None]", lambda a: a[::-1, None], x4)
    add("indexing x[mask-free int array]", lambda a, i: a[i], m34, i4[:2])
    add("lax.dynamic_slice", lambda a, i: lax.dynamic_slice(a, (i,), (2,)), x4, i4[1])
    add("lax.dynamic_update_slice", lambda a, b: lax.dynamic_update_slice(a, b, (1,)), x4, x3[:2])
    for method in ["set", "add", "mul", "min", "max", "get"]:

        def at_update(a, i, v, method=method):
            ref = a.at[i]
            return ref.get() if method == "get" else getattr(ref, method)(v)

        add(f".at[].{method}", at_update, x4, i4[:2], x3[:2])
    add(".at[].divide", lambda a: a.at[1].divide(2.0), x4)
    add(".at[].power", lambda a: a.at[1].power(2.0), x4)
    add(".at[].apply", lambda a: a.at[1].apply(jnp.sin), x4)
    add("jnp.histogram", lambda a: jnp.histogram(a, bins=3), x4)
    add("jnp.bincount", lambda i: jnp.bincount(i, length=5), i4)
    add("jnp.unique size=", lambda i: jnp.unique(i, size=4), i4)
    add("jnp.nonzero size=", lambda a: jnp.nonzero(a, size=2), b4)
    add("jnp.select", lambda a: jnp.select([a > 0.5, a < 0.2], [a, -a], 0.0), x4)
    add("jnp.piecewise", lambda a: jnp.piecewise(a, [a > 0.5], [jnp.sin, jnp.cos]), x4)

    # -- sorting and searching --------------------------------------------------------------
    add("jnp.sort", jnp.sort, x4)
    add("jnp.argsort", jnp.argsort, x4)
    add("jnp.lexsort", lambda a, b: jnp.lexsort((a, b)), x4, x4[::-1])
    add("jnp.searchsorted", jnp.searchsorted, x4, x3)
    add("jnp.partition", lambda a: jnp.partition(a, 2), x4)
    add("jnp.argpartition", lambda a: jnp.argpartition(a, 2), x4)
    add("lax.top_k", lambda a: lax.top_k(a, 2), x4)
    add("lax.sort multiple operands", lambda a, b: lax.sort((a, b), num_keys=1), x4, i4)
    add("jnp.digitize", jnp.digitize, x3, x4)
    add("jnp.argwhere size=", lambda a: jnp.argwhere(a, size=2), b4)

    # -- linalg -----------------------------------------------------------------------------
    for fname in [
        "inv",
        "det",
        "slogdet",
        "cholesky",
        "qr",
        "svd",
        "eigh",
        "pinv",
        "matrix_power",
        "norm",
        "eigvalsh",
    ]:
        f = lazy(jnp.linalg, fname)
        if fname == "matrix_power":
            f = partial(f, n=3)
        add(f"jnp.linalg.{fname}", f, m33)
    add("jnp.linalg.solve", jnp.linalg.solve, m33, x3)
    add("jnp.linalg.lstsq", jnp.linalg.lstsq, m34.T, x4)
    add("jnp.linalg.matrix_rank", jnp.linalg.matrix_rank, m33)
    add("jnp.linalg.eig", jnp.linalg.eig, m33)
    add("jsp.linalg.expm", jsp.linalg.expm, m33)
    add("jsp.linalg.lu", jsp.linalg.lu, m33)
    add("jsp.linalg.lu_factor", jsp.linalg.lu_factor, m33)
    add("jsp.linalg.solve_triangular", jsp.linalg.solve_triangular, m33, x3)
    add("jsp.linalg.cho_solve", lambda a, b: jsp.linalg.cho_solve((a, False), b), m33, x3)
    add("jsp.linalg.schur", jsp.linalg.schur, m33)
    add("jsp.linalg.sqrtm", jsp.linalg.sqrtm, m33)
    add("jsp.linalg.block_diag", jsp.linalg.block_diag, m33, m33)
    add("lax.linalg.tridiagonal_solve", lax.linalg.tridiagonal_solve, x4, x4, x4, m34.T)

    # -- fft --------------------------------------------------------------------------------
    for fname in [
        "fft",
        "ifft",
        "rfft",
        "irfft",
        "fft2",
        "ifft2",
        "fftn",
        "rfftn",
        "fftshift",
        "ifftshift",
        "hfft",
    ]:
        add(f"jnp.fft.{fname}", lazy(jnp.fft, fname), m34 if "2" in fname else x4)
    add("jnp.fft.fftfreq", lambda: jnp.fft.fftfreq(8))

    # -- lax primitives ---------------------------------------------------------------------
    add(
        "lax.conv_general_dilated",
        lambda a, k: lax.conv(a, k, (1, 1), "SAME"),
        jnp.ones((1, 2, 5, 5)),
        jnp.ones((3, 2, 3, 3)),
    )
    add("lax.reduce_window", lambda a: lax.reduce_window(a, 0.0, lax.add, (2,), (1,), "VALID"), x4)
    add("lax.cumlogsumexp", lax.cumlogsumexp, x4)
    add("lax.population_count", lax.population_count, i4)
    add("lax.clz", lax.clz, i4)
    add("lax.integer_pow", lambda a: lax.integer_pow(a, 3), x3)
    add("lax.rsqrt", lax.rsqrt, x3)
    add("lax.erf_inv", lax.erf_inv, x3)
    add("lax.igamma", lax.igamma, x3, x3)
    add("lax.lgamma", lax.lgamma, x3)
    add("lax.digamma", lax.digamma, x3)
    add("lax.bessel_i1e", lax.bessel_i1e, x3)
    add("lax.nextafter", lax.nextafter, x3, x3[::-1])
    add("lax.bitcast_convert_type", lambda a: lax.bitcast_convert_type(a, jnp.int32), x3)
    add("lax.convert_element_type", lambda a: lax.convert_element_type(a, jnp.bfloat16), x3)
    add("lax.reduce_precision", lambda a: lax.reduce_precision(a, 5, 10), x3)
    add("lax.iota", lambda: lax.iota(jnp.int32, 4))
    add("lax.gather", lambda a, i: a[i, 1:3], m34, i4[0])
    add("lax.pad", lambda a: lax.pad(a, 0.0, [(1, 2, 1)]), x3)
    add("lax.rev", lambda a: lax.rev(a, (0,)), x3)
    add("lax.select_n", lambda i, a, b: lax.select_n(i, a, b), b4, x4, x4)
    add("lax.stop_gradient", lax.stop_gradient, x3)
    add("lax.optimization_barrier", lax.optimization_barrier, (x3, x4))
    add("lax.approx_max_k", lambda a: lax.approx_max_k(a, 2), x4)
    add(
        "lax.reduce with tuple",
        lambda a, b: lax.reduce((a, b), (0.0, 0), lambda x, y: (x[0] + y[0], x[1] + y[1]), (0,)),
        x4,
        i4,
    )
    add(
        "lax.psum outside pmap-free axis_name",
        lambda a: jax.vmap(lambda v: lax.psum(v, "i"), axis_name="i")(a),
        x4,
    )

    # -- control flow -----------------------------------------------------------------------
    def cond(p, a):
        return lax.cond(p, jnp.sin, jnp.cos, a)

    def switch(i, a):
        return lax.switch(i, [jnp.sin, jnp.cos, lambda v: v * 2.0], a)

    def while_(a):
        return lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 2.0), (0, a))

    def fori(a):
        return lax.fori_loop(0, 3, lambda i, c: c + i, a)

    def scan(a):
        return lax.scan(lambda c, v: (c + v, c * v), 0.0, a)

    def map_(a):
        return lax.map(jnp.sin, a)

    def assoc(a):
        return lax.associative_scan(jnp.add, a)

    add("lax.cond", cond, True, x3)
    add(
        "lax.cond with operands tuple",
        lambda p, a, b: lax.cond(p, lambda u, v: u + v, lambda u, v: u - v, a, b),
        True,
        x3,
        x3,
    )
    add("lax.switch", switch, 1, x3)
    add("lax.while_loop", while_, x3)
    add("lax.fori_loop", fori, x3)
    add(
        "lax.fori_loop dynamic bounds",
        lambda n, a: lax.fori_loop(0, n, lambda i, c: c * 2, a),
        3,
        x3,
    )
    add("lax.scan", scan, x4)
    add(
        "lax.scan reverse unroll",
        lambda a: lax.scan(lambda c, v: (c * v, None), 1.0, a, reverse=True, unroll=2),
        x4,
    )
    add("lax.map", map_, m34)
    add("lax.map batch_size", lambda a: lax.map(jnp.cos, a, batch_size=2), x4)
    add("lax.associative_scan", assoc, x4)
    add(
        "lax.cond nested in scan",
        lambda a: lax.scan(lambda c, v: (lax.cond(v > 0.5, jnp.sin, jnp.cos, c), v), 0.0, a),
        x4,
    )
    add("lax.scan nested in cond", lambda p, a: lax.cond(p, scan, lambda v: (0.0, v), a), True, x4)
    add(
        "lax.while_loop nested in fori_loop",
        lambda a: lax.fori_loop(0, 2, lambda i, c: while_(c)[1], a),
        x3,
    )
    add(
        "lax.switch nested in switch",
        lambda i, a: lax.switch(i, [lambda v: switch(i, v), jnp.tan], a),
        0,
        x3,
    )
    add("grad of lax.cond", jax.grad(lambda a: cond(True, a).sum(), argnums=0), x3)
    add("grad of lax.scan", jax.grad(lambda a: scan(a)[0]), x4)
    add("grad of lax.fori_loop", jax.grad(lambda a: fori(a).sum()), x3)
    add("vmap of lax.cond", jax.vmap(cond), b4[:3], m34[:, :3])
    add("vmap of lax.while_loop", jax.vmap(while_), m34)
    add("vmap of lax.switch", jax.vmap(switch), i4[:3] % 3, m33)
    add("jvp of lax.while_loop", lambda a: jax.jvp(while_, (a,), (a,)), x3)
    add("jvp of lax.associative_scan", lambda a: jax.jvp(assoc, (a,), (a,)), x4)
    add("linearize of lax.scan", lambda a: jax.linearize(lambda v: scan(v)[0], a)[1](a), x4)
    add("vjp of lax.map", lambda a: jax.vjp(map_, a)[1](a), m34)
    add(
        "checkpoint in scan",
        lambda a: lax.scan(jax.checkpoint(lambda c, v: (c * v, c)), 1.0, a),
        x4,
    )

    # -- transformations --------------------------------------------------------------------
    def loss(w, a):
        return jnp.sum(jnp.tanh(a @ w) ** 2)

    add("jax.grad", jax.grad(loss), m34.T, m34)
    add("jax.value_and_grad", jax.value_and_grad(loss, argnums=(0, 1)), m34.T, m34)
    add("jax.vmap", jax.vmap(jnp.dot, in_axes=(0, None)), m34, x4)
    add("jax.vmap nested", jax.vmap(jax.vmap(jnp.multiply)), m34, m34)
    add("jax.vmap of grad", jax.vmap(jax.grad(lambda v: jnp.sin(v) * v)), x4)
    add("jax.grad of grad", jax.grad(jax.grad(lambda v: v**3)), 1.0)
    add("jax.jvp", lambda a, t: jax.jvp(jnp.sin, (a,), (t,)), x3, x3)
    add("jax.vjp", lambda a: jax.vjp(jnp.tanh, a)[1](a), x3)
    add("jax.linearize", lambda a: jax.linearize(jnp.exp, a)[1](a), x3)
    add("jax.hessian", jax.hessian(lambda v: jnp.sum(v**3)), x3)
    add("jax.jacfwd", jax.jacfwd(jnp.sin), x3)
    add("jax.jacrev", jax.jacrev(jnp.sin), x3)
    add("jax.jit inside", jax.jit(lambda a: a * 2.0 + 1.0), x3)
    add("jax.jit nested static", lambda a: jax.jit(lambda v, n: v**n, static_argnums=1)(a, 3), x3)
    add("jax.named_call", jax.named_call(jnp.sin, name="my_sine"), x3)
    add("jax.named_scope", lambda a: _scoped(jax, a), x3)
    add("jax.checkpoint", jax.grad(lambda v: jax.checkpoint(lambda u: jnp.sin(jnp.sin(u)))(v)), 1.0)
    for policy in [
        "nothing_saveable",
        "everything_saveable",
        "dots_saveable",
        "dots_with_no_batch_dims_saveable",
    ]:
        pol = getattr(jax.checkpoint_policies, policy)
        add(
            f"jax.checkpoint policy {policy}",
            jax.grad(lambda w, pol=pol: jax.checkpoint(loss, policy=pol)(w, m34)),
            m34.T,
        )
    add(
        "jax.checkpoint save_only_these_names",
        jax.grad(
            lambda v: jax.checkpoint(
                lambda u: _checkpoint_name()(jnp.sin(u), "s") * 2,
                policy=jax.checkpoint_policies.save_only_these_names("s"),
            )(v)
        ),
        1.0,
    )
    add("jax.remat prevent_cse=False", jax.remat(jnp.sin, prevent_cse=False), x3)
    add("jax.eval_shape inside", lambda a: a + jax.eval_shape(jnp.sin, a).shape[0], x3)
    add(
        "jax.closure_convert",
        lambda a: (lambda fc: fc[0](a, *fc[1]))(jax.closure_convert(lambda v: v * a, a)),
        x3,
    )
    add(
        "jax.pure_callback",
        lambda a: jax.pure_callback(np.sin, jax.ShapeDtypeStruct(a.shape, a.dtype), a),
        x3,
    )
    add(
        "jax.pure_callback vmap_method",
        jax.vmap(
            lambda a: jax.pure_callback(
                np.sin, jax.ShapeDtypeStruct(a.shape, a.dtype), a, vmap_method="sequential"
            )
        ),
        m34,
    )
    add("jax.experimental.io_callback", lambda a: jax.experimental.io_callback(print, None, a), x3)
    add("jax.debug.callback", lambda a: jax.debug.callback(print, a) or a, x3)
    add(
        "jax.debug.print",
        lambda a: jax.debug.print("x = {x} and {{braces}} {}: [{y}]", a, x=a, y=a[0]) or a,
        x3,
    )
    add("jax.debug.print ordered", lambda a: jax.debug.print("{}", a, ordered=True) or a, x3)
    add(
        "jax.debug.breakpoint-free checkify",
        lambda a: _checkify().checkify(
            lambda v: (_checkify().check(jnp.all(v > 0), "neg: {v}", v=v), v)[1]
        )(a),
        x3,
    )
    add(
        "jax.lax.cond with debug.print",
        lambda p, a: lax.cond(p, lambda v: (jax.debug.print("yes {}", v), v)[1], lambda v: v, a),
        True,
        x3,
    )

    # -- custom rules -----------------------------------------------------------------------
    @jax.custom_jvp
    def softplus(a):
        return jnp.log1p(jnp.exp(a))

    softplus.defjvp(lambda p, t: (softplus(p[0]), t[0] * jax.nn.sigmoid(p[0])))

    @jax.custom_vjp
    def clip_grad(a):
        return a

    clip_grad.defvjp(lambda a: (a, None), lambda _, g: (jnp.clip(g, -1, 1),))

    add("jax.custom_jvp", softplus, x3)
    add("jax.custom_jvp under grad", jax.grad(lambda a: softplus(a).sum()), x3)
    add("jax.custom_jvp under jvp", lambda a: jax.jvp(softplus, (a,), (a,)), x3)
    add("jax.custom_jvp under vmap", jax.vmap(softplus), m34)
    add("jax.custom_vjp", clip_grad, x3)
    add("jax.custom_vjp under grad", jax.grad(lambda a: (clip_grad(a) ** 2).sum()), x3)
    add("jax.custom_vjp under vmap", jax.vmap(clip_grad), m34)
    add(
        "lax.custom_root",
        lambda a: lax.custom_root(
            lambda v: v**2 - a, 1.0, lambda f, v: v - f(v) / 2.0, lambda g, y: y / 2.0
        ),
        2.0,
    )
    add(
        "lax.custom_linear_solve",
        lambda b: lax.custom_linear_solve(
            lambda v: 2.0 * v, b, lambda f, v: v / 2.0, symmetric=True
        ),
        x3,
    )
    add(
        "jax.scipy.sparse.linalg.cg",
        lambda b: jsp.sparse.linalg.cg(lambda v: m33 @ v, b, maxiter=3)[0],
        x3,
    )

    # -- random -----------------------------------------------------------------------------
    typed = jax.random.key(0)
    raw = jax.random.PRNGKey(0)
    for label, key in (("typed key", typed), ("raw key", raw)):
        for fname, extra in (
            ("normal", ((3,),)),
            ("uniform", ((3,),)),
            ("bernoulli", (0.3, (3,))),
            ("randint", ((3,), 0, 10)),
            ("split", ()),
            ("fold_in", (7,)),
            ("permutation", (5,)),
            ("categorical", (jnp.zeros(4),)),
            ("gamma", (2.0, (2,))),
        ):
            add(
                f"jax.random.{fname} ({label})",
                lambda k, f=fname, e=extra: getattr(jax.random, f)(k, *e),
                key,
            )
    for fname, extra in (
        ("beta", (2.0, 3.0, (2,))),
        ("choice", (5, (2,))),
        ("truncated_normal", (-1.0, 1.0, (3,))),
        ("exponential", ((3,),)),
        ("gumbel", ((3,),)),
        ("dirichlet", (jnp.ones(3),)),
        ("poisson", (3.0, (2,))),
        ("multivariate_normal", (jnp.zeros(2), jnp.eye(2))),
        ("orthogonal", (3,)),
        ("bits", ((3,),)),
        ("laplace", ((3,),)),
        ("cauchy", ((3,),)),
    ):
        add(f"jax.random.{fname}", lambda k, f=fname, e=extra: getattr(jax.random, f)(k, *e), typed)
    add("jax.random.key_data", jax.random.key_data, typed)
    add("jax.random.wrap_key_data", jax.random.wrap_key_data, raw)
    add("jax.random.key (traced seed)", jax.random.key, 3)
    add(
        "jax.random.split vmapped",
        jax.vmap(lambda k: jax.random.normal(k, (2,))),
        jax.random.split(typed, 3),
    )
    add("jax.random rbg impl", lambda: jax.random.normal(jax.random.key(1, impl="rbg"), (2,)))

    # -- scipy.special and stats ------------------------------------------------------------
    for fname in [
        "erf",
        "erfc",
        "erfinv",
        "expit",
        "logit",
        "gammaln",
        "digamma",
        "i0e",
        "i1",
        "i1e",
        "ndtr",
        "ndtri",
        "log_ndtr",
        "entr",
        "xlogy",
        "xlog1py",
        "gammainc",
        "gammaincc",
        "betaln",
        "zeta",
        "polygamma",
        "multigammaln",
        "spence",
        "expi",
        "exp1",
        "rel_entr",
        "kl_div",
        "softmax",
        "logsumexp",
        "bernoulli",
        "factorial",
        "sph_harm_y",
    ]:
        f = lazy(jsp.special, fname)
        arity = {
            "xlogy": 2,
            "xlog1py": 2,
            "gammainc": 2,
            "gammaincc": 2,
            "betaln": 2,
            "zeta": 2,
            "rel_entr": 2,
            "kl_div": 2,
        }.get(fname, 1)
        if fname == "polygamma":
            add("jsp.special.polygamma", lambda a: jsp.special.polygamma(1, a), x3)
        elif fname == "multigammaln":
            add("jsp.special.multigammaln", lambda a: jsp.special.multigammaln(a + 2, 2), x3)
        elif fname == "bernoulli":
            add("jsp.special.bernoulli", lambda: jsp.special.bernoulli(4))
        elif fname == "sph_harm_y":
            add(
                "jsp.special.sph_harm_y",
                lambda a: jsp.special.sph_harm_y(i4[:3], i4[:3], a, a, n_max=4),
                x3,
            )
        else:
            add(f"jsp.special.{fname}", f, *([x3 + 1.0] * arity))
    for dist in ["norm", "cauchy", "logistic", "laplace", "t"]:
        mod = getattr(jsp.stats, dist)
        extra = (3.0,) if dist == "t" else ()
        add(f"jsp.stats.{dist}.logpdf", lambda a, m=mod, e=extra: m.logpdf(a, *e), x3)
    add("jsp.stats.norm.cdf", jsp.stats.norm.cdf, x3)
    add("jsp.signal.convolve", jsp.signal.convolve, x4, x3)

    # -- nn ---------------------------------------------------------------------------------
    for fname in [
        "relu",
        "relu6",
        "sigmoid",
        "softplus",
        "silu",
        "swish",
        "gelu",
        "elu",
        "celu",
        "selu",
        "leaky_relu",
        "hard_tanh",
        "hard_sigmoid",
        "hard_swish",
        "log_sigmoid",
        "log_softmax",
        "softmax",
        "soft_sign",
        "standardize",
        "glu",
        "mish",
        "squareplus",
        "sparse_plus",
        "tanh",
    ]:
        add(f"jax.nn.{fname}", lazy(jax.nn, fname), m34)
    add("jax.nn.one_hot", lambda i: jax.nn.one_hot(i, 5), i4)
    add(
        "jax.nn.dot_product_attention",
        jax.nn.dot_product_attention,
        jnp.ones((1, 4, 2, 8)),
        jnp.ones((1, 4, 2, 8)),
        jnp.ones((1, 4, 2, 8)),
    )
    add(
        "jax.nn.initializers.glorot_normal",
        lambda k: jax.nn.initializers.glorot_normal()(k, (3, 4)),
        typed,
    )

    # -- placement --------------------------------------------------------------------------
    _placement(jax, jnp, add, x4)

    # -- pytrees and odd signatures ---------------------------------------------------------
    add(
        "pytree dict in and out",
        lambda d: {"s": d["a"] + d["b"], "n": (d["a"],)},
        {"a": x3, "b": x3},
    )
    add("pytree with captured constants", lambda a: a * np.arange(3.0, dtype=np.float32) + x3, x3)
    add("no inputs", lambda: jnp.ones(3) * 2)
    add("no outputs", lambda a: None, x3)
    add("empty jaxpr, output is the input", lambda a: a, x3)
    add("literal outputs", lambda a: (1.0, 2), x3)
    add("many outputs", lambda a: tuple(a * i for i in range(8)), x3)
    add("namedtuple", lambda a: jnp.linalg.eigh(jnp.outer(a, a)), x3)
    add("over 700 variables", _long_chain, x3)
    add(
        "x64-free int8 and uint types",
        lambda a: a.astype(jnp.int8) + jnp.uint8(3).astype(jnp.int8),
        x3,
    )
    add(
        "float0 tangent",
        lambda i, a: jax.jvp(lambda j, v: (j * 2, v), (i, a), (np.zeros((), jax.dtypes.float0), a)),
        3,
        x3,
    )
    add("weak typed literal", lambda a: a + 1, 2.0)
    add("bool literal", lambda a: jnp.logical_and(a, True), b4)
    add("int literal negative", lambda a: a * -3, i4)
    add("inf and nan literals", lambda a: jnp.where(a > 0.5, jnp.inf, jnp.nan), x3)
    add("float16 and bfloat16", lambda a: a.astype(jnp.float16) * a.astype(jnp.bfloat16), x3)
    add(
        "uint32 and shifts",
        lambda a: lax.shift_right_logical(a.astype(jnp.uint32), jnp.uint32(1)),
        i4,
    )


def _checkpoint_name():
    from jax.ad_checkpoint import checkpoint_name

    return checkpoint_name


def _checkify():
    from jax.experimental import checkify

    return checkify


def _scoped(jax, a):
    with jax.named_scope("outer"):
        return a * 2.0


def _long_chain(a):
    import jax.numpy as jnp

    out = a
    for i in range(360):
        out = jnp.sin(out) + float(i % 7)
    return out


def _placement(jax, jnp, add, x4) -> None:
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    mesh8 = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    mesh4 = jax.make_mesh((4,), ("i",), axis_types=(AxisType.Explicit,))
    auto = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
    m84 = jnp.arange(32.0).reshape(8, 4)

    def sharded(mesh, spec, value=m84):
        return jax.device_put(value, NamedSharding(mesh, spec))

    def under(mesh):
        """Register cases that trace with `mesh` set, as a program using it would."""

        def add_in(name, f, *args):
            def thunk():
                with jax.sharding.set_mesh(mesh):
                    return str(jax.make_jaxpr(f)(*args))

            case(name)(thunk)

        return add_in

    add_in = under(mesh8)
    a = sharded(mesh8, P("x", "y"))
    add_in("sharded types (explicit mesh)", lambda v: v * 2.0, a)
    add_in("sharded matmul", lambda v: jnp.matmul(v, v.T, out_sharding=P("x", None)), a)
    add_in("jax.sharding.reshard", lambda v: jax.sharding.reshard(v, P("y", None)), a)
    add_in("sharded reduction", lambda v: v.sum(axis=0), a)
    add_in(
        "jax.lax.with_sharding_constraint explicit",
        lambda v: jax.lax.with_sharding_constraint(v, P("x", "y")),
        a,
    )
    add_in("jnp.zeros with out_sharding", lambda: jnp.zeros((8, 4), out_sharding=P("x", "y")))
    add_in(
        "jax.shard_map explicit (vma types)",
        jax.shard_map(
            lambda v: jax.lax.psum(v, "x") * 2.0, in_specs=P("x", "y"), out_specs=P(None, "y")
        ),
        a,
    )
    add_in(
        "jax.shard_map with pvary",
        jax.shard_map(
            lambda v, w: v + jax.lax.pcast(w, ("x", "y"), to="varying"),
            in_specs=(P("x", "y"), P()),
            out_specs=P("x", "y"),
        ),
        a,
        jnp.ones((2, 2)),
    )
    add_in(
        "jax.shard_map axis_index and ppermute",
        jax.shard_map(
            lambda v: (
                jax.lax.ppermute(v, "x", [(i, (i + 1) % 4) for i in range(4)])
                + jax.lax.axis_index("x")
            ),
            in_specs=P("x", "y"),
            out_specs=P("x", "y"),
        ),
        a,
    )
    add_in(
        "jax.shard_map all_gather",
        jax.shard_map(
            lambda v: jax.lax.all_gather(v, "y", tiled=True),
            in_specs=P("x", "y"),
            out_specs=P("x", None),
            check_vma=False,
        ),
        a,
    )
    add_in(
        "grad of shard_map",
        jax.grad(
            lambda v: jax.shard_map(
                lambda u: jnp.sin(u), in_specs=P("x", "y"), out_specs=P("x", "y")
            )(v).sum()
        ),
        a,
    )
    add_in = under(mesh4)
    b = sharded(mesh4, P("i"), jnp.arange(32.0))
    add_in(
        "jax.shard_map 4 devices psum_scatter",
        jax.shard_map(
            lambda v: jax.lax.psum_scatter(v, "i", tiled=True), in_specs=P("i"), out_specs=P("i")
        ),
        b,
    )
    add_in(
        "jax.shard_map 4 devices scan inside",
        jax.shard_map(
            lambda v: jax.lax.scan(
                lambda c, u: (c + u, c), jax.lax.pcast(0.0, ("i",), to="varying"), v
            )[1],
            in_specs=P("i"),
            out_specs=P("i"),
        ),
        b,
    )
    add_in = under(auto)
    c = sharded(auto, P("x", "y"))
    add_in(
        "jax.shard_map auto mesh",
        jax.shard_map(
            lambda v: jax.lax.pmax(v, ("x", "y")),
            in_specs=P("x", "y"),
            out_specs=P(),
            check_vma=False,
        ),
        c,
    )
    add_in(
        "with_sharding_constraint auto",
        lambda v: jax.lax.with_sharding_constraint(v, NamedSharding(auto, P("y", "x"))),
        c,
    )
    host = jax.memory.Space.Host if hasattr(jax, "memory") else None
    if host is not None:
        add("memory space: device_put to host", lambda v: jax.device_put(v, host) * 1.0, x4)
        add(
            "memory space: host then device",
            lambda v: jax.device_put(jax.device_put(v, host), jax.memory.Space.Device),
            x4,
        )
    add(
        "jax.pmap-free pjit inside",
        jax.jit(lambda v: v + 1.0, out_shardings=NamedSharding(auto, P())),
        m84,
    )


def main(out: str) -> int:
    build_cases()
    results = []
    for name, thunk in CASES.items():
        try:
            results.append({"name": name, "text": thunk()})
        except Exception:
            results.append(
                {"name": name, "error": "".join(traceback.format_exception_only(sys.exception()))}
            )
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
