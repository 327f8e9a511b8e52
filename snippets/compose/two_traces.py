import jax
import jax.numpy as jnp


def kind(v):
    return type(v).__name__ if isinstance(v, jax.core.Tracer) else "a value"


def look(x):
    primal, tangent = x.primal, x.tangent
    line = (
        f"{label:10} primal: {kind(primal):18} tangent: {kind(tangent):18}"
    )
    if isinstance(primal, jax.core.Tracer):
        line += f" one trace for both: {tangent._trace is primal._trace}"
    print(line)
    return jnp.sin(x)


label = "grad"
jax.grad(look)(1.0)
label = "jit(grad)"
jax.jit(jax.grad(look))(1.0)
