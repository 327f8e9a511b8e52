import jax
import jax.numpy as jnp


def table_default(x):
    steps = jnp.arange(4) * 2  # staged: becomes equations of the jaxpr
    print("default:", type(steps).__name__)
    return x * steps


def table_eager(x):
    with jax.ensure_compile_time_eval():
        steps = jnp.arange(4) * 2  # computed now, while tracing
    print("ensure_compile_time_eval:", type(steps).__name__, steps)
    return x * steps


print(jax.make_jaxpr(table_default)(1.0))
print(jax.make_jaxpr(table_eager)(1.0))
