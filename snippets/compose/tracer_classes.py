# wave, total and xs come from the block above
import jax
import jax.numpy as jnp


def layers(x):
    """The tracer classes from the outside in (reads internal attributes: for
    looking only)."""
    names = []
    while isinstance(x, jax.core.Tracer):
        names.append(type(x).__name__)
        # A batch tracer keeps the value it wraps in .val, a JVP or linearize
        # tracer in .primal. A recording tracer has a .val too, but it holds
        # the tracer's jaxpr variable, not a tracer, so the walk stops there.
        x = x.val if hasattr(x, "val") else x.primal
    return " -> ".join(names)


def peeled(label):
    """wave, printing the tracer classes of its argument under `label`."""

    def f(x):
        print(f"{label:22} {layers(x)}")
        return wave(x)

    return f


jax.jit(jax.grad(total(jax.vmap(peeled("jit(grad(vmap(f)))")))))(xs)
jax.jit(jax.vmap(jax.grad(peeled("jit(vmap(grad(f)))"))))(xs)
jax.vmap(jax.jit(jax.grad(peeled("vmap(jit(grad(f)))"))))(xs)
jax.grad(total(jax.jit(jax.vmap(peeled("grad(jit(vmap(f)))")))))(xs)
jax.grad(jax.grad(peeled("grad(grad(f))")))(0.5)
jax.jvp(jax.vmap(peeled("jvp(vmap(f))")), (xs,), (jnp.ones(4),))
