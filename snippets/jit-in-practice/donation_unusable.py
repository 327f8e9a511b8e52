import warnings

import jax
import jax.numpy as jnp


def add_row(table, row):
    # the result is f32[2,3]: no output has the shape of `row`
    return table + row


def warned(stage, run):
    """Run one stage, print the warnings it raised, and return its result."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run()
    for w in caught:
        print(f"{stage}: {w.category.__name__}: {w.message}")
    if not caught:
        print(f"{stage}: no warning")
    return result


table, row = jnp.ones((2, 3)), jnp.ones((1, 3))
add_row_jit = jax.jit(add_row, donate_argnums=1)  # donate `row`
lowered = warned(".lower()", lambda: add_row_jit.lower(table, row))
compiled = warned(".compile()", lowered.compile)
warned("the call", lambda: compiled(table, row))
print("row deleted:", row.is_deleted())
print("row still readable:", row)
