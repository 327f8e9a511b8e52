# poly, w, b, halved and export come from the blocks above
import jax
import jax.numpy as jnp


def first_sentences(err):
    return str(err).split("Using the following")[0].strip()


try:
    halved.call(jnp.ones((6, 3)))  # the constraint b >= 8 is checked too
except ValueError as err:
    print("6 rows:", first_sentences(err))
column = jax.ShapeDtypeStruct((b,), jnp.float32)
# both arguments have b rows
pair = export.export(jax.jit(jnp.add))(column, column)
try:
    pair.call(jnp.ones(3), jnp.ones(4))
except ValueError as err:
    print("3 and 4 rows:", first_sentences(err))

poly.call(w, jnp.ones((5, 4)))  # b is free, but the columns were fixed at 3
