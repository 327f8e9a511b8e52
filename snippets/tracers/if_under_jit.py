import jax

jax.jit(kink)(3.0)  # kink from the block above
