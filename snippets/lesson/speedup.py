import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timing


def smooth(v):
    # Many small elementwise steps: eager JAX dispatches each one separately.
    for _ in range(30):
        v = jnp.tanh(v) * 0.9 + 0.1 * jnp.sin(v)
    return v


fast = jax.jit(smooth)
v = jnp.linspace(-2.0, 2.0, 1_000)

eager = timing("eager", lambda: smooth(v), repeat=7)
jitted = timing("jitted", lambda: fast(v), repeat=7)
speedup = record("speedup", eager / jitted, kind="ratio")
claim("speedup", ">=", 5)
print(f"eager:  {eager} per call")
print(f"jitted: {jitted} per call")
print(f"jit is {speedup} times faster")
