import jax
import jax.numpy as jnp

seen = []


@jax.jit
def double(x):
    seen.append(x.dtype)  # a hidden update: Python runs it while tracing
    return 2 * x


for value in (1.0, 2.0, 3.0):
    double(jnp.float32(value))
print("after three float32 calls:", seen)
double(jnp.int32(4))  # a new input type, so jit traces again
print("after one int32 call:     ", seen)
