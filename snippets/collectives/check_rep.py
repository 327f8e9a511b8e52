# ring, xs, P and forgot_psum come from the blocks above
import warnings

import jax
import jax.experimental.shard_map

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old_shard_map = jax.experimental.shard_map.shard_map  # the entry point older code imports
print([f"{w.category.__name__}: {w.message}" for w in caught])
old = old_shard_map(forgot_psum, ring, P("i"), P(), check_rep=False)
params = jax.make_jaxpr(old)(xs).eqns[0].params
print("the old check_rep=False arrives as check_vma =", params["check_vma"])
jax.shard_map(forgot_psum, mesh=ring, in_specs=P("i"), out_specs=P(), check_rep=False)
