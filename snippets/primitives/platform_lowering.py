# cyclic_shift_p, cyclic_shift and x come from the blocks above
import re

import jax
import numpy as np
from jax.interpreters import mlir


def cyclic_shift_gather(x, *, shift):
    n = x.shape[-1]
    # the same shift, as a gather of fixed indices
    return x[..., (np.arange(n) - shift) % n]


# This rule applies to TPU alone; every other platform keeps the rule
# registered before.
mlir.register_lowering(
    cyclic_shift_p,
    mlir.lower_fun(cyclic_shift_gather, multiple_results=False),
    platform="tpu",
)

print("devices here:", sorted({d.platform for d in jax.devices()}))
traced = jax.jit(cyclic_shift).trace(x)
for platforms in [("cpu",), ("cuda",), ("tpu",), ("cpu", "tpu")]:
    text = traced.lower(lowering_platforms=platforms).as_text()
    ops = set(re.findall(r"stablehlo\.(\w+)", text)) & {
        "case",
        "concatenate",
        "gather",
        "slice",
    }
    extra = "_platform_index" in text
    print(
        f"lowered for {platforms}:",
        sorted(ops),
        "| platform index argument:",
        extra,
    )
print("jit here:", jax.jit(cyclic_shift)(x))
