import jax
import jax.numpy as jnp

stash = []


def remember_again(x):
    stash.append(x)
    return x + 1.0


try:
    # reported as the trace ends, before anyone uses the tracer
    with jax.checking_leaks():
        jax.jit(remember_again)(jnp.float32(2.0))
except Exception as err:
    # the first lines; the rest lists the objects that refer to the tracer
    print(type(err).__name__ + ":", "\n".join(str(err).splitlines()[:3]))
