# ring, xs and P come from the first block
import jax
import numpy as np


def gather(block):
    # each device: the whole array
    everything = jax.lax.all_gather(block, "i", tiled=True)
    # a leading axis of one, so that out_specs can stack the copies
    return everything[None]


gathered = jax.shard_map(
    gather, mesh=ring, in_specs=P("i"), out_specs=P("i")
)
print(jax.make_jaxpr(gathered)(xs))
copies = gathered(xs)
print(copies.shape, "row 5, what device 5 holds:", np.asarray(copies)[5])
print(
    "every device holds the whole array:",
    bool((np.asarray(copies) == np.asarray(xs)).all()),
)


def gather_invariant(block):
    return jax.lax.all_gather(block, "i", tiled=True, to="invarying")


one_copy = jax.shard_map(
    gather_invariant, mesh=ring, in_specs=P("i"), out_specs=P()
)
body = jax.make_jaxpr(one_copy)(xs).eqns[0].params["jaxpr"]
print(
    "to='invarying':",
    body.eqns[0].outvars[0].aval.str_short(),
    body.eqns[0].primitive,
)
print(
    "out_specs=P() accepted:",
    one_copy(xs).shape,
    np.array_equal(one_copy(xs), xs),
)
backward = jax.make_jaxpr(jax.grad(lambda v: (one_copy(v) ** 2).sum()))(
    xs
).eqns[-1]
names = [e.primitive.name for e in backward.params["jaxpr"].eqns]
print(
    "its transpose ends with:",
    names[-1],
    "| binds reduce_scatter:",
    "reduce_scatter" in names,
)


def gather_reduced(block):
    whole = jax.lax.all_gather(block, "i", tiled=True, to="reduced")
    print("to='reduced':", jax.typeof(whole))
    return block


# tracing is enough to see the type
jax.eval_shape(
    jax.shard_map(
        gather_reduced, mesh=ring, in_specs=P("i"), out_specs=P("i")
    ),
    xs,
)
