import jax
import jax.numpy as jnp


def block(x):
    return jnp.sin(jnp.sin(x))


def step(carry, w):  # one layer of a stack run by scan
    return jnp.tanh(w @ jnp.tanh(w @ carry)), None


def barriers(grad, *args):
    """How many optimization_barrier operations the program that jit hands to
    XLA holds."""
    return (
        jax.jit(grad)
        .lower(*args)
        .as_text()
        .count("stablehlo.optimization_barrier")
    )


def grads(cse):
    """The gradient of block alone, and of a scan over checkpointed
    layers."""
    alone = jax.checkpoint(block, prevent_cse=cse)
    layer = jax.checkpoint(step, prevent_cse=cse)
    return (
        jax.grad(lambda x: jnp.sum(alone(x) ** 2)),
        jax.grad(lambda ws, x: jnp.sum(jax.lax.scan(layer, x, ws)[0])),
    )


x, ws = jnp.ones(4), jnp.ones((10, 4, 4)) / 4
for cse in (True, False):
    alone, in_scan = grads(cse)
    print(
        f"prevent_cse={cse}: barriers alone",
        barriers(alone, x),
        "in scan",
        barriers(in_scan, ws, x),
    )
