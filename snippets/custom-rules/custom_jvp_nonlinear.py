import jax
import jax.numpy as jnp


@jax.custom_jvp
def bad_sin(x):
    return jnp.sin(x)


# wrong on purpose: the tangent is squared, not scaled
@bad_sin.defjvp
def bad_sin_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return bad_sin(x), jnp.cos(x) * dx**2


print("jvp runs:", jax.jvp(bad_sin, (1.0,), (2.0,)))
print("the right tangent, cos(1) * 2.0:", jnp.cos(1.0) * 2.0)
jax.grad(bad_sin)(1.0)
