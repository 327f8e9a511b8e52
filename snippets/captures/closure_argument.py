import jax
import jax.numpy as jnp


def amplify(x, gains):
    return x * gains


x = jnp.ones(3)
print(jax.make_jaxpr(amplify)(x, jnp.array([1.0, 2.0, 3.0])))
fast_amplify = jax.jit(amplify)
print(fast_amplify(x, jnp.array([1.0, 2.0, 3.0])))
print(fast_amplify(x, jnp.array([10.0, 20.0, 30.0])))
