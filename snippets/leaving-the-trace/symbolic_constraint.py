# halve_if_large and export come from the block above
import jax
import jax.numpy as jnp

# what we know about b
(big,) = export.symbolic_shape("b", constraints=("b >= 8",))
halved = export.export(jax.jit(halve_if_large))(
    jax.ShapeDtypeStruct((big, 3), jnp.float32)
)
print("out:", halved.out_avals)
print(halved.call(jnp.ones((10, 3))).shape)
