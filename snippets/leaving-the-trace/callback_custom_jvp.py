# sinc and xs come from the first block
import jax
import jax.numpy as jnp


@jax.custom_jvp
def sinc_with_rule(x):
    return sinc(x)


@sinc_with_rule.defjvp
def _(primals, tangents):
    (x,), (dx,) = primals, tangents
    px = jnp.pi * x
    safe = jnp.where(x == 0, 1.0, px)
    slope = jnp.where(
        x == 0, 0.0, (jnp.cos(px) * px - jnp.sin(px)) / (safe * x)
    )
    return sinc_with_rule(x), slope * dx


print(jax.grad(lambda x: sinc_with_rule(x).sum())(xs))
print(jax.grad(lambda x: jnp.sinc(x).sum())(xs))
