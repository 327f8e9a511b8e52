# predict, ensemble and xs come from the block above
import jax

# "b" is missing from the prefix
jax.vmap(predict, in_axes=({"w": 0}, 0))(ensemble, xs)
