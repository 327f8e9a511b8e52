import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

x = jnp.arange(5.0)
print("x[10]              ", x[10])
print("x[-10]             ", x[-10])
print("x.at[10].set(99.0) ", x.at[10].set(99.0))
print(
    "x.at[10].get(mode='fill', fill_value=nan):",
    x.at[10].get(mode="fill", fill_value=jnp.nan),
)


def read(x, i):
    return x[i]


def write(x, i):
    return x.at[i].set(99.0)


print(jax.make_jaxpr(read)(x, 10))
print(jax.make_jaxpr(write)(x, 10))
# reverse mode differentiates the clamped read: the gradient lands on the
# last element
print("grad of x[10]:", jax.grad(lambda v: v[10])(x))
# an array of indices is a gather: the read clamps, but its gradient drops
# the clamped element
indices = jnp.array([10, 2])
print(
    "x[[10, 2]]:",
    x[indices],
    " grad of its sum:",
    jax.grad(lambda v: v[indices].sum())(x),
)
(gather,) = [
    e
    for e in jax.make_jaxpr(lambda v: v[indices])(x).jaxpr.eqns
    if e.primitive.name == "gather"
]
print("the gather's mode:", gather.params["mode"])
# mode="clip" clamps on purpose, and its gradient follows the clamp
clipped = jax.grad(lambda v: v.at[indices].get(mode="clip").sum())(x)
print("grad with mode='clip':", clipped)
# hidden: begin
record("gather_mode", str(gather.params["mode"]))
record("clip_grad", str(clipped))
record("read_10", str(x[10]))
record("read_minus_10", str(x[-10]))
(scatter,) = [
    e
    for e in jax.make_jaxpr(write)(x, 10).jaxpr.eqns
    if e.primitive.name == "scatter"
]
record("scatter_mode", str(scatter.params["mode"]))
record("grad_10", str(jax.grad(lambda v: v[10])(x)))
record("gather_grad", str(jax.grad(lambda v: v[indices].sum())(x)))
# hidden: end
