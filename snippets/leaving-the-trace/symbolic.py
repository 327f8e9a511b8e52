# predict, w, x, export and signature come from the block above
import jax
import jax.numpy as jnp

(b,) = export.symbolic_shape("b")
# any number of rows, three columns
spec = jax.ShapeDtypeStruct((b, 3), jnp.float32)
poly = export.export(jax.jit(predict))(w, spec)
print("in:", poly.in_avals, "out:", poly.out_avals)
print(signature(poly))
print(jax.make_jaxpr(predict)(w, spec))
for rows in (1, 5):
    print(rows, "rows ->", poly.call(w, jnp.ones((rows, 3))).shape)
