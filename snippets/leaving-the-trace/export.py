import re

import jax
import jax.numpy as jnp
from jax import export

from bookexec.facts import record  # hidden


def predict(w, x):
    return jnp.tanh(x @ w)


w = jnp.ones((3, 2)) / 3
x = jnp.arange(12.0).reshape(4, 3) / 10
exported = export.export(jax.jit(predict))(w, x)
blob = exported.serialize()  # bytes: StableHLO plus the calling convention
print("serialized:", type(blob).__name__, "nonempty:", len(blob) > 0)
print(
    "in:",
    exported.in_avals,
    "out:",
    exported.out_avals,
    "platforms:",
    exported.platforms,
)
restored = export.deserialize(blob)
print(
    "restored call:", bool(jnp.allclose(restored.call(w, x), predict(w, x)))
)


def signature(exp):
    """The StableHLO entry point's signature, source locations removed."""
    main = next(
        line
        for line in exp.mlir_module().splitlines()
        if "func.func public @main" in line
    )
    return re.sub(r" loc\([^)]*\)", "", main).strip().rstrip(" {")


print(signature(exported))
try:
    # five rows, where the export was made for four
    restored.call(w, jnp.ones((5, 3)))
except ValueError as err:
    print("five rows:", err)
version = exported.calling_convention_version
record("convention", version)  # hidden
oldest = export.minimum_supported_calling_convention_version
record("oldest", oldest)  # hidden
newest = export.maximum_supported_calling_convention_version
record("newest", newest)  # hidden
print(
    f"calling convention: {version} | this JAX supports {oldest} to {newest}"
)
