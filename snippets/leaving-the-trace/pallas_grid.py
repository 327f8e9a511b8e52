# pl comes from the block above
import jax
import jax.numpy as jnp


def tag_kernel(x_ref, o_ref):
    i = pl.program_id(0)  # which program instance this is, along grid axis 0
    o_ref[...] = x_ref[...] * 10 + i


def tag(x):
    return pl.pallas_call(
        tag_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2,),  # two program instances
        # instance i reads block i
        in_specs=[pl.BlockSpec((4,), lambda i: (i,))],
        # and writes block 1 - i
        out_specs=pl.BlockSpec((4,), lambda i: (1 - i,)),
        interpret=True,
    )(x)


x8 = jnp.arange(8.0)
print(tag(x8))
jaxpr = jax.make_jaxpr(tag)(x8)
print(jaxpr)
grid_mapping = jaxpr.jaxpr.eqns[0].params["grid_mapping"]
for role, block in zip(
    ("in ", "out"), grid_mapping.block_mappings, strict=True
):
    print(role, "index_map:", block.index_map_jaxpr)
