# ring, xs and P come from the first block
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding


def scale(block, factor):
    return block * factor


# no in_specs: read from the types
scaled = jax.shard_map(scale, mesh=ring, out_specs=P("i"))
print(
    "inferred:", jax.make_jaxpr(scaled)(xs, 3.0).eqns[0].params["in_specs"]
)
print(scaled(xs, 3.0))

# a spec that disagrees with the argument's type is refused, not resharded
try:
    jax.shard_map(scale, mesh=ring, in_specs=(P(), P()), out_specs=P("i"))(
        xs, 3.0
    )
except ValueError as err:
    print("ValueError:", str(err).splitlines()[0])


def scale_by_name(block, how):  # how is a Python string: it has no JAX type
    return block * 2 if how == "double" else -block


try:
    jax.shard_map(scale_by_name, mesh=ring, out_specs=P("i"))(xs, "double")
except TypeError as err:
    print("TypeError:", err)
static = jax.shard_map(
    scale_by_name, mesh=ring, in_specs=(P("i"), None), out_specs=P("i")
)
print("None marks it static:", static(xs, "double"))

hinted = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
loose = jax.device_put(jnp.arange(16.0), NamedSharding(hinted, P("i")))
# on Auto axes the placement is not in the type, so there is nothing to infer
# from
try:
    jax.shard_map(scale, mesh=hinted, out_specs=P("i"))(loose, 3.0)
except TypeError as err:
    print("TypeError:", err)
