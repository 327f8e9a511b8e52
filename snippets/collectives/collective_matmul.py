# ring, P and shift come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding

lhs = jnp.arange(128.0).reshape(16, 8) / 64
rhs = jnp.arange(128.0).reshape(8, 16) / 64
# two rows per device
lhs_rows = jax.device_put(lhs, NamedSharding(ring, P("i", None)))
# two columns per device
rhs_cols = jax.device_put(rhs, NamedSharding(ring, P(None, "i")))


def gather_then_multiply(a, b):
    # every row first, then one product
    return jax.lax.all_gather(a, "i", tiled=True) @ b


def multiply_while_passing(a, b):
    me, n, rows = jax.lax.axis_index("i"), jax.lax.axis_size("i"), a.shape[0]
    out = jnp.zeros((n * rows, b.shape[1]))
    for step in range(n):
        owner = (me - step) % n  # whose rows this device holds at this step
        # send them on...
        passed = (
            jax.lax.ppermute(a, "i", perm=shift) if step < n - 1 else None
        )
        # ...and use
        out = jax.lax.dynamic_update_slice_in_dim(
            out, a @ b, owner * rows, axis=0
        )
        a = passed
    return out


def steps(sharded):
    """The per-device program's collectives and products, in order, with
    their types."""
    eqns = (
        jax.make_jaxpr(sharded)(lhs_rows, rhs_cols)
        .eqns[0]
        .params["jaxpr"]
        .eqns
    )
    kinds = ("all_gather", "ppermute", "dot_general")
    return [e for e in eqns if e.primitive.name in kinds]


specs = dict(
    mesh=ring, in_specs=(P("i", None), P(None, "i")), out_specs=P(None, "i")
)
for fn in (gather_then_multiply, multiply_while_passing):
    sharded = jax.shard_map(fn, **specs)
    result = sharded(lhs_rows, rhs_cols)
    # the product of the unsharded arrays
    same = jnp.allclose(result, lhs @ rhs)
    print(f"{fn.__name__}: {jax.typeof(result)}, equals lhs @ rhs: {same}")
    for e in steps(sharded)[:4]:
        print(
            f"  {e.primitive.name:11} -> "
            f"{e.outvars[0].aval.str_short(short_dtypes=True)}"
        )

passing = jax.shard_map(multiply_while_passing, **specs)
work = steps(passing)
sends = [e for e in work if e.primitive.name == "ppermute"]
products = [e for e in work if e.primitive.name == "dot_general"]
same_block = all(
    p.invars[0] is s.invars[0] for p, s in zip(products, sends, strict=False)
)
print(f"{len(sends)} ppermutes, {len(products)} products")
print("each product multiplies the block its step sends on:", same_block)
hlo = jax.jit(passing).lower(lhs_rows, rhs_cols).compile().as_text()
kinds = ("collective-permute", "collective-permute-start")
print("compiled for CPU:", {kind: hlo.count(f" {kind}(") for kind in kinds})
