import jax
import jax.numpy as jnp


def energy(x):
    y = jnp.sin(x)
    jax.debug.print("x={x} y={y}", x=x, y=y)
    return y * y


print("vmap over three values:")
jax.vmap(energy)(jnp.array([0.0, 1.0, 2.0]))
jax.effects_barrier()  # wait for the prints before Python prints again
print("grad at 1.0:")
print("gradient", jax.grad(energy)(1.0))
jax.effects_barrier()
print("jit of vmap of grad:")
jax.jit(jax.vmap(jax.grad(energy)))(jnp.array([0.0, 1.0]))
jax.effects_barrier()
