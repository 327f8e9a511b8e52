import jax
import jax.numpy as jnp
import numpy as np

from bookexec.facts import record  # hidden

special = np.array([np.nan, np.inf, -np.inf, 1e10, -2.7], dtype=np.float32)
print("backend:           ", jax.default_backend())
print("input:             ", special)
eager = jnp.asarray(special).astype(jnp.int32)
jitted = jax.jit(lambda v: v.astype(jnp.int32))(special)
print("jnp, eager:        ", eager)
print("jnp, under jit:    ", jitted)
# hidden: begin
record("backend", jax.default_backend())
record("nan_to_int", int(eager[0]))
record("same_under_jit", str(bool((eager == jitted).all())))
# hidden: end
# NumPy leaves the result to the C cast; ask it to raise
with np.errstate(invalid="raise"):
    try:
        special.astype(np.int32)
    except FloatingPointError as err:
        print("NumPy, errstate:    FloatingPointError:", err)
