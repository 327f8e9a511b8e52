# hinted, quiet and P come from the blocks above
import jax
import jax.numpy as jnp


def show(label):
    return lambda sharding: print(f"  {label:14} {sharding.spec}")


@jax.jit
def step(x):
    y = jnp.sin(x)
    jax.debug.inspect_array_sharding(y, callback=show("sin(x)"))
    row_sums = y.sum(axis=1)
    jax.debug.inspect_array_sharding(
        row_sums, callback=show("y.sum(axis=1)")
    )
    gram = y @ y.T
    jax.debug.inspect_array_sharding(gram, callback=show("y @ y.T"))
    return row_sums, gram


print(
    "types in the trace:",
    [str(v.aval) for v in jax.make_jaxpr(step)(quiet).jaxpr.outvars],
)
print("first call, while compiling:")
row_sums, gram = step(quiet)
print("second call:")
row_sums, gram = step(quiet)
print("returned:", row_sums.sharding.spec, gram.sharding.spec)
