# cyclic_shift_p, cyclic_shift and x come from the blocks above
from functools import partial

import jax
import jax.numpy as jnp
from jax.interpreters import mlir, xla


def cyclic_shift_lowering(x, *, shift):
    # written with operations that lower already
    return jnp.roll(x, shift, axis=-1)


mlir.register_lowering(
    cyclic_shift_p,
    mlir.lower_fun(cyclic_shift_lowering, multiple_results=False),
)

print("jit:", jax.jit(cyclic_shift)(x))
print(
    "jit agrees with eager:",
    bool(jnp.array_equal(jax.jit(cyclic_shift)(x), cyclic_shift(x))),
)
# With a lowering in place, eager calls can run it too: one rule for both, so
# they cannot disagree.
cyclic_shift_p.def_impl(partial(xla.apply_primitive, cyclic_shift_p))
print("eager through the lowering:", cyclic_shift(x))
text = jax.jit(cyclic_shift).lower(x).as_text()
print(
    "\n".join(
        line.strip() for line in text.splitlines() if "stablehlo." in line
    )
)
