import jax
import jax.numpy as jnp


def norm(v):
    return jnp.sqrt(jnp.sum(v * v))


print("autodiff of norm at 0:", jax.grad(norm)(jnp.zeros(3)))


@jax.custom_vjp
def safe_norm(v):
    return jnp.sqrt(jnp.sum(v * v))


def safe_norm_fwd(v):
    n = safe_norm(v)
    return n, (v, n)  # the value, and the residuals the backward rule needs


def safe_norm_bwd(residuals, g):
    v, n = residuals
    # at 0 the convention picks the zero vector
    direction = v / jnp.maximum(n, 1e-30)
    return (g * direction,)  # one cotangent per input, as a tuple


safe_norm.defvjp(safe_norm_fwd, safe_norm_bwd)

print("custom rule at 0:     ", jax.grad(safe_norm)(jnp.zeros(3)))
print(
    "custom rule at (3,4,0):",
    jax.grad(safe_norm)(jnp.array([3.0, 4.0, 0.0])),
)
print(jax.make_jaxpr(safe_norm)(jnp.ones(3)))
batch = jnp.array([[0.0, 0.0, 0.0], [3.0, 4.0, 0.0]])
print("jit(vmap(grad)):", jax.jit(jax.vmap(jax.grad(safe_norm)))(batch))
