import jax
import jax.numpy as jnp


def bump(x):
    return jnp.sin(x) * x


# jit outside grad: one program, the derivative traced inside it.
outside = jax.make_jaxpr(jax.jit(jax.grad(bump)))(0.5)
(call,) = outside.eqns
print("jit outside grad:", [e.primitive.name for e in outside.eqns])
print(
    "  its one program:",
    [e.primitive.name for e in call.params["jaxpr"].eqns],
)
# jit inside grad: grad meets a jit equation and splits it in two.
print(jax.make_jaxpr(jax.grad(jax.jit(bump)))(0.5))
