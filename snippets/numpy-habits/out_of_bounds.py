import jax
import jax.numpy as jnp

from bookexec.facts import record

x = jnp.arange(5.0)
print("x[10]              ", record("read_10", str(x[10])))
print("x[-10]             ", record("read_minus_10", str(x[-10])))
print("x.at[10].set(99.0) ", x.at[10].set(99.0))
print("x.at[10].get(mode='fill', fill_value=nan):", x.at[10].get(mode="fill", fill_value=jnp.nan))


def read(x, i):
    return x[i]


def write(x, i):
    return x.at[i].set(99.0)


print(jax.make_jaxpr(read)(x, 10))
closed = jax.make_jaxpr(write)(x, 10)
(scatter,) = [eqn for eqn in closed.jaxpr.eqns if eqn.primitive.name == "scatter"]
print("the write's scatter mode:", record("scatter_mode", str(scatter.params["mode"])))
# reverse mode differentiates the clamped read: the gradient lands on the last element
print("grad of x[10]:", record("grad_10", str(jax.grad(lambda v: v[10])(x))))
