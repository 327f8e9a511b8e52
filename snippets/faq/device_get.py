import jax
import jax.numpy as jnp

state = {"w": jnp.ones((2, 3)), "step": jnp.int32(7)}
on_host = jax.device_get(state)
print({name: type(leaf).__name__ for name, leaf in on_host.items()})
print(on_host["step"])


@jax.jit
def scaled(x):
    print("device_get inside jit:", jax.device_get(x))
    return 2 * x


scaled(jnp.ones(3))
