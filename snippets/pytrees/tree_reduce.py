import operator

import jax
import jax.numpy as jnp

params = {"dense": {"w": jnp.ones((4, 8)), "b": jnp.zeros(8)}, "readout": jnp.full(8, jnp.nan)}

sizes = jax.tree.map(jnp.size, params)
print("sizes:", sizes)
print("parameters:", jax.tree.reduce(operator.add, sizes))
finite = jax.tree.map(lambda a: bool(jnp.isfinite(a).all()), params)
print("finite:", finite)
print("all finite:", jax.tree.all(finite))
