import jax
import jax.numpy as jnp

xs = jnp.linspace(0.0, 1.0, 4)


def wave(x):  # scalar in, scalar out
    return jnp.sin(x) * x


print("grad:\n", jax.make_jaxpr(jax.grad(wave))(xs[1]), sep="")
print("vmap(grad):\n", jax.make_jaxpr(jax.vmap(jax.grad(wave)))(xs), sep="")
print(
    "jit(vmap(grad)):\n",
    jax.make_jaxpr(jax.jit(jax.vmap(jax.grad(wave))))(xs),
    sep="",
)

slopes = jax.jit(jax.vmap(jax.grad(wave)))(xs)
print("slopes:   ", slopes)
print("by hand:  ", jnp.cos(xs) * xs + jnp.sin(xs))
