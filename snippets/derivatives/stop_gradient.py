import jax


def damped(x):
    # the second factor counts as a constant
    return x * jax.lax.stop_gradient(x)


print(jax.make_jaxpr(damped)(3.0))
print(
    "grad:",
    jax.grad(damped)(3.0),
    "| of x * x:",
    jax.grad(lambda x: x * x)(3.0),
)
print(jax.make_jaxpr(jax.grad(damped))(3.0))
