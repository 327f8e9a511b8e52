# predict, w, x, exported and export come from the block above
import jax
import jax.numpy as jnp


def loss_of(restored_fn):
    return lambda w: restored_fn.call(w, x).sum()


plain = export.deserialize(exported.serialize())  # vjp_order=0, the default
# one level of VJP saved too
with_vjp = export.deserialize(exported.serialize(vjp_order=1))
try:
    jax.grad(loss_of(plain))(w)
except ValueError as err:
    print("without vjp_order:", err)
print("with vjp_order=1:", jax.grad(loss_of(with_vjp))(w)[0])
print("from the Python: ", jax.grad(lambda w: predict(w, x).sum())(w)[0])

# tracing it works
y, linear = jax.linearize(lambda w: with_vjp.call(w, x), w)
print("linearize, transposed:", jax.linear_transpose(linear, w)(y)[0].shape)
others = {
    "linearize, applied": lambda: linear(w),  # applying it is forward mode
    "jvp": lambda: jax.jvp(lambda w: with_vjp.call(w, x), (w,), (w,)),
    "vmap": lambda: jax.vmap(lambda w: with_vjp.call(w, x))(
        jnp.stack([w, w])
    ),
}
for name, attempt in others.items():
    try:
        attempt()
        print(f"{name}: ok")
    except (TypeError, NotImplementedError) as err:
        print(f"{name}: {type(err).__name__}: {str(err).splitlines()[0]}")
