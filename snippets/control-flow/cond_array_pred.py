# squared and unchanged come from the block above
xs = jnp.array([0.5, 2.0])
lax.cond(xs < 1.0, squared, unchanged, xs)
