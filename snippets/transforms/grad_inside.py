import jax
import jax.numpy as jnp


def wave(x):
    y = jnp.sin(x) * x
    print("  handed in:", repr(x))
    print("  its type:", jax.typeof(x))
    print("  wave's value:", repr(y))
    return y


x0 = jnp.float32(3.0)
print("jvp:")
jax.jvp(wave, (x0,), (jnp.float32(1.0),))
print("grad:")
print("slope:", jax.grad(wave)(x0))
