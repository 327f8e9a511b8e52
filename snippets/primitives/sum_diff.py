# a second primitive: two operands, two results
import jax
import jax.numpy as jnp
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

sum_diff_p = Primitive("sum_diff")
# bind returns a list: the sum and the difference
sum_diff_p.multiple_results = True


def sum_diff(a, b):
    return sum_diff_p.bind(a, b)


@sum_diff_p.def_abstract_eval
def sum_diff_abstract(a, b):
    # Operand checks belong here: a bad call fails while tracing, not deep in
    # the lowering.
    if (a.shape, a.dtype, a.sharding) != (b.shape, b.dtype, b.sharding):
        raise TypeError(
            f"sum_diff needs operands of one shape, dtype and sharding, got "
            f"{a} and {b}"
        )
    # update copies all of a's type, so the weak type is set as lax.add
    # sets it: weak only if both operands are.
    out = a.update(weak_type=a.weak_type and b.weak_type)
    return [out, out]  # one type per result


@sum_diff_p.def_impl
def sum_diff_impl(a, b):
    return [jnp.add(a, b), jnp.subtract(a, b)]


mlir.register_lowering(
    sum_diff_p, mlir.lower_fun(sum_diff_impl, multiple_results=True)
)


# a and b are both placeholders: it is linear in each
def sum_diff_transpose(cotangents, a, b):
    ct_sum, ct_diff = (ad.instantiate_zeros(ct) for ct in cotangents)
    return [ct_sum + ct_diff, ct_sum - ct_diff]


# a JVP rule and this transpose rule at once
ad.deflinear2(sum_diff_p, sum_diff_transpose)
seen = []


def sum_diff_batch(args, dims, **params):
    seen.append(dims)  # None for an operand that vmap does not map
    size = next(
        x.shape[d] for x, d in zip(args, dims, strict=True) if d is not None
    )
    a, b = (
        batching.bdim_at_front(x, d, size)
        for x, d in zip(args, dims, strict=True)
    )
    # both results batched along axis 0
    return sum_diff_p.bind(a, b, **params), [0, 0]


batching.primitive_batchers[sum_diff_p] = sum_diff_batch

a, b = jnp.array([3.0, 1.0]), jnp.array([1.0, 2.0])
print("sum_diff:", sum_diff(a, b))
print(jax.make_jaxpr(sum_diff)(a, b))
try:
    jax.make_jaxpr(sum_diff)(a, jnp.arange(2))
except TypeError as err:
    print("TypeError:", err)


def squares(a, b):
    total, diff = sum_diff(a, b)
    return jnp.sum(total * diff)  # the sum of a² − b²


print("grad:", jax.grad(squares, argnums=(0, 1))(a, b))
rows = jnp.stack([a, 2 * a, 3 * a])
print(
    "vmap over a only:",
    jax.jit(jax.vmap(sum_diff, in_axes=(0, None)))(rows, b),
)
print("batch dims the rule saw:", seen)
weak = jax.eval_shape(sum_diff, 1.0, jnp.float32(2.0))  # weak 1.0
print("weak results:", [r.weak_type for r in weak])
