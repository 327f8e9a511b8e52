# Predict, ensemble and xs come from the block above
import jax

jax.vmap(predict, in_axes=({"w": 0}, 0))(ensemble, xs)  # "b" is missing from the prefix
