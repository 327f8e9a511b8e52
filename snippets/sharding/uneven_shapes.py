# grid, hinted, show, NamedSharding and Spec come from the blocks above
import jax
import jax.numpy as jnp

five_rows = jnp.ones((5, 12))  # two data halves cannot share five rows evenly
for mesh in (grid, hinted):
    try:
        jax.device_put(five_rows, NamedSharding(mesh, Spec("data", None)))
    except ValueError as err:  # the Auto mesh raises a subclass, IndivisibleError
        print(f"{mesh.axis_types[0]}: {type(err).__name__}: {str(err).split('. ')[0]}.")

try:
    jax.jit(jnp.sin, out_shardings=NamedSharding(hinted, Spec("data", None)))(five_rows)
except ValueError as err:
    print(f"jit out_shardings: {type(err).__name__}")


@jax.jit
def grow(x):  # six rows in, seven out: an intermediate the mesh does not divide
    seven = jnp.concatenate([x, x[:1]])
    jax.debug.inspect_array_sharding(seven, callback=show("seven rows"))
    return seven


placed = jax.device_put(jnp.ones((6, 12)), NamedSharding(hinted, Spec("data", "model")))
compiled = grow.lower(placed).compile()
hlo = compiled.as_text()
print("the compiled program pads seven rows to eight:", " pad(" in hlo and "f32[8,3]" in hlo)
print("returned:", compiled(placed).sharding.spec)
