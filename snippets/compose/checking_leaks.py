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
    # The rest of the message lists who refers to the tracer, a walk of the
    # garbage collector's referrers whose order is not stable: keep the first
    # lines.
    print(type(err).__name__ + ":", "\n".join(str(err).splitlines()[:3]))
