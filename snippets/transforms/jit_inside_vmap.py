import jax
import jax.numpy as jnp


@jax.jit
def squash(x):
    print("  squash is handed:", type(x).__name__, jax.typeof(x))
    return jnp.tanh(x)


def layer(x):
    print("  layer is handed:", type(x).__name__, jax.typeof(x))
    return squash(2.0 * x) + jnp.clip(x, 0.0, 1.0)


xs = jnp.array([-1.0, 0.5, 2.0])
print("vmap(layer):")
print(" ", jax.vmap(layer)(xs))
print("jvp(layer):")
print(" ", jax.jvp(layer, (xs,), (jnp.ones(3),))[1])
print("what vmap(layer) recorded on the way, seen from outside:")
print(jax.make_jaxpr(jax.vmap(layer))(xs))
