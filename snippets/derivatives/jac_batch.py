# field and x come from the block above
import jax

print("jacfwd:")
print(jax.make_jaxpr(jax.jacfwd(field))(x))
print("jacrev:")
print(jax.make_jaxpr(jax.jacrev(field))(x))
