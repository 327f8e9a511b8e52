import jax
import jax.numpy as jnp


def kind(v):
    return type(v).__name__ if isinstance(v, jax.core.Tracer) else "a value"


def looking(label):
    """sin, printing what its tracer's primal and tangent are."""

    def look(x):
        primal, tangent = x.primal, x.tangent
        line = f"{label:10} primal: {kind(primal):18}"
        line += f" tangent: {kind(tangent):18}"
        if isinstance(primal, jax.core.Tracer):
            same = tangent._trace is primal._trace
            line += f" one trace for both: {same}"
        print(line)
        return jnp.sin(x)

    return look


jax.grad(looking("grad"))(1.0)
jax.jit(jax.grad(looking("jit(grad)")))(1.0)
