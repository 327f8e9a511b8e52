import jax
import jax.numpy as jnp

agreeing = jnp.array([3.0, 5.0])  # both positive: every element wants the same branch
for name, call in [("jit", lambda: jax.jit(kink)(3.0)), ("vmap", lambda: jax.vmap(kink)(agreeing))]:
    try:
        call()  # kink from the block above
    except jax.errors.TracerBoolConversionError as error:
        lines = str(error).splitlines()
        where = f" {lines[2].strip()}" if lines[1].endswith(":") else ""  # the line it names
        print(f"{name}: {type(error).__name__}: {lines[1]}{where}")
