import jax
import jax.numpy as jnp


def layers(x):
    """The tracer classes from the outside in (reads internal attributes: for
    looking only)."""
    names = []
    while isinstance(x, jax.core.Tracer):
        names.append(type(x).__name__)
        # A batch tracer keeps its value in .val, a JVP or linearize tracer
        # in .primal.
        x = x.val if hasattr(x, "val") else x.primal
    return " -> ".join(names)


def wave(x):
    print(f"{label:22} {layers(x)}")
    return jnp.sin(x) * x


def total(f):
    return lambda xs: f(xs).sum()  # grad needs a scalar


xs = jnp.linspace(0.0, 1.0, 4)
label = "jit(grad(vmap(f)))"
jax.jit(jax.grad(total(jax.vmap(wave))))(xs)
label = "jit(vmap(grad(f)))"
jax.jit(jax.vmap(jax.grad(wave)))(xs)
label = "vmap(jit(grad(f)))"
jax.vmap(jax.jit(jax.grad(wave)))(xs)
label = "grad(jit(vmap(f)))"
jax.grad(total(jax.jit(jax.vmap(wave))))(xs)
label = "grad(grad(f))"
jax.grad(jax.grad(wave))(0.5)
label = "jvp(vmap(f))"
jax.jvp(jax.vmap(wave), (xs,), (jnp.ones(4),))
