# ring, xs, P and collectives come from the blocks above
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding


# block differs per device, offset is the same everywhere
def shift_by(block, offset):
    return block + offset


offset = jax.device_put(jnp.float32(100.0), NamedSharding(ring, P()))
shifted = jax.shard_map(
    shift_by, mesh=ring, in_specs=(P("i"), P()), out_specs=P("i")
)
print(jax.make_jaxpr(shifted)(xs, offset).eqns[0].params["jaxpr"])


def by_hand(block, offset):  # the same conversion, written out
    return block + jax.lax.pcast(offset, "i", to="varying")


written = jax.shard_map(
    by_hand, mesh=ring, in_specs=(P("i"), P()), out_specs=P("i")
)
inner = jax.make_jaxpr(written)(xs, offset).eqns[0].params["jaxpr"]
print(
    "pcast(..., to='varying') binds:", [e.primitive.name for e in inner.eqns]
)
print(
    "jax.lax has pvary:",
    hasattr(jax.lax, "pvary"),
    " pcast:",
    hasattr(jax.lax, "pcast"),
)
print(np.asarray(shifted(xs, offset)))
talk = collectives(shifted, xs, offset)
print("collectives in the compiled program:", talk or "none")
