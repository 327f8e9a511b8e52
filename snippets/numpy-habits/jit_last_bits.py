import jax
import jax.numpy as jnp
import numpy as np

from bookexec.facts import record  # hidden


def affine(x):
    return x * 1.1 + 0.3  # a multiply, then an add


x = jax.random.normal(jax.random.key(0), (10_000,))
eager, jitted = affine(x), jax.jit(affine)(x)
differ = int((eager != jitted).sum())
print("elements that differ:", differ, "of", x.size)
print("largest difference:  ", float(jnp.abs(eager - jitted).max()))
print("allclose:            ", bool(jnp.allclose(eager, jitted)))
print("allclose, atol=1e-6: ", bool(jnp.allclose(eager, jitted, atol=1e-6)))
# x * 1.1 + 0.3 worked out in float64, then rounded to float32 once, as a
# fused multiply-add does
exact = np.asarray(x, np.float64) * np.float64(np.float32(1.1)) + np.float32(
    0.3
)
once = exact.astype(np.float32)
print("jit rounds once:     ", bool((np.asarray(jitted) == once).all()))
print("eager rounds once:   ", bool((np.asarray(eager) == once).all()))
record("differ", differ)  # hidden
record("size", x.size)  # hidden
record("default_allclose", str(bool(jnp.allclose(eager, jitted))))  # hidden
record("jit_once", str(bool((np.asarray(jitted) == once).all())))  # hidden
