import jax
import jax.numpy as jnp


@jax.custom_jvp
def scaled_softplus(x, beta):  # softplus(beta * x) / beta
    return jnp.logaddexp(beta * x, 0.0) / beta


# one rule per argument, each mapping that argument's tangent
scaled_softplus.defjvps(
    lambda dx, y, x, beta: jax.nn.sigmoid(beta * x) * dx,
    lambda dbeta, y, x, beta: (
        (x * jax.nn.sigmoid(beta * x) - y) / beta * dbeta
    ),
)

x, beta = 2.0, 3.0
rule = jax.grad(scaled_softplus, argnums=(0, 1))(x, beta)
plain = jax.grad(lambda x, b: jnp.logaddexp(b * x, 0.0) / b, argnums=(0, 1))(
    x, beta
)
print("with defjvps:", [f"{d:.5f}" for d in rule])
print("autodiff:    ", [f"{d:.5f}" for d in plain])
