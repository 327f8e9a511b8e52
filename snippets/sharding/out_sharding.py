# Mesh, acts and weights come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def project(a, w):
    return jnp.matmul(a, w, out_sharding=P("x", None))


with jax.set_mesh(mesh):
    closed = jax.make_jaxpr(project)(acts, weights)
    out = jax.jit(project)(acts, weights)

print(closed)
eqn = closed.jaxpr.eqns[0]
print(eqn.primitive, "params:")
for name, value in eqn.params.items():
    print(f"    {name} = {value!r}")
print("result:", jax.typeof(out))
