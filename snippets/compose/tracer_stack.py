import jax
import jax.numpy as jnp


def shown(name, f):
    """f, printing the argument that transformation `name` hands it."""

    def g(x):
        print(f"  {name:5} hands in {x!r}")
        return f(x)

    return g


def wave(x):
    return jnp.sin(x) * x


def total(f):
    return lambda xs: f(xs).sum()  # grad needs a scalar


xs = jnp.linspace(0.0, 1.0, 4)
print("jit(grad(vmap(f))):")
jax.jit(
    shown(
        "jit", jax.grad(shown("grad", total(jax.vmap(shown("vmap", wave)))))
    )
)(xs)
print("jit(vmap(grad(f))):")
jax.jit(
    shown("jit", jax.vmap(shown("vmap", jax.grad(shown("grad", wave)))))
)(xs)
print("vmap(jit(grad(f))):")
jax.vmap(
    shown("vmap", jax.jit(shown("jit", jax.grad(shown("grad", wave)))))
)(xs)
print("grad(grad(f)):")
jax.grad(shown("grad", jax.grad(shown("grad", wave))))(0.5)
