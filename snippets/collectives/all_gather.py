# ring, xs and P come from the first block
import jax
import numpy as np


def gather(block):
    everything = jax.lax.all_gather(block, "i", tiled=True)  # each device: the whole array
    return everything[None]  # a leading axis of one, so that out_specs can stack the copies


gathered = jax.shard_map(gather, mesh=ring, in_specs=P("i"), out_specs=P("i"))
print(jax.make_jaxpr(gathered)(xs))
copies = gathered(xs)
print(copies.shape, "row 5, what device 5 holds:", np.asarray(copies)[5])
print("every device holds the whole array:", bool((np.asarray(copies) == np.asarray(xs)).all()))
print("names in jax.lax with 'invariant':", [n for n in dir(jax.lax) if "invariant" in n])
