# wave, total and xs come from the block above
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


def peeled(x):
    print(f"{label:22} {layers(x)}")
    return wave(x)


label = "jit(grad(vmap(f)))"
jax.jit(jax.grad(total(jax.vmap(peeled))))(xs)
label = "jit(vmap(grad(f)))"
jax.jit(jax.vmap(jax.grad(peeled)))(xs)
label = "vmap(jit(grad(f)))"
jax.vmap(jax.jit(jax.grad(peeled)))(xs)
label = "grad(jit(vmap(f)))"
jax.grad(total(jax.jit(jax.vmap(peeled))))(xs)
label = "grad(grad(f))"
jax.grad(jax.grad(peeled))(0.5)
label = "jvp(vmap(f))"
jax.jvp(jax.vmap(peeled), (xs,), (jnp.ones(4),))
